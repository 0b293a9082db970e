//! What one replay serves and how: read from the command line, checked before anything starts.

use crate::core::delay::DelayMode;
use crate::core::priority::PriorityScheme;
use crate::core::schedule::{ScheduleConfig, ServerModel};
use crate::io::quic::MultipathScheduler;
use pagepath_link::cli::args::Args;
use std::net::Ipv4Addr;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// HTTP/1.1 over TLS (ALPN http/1.1), as Chromium speaks to an https origin without h2.
    Http1,
    /// HTTP/1.1 without TLS on every origin: for clients that need no TLS.
    Http1Clear,
    /// HTTP/2 over TLS, negotiated by ALPN.
    H2,
    /// HTTP/3 over QUIC.
    H3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Tcp,
    Mptcp,
    Quic,
    Mpquic,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Http1 => "h1",
            Protocol::Http1Clear => "h1-clear",
            Protocol::H2 => "h2",
            Protocol::H3 => "h3",
        }
    }
}

impl Transport {
    pub fn name(self) -> &'static str {
        match self {
            Transport::Tcp => "tcp",
            Transport::Mptcp => "mptcp",
            Transport::Quic => "quic",
            Transport::Mpquic => "mpquic",
        }
    }
}

pub struct ServeConfig {
    pub recording: PathBuf,
    pub out: PathBuf,
    pub protocol: Protocol,
    pub transport: Transport,
    pub schedule: ScheduleConfig,
    pub priority: PriorityScheme,
    pub graph: Option<PathBuf>,
    pub delays: DelayMode,
    pub delay_samples: Option<PathBuf>,
    pub seed: u64,
    pub scheduler: MultipathScheduler,
    /// The first origin's address; each further host takes the next one.
    pub first_address: Ipv4Addr,
    /// The congestion controller of every connection (io/congestion.rs).
    pub congestion: String,
    /// TCP tail loss probes in the server's namespace (io/tail_loss_probes.rs).
    pub tail_loss_probes: bool,
    /// Multipath QUIC paths from these client addresses are backups (pagepath's schedulers only).
    pub backup_peers: Vec<std::net::IpAddr>,
    pub qlog: bool,
}

pub const USAGE: &str = "\
usage: pagepath-server serve RECORDING --out DIR [options]

Serves a recording's archive from one server per recorded host, each on its own address
(--first-address and up), until SIGINT/SIGTERM. Writes into DIR: origins.json (the name map,
Chromium's flags and the certificate's SPKI hash), cert.pem/key.pem, connections.jsonl,
streams.jsonl, fidelity.json, delay-samples.json and qlog/. Prints one JSON line when every server listens.

  --protocol h1|h1-clear|h2|h3           default h2 (http:// origins are always clear HTTP/1.1)
  --transport tcp|mptcp|quic|mpquic     default tcp for HTTP/1.1 and HTTP/2, quic for HTTP/3
  --model serial|parallel|out-of-order  server model (seed 001 §3.7.6), default out-of-order
  --priority none|mime|critical-path|browser  response order among ready responses, default none
                                        (browser: the urgency each request asked for)
  --preemption                          a more urgent response takes over at the next chunk
  --chunk-bytes N                       scheduling granularity, default 16384 (0 = whole responses)
  --graph FILE                          the page's graph.json, for --priority critical-path
  --delays recorded|zero                processing delays, default recorded
  --delay-samples FILE|DIR              delays to draw from for responses without one: a samples
                                        file, or a folder of recordings (e.g. corpus-data/recordings)
  --seed N                              seed for drawn delays, default 1
  --scheduler NAME                      multipath QUIC scheduler: one of pagepath's (default
                                        lowest-rtt; `pagepath-server schedulers` lists them), or
                                        tquic's own minrtt or roundrobin
  --scheduler-opt KEY=VALUE             an option of pagepath's scheduler (repeatable)
  --congestion NAME                     congestion control of every connection, default cubic:
                                        for TCP and MPTCP one the kernel lists in
                                        net.ipv4.tcp_available_congestion_control, for QUIC
                                        tquic's cubic, bbr, bbr3 or copa
  --backup-peer IPV4                    multipath QUIC: the path from this client address is a
                                        backup, used only while no other path is usable
                                        (repeatable; pagepath's schedulers, not tquic's own)
  --tail-loss-probes on|off             TCP/MPTCP tail loss probes (seed 001 §6.4.5), default on;
                                        set in the server's own network namespace only
  --first-address IPV4                  default 127.0.1.1; other addresses are added to lo (in a
                                        server namespace: pagepath replay serve --net uses 10.200.1.1)
  --no-qlog                             no qlog files for QUIC connections
