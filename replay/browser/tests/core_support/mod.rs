//! Test support for the model: graphs built node by node, and a fake network on a virtual clock
//! that answers each request after a delay the test chooses.
#![allow(dead_code)]

use pagepath_browser::core::{parse_graph, Browser, Graph, Ms, NodeTiming, Options, Outcome, Preconnect, Request, RequestId};
use serde_json::{json, Value};

pub const MAIN: &str = "F1";

/// A graph file under construction; the main frame F1 has markers `dcl` and `load`.
pub struct Page {
    frames: Vec<Value>,
    nodes: Vec<Value>,
    edges: Vec<Value>,
    root: String,
}

impl Page {
    pub fn new(root: &str) -> Page {
        let mut page = Page { frames: Vec::new(), nodes: Vec::new(), edges: Vec::new(), root: root.into() };
        page.frame(MAIN, None, "dcl", "load");
        page
    }

    pub fn frame(&mut self, id: &str, parent: Option<&str>, dcl: &str, load: &str) {
        self.frames.push(json!({"id": id, "parentId": parent, "url": format!("https://a.test/{id}.html"),
            "firstDownload": null, "lastDownload": null, "dcl": dcl, "load": load, "beforeLoad": true}));
        self.node(json!({"id": dcl, "kind": "dcl", "frameId": id, "duration": 0}));
        self.node(json!({"id": load, "kind": "load", "frameId": id, "duration": 0}));
    }

    fn node(&mut self, mut node: Value) -> &mut Value {
        let fields = json!({"label": node["id"], "start": 0, "end": 0, "excluded": null});
        for (k, v) in fields.as_object().unwrap() {
            node[k] = v.clone();
        }
        self.nodes.push(node);
        self.nodes.last_mut().unwrap()
    }

    fn resource_info(url: &str, size: u64) -> Value {
        json!({"url": url, "origin": "https://a.test", "method": "GET", "mimeType": "x", "resourceType": "x",
            "status": 200, "protocol": "h2", "archiveIds": [], "redirects": [], "bodySize": size,
            "transferSize": size, "serverDelayMs": null, "fromCache": null, "preloaded": false,
            "lazyBound": false, "initiatorType": "parser", "initiatorUrl": null, "priority": "High"})
    }

    /// A download chunk of the document `url` (`size` bytes in all): its index, offset and bytes.
    pub fn download(&mut self, id: &str, frame: &str, url: &str, (index, offset, bytes): (u64, u64, u64), size: u64) -> &mut Value {
        let mut resource = Self::resource_info(url, size);
        resource["priority"] = "VeryHigh".into();
        self.node(json!({"id": id, "kind": "download", "frameId": frame, "duration": 10, "resource": resource,
            "chunk": {"index": index, "offset": offset, "bytes": bytes, "last": offset + bytes == size},
            "priority": {"criticalPathWeight": 0, "criticalPathRank": null, "mimeRank": 0, "depthWeight": 0, "depthRank": null}}))
    }

    pub fn resource(&mut self, id: &str, frame: &str, url: &str, mime_rank: u64) -> &mut Value {
        let resource = Self::resource_info(url, 1000);
        self.node(json!({"id": id, "kind": "resource", "frameId": frame, "duration": 10, "resource": resource,
            "priority": {"criticalPathWeight": 0, "criticalPathRank": 0, "mimeRank": mime_rank, "depthWeight": 0, "depthRank": 0}}))
    }

    pub fn parse(&mut self, id: &str, frame: &str, duration: f64) {
        self.node(json!({"id": id, "kind": "parse", "frameId": frame, "duration": duration,
            "parse": {"url": "https://a.test/", "startLine": 0, "endLine": 1, "index": 0, "last": false}}));
    }

    pub fn script(&mut self, id: &str, frame: &str, duration: f64) {
        self.node(json!({"id": id, "kind": "script", "frameId": frame, "duration": duration,
            "script": {"url": "https://a.test/a.js", "type": "sync", "line": null, "segment": 0}}));
    }

    pub fn css(&mut self, id: &str, frame: &str, duration: f64) {
        self.node(json!({"id": id, "kind": "css", "frameId": frame, "duration": duration,
            "css": {"url": "https://a.test/a.css", "segment": 0}}));
    }

    pub fn event(&mut self, id: &str, frame: &str, duration: f64) {
        self.node(json!({"id": id, "kind": "event", "frameId": frame, "duration": duration,
            "event": {"type": "load", "target": "element", "segment": 0}}));
    }

    pub fn timer(&mut self, id: &str, frame: &str, duration: f64, timeout_ms: f64) {
        self.node(json!({"id": id, "kind": "timer", "frameId": frame, "duration": duration,
            "timer": {"timerId": 1, "timeoutMs": timeout_ms, "singleShot": true, "fire": 0, "segment": 0}}));
    }

