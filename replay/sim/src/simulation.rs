//! One simulated page load from the command line's parts: the servers prepared as `serve` prepares
//! them, the browser set up as `run` sets it up, both in virtual time over HTTP/3 and QUIC
//! (quic_load.rs) or HTTP/1.x and HTTP/2 over TCP (tcp/world.rs).

use super::cli::SimArgs;
use super::kept::Kept;
use super::paths::Delivered;
use super::tcp::profile::{Congestion, TcpProfile};
use pagepath_browser::cli::{self as browser_cli, RunArgs};
use pagepath_browser::core::Graph;
use pagepath_browser::io::report::Report;
use pagepath_link::topology::{client_addr, parse_topology, ParseContext, Topology};
use pagepath_server::config::{parse_serve, Protocol, ServeConfig, Transport};
use serde::Serialize;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// A simulation's parts, read and checked before anything runs.
pub struct Setup {
    pub topology: Topology,
    pub server: ServeConfig,
    pub browser: RunArgs,
    pub graph: Graph,
    /// The client's address on each path of the topology.
    pub path_ips: Vec<IpAddr>,
    /// The addresses the client uses, path 0 first.
    pub locals: Vec<IpAddr>,
}

/// What a load in virtual time gives besides the browser's report.
pub struct Loaded {
    pub report: Report,
    pub delivered: Vec<Delivered>,
    pub virtual_us: u64,
    pub rounds: u64,
    /// Wall time from the start to the first event.
    pub setup: Duration,
}

/// A report line: the browser's report with the simulation's own numbers beside it.
pub struct Simulated {
    /// One line of JSON.
    pub line: String,
    pub failed: bool,
}

/// The browser's report written out as it is, not through a JSON tree: a page's report is up to a
/// few hundred kilobytes, and building a tree of it cost the simulator 4% of a load.
#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    report: &'a Report,
    simulation: Numbers,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Numbers {
    paths: Vec<PathBytes>,
    virtual_ms: f64,
    wall_ms: f64,
    setup_ms: f64,
    rounds: u64,
    seed: u64,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PathBytes {
    path: usize,
    bytes_up: u64,
    bytes_down: u64,
}

impl Numbers {
    /// What the paths delivered, the virtual time reached and the rounds run, with the wall time
    /// since `wall` and, of it, the `setup` before the first event.
    pub fn of(delivered: &[Delivered], virtual_us: u64, rounds: u64, wall: Instant, setup: Duration, seed: u64) -> Numbers {
        Numbers {
            paths: delivered.iter().enumerate().map(|(path, d)| PathBytes { path, bytes_up: d.up, bytes_down: d.down }).collect(),
            virtual_ms: virtual_us as f64 / 1000.0,
            wall_ms: wall.elapsed().as_secs_f64() * 1000.0,
            setup_ms: setup.as_secs_f64() * 1000.0,
            rounds,
            seed,
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// The report line of one load, or of one fetch of targets (fetch_load.rs). `kept` carries what
/// one simulation leaves for the next (kept.rs).
pub fn simulate(args: &SimArgs, kept: &mut Kept) -> Result<Simulated, String> {
    if args.client.first().is_some_and(|c| c == "fetch") {
        return super::fetch_load::fetch(args, kept);
    }
    let wall = Instant::now();
    let setup = read(args, kept)?;
    let loaded = match (setup.server.protocol, setup.server.transport) {
        (Protocol::H3, _) => super::quic_load::load(&setup, kept, wall)?,
        (_, transport) => {
            let mut profile = TcpProfile::parse(&args.tcp_profile, &setup.server.congestion)?;
            if !setup.server.tail_loss_probes {
                profile = profile.without_server_probes();
            }
            if let Some(coupled) = args.coupled {
                if transport != Transport::Mptcp || profile.congestion != Congestion::Reno {
                    return Err(format!("--coupled {}: couples an MPTCP connection's Reno subflows; give --transport mptcp and --congestion reno to the servers", coupled.name()));
                }
                profile.congestion = coupled;
            }
            let mptcp = (transport == Transport::Mptcp).then(|| args.mptcp_scheduler.clone());
            super::tcp::world::load(&setup, profile, mptcp, args.tls_crypto, args.clock_tick, kept, wall)?
        }
    };
    let simulation = Numbers::of(&loaded.delivered, loaded.virtual_us, loaded.rounds, wall, loaded.setup, setup.topology.seed);
    let mut report = loaded.report;
    if args.summary {
        report.node_timings.clear();
        report.requests.clear();
    }
    let line = serde_json::to_string(&Line { report: &report, simulation }).map_err(|e| format!("cannot write the report: {e}"))?;
    Ok(Simulated { line, failed: report.status == "failed" })
}

/// The topology, and the client's address on each of its paths.
pub fn read_topology(args: &SimArgs) -> Result<(Topology, Vec<IpAddr>), String> {
    let source = args.topology.display().to_string();
    let text = std::fs::read_to_string(&args.topology).map_err(|e| format!("{source}: cannot read the topology: {e}"))?;
    let base_dir = args.topology.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let topology = parse_topology(&text, &ParseContext { source, base_dir, fallback_seed: 1, seed_override: args.seed })?;
    let path_ips = (0..topology.paths.len()).map(|i| client_addr(i).parse().expect("a topology's client address")).collect();
    Ok((topology, path_ips))
}

/// Refuses a client address (`option`, as the client's command line names it) that no path of the
/// topology gives the client.
pub fn check_locals(chosen: &[IpAddr], path_ips: &[IpAddr], option: &str) -> Result<(), String> {
    match chosen.iter().find(|ip| !path_ips.contains(ip)) {
        Some(ip) => Err(format!("{option} {ip}: not a client address of the topology ({})", path_ips.iter().map(IpAddr::to_string).collect::<Vec<_>>().join(", "))),
        None => Ok(()),
    }
}

fn read(args: &SimArgs, kept: &mut Kept) -> Result<Setup, String> {
    let (topology, path_ips) = read_topology(args)?;
    let server = parse_serve(&args.server)?;
    let browser = browser_cli::parse(&args.client)?.ok_or("the browser's part asks for help: see pagepath-browser --help")?;
    let graph = kept.graph(&browser.graph)?;
    let chosen = if browser.locals.is_empty() { path_ips.clone() } else { browser.locals.clone() };
    check_locals(&chosen, &path_ips, "--local")?;
    let used = if browser.multipath { chosen.len() } else { 1 };
    let locals = chosen[..used].to_vec();
    Ok(Setup { topology, server, browser, graph, path_ips, locals })
}