";

/// The names `pagepath replay` and run results use; the server's old spellings still work for a
/// release, each with a note saying the new one.
fn parse_protocol(v: &str) -> Result<Protocol, String> {
    let (protocol, current) = match v {
        "h1" | "http/1.1" => (Protocol::Http1, "h1"),
        "h1-clear" => (Protocol::Http1Clear, "h1-clear"),
        "h2" | "http2" => (Protocol::H2, "h2"),
        "h3" | "http3" => (Protocol::H3, "h3"),
        "http1" => (Protocol::Http1, "h1"),
        "http1-clear" | "h1c" => (Protocol::Http1Clear, "h1-clear"),
        _ => return Err(format!("--protocol: unknown protocol \"{v}\"; choose h1, h1-clear, h2 or h3")),
    };
    deprecated("--protocol", v, current, &["http1", "http1-clear", "h1c"]);
    Ok(protocol)
}

/// Says on stderr that `v` is an old spelling of `current`, if it is one of `old`.
fn deprecated(option: &str, v: &str, current: &str, old: &[&str]) {
    if old.contains(&v) {
        eprintln!("pagepath-server: {option} {v} is now spelled {current}; the old spelling works until the next release");
    }
}

pub(crate) fn parse_transport(v: &str) -> Result<Transport, String> {
    match v {
        "tcp" => Ok(Transport::Tcp),
        "mptcp" => Ok(Transport::Mptcp),
        "quic" => Ok(Transport::Quic),
        "mpquic" => Ok(Transport::Mpquic),
        _ => Err(format!("--transport: unknown transport \"{v}\"; choose tcp, mptcp, quic or mpquic")),
    }
}

fn check_combination(p: Protocol, t: Transport) -> Result<(), String> {
    let over_tcp = matches!(t, Transport::Tcp | Transport::Mptcp);
    if (p == Protocol::H3) == over_tcp {
        let fits = if p == Protocol::H3 { "quic or mpquic" } else { "tcp or mptcp" };
        return Err(format!(
            "--protocol {} cannot run over --transport {}: {} runs over {fits}",
            p.name(),
            t.name(),
            p.name()
        ));
    }
    Ok(())
}

fn one_of<T: Copy>(name: &str, v: Option<String>, default: T, table: &[(&str, T)]) -> Result<T, String> {
    let Some(v) = v else { return Ok(default) };
    table.iter().find(|(k, _)| *k == v).map(|(_, x)| *x).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
        format!("{name}: unknown value \"{v}\"; choose {}", names.join(", "))
    })
}

/// tquic's two built-in schedulers keep their names; any other is looked up in pagepath's registry.
fn parse_scheduler(name: Option<String>, options: Vec<String>) -> Result<MultipathScheduler, String> {
    pagepath_tquic_scheduler::choose(name.as_deref(), &options)
}

