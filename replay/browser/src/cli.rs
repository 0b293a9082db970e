//! The command line of `pagepath-browser run`, checked before anything starts.

use crate::core::{Completion, Options, PriorityScheme};
use crate::io::transport::Http1Mode;
use pagepath_link::cli::args::Args;
use pagepath_tquic_scheduler::{choose, Choice};
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

pub const HELP: &str = "usage: pagepath-browser run GRAPH.json --origins ORIGINS.json [options]

Loads the page of a graph (docs/formats/graph.md) the way PCP's emulated browser does, from the
replay servers that origins.json names, and prints one JSON report line.
  --protocol h1.0|h1|h1-pipelined|h2|h3   (default h2)
  --transport tcp|mptcp|quic|mpquic       (default tcp, quic for h3)
  --connections K        HTTP/1.x connections per origin (default 6)
  --local IP             a local address, one per path, path 0 first (repeatable)
  --scheduler NAME       mpquic: how this client spreads its packets over the paths, one of
                         pagepath's multipath schedulers (default lowest-rtt; `pagepath-server
                         schedulers` lists them) or tquic's own minrtt or roundrobin
  --scheduler-opt KEY=VALUE              an option of pagepath's scheduler (repeatable)
  --priority none|browser|mime|critical-path|depth   what requests ask the server for
  --no-preloader         do not fetch ahead of a blocked parser
  --cpu-factor F         multiply every computation's duration (default 1)
  --dispatch recorded|none   send each request, and start parsing each document, as long after
                         its parents as the recorded browser did (default), or at once as PCP did
  --request-scheduling chromium|none   hold low-priority requests back as Chromium's network
                         stack does (default), or send each the moment it is ready as PCP did
  --wait-for dcl|load|graph               the completion that ends the run (default graph)
  --timeout S            give up after S seconds, reporting the run incomplete (default 120)
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Http1(Http1Mode),
    H2,
    H3,
}

pub struct RunArgs {
    pub graph: PathBuf,
    pub origins: PathBuf,
    pub protocol: Protocol,
    pub multipath: bool,
    pub connections: usize,
    pub locals: Vec<IpAddr>,
    /// The multipath QUIC scheduler (used with mpquic only).
    pub scheduler: Choice,
    pub timeout: Duration,
    pub options: Options,
}

pub fn parse(items: &[String]) -> Result<Option<RunArgs>, String> {
    let mut a = Args::new(items);
    if a.flag("--help") || a.flag("-h") || items.is_empty() {
        return Ok(None);
    }
    let protocol = match a.value("--protocol")?.as_deref().unwrap_or("h2") {
        "h1.0" => Protocol::Http1(Http1Mode::PerRequest),
        "h1" => Protocol::Http1(Http1Mode::KeepAlive),
        "h1-pipelined" => Protocol::Http1(Http1Mode::Pipelined),
        "h2" => Protocol::H2,
        "h3" => Protocol::H3,
        other => return Err(format!("--protocol: {other:?} is not one of h1.0, h1, h1-pipelined, h2, h3")),
    };
    let default_transport = if protocol == Protocol::H3 { "quic" } else { "tcp" };
    let transport = a.value("--transport")?.unwrap_or_else(|| default_transport.into());
    let multipath = match (protocol, transport.as_str()) {
        (Protocol::H3, "quic") | (Protocol::Http1(_) | Protocol::H2, "tcp") => false,
        (Protocol::H3, "mpquic") | (Protocol::Http1(_) | Protocol::H2, "mptcp") => true,
        (_, t @ ("tcp" | "mptcp" | "quic" | "mpquic")) => {
            return Err(format!("--transport {t} cannot carry this protocol: HTTP/1.x and HTTP/2 run over tcp or mptcp, HTTP/3 over quic or mpquic"))
        }
        (_, t) => return Err(format!("--transport: {t:?} is not one of tcp, mptcp, quic, mpquic")),
    };
    let connections = a.number("--connections", 1.0, 64.0)?.unwrap_or(6.0) as usize;
    let mut locals = Vec::new();
    while let Some(ip) = a.value("--local")? {
        locals.push(ip.parse().map_err(|_| format!("--local: {ip:?} is not an IP address"))?);
    }
    let scheduler_name = a.value("--scheduler")?;
    let mut scheduler_options = Vec::new();
    while let Some(o) = a.value("--scheduler-opt")? {
        scheduler_options.push(o);
    }
    let given = scheduler_name.is_some() || !scheduler_options.is_empty();
    if given && transport != "mpquic" {
        return Err(format!("--scheduler: only multipath QUIC has one to choose, and --transport is {transport} (MPTCP's is the kernel's net.mptcp.scheduler)"));
    }
    let scheduler = choose(scheduler_name.as_deref(), &scheduler_options)?;
    let priority = match a.value("--priority")?.as_deref().unwrap_or("none") {
        "none" => PriorityScheme::None,
        "browser" => PriorityScheme::Browser,
        "mime" => PriorityScheme::Mime,
        "critical-path" => PriorityScheme::CriticalPath,
        "depth" => PriorityScheme::Depth,
        other => return Err(format!("--priority: {other:?} is not one of none, browser, mime, critical-path, depth")),
    };
    let preloader = !a.flag("--no-preloader");
    let dispatch_latency = match a.value("--dispatch")?.as_deref().unwrap_or("recorded") {
        "recorded" => true,
        "none" => false,
        other => return Err(format!("--dispatch: {other:?} is not one of recorded, none")),
    };
    let chromium_request_scheduling = match a.value("--request-scheduling")?.as_deref().unwrap_or("chromium") {
        "chromium" => true,
        "none" => false,
        other => return Err(format!("--request-scheduling: {other:?} is not one of chromium, none")),
    };
    let cpu_factor = a.number("--cpu-factor", 0.01, 100.0)?.unwrap_or(1.0);
    let wait_for = match a.value("--wait-for")?.as_deref().unwrap_or("graph") {
        "dcl" => Completion::DomContentLoaded,
        "load" => Completion::Load,
        "graph" => Completion::Graph,
        other => return Err(format!("--wait-for: {other:?} is not one of dcl, load, graph")),
    };
    let timeout = Duration::from_secs_f64(a.number("--timeout", 0.1, 86_400.0)?.unwrap_or(120.0));
    let origins = a.value("--origins")?.ok_or("--origins ORIGINS.json is required: the name map a replay server wrote")?;
    let rest = a.rest()?;
    let (verb, graph) = match rest.as_slice() {
        [verb, graph] => (verb, graph),
        _ => return Err("expected: run GRAPH.json --origins ORIGINS.json [options]".into()),
    };
    if verb != "run" {
        return Err(format!("{verb:?}: unknown command (the only one is run)"));
    }
    Ok(Some(RunArgs {
        graph: graph.into(),
        origins: origins.into(),
        protocol,
        multipath,
        connections,
        locals,
        scheduler,
        timeout,
        options: Options { preloader, cpu_factor, wait_for, priority, dispatch_latency, chromium_request_scheduling },
    }))
}
