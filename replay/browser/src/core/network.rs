//! The model's side of fetching: requests handed out to the driver, HTML documents whose download
//! chunks finish as their bytes arrive, and the session cache (seed 001 §3.7.5): a URL fetched
//! once in a run serves every later reference to it.

use super::browser::{Request, RequestId};
use super::graph::{Graph, Preconnect};
use super::Ms;
use super::network_stack_scheduler::{host_of, NetworkStackScheduler};
use super::request_gate::GatedScheduler;
use super::resource_scheduler::{RequestClass, ResourceScheduler};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// A `resource` node, the first of its URL in the run.
    Resource(usize),
    /// A document, named by its chunk 0.
    Document(usize),
}

struct Flight {
    request: Request,
    purpose: Purpose,
    /// The frame whose document asked for it: its renderer-side scheduler decides.
    frame: usize,
    class: RequestClass,
    /// The class its priority is raised to at the next rendering, if a layout raised it as recorded.
    raise_to: Option<RequestClass>,
    /// Its way to the network stack (the renderer posting it, the network service picking it up),
    /// counted from when it was asked for (`request.asked_ms`): a hold longer than the hop hides
    /// it. graph.rs, `hop_ms`.
    hop: Ms,
    /// Both schedulers let it go: it is in the outbox or handed out.
    released: bool,
    handed_out: bool,
    finished: bool,
}

#[derive(Default)]
struct Document {
    request: Option<RequestId>,
    recorded_size: u64,
    /// The final body size once known (a Content-Length, or the completed response).
    final_size: Option<u64>,
    received: u64,
    finished: bool,
    /// Ready chunks whose bytes have not all arrived: (node, where its bytes end as recorded).
    waiting: Vec<(usize, u64)>,
}

impl Document {
    /// The chunk's bytes are in: its recorded end, scaled to the final size when that differs.
    fn covers(&self, recorded_end: u64) -> bool {
        if self.finished {
            return true;
        }
        let end = match self.final_size {
            Some(size) if self.recorded_size > 0 && size != self.recorded_size => {
                (recorded_end as u128 * size as u128).div_ceil(self.recorded_size as u128) as u64
            }
            _ => recorded_end,
        };
        self.received >= end
    }

    fn take_covered(&mut self) -> Vec<usize> {
        let (covered, waiting): (Vec<_>, Vec<_>) = self.waiting.iter().partition(|&&(_, end)| self.covers(end));
        self.waiting = waiting;
        covered.into_iter().map(|(node, _)| node).collect()
    }
}

struct CacheEntry {
    /// The node whose fetch fills the entry.
    owner: usize,
    finished: bool,
    waiters: Vec<usize>,
}

/// What a session-cache look-up found.
pub(crate) enum Cached {
    Absent,
    /// Fetched already: the node completes at once.
    Complete,
    /// Being fetched: the node completes with that fetch.
    Pending,
}

/// A request the network stack took up: when it started it, and when it sends it.
struct Outgoing {
    id: RequestId,
    started: Ms,
    sent: Ms,
    /// The first request to its origin's pool: its start sets up a connection at once.
    opens: bool,
}

pub(crate) struct Network {
    flights: Vec<Flight>,
    /// Requests the renderer let go, on their way to the network stack: when each gets there.
    crossing: Vec<(Ms, RequestId)>,
    /// When the request the renderer let go last gets to the network stack.
    last_arrival: Ms,
    /// Released requests the network stack has taken up or will: when it starts each, and when
    /// it sends each (request_start_spacing.rs).
    outbox: VecDeque<Outgoing>,
    start_spacing: Ms,
    /// When the network stack is done starting the request it took up last.
    stack_free_at: Ms,
    /// The (host, pool index) pairs a request or preconnect has gone to: a connection is open
    /// or being set up there.
    dialed: BTreeSet<(String, usize)>,
    documents: BTreeMap<usize, Document>,
    cache: BTreeMap<String, CacheEntry>,
    /// The renderer's gates, one per frame as Blink keeps one per document, then the network
    /// stack's, one for the page.
    schedulers: BTreeMap<usize, ResourceScheduler>,
    chromium_scheduling: bool,
    network_stack: NetworkStackScheduler,
    /// Connections to open ahead of their requests, in the order asked for; neither scheduler
    /// holds them (Chromium's preconnects go straight to its socket pools).
    preconnects: VecDeque<Preconnect>,
}

