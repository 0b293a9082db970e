//! The client loop: the model's requests go out over a Network, their bytes come back as the
//! model's inputs. Over real connections (Router) the model's time is the wall clock since the run
//! started; over the simulator's links (replay/sim) it is virtual time. Both read tquic's clock,
//! which is the wall clock unless the thread set a virtual time.

use super::clock::iso8601;
use super::origins::{find_origin, NameMap};
use super::phases::Stamps;
use super::report::{Report, RequestRecord, Versions};
use super::router::Router;
use super::transport::{ConnectionRecord, Event, Fetch, TransportConfig};
use crate::cli::RunArgs;
use crate::core::{Browser, Graph, Pool, RequestId};
use std::collections::BTreeMap;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Instant, SystemTime};
use tquic::clock;

/// Where the model's fetches travel, and how time passes while they do.
pub trait Network {
    /// Starts a fetch to an https (`tls`) or http origin; Err says why it cannot go.
    fn fetch(&mut self, fetch: Fetch, tls: bool) -> Result<(), String>;
    /// Opens a connection to an https (`tls`) or http origin (`scheme://host[:port]`) in `pool`
    /// ahead of its requests, unless one is open (Transport::preconnect); Err says why it cannot.
    fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize, tls: bool) -> Result<(), String>;
    /// Lets time pass until `until` or until something is sent on `events`, whichever is first,
    /// and returns what was sent (nothing at `until`); None when nothing can be sent any more.
    fn wait(&mut self, until: Instant, events: &Receiver<Event>) -> Option<Vec<Event>>;
    /// Closes every connection and reports them all.
    fn finish(self) -> Vec<ConnectionRecord>;
}

impl Network for Router {
    fn fetch(&mut self, fetch: Fetch, tls: bool) -> Result<(), String> {
        Router::fetch(self, fetch, tls)
    }

    fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize, tls: bool) -> Result<(), String> {
        Router::preconnect(self, origin, pool, sockets, tls)
    }

    fn wait(&mut self, until: Instant, events: &Receiver<Event>) -> Option<Vec<Event>> {
        let mut got = Vec::new();
        match events.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(e) => got.push(e),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return None,
        }
        got.extend(events.try_iter());
        Some(got)
    }

    fn finish(self) -> Vec<ConnectionRecord> {
        Router::finish(self)
    }
}

/// A browser gives up on a redirect chain longer than this (Chromium's limit is 20).
const MAX_REDIRECTS: u32 = 20;

struct InFlight {
    record: usize,
    url: String,
    method: String,
    priority: Option<String>,
    net_priority: Option<u8>,
    pool: Pool,
    hops: u32,
    redirect_to: Option<String>,
    /// Of the current hop, for the fetch's phases.
    stamps: Stamps,
}

/// The transports' settings for a run starting now.
pub fn transport_config(names: &NameMap, args: &RunArgs) -> TransportConfig {
    TransportConfig {
        origins: names.origins.clone(),
        locals: args.locals.clone(),
        spki_hash: names.spki_hash.clone(),
        multipath: args.multipath,
        http1: match args.protocol {
            crate::cli::Protocol::Http1(mode) => mode,
            _ => super::transport::Http1Mode::KeepAlive,
        },
        connections_per_origin: args.connections,
        scheduler: args.scheduler.clone(),
        started: clock::now(),
    }
}

/// Loads the page over real connections.
pub fn run(graph: &Graph, names: NameMap, args: &RunArgs) -> Report {
    let (tx, rx) = channel();
    let config = transport_config(&names, args);
    let started = config.started;
    let router = Router::new(config, args.protocol, tx);
    run_on(graph, &names, args, router, &rx, (started, SystemTime::now()))
}

