//! One simulated page load from the command line's parts: the servers prepared as `serve` prepares
//! them, the browser set up as `run` sets it up, both on a World in virtual time.

use super::cli::SimArgs;
use super::paths::Paths;
use super::virtual_clock::VirtualClock;
use super::wire::Outbox;
use super::world::World;
use pagepath_browser::cli as browser_cli;
use pagepath_browser::core::parse_graph;
use pagepath_browser::io::driver;
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::quic::QuicClient;
use pagepath_link::topology::{client_addr, parse_topology, ParseContext};
use pagepath_server::config::{parse_serve, Protocol, Transport};
use pagepath_server::io::origins_file::{serving, Serving};
use pagepath_server::io::quic::config::server_config;
use pagepath_server::io::quic::QuicOrigin;
use pagepath_server::run::prepare;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::rc::Rc;
use std::sync::mpsc::channel;

/// The client's UDP ports, one per path (any will do: nothing else lives at its address).
const CLIENT_PORT: u16 = 40_000;

/// The report line: the browser's report and the simulation's own numbers.
pub fn simulate(args: &SimArgs) -> Result<Value, String> {
    let wall = std::time::Instant::now();
    // Before anything that reads tquic's clock: the servers' service and the client take their
    // time zero from it.
    let clock = VirtualClock::start();
    let source = args.topology.display().to_string();
    let text = std::fs::read_to_string(&args.topology).map_err(|e| format!("{source}: cannot read the topology: {e}"))?;
    let base_dir = args.topology.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let topology = parse_topology(&text, &ParseContext { source, base_dir, fallback_seed: 1, seed_override: args.seed })?;

    let cfg = parse_serve(&args.server)?;
    if cfg.protocol != Protocol::H3 {
        return Err(format!(
            "--protocol {}: the simulator carries HTTP/3 over QUIC and multipath QUIC so far; HTTP/1.1 and HTTP/2 over TCP or MPTCP are not simulated yet",
            cfg.protocol.name()
        ));
    }
    let browser = browser_cli::parse(&args.browser)?.ok_or("the browser's part asks for help: see pagepath-browser --help")?;
    let graph_text = std::fs::read_to_string(&browser.graph).map_err(|e| format!("{}: cannot read the graph: {e}", browser.graph.display()))?;
    let graph = parse_graph(&graph_text).map_err(|e| format!("{}: {e}", browser.graph.display()))?;

    let replay = prepare(&cfg)?;
    if let Some(clear) = replay.servers.iter().find(|s| !matches!(serving(&s.origin, cfg.protocol), Serving::Quic)) {
        return Err(format!("{}: served as clear HTTP/1.1 over TCP, which the simulator does not model yet", clear.origin));
    }
    let outbox = Outbox::default();
    let multipath = (cfg.transport == Transport::Mpquic).then(|| cfg.scheduler.clone());
    // One configuration for every origin: its clones share the TLS context (one certificate names
    // every host), which costs milliseconds to make, and the scheduler factory.
    let config = server_config(&replay.service, multipath).map_err(|e| format!("h3: {e}"))?;
    let servers = (replay.servers.iter().enumerate())
        .map(|(i, s)| (SocketAddr::new(s.address, s.port), QuicOrigin::new(replay.service.clone(), i, config.clone(), Rc::new(outbox.clone()))))
        .collect();

    let path_ips: Vec<IpAddr> = (0..topology.paths.len()).map(|i| client_addr(i).parse().expect("a topology's client address")).collect();
    let chosen = if browser.locals.is_empty() { path_ips.clone() } else { browser.locals.clone() };
    if let Some(ip) = chosen.iter().find(|ip| !path_ips.contains(ip)) {
        return Err(format!("--local {ip}: not a client address of the topology ({})", path_ips.iter().map(IpAddr::to_string).collect::<Vec<_>>().join(", ")));
    }
    let used = if browser.multipath { chosen.len() } else { 1 };
    let locals: Vec<SocketAddr> = chosen[..used].iter().enumerate().map(|(i, ip)| SocketAddr::new(*ip, CLIENT_PORT + i as u16)).collect();

    let names = read_origins(&browser.origins)?;
    let (tx, rx) = channel();
    let config = driver::transport_config(&names, &browser);
    let started = config.started;
    let client = QuicClient::new(config, tx, locals, Rc::new(outbox.clone()))?;
    let mut world = World::new(clock, Paths::new(&topology, path_ips), client, servers, outbox);
    let setup = wall.elapsed();
    // The servers' logs and the report share their time 0, as a real replay's share the wall clock.
    let report = driver::run_on(&graph, &names, &browser, &mut world, &rx, (started, replay.service.start_wall()));
    replay.service.write_reports()?;

    let mut line = serde_json::to_value(&report).map_err(|e| format!("cannot write the report: {e}"))?;
    let paths: Vec<Value> = world.paths.delivered().iter().enumerate().map(|(i, d)| json!({ "path": i, "bytesUp": d.up, "bytesDown": d.down })).collect();
    line["simulation"] = json!({
        "paths": paths,
        "virtualMs": world.clock.now_us() as f64 / 1000.0,
        "wallMs": wall.elapsed().as_secs_f64() * 1000.0,
        "setupMs": setup.as_secs_f64() * 1000.0,
        "rounds": world.rounds,
        "seed": topology.seed,
        "version": env!("CARGO_PKG_VERSION"),
    });
    Ok(line)
}