    /// A `<link rel=preconnect>` to `origin`, for requests without credentials when `anonymous`.
    pub fn preconnect(&mut self, id: &str, frame: &str, origin: &str, anonymous: bool) {
        self.node(json!({"id": id, "kind": "preconnect", "frameId": frame, "duration": 0,
            "preconnect": {"origin": origin, "privacyMode": anonymous}}));
    }

    /// A rendering of the main frame (style, layout, paint) taking `duration` ms of its main thread.
    pub fn render(&mut self, id: &str, duration: f64) {
        self.node(json!({"id": id, "kind": "render", "frameId": MAIN, "duration": duration}));
    }

    /// A zero-duration marker of the main frame: `fcp` or `lcp` (graph.md, Paint markers).
    pub fn paint(&mut self, id: &str, kind: &str) {
        self.paint_rendered(id, kind, 0.0);
    }

    /// A paint marker whose frame took `rendering` ms to render and present.
    pub fn paint_rendered(&mut self, id: &str, kind: &str, rendering: f64) {
        self.node(json!({"id": id, "kind": kind, "frameId": MAIN, "duration": rendering}));
    }

    /// Edges `from -> to` for each pair, all with `rule`.
    pub fn edges(&mut self, rule: &str, pairs: &[(&str, &str)]) {
        for (from, to) in pairs {
            self.edges.push(json!({"from": from, "to": to, "rule": rule, "how": "inferred"}));
        }
    }

    /// Sets `field` of frame `id`.
    pub fn set_frame(&mut self, id: &str, field: &str, value: Value) {
        let frame = self.frames.iter_mut().find(|f| f["id"] == id).unwrap_or_else(|| panic!("no frame {id}"));
        frame[field] = value;
    }

    /// Sets the field at JSON `pointer` (e.g. "/priority/criticalPathRank") of node `id`, adding
    /// it if its parent object has no such field yet.
    pub fn set(&mut self, id: &str, pointer: &str, value: Value) {
        let node = self.nodes.iter_mut().find(|n| n["id"] == id).unwrap_or_else(|| panic!("no node {id}"));
        let (parent, field) = pointer.rsplit_once('/').unwrap_or_else(|| panic!("{pointer} is not a JSON pointer"));
        let parent = if parent.is_empty() { Some(node) } else { node.pointer_mut(parent) };
        let object = parent.and_then(|p| p.as_object_mut()).unwrap_or_else(|| panic!("{id} has no object at {pointer}'s parent"));
        object.insert(field.to_owned(), value);
    }

    pub fn json(&self) -> String {
        json!({"schemaVersion": 1, "kind": "pagepath-graph", "root": self.root, "mainFrame": MAIN,
            "frames": self.frames, "nodes": self.nodes, "edges": self.edges, "warnings": []})
        .to_string()
    }

    pub fn graph(&self) -> Graph {
        parse_graph(&self.json()).unwrap_or_else(|e| panic!("test graph: {e}"))
    }
}

/// What the fake network does for one request, after a delay from when it is handed out.
#[derive(Clone, Debug)]
pub enum Answer {
    Bytes(Ms, u64),
    Complete(Ms, u64),
    Fail(Ms),
}

/// The fake network's answers to a request.
pub type Responder = Box<dyn Fn(&Request) -> Vec<Answer>>;

/// The model driven by a virtual clock and a fake network.
pub struct Sim {
    pub browser: Browser,
    answer: Responder,
    pending: Vec<(Ms, RequestId, Answer)>,
    /// Every request handed out, with when.
    pub issued: Vec<(Ms, Request)>,
    /// Every connection asked to be opened ahead, with when.
    pub preconnects: Vec<(Ms, Preconnect)>,
    /// Connections that will come up speaking HTTP/2: when, and to which origin.
    http2: Vec<(Ms, String)>,
    pub now: Ms,
}

/// Every request completes after `delay_of(url)` ms with its recorded body size.
pub fn latency(delay_of: impl Fn(&str) -> Ms + 'static) -> Responder {
    Box::new(move |r: &Request| vec![Answer::Complete(delay_of(&r.url), r.expected_body_bytes.unwrap_or(0))])
}

impl Sim {
    pub fn new(graph: &Graph, options: Options, answer: Responder) -> Sim {
        Sim { browser: Browser::new(graph, options), answer, pending: Vec::new(), issued: Vec::new(), preconnects: Vec::new(), http2: Vec::new(), now: 0.0 }
    }