impl Network {
    /// With `chromium_scheduling`, requests wait as Chromium's renderer and network stack make them
    /// wait (resource_scheduler.rs, network_stack_scheduler.rs); without, each goes the moment it
    /// is asked for. Released requests start `start_spacing` ms apart at least.
    pub fn new(chromium_scheduling: bool, start_spacing: Ms) -> Network {
        Network {
            flights: Vec::new(),
            crossing: Vec::new(),
            last_arrival: Ms::NEG_INFINITY,
            outbox: VecDeque::new(),
            start_spacing,
            stack_free_at: Ms::NEG_INFINITY,
            dialed: BTreeSet::new(),
            documents: BTreeMap::new(),
            cache: BTreeMap::new(),
            schedulers: BTreeMap::new(),
            chromium_scheduling,
            network_stack: NetworkStackScheduler::new(chromium_scheduling),
            preconnects: VecDeque::new(),
        }
    }

    /// A `<link rel=preconnect>`: the connection is for the IO side to open.
    pub fn preconnect(&mut self, hint: Preconnect) {
        self.preconnects.push_back(hint);
    }

    /// The next connection to open ahead, if any.
    pub fn poll_preconnect(&mut self) -> Option<Preconnect> {
        let hint = self.preconnects.pop_front()?;
        if let Some(host) = host_of(&hint.origin) {
            self.dialed.insert((host.to_string(), hint.pool.index()));
        }
        Some(hint)
    }

    /// The renderer-side scheduler of `frame`, in tight mode until its parser reaches `<body>`.
    fn scheduler(&mut self, frame: usize) -> &mut ResourceScheduler {
        let enabled = self.chromium_scheduling;
        self.schedulers.entry(frame).or_insert_with(|| ResourceScheduler::new(enabled))
    }

    #[allow(clippy::too_many_arguments)]
    fn send(&mut self, mut request: Request, purpose: Purpose, frame: usize, class: RequestClass, hop: Ms, now: Ms) -> RequestId {
        let id = self.flights.len();
        request.id = id;
        self.flights.push(Flight { request, purpose, frame, class: class.clone(), raise_to: None, hop, released: false, handed_out: false, finished: false });
        let started = self.scheduler(frame).ask(id, class);
        self.release(started, now);
        id
    }

    /// The renderer let `ids` go: each goes on to the network stack's scheduler once its hop is
    /// over, counted from when it was asked for.
    fn release(&mut self, ids: Vec<RequestId>, now: Ms) {
        let mut started = Vec::new();
        for id in ids {
            let flight = &self.flights[id];
            // The renderer's requests reach the network service in the order it sends them, over
            // one ordered channel. A delayable request's hop is the page's usual one, not its own
            // (dispatch_latency.rs): it must not overtake a request let go before it whose own
            // recorded way was longer. On gen-pagepath-20 a 928 KB body script, asked for just
            // after six style sheets and scripts to its host, got there first in the model and
            // took the server's attention from them; in Chromium it reached the network stack
            // after them and waited for a free slot of the six per host.
            let own = flight.request.asked_ms + flight.hop;
            let arrives = if flight.class.delayable() { own.max(self.last_arrival) } else { own };
            self.last_arrival = self.last_arrival.max(arrives);
            if arrives > now {
                self.crossing.push((arrives, id));
            } else {
                started.extend(self.network_stack.ask(id, self.flights[id].class.clone()));
            }
        }
        self.send_out(started, now);
    }

    /// The requests whose hop is over by `now` reach the network stack's scheduler, in the order
    /// they get there.
    fn cross(&mut self, now: Ms) {
        let (mut arrived, crossing): (Vec<_>, Vec<_>) = self.crossing.iter().partition(|&&(at, _)| at <= now);
        self.crossing = crossing;
        arrived.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (at, id) in arrived {
            let started = self.network_stack.ask(id, self.flights[id].class.clone());
            self.send_out(started, at);
        }
    }

    /// The network stack takes released requests up one after another, and sends each once the
    /// requests that reached it before that one was started have been started too: its thread
    /// runs tasks in order, and a request's send is a task its start posts, behind the starts
    /// already queued. So a batch the schedulers let go leaves in one burst after its last start,
    /// as Chromium's did in replay (gen-pagepath-13 at 25 Mbit/s 20 ms: 26 requests started at
    /// 450-534 ms and sent at 536-545). A request that needs a connection no request has gone to
    /// starts setting it up as it is taken up (0.3 ms after `requestTime`, the median over the
    /// corpus recordings), so the model hands it to its transport then.
    fn send_out(&mut self, ids: Vec<RequestId>, now: Ms) {
        for id in ids {
            self.flights[id].released = true;
            let started = now.max(self.stack_free_at + self.start_spacing);
            self.stack_free_at = started;
            for waiting in self.outbox.iter_mut().filter(|o| o.started > now && !o.opens) {
                waiting.sent = waiting.sent.max(started);
            }
            let request = &self.flights[id].request;
            let opens = host_of(&request.url).is_some_and(|host| self.dialed.insert((host.to_string(), request.pool.index())));
            self.outbox.push_back(Outgoing { id, started, sent: started, opens });
        }
    }

