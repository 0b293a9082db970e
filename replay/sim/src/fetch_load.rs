//! Targets fetched at once over one HTTP/3 connection in virtual time, as pagepath-fetch fetches
//! them (its command line, replay/client/src/args.rs): no page and no browser model, only the
//! requests, over the same replay servers, multipath schedulers and tquic as a page load. The
//! workload of seed 004 §6.2.2's web experiment (`pagepath reproduce --only sa-ecf-web`).

use super::cli::SimArgs;
use super::kept::Kept;
use super::quic_load::QuicWorld;
use super::simulation::{check_locals, read_topology, Numbers, Simulated};
use pagepath_browser::core::Pool;
use pagepath_browser::io::driver::Network;
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::transport::{Event, Fetch, Http1Mode, TransportConfig};
use pagepath_client::args::{self as fetch_args, Args};
use pagepath_server::config::{parse_serve, Protocol};
use serde::Serialize;
use std::time::Instant;

/// pagepath-fetch's report line (replay/client/src/report.rs) less what a simulation has no
/// counterpart of (body digests, the client's CPU time, its per-path socket counts: the paths'
/// bytes are in `simulation`), and with why the fetch failed, if it did.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Line {
    protocol: &'static str,
    transport: &'static str,
    responses: Vec<Response>,
    handshake_us: Option<u64>,
    failed: Option<String>,
    simulation: Numbers,
}

/// Times in µs since the connection was opened, which is when the targets were asked for.
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Response {
    target: String,
    status: Option<u16>,
    bytes: u64,
    start_us: Option<u64>,
    headers_us: Option<u64>,
    end_us: Option<u64>,
}

pub fn fetch(args: &SimArgs, kept: &mut Kept) -> Result<Simulated, String> {
    let wall = Instant::now();
    let (topology, path_ips) = read_topology(args)?;
    let server = parse_serve(&args.server)?;
    if server.protocol != Protocol::H3 {
        return Err("fetch: pagepath-fetch speaks HTTP/3 only; give the servers --protocol h3".into());
    }
    let fetch = fetch_args::parse(args.client[1..].iter().cloned())?.ok_or("the fetch part asks for help: see pagepath-fetch --help")?;
    if fetch.qlog.is_some() {
        return Err("fetch --qlog: the simulator writes no qlog".into());
    }
    let locals = if fetch.locals.is_empty() { path_ips[..1].to_vec() } else { fetch.locals.clone() };
    check_locals(&locals, &path_ips, "fetch --local")?;
    let mut origin = None;
    let on = QuicWorld::new(&server, &topology, &path_ips, &locals, kept, || {
        let names = read_origins(&server.out.join("origins.json"))?;
        let found = names.origins.iter().find(|o| o.host == fetch.host && o.address == fetch.connect);
        origin = Some(found.ok_or_else(|| format!("fetch --connect {} --host {}: no origin of the replay is served there", fetch.connect, fetch.host))?.origin.clone());
        Ok(TransportConfig {
            origins: names.origins,
            locals: locals.clone(),
            spki_hash: names.spki_hash,
            multipath: fetch.multipath.is_some(),
            http1: Http1Mode::KeepAlive,
            connections_per_origin: 1,
            // The client's own scheduler spreads only its requests and acknowledgements.
            scheduler: match &fetch.multipath {
                Some(choice) => choice.clone(),
                None => pagepath_tquic_scheduler::choose(None, &[])?,
            },
            started: tquic::clock::now(),
        })
    })?;
    let QuicWorld { mut world, replay, events, started } = on;
    let origin = origin.expect("the client's configuration was made");
    let setup = wall.elapsed();
    let (responses, handshake_us, failed) = exchange(&mut world, &events, &fetch, &origin, started);
    Network::finish(&mut world);
    replay.service.write_reports()?;
    let simulation = Numbers::of(&world.paths.delivered(), world.clock.now_us(), world.rounds, wall, setup, topology.seed);
    let transport = if fetch.multipath.is_some() { "mpquic" } else { "quic" };
    let line = Line { protocol: "h3", transport, responses, handshake_us, failed: failed.clone(), simulation };
    let line = serde_json::to_string(&line).map_err(|e| format!("cannot write the report: {e}"))?;
    Ok(Simulated { line, failed: failed.is_some() })
}

/// Every target asked for at time 0, then time moved on until each response is in, one failed, or
/// the fetch's timeout passed: the responses, the handshake's end and why it failed, if it did.
fn exchange(mut world: impl Network, events: &std::sync::mpsc::Receiver<Event>, fetch: &Args, origin: &str, started: Instant) -> (Vec<Response>, Option<u64>, Option<String>) {
    let us = |at: Instant| at.saturating_duration_since(started).as_micros() as u64;
    let mut responses: Vec<Response> = fetch.targets.iter().map(|t| Response { target: t.path.clone(), ..Response::default() }).collect();
    for (id, t) in fetch.targets.iter().enumerate() {
        let request = Fetch { id, url: format!("{origin}{}", t.path), method: "GET".into(), priority: t.priority.clone(), net_priority: None, pool: Pool::default() };
        if let Err(e) = world.fetch(request, true) {
            return (responses, None, Some(format!("{}: {e}", t.path)));
        }
    }
    let deadline = started + fetch.timeout;
    let (mut handshake_us, mut done) = (None, 0);
    while done < responses.len() {
        let Some(got) = world.wait(deadline, events) else { break };
        if got.is_empty() {
            let missing: Vec<&str> = responses.iter().filter(|r| r.end_us.is_none()).map(|r| r.target.as_str()).collect();
            let why = format!("timed out after {} s with {} unfinished", fetch.timeout.as_secs_f64(), missing.join(", "));
            return (responses, handshake_us, Some(why));
        }
        for event in got {
            match event {
                Event::Headers { id, status, at, sent, handshake, .. } => {
                    let r = &mut responses[id];
                    (r.status, r.headers_us, r.start_us) = (Some(status), Some(us(at)), sent.map(us));
                    handshake_us = handshake_us.or(handshake.map(|h| us(h.established)));
                }
                Event::Done { id, status, body_bytes, at } => {
                    let r = &mut responses[id];
                    (r.status, r.bytes, r.end_us) = (Some(status), body_bytes, Some(us(at)));
                    done += 1;
                }
                Event::Failed { id, reason, .. } => return (responses, handshake_us, Some(format!("{}: {reason}", fetch.targets[id].path))),
                Event::Progress { .. } | Event::Http2Connection { .. } => {}
            }
        }
    }
    (responses, handshake_us, None)
}
