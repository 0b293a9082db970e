//! A page load over HTTP/3 on QUIC or multipath QUIC in virtual time: tquic's own endpoints, the
//! client's and each origin's, on a World (world.rs) whose clock tquic reads.

use super::kept::Kept;
use super::paths::Paths;
use super::simulation::{Loaded, Setup};
use super::virtual_clock::VirtualClock;
use super::wire::Outbox;
use super::world::World;
use pagepath_browser::io::driver;
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::quic::QuicClient;
use pagepath_server::config::Transport;
use pagepath_server::io::origins_file::{serving, Serving};
use pagepath_server::io::quic::config::{server_config_with, server_tls};
use pagepath_server::io::quic::QuicOrigin;
use pagepath_server::run::prepare_from;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::mpsc::channel;
use std::time::Instant;

/// The client's UDP ports, one per path (any will do: nothing else lives at its address).
const CLIENT_PORT: u16 = 40_000;

pub fn load(setup: &Setup, kept: &mut Kept, wall: Instant) -> Result<Loaded, String> {
    // Before anything that reads tquic's clock: the servers' service and the client take their
    // time zero from it.
    let clock = VirtualClock::start();
    let cfg = &setup.server;
    let replay = prepare_from(cfg, kept)?;
    if let Some(clear) = replay.servers.iter().find(|s| !matches!(serving(&s.origin, cfg.protocol), Serving::Quic)) {
        return Err(format!("{}: served as clear HTTP/1.1 over TCP, which an HTTP/3 simulation does not carry", clear.origin));
    }
    let outbox = Outbox::default();
    let multipath = (cfg.transport == Transport::Mpquic).then(|| cfg.scheduler.clone());
    // One configuration for every origin: its clones share the TLS context (one certificate names
    // every host), which costs milliseconds to make, and the scheduler factory.
    let tls = kept.tls(&replay.cert, || server_tls(&replay.service)).map_err(|e| format!("h3: {e}"))?;
    let config = server_config_with(tls, &replay.service, multipath).map_err(|e| format!("h3: {e}"))?;
    let servers = (replay.servers.iter().enumerate())
        .map(|(i, s)| (SocketAddr::new(s.address, s.port), QuicOrigin::new(replay.service.clone(), i, config.clone(), Rc::new(outbox.clone()))))
        .collect();
    let locals: Vec<SocketAddr> = setup.locals.iter().enumerate().map(|(i, ip)| SocketAddr::new(*ip, CLIENT_PORT + i as u16)).collect();

    let names = read_origins(&setup.browser.origins)?;
    let (tx, rx) = channel();
    let config = driver::transport_config(&names, &setup.browser);
    let started = config.started;
    let client = QuicClient::new(config, tx, locals, Rc::new(outbox.clone()))?;
    let mut world = World::new(clock, Paths::new(&setup.topology, setup.path_ips.clone())?, client, servers, outbox);
    let ready = wall.elapsed();
    // The servers' logs and the report share their time 0, as a real replay's share the wall clock.
    let report = driver::run_on(&setup.graph, &names, &setup.browser, &mut world, &rx, (started, replay.service.start_wall()));
    replay.service.write_reports()?;
    Ok(Loaded { report, delivered: world.paths.delivered(), virtual_us: world.clock.now_us(), rounds: world.rounds, setup: ready })
}