    /// When the next released request is taken up, or reaches the network stack, if one is on
    /// its way.
    pub fn next_start(&self) -> Option<Ms> {
        self.outbox.iter().map(|o| o.sent).chain(self.crossing.iter().map(|&(at, _)| at)).reduce(f64::min)
    }

    /// A connection to `origin` (`scheme://host[:port]`) speaks HTTP/2: Chromium's network stack
    /// knows from now on that the server prioritises requests (network_stack_scheduler.rs).
    pub fn speaks_http2(&mut self, origin: &str) {
        if let Some(host) = host_of(origin) {
            self.network_stack.learn_prioritizes(host);
        }
    }

    /// A frame's parser reached `<body>`: Chromium holds its low-priority requests back less.
    pub fn reached_body(&mut self, frame: usize, now: Ms) {
        let started = self.scheduler(frame).reached_body();
        self.release(started, now);
    }

    /// Looks `key` up in the session cache; a node finding a fetch under way waits for it.
    pub fn cached(&mut self, key: &str, node: usize) -> Cached {
        match self.cache.get_mut(key) {
            None => Cached::Absent,
            Some(entry) if entry.finished => Cached::Complete,
            Some(entry) => {
                entry.waiters.push(node);
                Cached::Pending
            }
        }
    }

    /// Fetches a resource; with a cache key, later references to it are served from the cache.
    /// `raise_to`: the class a rendering raises its priority to, if one did in the recording.
    /// `hop`: graph.rs, `hop_ms`.
    #[allow(clippy::too_many_arguments)]
    pub fn fetch_resource(&mut self, node: usize, frame: usize, request: Request, class: RequestClass, raise_to: Option<RequestClass>, cache_key: Option<String>, hop: Ms, now: Ms) {
        if let Some(key) = cache_key {
            self.cache.insert(key, CacheEntry { owner: node, finished: false, waiters: Vec::new() });
        }
        let id = self.send(request, Purpose::Resource(node), frame, class, hop, now);
        self.flights[id].raise_to = raise_to;
    }

    /// The main frame was rendered: Chromium raises the priority of the images its layout put in
    /// the viewport (`ResourceFetcher::UpdateAllImageResourcePriorities`), and a raised request
    /// the schedulers held goes as its new priority allows. Layout places only what is in the DOM:
    /// `in_dom(node)` says whether the resource's element is, and one that is not yet keeps its
    /// raise for a later rendering.
    pub fn raise_priorities(&mut self, now: Ms, in_dom: impl Fn(usize) -> bool) {
        let mut renderer = Vec::new();
        let mut stack = Vec::new();
        for id in 0..self.flights.len() {
            let flight = &mut self.flights[id];
            let placed = match flight.purpose {
                Purpose::Resource(node) => in_dom(node),
                Purpose::Document(_) => true,
            };
            if !placed || flight.finished {
                continue;
            }
            let Some(class) = flight.raise_to.take() else { continue };
            flight.class = class.clone();
            let frame = flight.frame;
            stack.extend(self.network_stack.raised(id, class.clone()));
            renderer.extend(self.scheduler(frame).raised(id, class));
        }
        self.send_out(stack, now);
        self.release(renderer, now);
    }

    /// Fetches the document whose chunk 0 is `chunk0`; the chunk waits for its bytes.
    /// A document is a navigation, which the browser process makes: the renderer's scheduler
    /// neither holds nor counts it.
    pub fn fetch_document(&mut self, chunk0: usize, frame: usize, chunk_end: u64, recorded_size: u64, request: Request, now: Ms) {
        let id = self.send(request, Purpose::Document(chunk0), frame, RequestClass::navigation(), 0.0, now);
        let document = self.documents.entry(chunk0).or_default();
        document.request = Some(id);
        document.recorded_size = recorded_size;
        document.waiting.push((chunk0, chunk_end));
    }