    /// A connection to `origin` comes up at `at` and speaks HTTP/2 (Browser::on_http2_connection).
    pub fn http2_connection(mut self, at: Ms, origin: &str) -> Sim {
        self.http2.push((at, origin.to_string()));
        self.http2.sort_by(|a, b| a.0.total_cmp(&b.0));
        self
    }

    fn poll(&mut self) {
        while let Some(request) = self.browser.poll_request() {
            for a in (self.answer)(&request) {
                let delay = match a {
                    Answer::Bytes(d, _) | Answer::Complete(d, _) | Answer::Fail(d) => d,
                };
                self.pending.push((self.now + delay, request.id, a));
            }
            self.issued.push((self.now, request));
        }
        while let Some(hint) = self.browser.poll_preconnect() {
            self.preconnects.push((self.now, hint));
        }
    }

    /// Runs until the browser is finished or nothing more can happen.
    pub fn run(&mut self) -> Outcome {
        self.browser.start(0.0);
        loop {
            self.poll();
            if self.browser.is_finished() {
                break;
            }
            let next = (0..self.pending.len()).reduce(|a, b| if self.pending[b].0 < self.pending[a].0 { b } else { a });
            let timeout = self.browser.next_timeout();
            let first_due = [next.map(|i| self.pending[i].0), timeout].into_iter().flatten().reduce(f64::min);
            if let Some(c) = (0..self.http2.len()).find(|&c| first_due.is_none_or(|t| self.http2[c].0 <= t)) {
                let (at, origin) = self.http2.remove(c);
                self.now = self.now.max(at);
                self.browser.on_http2_connection(&origin, self.now);
                continue;
            }
            let deliver = match (next, timeout) {
                (Some(i), Some(t)) => self.pending[i].0 <= t,
                (next, _) => next.is_some(),
            };
            if deliver {
                let (at, id, answer) = self.pending.remove(next.unwrap());
                self.now = at;
                match answer {
                    Answer::Bytes(_, n) => self.browser.on_body_bytes(id, n, at),
                    Answer::Complete(_, n) => self.browser.on_complete(id, n, at),
                    Answer::Fail(_) => self.browser.on_failed(id, "connection reset", at),
                }
            } else if let Some(t) = timeout {
                self.now = t;
                self.browser.handle_timeout(t);
            } else {
                break;
            }
        }
        self.browser.outcome()
    }

    pub fn issued_urls(&self) -> Vec<String> {
        self.issued.iter().map(|(_, r)| r.url.clone()).collect()
    }

    pub fn issued_at(&self, url: &str) -> Ms {
        self.issued.iter().find(|(_, r)| r.url == url).unwrap_or_else(|| panic!("{url} was not requested")).0
    }
}

/// The (start, end) of node `id`; panics if it did not run exactly once.
pub fn timing(outcome: &Outcome, id: &str) -> (Ms, Ms) {
    let found: Vec<&NodeTiming> = outcome.node_timings.iter().filter(|t| t.node_id == id).collect();
    assert_eq!(found.len(), 1, "node {id} should run once: {:?}", outcome.node_timings);
    (found[0].start, found[0].end)
}

/// Asserts times to the microsecond, naming the node.
pub fn assert_times(outcome: &Outcome, id: &str, start: Ms, end: Ms) {
    let (s, e) = timing(outcome, id);
    assert!((s - start).abs() < 1e-6 && (e - end).abs() < 1e-6, "{id}: ran {s}..{e}, expected {start}..{end}");
}

pub fn order(outcome: &Outcome) -> Vec<&str> {
    outcome.node_timings.iter().map(|t| t.node_id.as_str()).collect()
}

/// A page whose parser blocks on a sync script: d0 -> p0 (5 ms) -> a.js -> s (8 ms) -> p1 (3 ms)
/// -> i.png; dcl after p1; load after dcl, a.js and i.png.
pub fn sync_script_page() -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.resource("js", MAIN, "https://a.test/a.js", 2);
    page.script("s", MAIN, 8.0);
    page.parse("p1", MAIN, 3.0);
    page.resource("img", MAIN, "https://a.test/i.png", 3);
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1")]);
    page.edges("R1", &[("p0", "js"), ("p1", "img")]);
    page.edges("R10", &[("js", "s")]);
    page.edges("R4", &[("s", "p1")]);
    page.edges("completion-dcl", &[("p1", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("js", "load"), ("img", "load")]);
    page
}

/// Latencies of sync_script_page: the document 20 ms, a.js 30 ms, i.png 10 ms.
pub fn sync_script_latency(url: &str) -> Ms {
    match url {
        "https://a.test/" => 20.0,
        "https://a.test/a.js" => 30.0,
        "https://a.test/i.png" => 10.0,
        _ => panic!("unexpected request for {url}"),
    }
}