/// Loads the page over `network`, whose transports report on `rx`, from `started` on: an instant
/// of tquic's clock and the wall clock's time then, which the report gives as its start.
pub fn run_on(graph: &Graph, names: &NameMap, args: &RunArgs, mut network: impl Network, rx: &Receiver<Event>, started: (Instant, SystemTime)) -> Report {
    let (started, wall) = started;
    let started_at = iso8601(wall);
    let mut browser = Browser::new(graph, args.options.clone());
    let ms = |at: Instant| at.saturating_duration_since(started).as_nanos() as f64 / 1e6;
    let timeout_ms = args.timeout.as_secs_f64() * 1000.0;
    let mut requests: Vec<RequestRecord> = Vec::new();
    let mut in_flight: BTreeMap<RequestId, InFlight> = BTreeMap::new();
    let mut warnings = Vec::new();
    // The model must never see time go backwards, though events carry when they were read.
    let mut model_now = 0.0f64;
    browser.start(0.0);
    let (status, error) = loop {
        while let Some(req) = browser.poll_request() {
            let record = requests.len();
            requests.push(RequestRecord {
                url: req.url.clone(),
                node_id: req.node.clone(),
                status: None,
                body_bytes: None,
                start_ms: req.taken_up_ms.min(model_now),
                end_ms: None,
                connection: None,
                phases: None,
            });
            let priority = req.urgency.map(|u| if req.incremental { format!("u={u}, i") } else { format!("u={u}") });
            let flight = InFlight { record, url: req.url.clone(), method: req.method.clone(), priority, net_priority: req.net_priority, pool: req.pool, hops: 0, redirect_to: None, stamps: Stamps { asked: req.asked_ms.min(model_now), ..Stamps::default() } };
            if let Err(reason) = send(&mut network, names, &flight, req.id) {
                browser.on_failed(req.id, &reason, model_now);
                requests[record].end_ms = Some(model_now);
                continue;
            }
            in_flight.insert(req.id, flight);
        }
        while let Some(hint) = browser.poll_preconnect() {
            // A hint to an origin the replay does not serve opens nothing, as a browser's to a host
            // that does not answer costs the page nothing.
            if let Some(origin) = find_origin(&names.origins, &format!("{}/", hint.origin)) {
                if let Err(reason) = network.preconnect(&origin.origin, hint.pool, hint.sockets, origin.tls) {
                    warnings.push(format!("preconnect to {}: {reason}", hint.origin));
                }
            }
        }
        if browser.is_finished() {
            break ("ok", None);
        }
        let now = ms(clock::now()).max(model_now);
        if now >= timeout_ms {
            let waiting = browser.waiting_for().join("; ");
            break ("incomplete", Some(format!("timed out after {} s waiting for {waiting}", args.timeout.as_secs_f64())));
        }
        let wake = browser.next_timeout();
        if wake.is_none() && in_flight.is_empty() {
            let waiting = browser.waiting_for().join("; ");
            break ("incomplete", Some(format!("the page cannot go on: nothing is running or being fetched, but it waits for {waiting}")));
        }
        let until_ms = wake.unwrap_or(timeout_ms).min(timeout_ms);
        // Rounded up, so that the wait cannot end before the timer it waits for.
        let until = started + std::time::Duration::from_nanos((until_ms.max(0.0) * 1e6).ceil() as u64);
        let Some(events) = network.wait(until, rx) else {
            break ("failed", Some("every transport stopped".into()));
        };
        for event in events {
            handle(event, &mut browser, &mut network, names, &mut in_flight, &mut requests, &mut model_now, &mut warnings, ms);
        }
        let at = clock::now();
        // A wait that reached its end reached the timer it waited for, though the clock's instant
        // may read a rounding below it in ms: in virtual time, where nothing else moves the clock,
        // the timer would otherwise never be due.
        let now = if at >= until { ms(at).max(until_ms) } else { ms(at) }.max(model_now);
        if browser.next_timeout().is_some_and(|t| t <= now) {
            model_now = now;
            browser.handle_timeout(now);
        }
    };
    let outcome = browser.outcome();
    warnings.extend(outcome.warnings);
    Report {
        kind: "pagepath-browser-report",
        status,
        error,
        started_at,
        timeout_ms,
        metrics: outcome.metrics,
        node_timings: outcome.node_timings,
        connections: network.finish(),
        requests,
        warnings,
        versions: Versions { browser: env!("CARGO_PKG_VERSION") },
    }
}

fn send(network: &mut impl Network, names: &NameMap, flight: &InFlight, id: RequestId) -> Result<(), String> {
    let origin = find_origin(&names.origins, &flight.url).ok_or_else(|| format!("{}: no replay server serves this origin", flight.url))?;
    let fetch = Fetch { id, url: flight.url.clone(), method: flight.method.clone(), priority: flight.priority.clone(), net_priority: flight.net_priority, pool: flight.pool };
    network.fetch(fetch, origin.tls)
}

