//! The model's API: a page load driven by its caller's inputs (start, responses, timeouts) at
//! virtual times, handing out requests. The graph walk is in walk.rs, reports in report.rs.

use super::connection_pool::Pool;
use super::graph::{Graph, Kind, Preconnect};
use super::lcp_candidates::LcpElement;
use super::network::Network;
use super::priority::Urgency;
use super::ready::Readiness;
use super::scheduler::Scheduler;
use super::Ms;
use serde::Serialize;

/// How long the network must stay quiet after the load event before a Chromium replay's recording
/// stops (replay/runner chromium-client.ts, `quietMs`): the model runs on while anything could
/// make a request within it, so both clients' runs hold the same requests.
const QUIET_PERIOD_MS: Ms = 1000.0;

/// Which completion ends the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    DomContentLoaded,
    Load,
    /// Every emulated node of the graph has run.
    Graph,
}

/// The priority each request asks the server for (RFC 9218 urgency), as run-result.md's
/// `configuration.priority` names the schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorityScheme {
    /// No priority header.
    None,
    /// Chrome's recorded request priority (VeryHigh 0, High 1, Medium 2, Low 3, VeryLow 4).
    Browser,
    /// The graph's mimeRank (0..4).
    Mime,
    /// The graph's criticalPathRank, spread over urgencies 0..7.
    CriticalPath,
    /// The graph's depthRank, spread over urgencies 0..7.
    Depth,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub preloader: bool,
    /// Multiplies every computation's duration (2.0 = a CPU twice as slow).
    pub cpu_factor: f64,
    pub wait_for: Completion,
    pub priority: PriorityScheme,
    /// Send each request as long after its parents finish as the recorded browser did (its
    /// dispatch latency); off, requests go the moment they are ready, as in PCP.
    pub dispatch_latency: bool,
    /// Hold low-priority requests back as Chromium's network stack does (resource_scheduler.rs);
    /// off, every request goes the moment it is ready.
    pub chromium_request_scheduling: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { preloader: true, cpu_factor: 1.0, wait_for: Completion::Graph, priority: PriorityScheme::None, dispatch_latency: false, chromium_request_scheduling: true }
    }
}

/// Index of a request the model handed out, unique within a run.
pub type RequestId = usize;

/// A fetch the driver must make now.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: RequestId,
    /// The graph node it stands for: a `resource` node, or a document's first `download` chunk.
    pub node: String,
    /// The URL to ask for first: the first redirect hop when the recording was redirected.
    pub url: String,
    pub method: String,
    pub frame: String,
    /// RFC 9218 urgency (0 most urgent .. 7) and incremental flag; None: send no priority.
    pub urgency: Option<u8>,
    pub incremental: bool,
    /// Chromium's own priority of the request when it leaves, 0 VeryHigh .. 4 VeryLow, whatever
    /// the priority scheme (None: not recorded): the order in which its connections take waiting
    /// requests (io/transport.rs, `Fetch::net_priority`).
    pub net_priority: Option<u8>,
    /// The recorded decoded body size, when known.
    pub expected_body_bytes: Option<u64>,
    /// An HTML document, whose download chunks finish as its bytes arrive.
    pub document: bool,
    /// Which of its origin's connections it may use (privacy mode, network partition).
    pub pool: Pool,
    /// When the model asked for it, before its request scheduling held it: where its queued phase starts.
    pub asked_ms: Ms,
    /// When its network service took it up (Chromium's `requestTime`): the run result's `startMs`.
    /// It leaves then or, behind the requests taken up before it, later (network.rs).
    pub taken_up_ms: Ms,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeTiming {
    pub node_id: String,
    pub start: Ms,
    pub end: Ms,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    pub dom_content_loaded_ms: Option<Ms>,
    pub load_ms: Option<Ms>,
    pub graph_complete_ms: Option<Ms>,
    /// When the graph's main-frame paint markers completed; None without them (older graphs, a
    /// page that painted nothing contentful).
    pub first_contentful_paint_ms: Option<Ms>,
    pub largest_contentful_paint_ms: Option<Ms>,
    /// Why there is no largest contentful paint marker: the recording's reason when it gave one.
    pub largest_contentful_paint_missing: Option<String>,
    /// The element the largest contentful paint showed, chosen among the graph's candidates;
    /// None without them (the run result then names the graph's `lcp` marker's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub largest_contentful_paint_element: Option<LcpElement>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub metrics: Metrics,
    /// Nodes that ran, in the order they finished.
    pub node_timings: Vec<NodeTiming>,
    pub warnings: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Waiting,
    Ready,
    Done,
}

