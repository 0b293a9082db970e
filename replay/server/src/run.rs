//! `pagepath-server serve`: loads the recording, binds every origin's socket (so a taken port
//! fails the replay before anything is served), serves until SIGINT/SIGTERM/SIGHUP, and leaves
//! the logs and the fidelity report behind.

use crate::config::{Protocol, ServeConfig, Transport};
use crate::io::origins_file::{self, Serving};
use crate::io::logs::{self, LogFiles};
use crate::io::{addresses, certs, http, load, quic, sockets, tail_loss_probes, tls};
use crate::service::{OriginServer, Service, ServiceParts};
use std::collections::{BTreeSet, HashMap};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::watch;

enum Bound {
    Stream(std::net::TcpListener, Option<Arc<rustls::ServerConfig>>),
    Datagram(std::net::UdpSocket),
}

/// What a replay serves, loaded and checked: the service, each origin's address and the replay's
/// certificate. Writes delay-samples.json, the certificate and origins.json into
/// `cfg.out`. Shared by `serve` and the simulator (replay/sim), which serves it in virtual time.
pub struct Replay {
    pub service: Arc<Service>,
    pub servers: Vec<OriginServer>,
    pub cert: certs::ReplayCertificate,
}

pub fn prepare(cfg: &ServeConfig) -> Result<Replay, String> {
    prepare_from(cfg, &mut Fresh)
}

/// Where `prepare` gets the recording and the certificate: read and made anew for each replay
/// (`Fresh`), or kept across the simulator's loads of the same page.
pub trait Sources {
    fn recording(&mut self, dir: &std::path::Path) -> Result<load::Recording, String>;
    /// A certificate naming every one of `hosts`.
    fn certificate(&mut self, hosts: &[String]) -> Result<certs::ReplayCertificate, String>;
    /// The graph's critical-path ranks (load::read_critical_ranks).
    fn critical_ranks(&mut self, graph: &std::path::Path) -> Result<HashMap<String, i64>, String>;
}

pub struct Fresh;

impl Sources for Fresh {
    fn recording(&mut self, dir: &std::path::Path) -> Result<load::Recording, String> {
        load::read_recording(dir)
    }
    fn certificate(&mut self, hosts: &[String]) -> Result<certs::ReplayCertificate, String> {
        certs::generate(hosts)
    }
    fn critical_ranks(&mut self, graph: &std::path::Path) -> Result<HashMap<String, i64>, String> {
        load::read_critical_ranks(graph)
    }
}