    /// A later chunk is ready: true when its bytes are in already, else it waits for them.
    pub fn chunk_ready(&mut self, document: usize, node: usize, chunk_end: u64) -> bool {
        let document = self.documents.entry(document).or_default();
        if document.covers(chunk_end) {
            return true;
        }
        document.waiting.push((node, chunk_end));
        false
    }

    /// The next request to hand out by `now`, and the node it stands for.
    pub fn poll(&mut self, now: Ms) -> Option<(Request, usize)> {
        self.cross(now);
        let at = self.outbox.iter().position(|o| o.sent <= now)?;
        let Outgoing { id, started, .. } = self.outbox.remove(at)?;
        let flight = &mut self.flights[id];
        flight.request.taken_up_ms = started;
        flight.handed_out = true;
        let node = match flight.purpose {
            Purpose::Resource(n) | Purpose::Document(n) => n,
        };
        // A frame's document is a navigation, VeryHigh in Chromium.
        flight.request.net_priority = match flight.purpose {
            Purpose::Document(_) => Some(0),
            Purpose::Resource(_) => flight.class.priority,
        };
        Some((flight.request.clone(), node))
    }

    fn document_of(&mut self, id: RequestId) -> Option<&mut Document> {
        match self.flights.get(id)?.purpose {
            Purpose::Document(chunk0) => self.documents.get_mut(&chunk0),
            Purpose::Resource(_) => None,
        }
    }

    /// The response's body will be `size` bytes long; returns the chunks now complete.
    pub fn body_size(&mut self, id: RequestId, size: u64) -> Vec<usize> {
        let Some(document) = self.document_of(id) else { return Vec::new() };
        document.final_size = Some(size);
        document.take_covered()
    }

    /// `received` body bytes are in; returns the chunks now complete.
    pub fn body_bytes(&mut self, id: RequestId, received: u64) -> Vec<usize> {
        let Some(document) = self.document_of(id) else { return Vec::new() };
        document.received = document.received.max(received);
        document.take_covered()
    }

    /// The request is over (done or failed): the URL it asked for and the nodes that complete, or
    /// None when the request is unknown or was over already.
    pub fn finish(&mut self, id: RequestId, body_bytes: Option<u64>, now: Ms) -> Option<(String, Vec<usize>)> {
        let flight = self.flights.get_mut(id).filter(|f| !f.finished)?;
        flight.finished = true;
        let (url, purpose, frame) = (flight.request.url.clone(), flight.purpose, flight.frame);
        let started = self.network_stack.finished(id);
        self.send_out(started, now);
        let started = self.scheduler(frame).finished(id);
        self.release(started, now);
        let nodes = match purpose {
            Purpose::Resource(node) => {
                let mut nodes = vec![node];
                if let Some(entry) = self.cache.values_mut().find(|e| e.owner == node) {
                    entry.finished = true;
                    nodes.append(&mut entry.waiters);
                }
                nodes
            }
            Purpose::Document(chunk0) => {
                let document = self.documents.get_mut(&chunk0)?;
                document.finished = true;
                document.final_size = body_bytes.or(document.final_size);
                document.take_covered()
            }
        };
        Some((url, nodes))
    }

    /// No request is in flight, held back or waiting its turn to start.
    pub fn is_quiet(&self) -> bool {
        self.flights.iter().all(|f| f.finished)
    }

    /// Requests in flight or not handed out yet, chunks waiting for bytes, nodes waiting for a
    /// fetch of their URL: one sentence each.
    pub fn waiting(&self, graph: &Graph) -> Vec<String> {
        let id = |n: usize| graph.nodes[n].id.as_str();
        let mut lines = Vec::new();
        for flight in self.flights.iter().filter(|f| !f.finished) {
            let r = &flight.request;
            let state = match (flight.handed_out, flight.released) {
                (true, _) => "in flight",
                (false, true) => "not handed out yet",
                (false, false) => "held back by a resource scheduler",
            };
            lines.push(format!("request {} {} {} (node {}) {state}", r.id, r.method, r.url, r.node));
        }
        for document in self.documents.values() {
            let url = document.request.map_or("its document", |r| self.flights[r].request.url.as_str());
            for &(node, end) in &document.waiting {
                lines.push(format!("chunk {} waits for body bytes up to {end} of {url} ({} in)", id(node), document.received));
            }
        }
        for (key, entry) in &self.cache {
            for &node in &entry.waiters {
                lines.push(format!("{} waits for {key}, which {} is fetching", id(node), id(entry.owner)));
            }
        }
        lines
    }
}