#[derive(Clone, Debug)]
pub(super) struct NodeState {
    pub phase: Phase,
    pub ready_at: Option<Ms>,
    pub start: Option<Ms>,
    pub end: Option<Ms>,
    /// For timers: how deeply timer callbacks nest to install it (1: not installed by a timer).
    pub timer_depth: u32,
}

pub struct Browser {
    pub(super) graph: Graph,
    pub(super) options: Options,
    pub(super) readiness: Readiness,
    pub(super) urgency: Urgency,
    pub(super) scheduler: Scheduler,
    pub(super) network: Network,
    /// Fetches waiting out their dispatch latency, and paints their frame's rendering: (when they go, node).
    pub(super) dispatching: Vec<(Ms, usize)>,
    pub(super) states: Vec<NodeState>,
    /// Virtual time of the latest input or timeout; never goes back.
    pub(super) clock: Ms,
    /// When the page started (the root became ready): Chromium's navigation start.
    pub(super) navigation_start: Ms,
    pub(super) started: bool,
    pub(super) done: usize,
    pub(super) graph_complete: Option<Ms>,
    pub(super) timings: Vec<NodeTiming>,
    pub(super) warnings: Vec<String>,
    /// Parse chunks (Graph::early_bodies) whose frame's parser has not yet reached `<body>`.
    pub(super) early_bodies_left: Vec<usize>,
}

impl Browser {
    pub fn new(graph: &Graph, options: Options) -> Browser {
        let fresh = NodeState { phase: Phase::Waiting, ready_at: None, start: None, end: None, timer_depth: 0 };
        Browser {
            readiness: Readiness::new(graph, options.preloader),
            urgency: Urgency::new(graph, options.priority),
            scheduler: Scheduler::new(&graph.frames, graph.main_frame),
            network: Network::new(options.chromium_request_scheduling, if options.dispatch_latency { graph.request_start_spacing_ms } else { 0.0 }),
            dispatching: Vec::new(),
            states: vec![fresh; graph.nodes.len()],
            graph: graph.clone(),
            options,
            clock: 0.0,
            navigation_start: 0.0,
            started: false,
            done: 0,
            graph_complete: None,
            timings: Vec::new(),
            warnings: Vec::new(),
            early_bodies_left: graph.early_bodies.clone(),
        }
    }

    /// Starts the page at `now`: the root becomes ready.
    pub fn start(&mut self, now: Ms) {
        if self.started {
            return;
        }
        self.started = true;
        self.clock = now;
        self.navigation_start = now;
        self.begin();
        self.run_until(now);
    }

    /// The next fetch to make, if any; call until None after every input.
    pub fn poll_request(&mut self) -> Option<Request> {
        let (request, node) = self.network.poll(self.clock)?;
        self.states[node].start.get_or_insert(self.clock);
        Some(request)
    }

    /// The next connection to open ahead of its requests (`<link rel=preconnect>`), if any; call
    /// until None after every input, as poll_request.
    pub fn poll_preconnect(&mut self) -> Option<Preconnect> {
        self.network.poll_preconnect()
    }

    /// `received` body bytes (cumulative, of the final response) have arrived for request `id`.
    pub fn on_body_bytes(&mut self, id: RequestId, received: u64, now: Ms) {
        self.run_until(now);
        let complete = self.network.body_bytes(id, received);
        self.complete(complete);
        self.run_until(self.clock);
    }

