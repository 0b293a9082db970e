//! A page load over HTTP/1.x or HTTP/2 on TCP in virtual time: the emulated browser's TCP
//! transport and the replay servers' HTTP front end, unchanged, on a virtual-time executor
//! (pagepath-runtime), whose clock moves only when every task waits, straight to the next timer
//! (a packet due, a stack's timer, a server's delay, the browser model's next step). tquic's
//! clock, which the browser's driver and the servers' service read, is set to read the executor's.

use crate::kept::Kept;
use crate::mptcp::connections::{Mptcp, SchedulerChoice};
use super::counts::ConnectionCounts;
use super::fabric::Net;
use super::handshake_crypto::StandInVerifier;
use super::tls_crypto::{stand_ins, TlsCrypto};
use super::profile::TcpProfile;
use crate::paths::Paths;
use crate::runtime_clock::RuntimeClock;
use crate::simulation::{Loaded, Setup};
use pagepath_browser::core::Pool;
use pagepath_browser::io::driver::{self, Network};
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::tcp::dialer::{Counts, Dialed, Dialer, Dialing};
use pagepath_browser::io::tcp::tls::{client_configs_with, real_client_configs};
use pagepath_browser::io::tcp::{Hosted, Spawner, TcpProtocol, TcpTransport};
use pagepath_runtime::VirtualExecutor;
use pagepath_browser::io::transport::{ConnectionRecord, Event, Events, Fetch, PathBytes, Transport, TransportConfig};
use pagepath_server::config::Protocol;
use pagepath_server::io::http::{serve_connection, Accepted, Site};
use pagepath_server::io::origins_file::{serving, Serving};
use pagepath_server::io::tls;
use pagepath_link::topology::Topology;
use pagepath_server::run::{prepare_from, Replay};
use pagepath_server::service::PathLog;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify};

/// How far the world's clock moves at least, unless `--clock-tick-us` says otherwise: a timer (a
/// packet's arrival, a stack's timer, a server's delay) fires at the first whole millisecond at or
/// after its deadline. This is the tick of tokio's timer wheel, on which the simulator ran until 2026-12-03 and against which it was
/// calibrated (docs/simulator.md, *The clock's tick*): at 1 µs the same loads take 2.1 times
/// the rounds, the median load moves by -0.5% (p10 -6.6%, p90 +4.0%), and smoltcp's loss recovery
/// behind a shallow queue retransmits more than the kernel's.
pub const CLOCK_TICK: Duration = Duration::from_millis(1);

pub struct TcpWorld {
    /// First, so that the tasks go before what they share.
    executor: VirtualExecutor,
    pub net: Net,
    transport: Option<TcpTransport>,
    woken: Arc<Notify>,
    /// Tells the servers' connections to stop, which logs them, at finish().
    stop_servers: watch::Sender<bool>,
    stop: watch::Receiver<bool>,
    _clock: RuntimeClock,
}

impl TcpWorld {
    /// The client's hosts (`path_ips[i]` on path i) and the paths, at virtual time 0 from now on
    /// this thread: make the servers' service after this, as it takes its time 0 from the clock.
    /// `mptcp`: the scheduler both ends of every MPTCP connection run; None: plain TCP.
    /// `tick`: how far the clock moves at least (CLOCK_TICK).
    pub fn new(topology: &Topology, path_ips: Vec<IpAddr>, profile: TcpProfile, mptcp: Option<SchedulerChoice>, tick: Duration) -> Result<TcpWorld, String> {
        let executor = VirtualExecutor::new(tick);
        let clock = RuntimeClock::set();
        let net = {
            let client_ips: Vec<Ipv4Addr> = path_ips.iter().filter_map(|ip| v4(*ip)).collect();
            let lowat = pagepath_server::io::sockets::NOTSENT_LOWAT as usize;
            let backups = topology.paths.iter().map(|p| p.backup).collect();
            let mptcp = mptcp.map(|choice| Mptcp::new(choice, lowat, backups, profile.congestion.coupling())).transpose()?;
            Net::new(Paths::new(topology, path_ips)?, client_ips, profile, topology.seed, mptcp)
        };
        executor.spawn(net.clone().run());
        let (stop_servers, stop) = watch::channel(false);
        Ok(TcpWorld { executor, net, transport: None, woken: Arc::new(Notify::new()), stop_servers, stop, _clock: clock })
    }