pub fn prepare_from(cfg: &ServeConfig, sources: &mut dyn Sources) -> Result<Replay, String> {
    let ranks = match &cfg.graph {
        Some(graph) => sources.critical_ranks(graph)?,
        None => HashMap::new(),
    };
    let content = load::content(cfg, sources.recording(&cfg.recording)?, ranks)?;
    let servers = origins_file::assign(&content.archive.origins(), cfg.first_address)?;
    std::fs::create_dir_all(&cfg.out).map_err(|e| format!("{}: cannot create: {e}", cfg.out.display()))?;
    let samples_file = cfg.out.join("delay-samples.json");
    logs::write_atomically(&samples_file, content.samples.to_json().as_bytes())?;
    let hosts: Vec<String> = servers.iter().map(|s| s.origin.host.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let cert = sources.certificate(&hosts)?;
    cert.write(&cfg.out)?;
    let qlog_dir = (cfg.qlog && cfg.protocol == Protocol::H3).then(|| cfg.out.join("qlog"));
    if let Some(d) = &qlog_dir {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: cannot create: {e}", d.display()))?;
    }
    let service = Arc::new(Service::new(ServiceParts {
        content,
        origins: servers.clone(),
        priority: cfg.priority,
        schedule: cfg.schedule,
        logs: LogFiles::create(&cfg.out)?,
        cert_file: cfg.out.join("cert.pem"),
        key_file: cfg.out.join("key.pem"),
        qlog_dir,
        congestion: cfg.congestion.clone(),
        backup_peers: cfg.backup_peers.clone(),
    }));
    origins_file::write(&cfg.out, &servers, cfg, &cert.spki_hash, service.clock_start_unix_ms())?;
    Ok(Replay { service, servers, cert })
}

pub fn serve(cfg: ServeConfig) -> Result<i32, String> {
    tail_loss_probes::apply(cfg.tail_loss_probes)?;
    let Replay { service, servers, cert } = prepare(&cfg)?;
    // Origins are sorted by scheme first, so one host's http and https origins are not neighbours.
    let v4: Vec<Ipv4Addr> = servers
        .iter()
        .filter_map(|s| if let IpAddr::V4(a) = s.address { Some(a) } else { None })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let _addresses = addresses::ensure_local(&v4)?;
    let mptcp = cfg.transport == Transport::Mptcp;
    let mut bound = Vec::new();
    for s in &servers {
        let (name, addr) = (s.origin.to_string(), SocketAddr::new(s.address, s.port));
        bound.push(match origins_file::serving(&s.origin, cfg.protocol) {
            Serving::Quic => Bound::Datagram(sockets::udp_socket(&name, addr)?),
            Serving::Tls(alpn) => Bound::Stream(sockets::stream_listener(&name, addr, mptcp)?, Some(tls::server_config(&cert, alpn)?)),
            Serving::Clear => Bound::Stream(sockets::stream_listener(&name, addr, mptcp)?, None),
        });
    }
    // One thread runs every TCP connection and its scheduler (QUIC origins have threads of their
    // own): a response's driver and its connection wake each other for every chunk, and across
    // two worker threads each such wake-up was a futex and an IPI. Measured with h2load on the
    // bench's 20 files (2 cores): 18.7 against 15.9 µs of CPU a request over HTTP/2, 15.5
    // against 12.5 over HTTP/1.1, and 38-56 against 32 µs a request one at a time.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let multipath = (cfg.transport == Transport::Mpquic).then(|| cfg.scheduler.clone());
    let quic_threads = runtime.block_on(async {
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut quic_threads = Vec::new();
        for (origin, b) in bound.into_iter().enumerate() {
            match b {
                Bound::Stream(listener, tls) => {
                    let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| format!("cannot serve: {e}"))?;
                    let stop = stop_rx.clone();
                    tokio::spawn(http::serve(http::Site { service: service.clone(), origin, tls, mptcp, stop }, listener));
                }
                Bound::Datagram(socket) => quic_threads.push(quic::spawn_quic(service.clone(), origin, socket, multipath.clone())?),
            }
        }
        announce(&cfg, &servers.len(), &cert.spki_hash);
        wait_for_signal(&service).await?;
        service.stop();
        let _ = stop_tx.send(true);
        // Connection tasks log what they carried as they close, each as it sees the stop: wait
        // for all of them, or at most 300 ms for one that hangs.
        let deadline = tokio::time::Instant::now() + Duration::from_millis(300);
        while !service.all_connections_logged() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        Ok::<_, String>(quic_threads)
    })?;
    for t in quic_threads {
        let _ = t.join();
    }
    service.write_reports()?;
    Ok(0)
}

fn announce(cfg: &ServeConfig, origins: &usize, spki_hash: &str) {
    let line = serde_json::json!({
        "ready": true,
        "pid": std::process::id(),
        "out": cfg.out.display().to_string(),
        "origins": origins,
        "protocol": cfg.protocol.name(),
        "transport": cfg.transport.name(),
        "spkiHash": spki_hash,
        "nameMap": cfg.out.join("origins.json").display().to_string(),
    });
    println!("{line}");
}

async fn wait_for_signal(service: &Service) -> Result<(), String> {
    let mut signals = Vec::new();
    for kind in [SignalKind::interrupt(), SignalKind::terminate(), SignalKind::hangup()] {
        signals.push(signal(kind).map_err(|e| format!("cannot watch signals: {e}"))?);
    }
    let [int, term, hup] = signals.as_mut_slice() else { unreachable!() };
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            _ = int.recv() => return Ok(()),
            _ = term.recv() => return Ok(()),
            _ = hup.recv() => return Ok(()),
            _ = tick.tick() => service.write_reports()?,
        }
    }
}