pub fn parse_serve(argv: &[String]) -> Result<ServeConfig, String> {
    let mut a = Args::new(argv);
    let out = a.value("--out")?.ok_or("--out DIR is required")?;
    let protocol = parse_protocol(&a.value("--protocol")?.unwrap_or_else(|| "h2".into()))?;
    let default_transport = if protocol == Protocol::H3 { "quic" } else { "tcp" };
    let transport = parse_transport(&a.value("--transport")?.unwrap_or_else(|| default_transport.into()))?;
    check_combination(protocol, transport)?;
    let model = one_of(
        "--model",
        a.value("--model")?,
        ServerModel::OutOfOrder,
        &[("serial", ServerModel::Serial), ("parallel", ServerModel::Parallel), ("out-of-order", ServerModel::OutOfOrder)],
    )?;
    let priority_name = a.value("--priority")?;
    if let Some(v) = &priority_name {
        deprecated("--priority", v, "browser", &["client"]);
    }
    let priority = one_of(
        "--priority",
        priority_name,
        PriorityScheme::None,
        &[
            ("none", PriorityScheme::None),
            ("mime", PriorityScheme::Mime),
            ("critical-path", PriorityScheme::CriticalPath),
            ("browser", PriorityScheme::Client),
            ("client", PriorityScheme::Client),
        ],
    )?;
    let preemption = a.flag("--preemption");
    let chunk_bytes = a.number("--chunk-bytes", 0.0, 1e9)?.unwrap_or(16384.0) as u64;
    let graph = a.value("--graph")?.map(PathBuf::from);
    if priority == PriorityScheme::CriticalPath && graph.is_none() {
        return Err("--priority critical-path needs --graph FILE (the page's graph.json)".into());
    }
    let delays = one_of(
        "--delays",
        a.value("--delays")?,
        DelayMode::Recorded,
        &[("recorded", DelayMode::Recorded), ("zero", DelayMode::Zero)],
    )?;
    let delay_samples = a.value("--delay-samples")?.map(PathBuf::from);
    let seed = a.number("--seed", 0.0, 9.007e15)?.unwrap_or(1.0) as u64;
    let scheduler_name = a.value("--scheduler")?;
    let mut scheduler_options = Vec::new();
    while let Some(v) = a.value("--scheduler-opt")? {
        scheduler_options.push(v);
    }
    if transport != Transport::Mpquic && (scheduler_name.is_some() || !scheduler_options.is_empty()) {
        return Err(format!(
            "--scheduler: --transport {} has no multipath QUIC scheduler to choose; the schedulers ({}) run over --transport mpquic (MPTCP's is the kernel's net.mptcp.scheduler)",
            transport.name(),
            pagepath_tquic_scheduler::all_names().join(", ")
        ));
    }
    let scheduler = parse_scheduler(scheduler_name, scheduler_options)?;
    let congestion = a.value("--congestion")?.unwrap_or_else(|| crate::io::congestion::DEFAULT.into());
    crate::io::congestion::check(&congestion, transport)?;
    let tail_loss_probes = crate::io::tail_loss_probes::parse(a.value("--tail-loss-probes")?, transport)?;
    let mut backup_peers = Vec::new();
    while let Some(v) = a.value("--backup-peer")? {
        backup_peers.push(v.parse().map_err(|_| format!("--backup-peer: \"{v}\" is not an IP address"))?);
    }
    if !backup_peers.is_empty() && transport != Transport::Mpquic {
        return Err(format!("--backup-peer: only multipath QUIC takes backup paths from the server; over {} the topology's backup flag sets them (pagepath net up --backup)", transport.name()));
    }
    let first_address = match a.value("--first-address")? {
        None => Ipv4Addr::new(127, 0, 1, 1),
        Some(v) => v.parse().map_err(|_| format!("--first-address: \"{v}\" is not an IPv4 address"))?,
    };
    let qlog = !a.flag("--no-qlog");
    let rest = a.rest()?;
    let [recording] = rest.as_slice() else {
        return Err(format!("expected one recording directory, got {}", rest.len()));
    };
    Ok(ServeConfig {
        recording: PathBuf::from(recording),
        out: PathBuf::from(out),
        protocol,
        transport,
        schedule: ScheduleConfig { model, preemption, chunk_bytes },
        priority,
        graph,
        delays,
        delay_samples,
        seed,
        scheduler,
        first_address,
        congestion,
        tail_loss_probes,
        backup_peers,
        qlog,
    })
}