    /// The replay's origins served as `serve` serves them over TCP, each at its own address.
    pub fn serve(&self, replay: &Replay, protocol: Protocol, crypto: TlsCrypto) -> Result<(), String> {
        let congestion = self.net.lock().profile().congestion.name();
        for (origin, s) in replay.servers.iter().enumerate() {
            let at = SocketAddr::new(s.address, s.port);
            let tls = match serving(&s.origin, protocol) {
                Serving::Tls(alpn) => Some(match stand_ins(crypto) {
                    Some((provider, key)) => tls::server_config_with(&replay.cert, alpn, provider, key)?,
                    None => tls::server_config(&replay.cert, alpn)?,
                }),
                Serving::Clear => None,
                Serving::Quic => return Err(format!("{}: HTTP/3 is not carried over TCP", s.origin)),
            };
            self.net.listen(at)?;
            let mptcp = self.net.lock().mptcp.is_some();
            let site = Arc::new(Site { service: replay.service.clone(), origin, tls, mptcp, stop: self.stop.clone() });
            if mptcp {
                self.executor.spawn(accept_mptcp_loop(self.net.clone(), site, at, congestion));
            } else {
                self.executor.spawn(accept_loop(self.net.clone(), site, at, congestion));
            }
        }
        Ok(())
    }

    /// The emulated browser's TCP transport, from `locals` (path 0 first).
    /// `certificate`: the servers' (DER), which the stand-in crypto's browser checks for.
    pub fn open_client(&mut self, config: TransportConfig, protocol: TcpProtocol, events: Events, locals: Vec<IpAddr>, crypto: TlsCrypto, certificate: &[u8]) -> Result<(), String> {
        let mptcp = self.net.lock().mptcp.is_some();
        let dialer = Box::new(SimDialer { net: self.net.clone(), locals, mptcp });
        // Without the hybrid key share a replay's browser offers: simulator.md, *What it does not do yet*.
        let tls = Some(match stand_ins(crypto) {
            Some((provider, _)) => client_configs_with(provider, None, Arc::new(StandInVerifier::new(certificate)))?,
            None => real_client_configs(&config.spki_hash, None)?,
        });
        let hosted = Hosted { spawner: Spawner::Virtual, dialer, on_event: self.woken.clone(), tls };
        self.transport = Some(TcpTransport::hosted(config, protocol, events, hosted)?);
        Ok(())
    }

    /// Virtual time.
    pub fn now(&self) -> Instant {
        self.executor.now()
    }
}

pub fn load(setup: &Setup, profile: TcpProfile, mptcp: Option<SchedulerChoice>, crypto: TlsCrypto, tick: Duration, kept: &mut Kept, wall: Instant) -> Result<Loaded, String> {
    let mut world = TcpWorld::new(&setup.topology, setup.path_ips.clone(), profile, mptcp, tick)?;
    let cfg = &setup.server;
    let replay = prepare_from(cfg, kept)?;
    world.serve(&replay, cfg.protocol, crypto)?;
    let names = read_origins(&setup.browser.origins)?;
    let (tx, rx) = channel();
    let config = driver::transport_config(&names, &setup.browser);
    let started = config.started;
    let protocol = if cfg.protocol == Protocol::H2 { TcpProtocol::Http2 } else { TcpProtocol::Http1 };
    world.open_client(config, protocol, tx, setup.locals.clone(), crypto, &replay.cert.cert_der)?;
    let ready = wall.elapsed();
    let report = driver::run_on(&setup.graph, &names, &setup.browser, &mut world, &rx, (started, replay.service.start_wall()));
    replay.service.write_reports()?;
    let virtual_us = world.now().saturating_duration_since(started).as_micros() as u64;
    let f = world.net.lock();
    Ok(Loaded { report, delivered: f.paths.delivered(), virtual_us, rounds: f.rounds, setup: ready })
}

fn v4(ip: IpAddr) -> Option<Ipv4Addr> {
    match ip {
        IpAddr::V4(a) => Some(a),
        IpAddr::V6(_) => None,
    }
}

/// Serves each connection established at `at` as the replay server serves a kernel's.
async fn accept_loop(net: Net, site: Arc<Site>, at: SocketAddr, congestion: &'static str) {
    loop {
        let (stream, counts, peer) = net.accept(at).await;
        let stats = Box::new(move || vec![server_log(at, peer, &counts)]);
        let path = Some((at.to_string(), peer.to_string()));
        let accepted = Accepted { stream, peer: peer.to_string(), path, congestion: Some(congestion.to_string()), stats };
        pagepath_runtime::spawn(serve_connection(site.clone(), accepted));
    }
}

/// Serves each MPTCP connection established at `at` as the replay server serves a kernel's: its
/// log has a line per subflow.
async fn accept_mptcp_loop(net: Net, site: Arc<Site>, at: SocketAddr, congestion: &'static str) {
    loop {
        let (stream, peer) = net.accept_mptcp(at).await;
        let (n, id) = (net.clone(), stream.id());
        let stats = Box::new(move || {
            let f = n.lock();
            let e = &f.mptcp.as_ref().expect("an MPTCP network").endpoints[id];
            e.subflows.iter().map(|sf| server_log(at, f.peer_of(sf.host, sf.handle).unwrap_or(peer), &sf.counts)).collect()
        });
        let accepted = Accepted { stream, peer: peer.to_string(), path: None, congestion: Some(congestion.to_string()), stats };
        pagepath_runtime::spawn(serve_connection(site.clone(), accepted));
    }
}

