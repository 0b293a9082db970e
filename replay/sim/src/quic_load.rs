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
use pagepath_browser::io::transport::{Event, TransportConfig};
use pagepath_link::topology::Topology;
use pagepath_server::config::{ServeConfig, Transport};
use pagepath_server::io::origins_file::{serving, Serving};
use pagepath_server::io::quic::config::{server_config_with, server_tls};
use pagepath_server::io::quic::QuicOrigin;
use pagepath_server::run::{prepare_from, Replay};
use std::net::{IpAddr, SocketAddr};
use std::rc::Rc;
use std::sync::mpsc::{channel, Receiver};
use std::time::Instant;

/// The client's UDP ports, one per path (any will do: nothing else lives at its address).
const CLIENT_PORT: u16 = 40_000;

pub fn load(setup: &Setup, kept: &mut Kept, wall: Instant) -> Result<Loaded, String> {
    let mut names = None;
    let on = QuicWorld::new(&setup.server, &setup.topology, &setup.path_ips, &setup.locals, kept, || {
        let read = read_origins(&setup.browser.origins)?;
        let config = driver::transport_config(&read, &setup.browser);
        names = Some(read);
        Ok(config)
    })?;
    let QuicWorld { mut world, replay, events, started } = on;
    let names = names.expect("the client's configuration was made");
    let ready = wall.elapsed();
    // The servers' logs and the report share their time 0, as a real replay's share the wall clock.
    let report = driver::run_on(&setup.graph, &names, &setup.browser, &mut world, &events, (started, replay.service.start_wall()));
    replay.service.write_reports()?;
    Ok(Loaded { report, delivered: world.paths.delivered(), virtual_us: world.clock.now_us(), rounds: world.rounds, setup: ready })
}

/// A replay's origins served over QUIC on a World whose clock starts at its making, and an HTTP/3
/// client on it, from the addresses `locals`, as `config` (made once the servers wrote their name
/// map) sets it up: what a page load and a fetch of targets (fetch_load.rs) both run on.
pub struct QuicWorld {
    pub world: World,
    pub replay: Replay,
    /// What the client reports of its requests.
    pub events: Receiver<Event>,
    /// The client's time 0 (TransportConfig::started).
    pub started: Instant,
}

impl QuicWorld {
    pub fn new(cfg: &ServeConfig, topology: &Topology, path_ips: &[IpAddr], locals: &[IpAddr], kept: &mut Kept, config: impl FnOnce() -> Result<TransportConfig, String>) -> Result<QuicWorld, String> {
        // Before anything that reads tquic's clock: the servers' service and the client take their
        // time zero from it.
        let clock = VirtualClock::start();
        let replay = prepare_from(cfg, kept)?;
        if let Some(clear) = replay.servers.iter().find(|s| !matches!(serving(&s.origin, cfg.protocol), Serving::Quic)) {
            return Err(format!("{}: served as clear HTTP/1.1 over TCP, which an HTTP/3 simulation does not carry", clear.origin));
        }
        let outbox = Outbox::default();
        let multipath = (cfg.transport == Transport::Mpquic).then(|| cfg.scheduler.clone());
        // One configuration for every origin: its clones share the TLS context (one certificate names
        // every host), which costs milliseconds to make, and the scheduler factory.
        let tls = kept.tls(&replay.cert, || server_tls(&replay.service)).map_err(|e| format!("h3: {e}"))?;
        let server_config = server_config_with(tls, &replay.service, multipath).map_err(|e| format!("h3: {e}"))?;
        let servers = (replay.servers.iter().enumerate())
            .map(|(i, s)| (SocketAddr::new(s.address, s.port), QuicOrigin::new(replay.service.clone(), i, server_config.clone(), Rc::new(outbox.clone()))))
            .collect();
        let locals: Vec<SocketAddr> = locals.iter().enumerate().map(|(i, ip)| SocketAddr::new(*ip, CLIENT_PORT + i as u16)).collect();
        let (tx, events) = channel();
        let config = config()?;
        let started = config.started;
        let client = QuicClient::new(config, tx, locals, Rc::new(outbox.clone()))?;
        let world = World::new(clock, Paths::new(topology, path_ips.to_vec())?, client, servers, outbox);
        Ok(QuicWorld { world, replay, events, started })
    }
}