#[allow(clippy::too_many_arguments)]
fn handle(
    event: Event,
    browser: &mut Browser,
    network: &mut impl Network,
    names: &NameMap,
    in_flight: &mut BTreeMap<RequestId, InFlight>,
    requests: &mut [RequestRecord],
    model_now: &mut f64,
    warnings: &mut Vec<String>,
    ms: impl Fn(Instant) -> f64,
) {
    let (id, at) = match &event {
        Event::Headers { id, at, .. } | Event::Progress { id, at, .. } | Event::Done { id, at, .. } | Event::Failed { id, at, .. } => (*id, *at),
        Event::Http2Connection { origin, at } => {
            *model_now = model_now.max(ms(*at));
            browser.on_http2_connection(origin, *model_now);
            return;
        }
    };
    let Some(flight) = in_flight.get_mut(&id) else { return };
    *model_now = model_now.max(ms(at));
    let now = *model_now;
    match event {
        Event::Headers { status, location, sent, handshake, .. } => {
            flight.stamps.sent = sent.map(&ms);
            flight.stamps.handshake = handshake.map(|h| (ms(h.started), h.tls_started.map(&ms), ms(h.established)));
            flight.stamps.headers = Some(now);
            flight.redirect_to = match location {
                Some(to) if (300..400).contains(&status) && status != 304 => Some(resolve(&flight.url, &to)),
                _ => None,
            };
            requests[flight.record].status = Some(status);
        }
        Event::Progress { received, .. } => {
            if flight.redirect_to.is_none() {
                browser.on_body_bytes(id, received, now);
            }
        }
        Event::Done { status, body_bytes, .. } => {
            if let Some(to) = flight.redirect_to.take() {
                flight.hops += 1;
                if flight.hops > MAX_REDIRECTS {
                    warnings.push(format!("{}: more than {MAX_REDIRECTS} redirects; given up", requests[flight.record].url));
                } else {
                    flight.url = to;
                    flight.stamps = Stamps { asked: now, ..Stamps::default() };
                    // A redirect to a GET-only answer: browsers turn a redirected POST into GET on 301-303.
                    if (301..=303).contains(&status) {
                        flight.method = "GET".into();
                    }
                    match send(network, names, flight, id) {
                        Ok(()) => return,
                        Err(reason) => warnings.push(reason),
                    }
                }
            }
            let record = &mut requests[flight.record];
            record.status = Some(status);
            record.body_bytes = Some(body_bytes);
            record.end_ms = Some(now);
            record.phases = flight.stamps.phases(now);
            in_flight.remove(&id);
            browser.on_complete(id, body_bytes, now);
        }
        Event::Failed { reason, .. } => {
            requests[flight.record].end_ms = Some(now);
            in_flight.remove(&id);
            browser.on_failed(id, &reason, now);
        }
        Event::Http2Connection { .. } => unreachable!("told the model above"),
    }
}

/// A Location header against the URL it answered: absolute, scheme-relative, absolute-path or
/// relative-path references.
fn resolve(base: &str, location: &str) -> String {
    if location.contains("://") {
        return location.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if let Some(r) = location.strip_prefix("//") {
        return format!("{scheme}://{r}");
    }
    if location.starts_with('/') {
        return format!("{scheme}://{authority}{location}");
    }
    let path = rest[authority_end..].split(['?', '#']).next().unwrap_or("/");
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    format!("{scheme}://{authority}{}{location}", if dir.is_empty() { "/" } else { dir })
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn locations_resolve_against_the_request() {
        assert_eq!(resolve("https://a.test/x/y?q", "https://b.test/z"), "https://b.test/z");
        assert_eq!(resolve("https://a.test/x/y?q", "//b.test/z"), "https://b.test/z");
        assert_eq!(resolve("https://a.test/x/y?q", "/z"), "https://a.test/z");
        assert_eq!(resolve("https://a.test/x/y?q", "z"), "https://a.test/x/z");
        assert_eq!(resolve("https://a.test", "z"), "https://a.test/z");
    }
}
