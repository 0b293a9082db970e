//! Algorithm 3, the graph walk: a node whose parents are complete becomes ready and, by kind, is
//! fetched, queued for the main thread, armed as a timer, or completed at once; completing it
//! readies its children. Time moves on through computations ending and timers firing.

use super::browser::{Browser, NodeTiming, Phase, Request};
use super::connection_pool::Pool;
use super::font_display::FontDisplay;
use super::graph::{Kind, Link};
use super::network::Cached;
use super::navigation_preconnect::navigation_preconnect;
use super::network_stack_scheduler::host_of;
use super::resource_scheduler::RequestClass;
use super::scheduler::Lane;
use super::Ms;
use std::collections::VecDeque;

/// Chrome clamps timers nested this deep (timer callbacks installing timers) ...
const CLAMPED_TIMER_NESTING: u32 = 5;
/// ... to at least this delay (HTML's timer initialisation steps).
const MIN_NESTED_TIMER_MS: Ms = 4.0;

impl Browser {
    /// A frame's parser reaches `<body>` once the bytes up to the tag are in and whatever held the
    /// parser before the chunk (a head script, the chunk before) is done, though the rest of the
    /// chunk's bytes are still on the way: Chromium parses as bytes arrive, and on real-admin-lte
    /// at 1 Mbit/s 100 ms asked for the body's images at 770 ms, with the 63 KB document ending at
    /// 2,072 ms (its recording, on loopback, parsed head and body in one chunk).
    fn reach_bodies_early(&mut self) {
        let mut i = 0;
        while i < self.early_bodies_left.len() {
            let body = self.early_bodies_left[i];
            let node = &self.graph.nodes[body];
            let done = |n: usize| self.states[n].phase == Phase::Done;
            let bytes_in = node.body_chunk.is_some_and(done);
            let unblocked = node.parents.iter().all(|&(p, _)| self.graph.nodes[p].kind == Kind::Download || done(p));
            if done(body) || (bytes_in && unblocked) {
                if !done(body) {
                    self.network.reached_body(node.frame, self.clock);
                }
                self.early_bodies_left.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The root, and any other node without emulated parents, become ready.
    pub(super) fn begin(&mut self) {
        let root = self.graph.root;
        let orphans: Vec<usize> = (0..self.graph.nodes.len()).filter(|&n| n != root && self.readiness.has_no_parents(n)).collect();
        if !orphans.is_empty() {
            let ids: Vec<&str> = orphans.iter().map(|&n| self.graph.nodes[n].id.as_str()).collect();
            self.warnings.push(format!("nodes {} have no emulated parent; they start with the root", ids.join(", ")));
        }
        for node in std::iter::once(root).chain(orphans) {
            if self.become_ready(node) {
                self.complete(vec![node]);
            }
        }
    }

    /// Completes `nodes` now, and whatever completes at once as a result (markers, cache hits,
    /// chunks whose bytes are in), in the order they complete.
    pub(super) fn complete(&mut self, nodes: Vec<usize>) {
        let mut work = VecDeque::from(nodes);
        while let Some(node) = work.pop_front() {
            if self.states[node].phase == Phase::Done {
                continue;
            }
            let now = self.clock;
            let state = &mut self.states[node];
            state.phase = Phase::Done;
            let start = *state.start.get_or_insert(state.ready_at.unwrap_or(now));
            state.end = Some(now);
            self.timings.push(NodeTiming { node_id: self.graph.nodes[node].id.clone(), start, end: now });
            if self.graph.nodes[node].body_reached {
                self.network.reached_body(self.graph.nodes[node].frame, self.clock);
            }
            self.reach_bodies_early();
            if self.graph.nodes[node].kind == Kind::Render {
                // A preloaded image is in the DOM once the parse chunk holding its tag has run:
                // on gen-pagepath-5 a frame's parser was held by a head script while the page
                // rendered, and its images, raised then, left 300 ms before Chromium's.
                let (graph, states) = (&self.graph, &self.states);
                let in_dom = |n: usize| graph.nodes[n].parents.iter().all(|&(p, link)| link != Link::ParserTag || states[p].phase == Phase::Done);
                self.network.raise_priorities(self.clock, in_dom);
            }
            self.done += 1;
            if self.done == self.graph.nodes.len() {
                self.graph_complete = Some(now);
            }
            for i in 0..self.graph.nodes[node].children.len() {
                let child = self.graph.nodes[node].children[i];
                let waiting = self.states[child].phase == Phase::Waiting;
                if waiting && self.is_ready(child) && self.become_ready(child) {
                    work.push_back(child);
                }
            }
        }
    }

    /// Whether a waiting node's parents let it start now (ready.rs).
    fn is_ready(&self, node: usize) -> bool {
        let waited_out = |font: usize, display: FontDisplay| self.font_gives_up_at(font, display).is_some_and(|at| at <= self.clock);
        self.readiness.is_ready(node, |p| self.states[p].phase, waited_out)
    }

    /// When text waiting for `font` in a face of this display stops waiting (font_display.rs):
    /// the browser asked for the font as its node became ready.
    fn font_gives_up_at(&self, font: usize, display: FontDisplay) -> Option<Ms> {
        display.gives_up_at(self.navigation_start, self.states[font].ready_at)
    }

    /// The next time a waiting text paint gives up on a web font still loading, after now.
    pub(super) fn next_font_give_up(&self) -> Option<Ms> {
        let waiting = self.readiness.font_waits().filter(|&(node, _)| self.states[node].phase == Phase::Waiting);
        let fonts = waiting.flat_map(|(_, fonts)| fonts.iter().filter(|&&(font, _)| self.states[font].phase != Phase::Done));
        let times = fonts.filter_map(|&(font, display)| self.font_gives_up_at(font, display));
        times.filter(|&at| at > self.clock).reduce(f64::min)
    }

    /// Text paints whose fonts' block periods are over by now start, if nothing else holds them.
    fn give_up_on_fonts(&mut self) {
        let waiting: Vec<usize> = self.readiness.font_waits().map(|(node, _)| node).filter(|&n| self.states[n].phase == Phase::Waiting).collect();
        for node in waiting {
            if self.is_ready(node) && self.become_ready(node) {
                self.complete(vec![node]);
            }
        }
    }

    /// Makes a node ready: its work starts now, or after its frame's rendering (a paint) or its
    /// recorded dispatch latency (`send_delayed`). True when it is complete at once.
    fn become_ready(&mut self, node: usize) -> bool {
        self.states[node].phase = Phase::Ready;
        self.states[node].ready_at = Some(self.clock);
        let n = &self.graph.nodes[node];
        let delay = match n.kind {
            // A paint is presented after its frame's rendering (style, layout, paint, raster,
            // compositing: the recorded duration), which goes on whatever else runs meanwhile.
            Kind::Fcp | Kind::Lcp if n.duration > 0.0 => Some((n.duration * self.options.cpu_factor).max(0.0)),
            Kind::Resource | Kind::Download | Kind::Parse if self.options.dispatch_latency && n.dispatch_ms > 0.0 => Some(n.dispatch_ms),
            _ => None,
        };
        match delay {
            Some(delay) => {
                self.dispatching.push((self.clock + delay, node));
                false
            }
            None => self.start_work(node),
        }
    }

    /// Starts a node's work; true when it is complete at once.
    fn start_work(&mut self, node: usize) -> bool {
        let (frame, segment) = (self.graph.nodes[node].frame, self.graph.nodes[node].segment);
        match self.kind(node) {
            Kind::Dcl | Kind::Load | Kind::Fcp | Kind::Lcp => return true,
            // The connection opens on its own; nothing waits for it.
            Kind::Preconnect => {
                let mut hint = self.graph.nodes[node].preconnect.clone().expect("preconnect nodes carry their origin");
                hint.pool = self.pool(node, hint.pool.privacy_mode);
                self.network.preconnect(hint);
                return true;
            }
            Kind::Resource => return self.fetch_resource(node),
            Kind::Download => return self.download_chunk(node),
            // The rest of a computation its nested child interrupted: the same task goes on.
            _ if segment > 0 => self.scheduler.push(node, frame, Lane::Urgent),
            Kind::Parse => self.scheduler.push(node, frame, Lane::Parse),
            Kind::Script | Kind::Css => self.scheduler.push(node, frame, Lane::Eval),
            // Chromium's scheduler runs a due frame's rendering before other queued work.
            Kind::Event | Kind::Render => self.scheduler.push(node, frame, Lane::Urgent),
            Kind::Timer => self.arm_timer(node),
        }
        false
    }

    /// A timer fires its timeout after it is installed. Nesting is counted along timer parents
    /// only, an approximation of Chrome's count of timer tasks installing timers.
    fn arm_timer(&mut self, node: usize) {
        let n = &self.graph.nodes[node];
        let nested = n.parents.iter().filter(|&&(p, _)| self.kind(p) == Kind::Timer).map(|&(p, _)| self.states[p].timer_depth).max();
        let depth = nested.unwrap_or(0) + 1;
        self.states[node].timer_depth = depth;
        let timeout = n.timeout_ms.expect("timer nodes carry their timeout");
        let delay = if depth >= CLAMPED_TIMER_NESTING { timeout.max(MIN_NESTED_TIMER_MS) } else { timeout };
        self.scheduler.arm(node, self.clock + delay);
    }

    /// The connection pool a node's request or preconnect goes to: its privacy mode, and its
    /// frame's partition.
    fn pool(&self, node: usize, privacy_mode: bool) -> Pool {
        Pool { privacy_mode, partitioned: self.graph.frames[self.graph.nodes[node].frame].cross_site }
    }

    fn request_for(&self, node: usize) -> Request {
        let n = &self.graph.nodes[node];
        let fetch = n.fetch.as_ref().expect("fetch nodes carry their resource");
        let (urgency, incremental) = self.urgency.of(n);
        Request {
            id: 0,
            node: n.id.clone(),
            url: fetch.first_url.clone(),
            method: fetch.method.clone(),
            frame: self.graph.frame_id(node).to_string(),
            urgency,
            incremental,
            // Set as the request leaves (network.rs), from its priority then.
            net_priority: None,
            expected_body_bytes: Some(fetch.body_size),
            document: n.kind == Kind::Download,
            pool: self.pool(node, fetch.privacy_mode),
            asked_ms: self.clock,
            taken_up_ms: self.clock,
        }
    }

    /// What Chromium's schedulers know of a request when it is made, and what they know once a
    /// rendering raised its priority: as it did in the recording, or to High for an image the
    /// layout puts in the viewport (the recording shows that raise only for images still loading
    /// at its layout; graph.md, `inViewport`).
    fn request_classes(&self, node: usize) -> (RequestClass, Option<RequestClass>) {
        let fetch = self.graph.nodes[node].fetch.as_ref().expect("fetch nodes carry their resource");
        let class = |priority: Option<&str>| {
            let class = RequestClass::new(priority, &fetch.resource_type, host_of(&fetch.first_url));
            if fetch.link_preload { class.unthrottled() } else { class }
        };
        let made = class(fetch.initial_priority.as_deref());
        let laid_out = fetch.in_viewport.then(|| class(Some("High")));
        let raised = [Some(class(fetch.chrome_priority.as_deref())), laid_out]
            .into_iter()
            .flatten()
            .filter(|c| made.priority.zip(c.priority).is_some_and(|(m, c)| c < m))
            .min_by_key(|c| c.priority);
        (made, raised)
    }

    /// A resource is fetched, unless the session cache has it or it needs no network.
    fn fetch_resource(&mut self, node: usize) -> bool {
        let fetch = self.graph.nodes[node].fetch.as_ref().expect("resource nodes carry their resource");
        // A browser decodes data: URLs and reads blob: URLs from memory.
        if fetch.first_url.starts_with("data:") || fetch.first_url.starts_with("blob:") {
            return true;
        }
        // Only GET responses are reused: a browser sends every POST.
        let key = (fetch.method == "GET").then(|| fetch.first_url.clone());
        if let Some(key) = &key {
            match self.network.cached(key, node) {
                Cached::Complete => return true,
                Cached::Pending => return false,
                Cached::Absent => {}
            }
        }
        if fetch.recorded_from_cache {
            let url = &fetch.url;
            self.warnings.push(format!("{url}: the recording took it from a cache; this run fetches it (cold cache)"));
        }
        let request = self.request_for(node);
        let (class, raise_to) = self.request_classes(node);
        let hop = if self.options.dispatch_latency { self.graph.nodes[node].hop_ms } else { 0.0 };
        let frame = self.graph.nodes[node].frame;
        self.network.fetch_resource(node, frame, request, class, raise_to, key, hop, self.clock);
        false
    }

    /// Chunk 0 of a document sends its request; every chunk completes when its bytes are in.
    fn download_chunk(&mut self, node: usize) -> bool {
        let n = &self.graph.nodes[node];
        let chunk = n.chunk.as_ref().expect("download nodes carry their chunk");
        if chunk.index == 0 {
            let (end, size) = (chunk.end, n.fetch.as_ref().map_or(0, |f| f.body_size));
            let request = self.request_for(node);
            let navigation = (n.frame == self.graph.main_frame).then(|| navigation_preconnect(&request.url, request.pool)).flatten();
            self.network.fetch_document(node, n.frame, end, size, request, self.clock);
            // After the document's request, as Chromium's second connection follows its first.
            if let Some(hint) = navigation {
                self.network.preconnect(hint);
            }
            return false;
        }
        let (document, end) = (chunk.document, chunk.end);
        self.network.chunk_ready(document, node, end)
    }

    /// A computation piece that sent a synchronous request keeps the main thread until its next
    /// piece, which the response lets go on, has run: real-vis-docs's DOMContentLoaded handlers
    /// fetch 15 pages so, and Chromium ran its async analytics script only after them, where the
    /// model ran it during the first wait, its beacon long before load.
    fn hold_for_sync_request(&mut self, finished: usize) {
        let next = self.graph.nodes[finished].children.iter().copied().find(|&c| self.graph.nodes[c].after_sync_request && self.states[c].phase != Phase::Done);
        if let Some(piece) = next {
            self.scheduler.hold_for(piece);
        }
    }

    /// The idle main thread takes its next computation.
    fn dispatch(&mut self) {
        if let Some(node) = self.scheduler.next_computation() {
            self.states[node].start = Some(self.clock);
            // A nonsensical factor (negative, NaN) must not make time run backwards.
            let cost = (self.graph.nodes[node].duration * self.options.cpu_factor).max(0.0);
            self.scheduler.run(node, self.clock + cost);
        }
    }

    /// When the next delayed fetch goes or paint is presented.
    pub(super) fn next_dispatch(&self) -> Option<Ms> {
        self.dispatching.iter().map(|&(due, _)| due).reduce(f64::min)
    }

    /// Starts the delayed node (a fetch, a first parse chunk, a paint) whose delay is over first, if one is by `now`.
    fn send_delayed(&mut self, now: Ms) -> bool {
        let Some(i) = self.next_dispatch().filter(|&due| due <= now).and_then(|due| self.dispatching.iter().position(|&(d, _)| d == due)) else {
            return false;
        };
        let (due, node) = self.dispatching.remove(i);
        self.clock = self.clock.max(due);
        let done_at_once = self.start_work(node);
        if done_at_once {
            self.complete(vec![node]);
        }
        true
    }

    /// Runs computations, timers and delayed fetches due up to `now`, each at its own time.
    pub(super) fn run_until(&mut self, now: Ms) {
        loop {
            self.dispatch();
            let (computation, delayed) = (self.scheduler.next_timeout(), self.next_dispatch());
            // Before anything later, or the clock would pass the moment unnoticed.
            let others = computation.into_iter().chain(delayed).reduce(f64::min);
            if let Some(at) = self.next_font_give_up().filter(|&at| at <= now && others.is_none_or(|o| at < o)) {
                self.clock = at;
                self.give_up_on_fonts();
                continue;
            }
            let computation_first = match (computation, delayed) {
                (Some(c), Some(d)) => c <= d,
                (_, d) => d.is_none(),
            };
            if !computation_first && self.send_delayed(now) {
                continue;
            }
            match self.scheduler.next_timeout() {
                Some(due) if due <= now => {
                    self.clock = self.clock.max(due);
                    if let Some(node) = self.scheduler.take_finished(self.clock) {
                        self.complete(vec![node]);
                        self.hold_for_sync_request(node);
                    }
                    self.scheduler.fire_due(self.clock);
                }
                _ => break,
            }
        }
        self.clock = self.clock.max(now);
    }
}