    /// The response to request `id` will have a body of `body_bytes` (e.g. its Content-Length):
    /// a document's chunks then finish at their share of the actual body rather than the recorded
    /// one. Optional; on_complete tells the size too.
    pub fn on_body_size(&mut self, id: RequestId, body_bytes: u64, now: Ms) {
        self.run_until(now);
        let complete = self.network.body_size(id, body_bytes);
        self.complete(complete);
        self.run_until(self.clock);
    }

    /// The whole response to request `id` is in (`body_bytes` long).
    pub fn on_complete(&mut self, id: RequestId, body_bytes: u64, now: Ms) {
        self.run_until(now);
        match self.network.finish(id, Some(body_bytes), self.clock) {
            Some((_, complete)) => self.complete(complete),
            None => self.warnings.push(format!("request {id} completed but is unknown or was over already; ignored")),
        }
        self.run_until(self.clock);
    }

    /// A connection to `origin` (`scheme://host[:port]`) negotiated HTTP/2: from now on the
    /// network stack knows the server prioritises and holds none of its requests back
    /// (network_stack_scheduler.rs). Tell it as the connection comes up, before its requests go.
    pub fn on_http2_connection(&mut self, origin: &str, now: Ms) {
        self.run_until(now);
        self.network.speaks_http2(origin);
    }

    /// Request `id` failed; the page goes on as a browser does after a failed fetch.
    pub fn on_failed(&mut self, id: RequestId, reason: &str, now: Ms) {
        self.run_until(now);
        match self.network.finish(id, None, self.clock) {
            Some((url, complete)) => {
                self.warnings.push(format!("{url}: the request failed ({reason}); the page went on without it"));
                self.complete(complete);
            }
            None => self.warnings.push(format!("request {id} failed ({reason}) but is unknown or was over already; ignored")),
        }
        self.run_until(self.clock);
    }

    /// When the model next needs `handle_timeout` (a computation ending, a timer firing, a
    /// released request's turn to start, a text paint ceasing to wait for its web font).
    pub fn next_timeout(&self) -> Option<Ms> {
        [self.scheduler.next_timeout(), self.next_dispatch(), self.network.next_start(), self.next_font_give_up()].into_iter().flatten().reduce(f64::min)
    }

    pub fn handle_timeout(&mut self, now: Ms) {
        self.run_until(now);
    }

    /// The completion asked for in Options::wait_for has happened. Waiting for load also waits
    /// for the paint markers, which a page often reaches just after its load event, and, as
    /// Chromium's recording of a replay does (the profiler's quiet period), for the network to be
    /// quiet: requests made around the load event, such as a `<link rel=prefetch>` Chromium sends
    /// just after it, are part of the run.
    pub fn is_finished(&self) -> bool {
        let frame = &self.graph.frames[self.graph.main_frame];
        let marker = match self.options.wait_for {
            Completion::DomContentLoaded => frame.dcl,
            Completion::Load => frame.load,
            Completion::Graph => None,
        };
        let done = |node: Option<usize>| node.is_none_or(|n| self.states[n].phase == Phase::Done);
        // Asked only once the marker is done: the driver asks after every event.
        let settled = || self.options.wait_for != Completion::Load || (done(self.graph.paints.fcp) && done(self.graph.paints.lcp) && self.is_quiet());
        match marker {
            Some(node) => self.states[node].phase == Phase::Done && settled(),
            // Without the marker in the emulation, only the whole graph tells that the page is done.
            None => self.graph_complete.is_some(),
        }
    }

    /// Nothing can reach the network within Chromium's quiet period: no request in flight or
    /// waiting, no node waiting out a delay, no computation running or queued (a script after the
    /// load event may still fetch), no timer firing within the period.
    fn is_quiet(&self) -> bool {
        if !(self.network.is_quiet() && self.dispatching.is_empty() && self.scheduler.running().is_none()) {
            return false;
        }
        let (queued, timers) = self.scheduler.queued();
        queued.is_empty() && timers.iter().all(|&(_, fires_at)| fires_at > self.clock + QUIET_PERIOD_MS)
    }

    pub(super) fn kind(&self, node: usize) -> Kind {
        self.graph.nodes[node].kind
    }
}