fn server_log(at: SocketAddr, peer: SocketAddr, c: &ConnectionCounts) -> PathLog {
    PathLog {
        local: at.to_string(),
        remote: peer.to_string(),
        bytes_sent: c.down.load(Ordering::Relaxed),
        bytes_received: c.up.load(Ordering::Relaxed),
        packets_sent: c.packets_down.load(Ordering::Relaxed),
        // What Linux's tcpi_total_retrans counts: segments sent again.
        packets_lost: c.retransmitted_down.load(Ordering::Relaxed),
        rtt_us: None,
    }
}

struct SimDialer {
    net: Net,
    locals: Vec<IpAddr>,
    mptcp: bool,
}

impl Dialer for SimDialer {
    fn dial(&self, from: Option<IpAddr>, to: SocketAddr) -> Dialing {
        let net = self.net.clone();
        let from = from.or(self.locals.first().copied());
        let path = from.and_then(|f| self.locals.iter().position(|l| *l == f)).unwrap_or(0);
        let mptcp = self.mptcp;
        Box::pin(async move {
            let from = from.ok_or("the simulated client has no address")?;
            if mptcp {
                let stream = net.connect_mptcp(from, to).await?;
                let counts = Arc::new(MptcpCounts { net: net.clone(), id: stream.id() });
                return Ok(Dialed { stream: Box::new(stream), counts });
            }
            let (stream, counts) = net.connect(from, to).await?;
            Ok(Dialed { stream: Box::new(stream), counts: Arc::new(SimCounts { counts, path }) })
        })
    }
}

struct SimCounts {
    counts: Arc<ConnectionCounts>,
    path: usize,
}

impl Counts for SimCounts {
    fn read(&self, _locals: &[IpAddr]) -> (bool, Vec<PathBytes>) {
        (false, vec![path_bytes(self.path, &self.counts)])
    }
}

fn path_bytes(path: usize, c: &ConnectionCounts) -> PathBytes {
    PathBytes { path, bytes_up: Some(c.up.load(Ordering::Relaxed)), bytes_down: Some(c.down.load(Ordering::Relaxed)) }
}

/// An MPTCP connection's bytes per path, from its subflows.
struct MptcpCounts {
    net: Net,
    id: usize,
}

impl Counts for MptcpCounts {
    fn read(&self, locals: &[IpAddr]) -> (bool, Vec<PathBytes>) {
        let f = self.net.lock();
        let e = &f.mptcp.as_ref().expect("an MPTCP network").endpoints[self.id];
        let mut paths: Vec<PathBytes> = Vec::new();
        for sf in &e.subflows {
            // As the real replay counts them: a subflow from outside `locals` on path 0.
            let i = f.client_ip(sf.path).and_then(|ip| locals.iter().position(|l| *l == ip)).unwrap_or(0);
            let b = path_bytes(i, &sf.counts);
            match paths.iter_mut().find(|p| p.path == i) {
                Some(p) => {
                    p.bytes_up = Some(p.bytes_up.unwrap_or(0) + b.bytes_up.unwrap_or(0));
                    p.bytes_down = Some(p.bytes_down.unwrap_or(0) + b.bytes_down.unwrap_or(0));
                }
                None => paths.push(b),
            }
        }
        paths.sort_by_key(|p| p.path);
        (true, paths)
    }
}

impl Network for &mut TcpWorld {
    fn fetch(&mut self, fetch: Fetch, _tls: bool) -> Result<(), String> {
        let Some(transport) = self.transport.as_mut() else { return Err("the simulated client has stopped".into()) };
        transport.fetch(fetch);
        Ok(())
    }

    fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize, _tls: bool) -> Result<(), String> {
        let Some(transport) = self.transport.as_mut() else { return Err("the simulated client has stopped".into()) };
        transport.preconnect(origin, pool, sockets);
        Ok(())
    }

    fn wait(&mut self, until: Instant, events: &Receiver<Event>) -> Option<Vec<Event>> {
        let got: Vec<Event> = events.try_iter().collect();
        if !got.is_empty() {
            return Some(got);
        }
        let woken = self.woken.clone();
        self.executor.block_on(async move {
            // Biased: select!'s random order made the rounds of one load differ from run to run.
            tokio::select! {
                biased;
                _ = woken.notified() => {}
                _ = pagepath_runtime::sleep_until(until) => {}
            }
        });
        Some(events.try_iter().collect())
    }

    fn finish(self) -> Vec<ConnectionRecord> {
        let Some(transport) = self.transport.take() else { return Vec::new() };
        let records = self.executor.block_on(transport.close());
        // The servers' connections log themselves as they see the stop.
        self.stop_servers.send_replace(true);
        self.executor.block_on(pagepath_runtime::yield_now());
        records
    }
}
