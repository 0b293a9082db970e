//! Reading the graph file's nodes and edges into the emulated graph.

use super::graph::{NetworkTimes, Chunk, Fetch, Kind, Link, Node, Preconnect, Ranks};
use super::connection_pool::Pool;
use super::font_display::FontDisplay;
use super::json::At;
use std::collections::BTreeMap;

/// Rules graph.md names besides Table 3.1's R1..R25.
const NAMED_RULES: [&str; 19] = [
    "continuation",
    "completion-dcl",
    "completion-load",
    "completion-load-raced",
    "completion-event",
    "fetch-callback",
    "preload",
    "session-cache",
    "lazy-binding",
    "module-import",
    "sync-xhr",
    "worker",
    "paint-fcp",
    "paint-lcp",
    "font-display-block",
    "font-display-auto",
    "style-recalc",
    "render",
    "render-raced",
];

fn is_rule(rule: &str) -> bool {
    let numbered = rule.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| (1..=25).contains(&n) && !rule.starts_with("R0"));
    numbered || NAMED_RULES.contains(&rule)
}

/// Every node id in the file: its emulated index, or None when excluded.
pub(crate) type IdIndex = BTreeMap<String, Option<usize>>;

pub(crate) struct NodeReader<'f> {
    frames: &'f BTreeMap<&'f str, usize>,
    nodes: Vec<Node>,
    index: IdIndex,
    /// Where each id was defined, for duplicate-id errors.
    defined_at: BTreeMap<String, String>,
    /// For chunks after the first: the JSON place, to name when their chunk 0 is missing.
    chunk_places: Vec<(usize, String)>,
    /// Parse chunks that reached `<body>`: their document's URL and `bodyByte`.
    body_bytes: Vec<(usize, String, u64)>,
}

fn kind_of(at: &At) -> Result<Kind, String> {
    Ok(match at.str()? {
        "download" => Kind::Download,
        "parse" => Kind::Parse,
        "resource" => Kind::Resource,
        "script" => Kind::Script,
        "css" => Kind::Css,
        "timer" => Kind::Timer,
        "event" => Kind::Event,
        "dcl" => Kind::Dcl,
        "load" => Kind::Load,
        "render" => Kind::Render,
        "fcp" => Kind::Fcp,
        "lcp" => Kind::Lcp,
        "preconnect" => Kind::Preconnect,
        _ => return at.fail("must be one of download, parse, resource, script, css, timer, event, dcl, load, render, fcp, lcp, preconnect"),
    })
}

fn fetch_of(at: &At) -> Result<Fetch, String> {
    let url = at.field("url")?.string()?;
    let redirects = at.field("redirects")?.items()?;
    let first_url = match redirects.first() {
        Some(hop) => hop.string()?,
        None => url.clone(),
    };
    let chrome_priority = at.optional("priority")?.map(|p| p.string()).transpose()?;
    let initial_priority = match at.value.get("initialPriority") {
        Some(_) => at.optional("initialPriority")?.map(|p| p.string()).transpose()?,
        None => chrome_priority.clone(),
    };
    Ok(Fetch {
        url,
        first_url,
        method: at.field("method")?.string()?,
        body_size: at.field("bodySize")?.u64()?,
        recorded_from_cache: at.optional("fromCache")?.is_some(),
        chrome_priority,
        initial_priority,
        resource_type: at.optional("resourceType")?.map(|t| t.string()).transpose()?.unwrap_or_default(),
        privacy_mode: at.optional("privacyMode")?.map(|p| p.bool()).transpose()?.unwrap_or(false),
        link_preload: at.optional("linkPreload")?.map(|p| p.bool()).transpose()?.unwrap_or(false),
        in_viewport: at.optional("inViewport")?.map(|p| p.bool()).transpose()?.unwrap_or(false),
        network: network_times(at)?,
    })
}

/// Where the recorded fetch met the network, from graphs that have phases (graph.md, `phases`).
fn network_times(resource: &At) -> Result<Option<NetworkTimes>, String> {
    let Some(phases) = resource.optional("phases")? else { return Ok(None) };
    let span = |phase: &str| -> Result<Option<(f64, f64)>, String> {
        phases.optional(phase)?.map(|p| Ok((p.field("start")?.f64()?, p.field("end")?.f64()?))).transpose()
    };
    if span("queued")?.is_none() {
        return Ok(None);
    }
    let setup_start = span("dns")?.or(span("connect")?).map(|(start, _)| start);
    let setup_end = span("ssl")?.or(span("connect")?).map(|(_, end)| end);
    let connection = resource.optional("connection")?.map(|c| c.field("id")?.u64()).transpose()?;
    Ok(Some(NetworkTimes {
        taken_up: resource.optional("networkStartMs")?.map(|t| t.f64()).transpose()?,
        sent: span("send")?.map(|(start, _)| start),
        setup: setup_start.zip(setup_end),
        connection,
        headers: span("wait")?.map(|(_, end)| end),
    }))
}

fn ranks_of(at: Option<At>) -> Result<Ranks, String> {
    let Some(at) = at else { return Ok(Ranks::default()) };
    let rank = |key: &str| at.optional(key)?.map(|r| r.u64()).transpose();
    Ok(Ranks { mime: rank("mimeRank")?, critical_path: rank("criticalPathRank")?, depth: rank("depthRank")? })
}

impl<'f> NodeReader<'f> {
    pub fn new(frames: &'f BTreeMap<&'f str, usize>) -> Self {
        NodeReader { frames, nodes: Vec::new(), index: BTreeMap::new(), defined_at: BTreeMap::new(), chunk_places: Vec::new(), body_bytes: Vec::new() }
    }

    pub fn read(&mut self, at: &At) -> Result<(), String> {
        let id_at = at.field("id")?;
        let id = id_at.string()?;
        if let Some(first) = self.defined_at.get(&id) {
            return id_at.fail(&format!("id {id:?} is already used by {first}"));
        }
        self.defined_at.insert(id.clone(), at.path.clone());
        if !at.field("excluded")?.is_null() {
            self.index.insert(id, None);
            return Ok(());
        }
        let kind = kind_of(&at.field("kind")?)?;
        let frame_at = at.field("frameId")?;
        let frame = *self.frames.get(frame_at.str()?).ok_or_else(|| format!("{}: no frame has this id", frame_at.path))?;
        let fetch = match kind {
            Kind::Download | Kind::Resource => Some(fetch_of(&at.field("resource")?)?),
            _ => None,
        };
        let chunk = match kind {
            Kind::Download => {
                let c = at.field("chunk")?;
                let index = c.field("index")?.u64()?;
                let end = c.field("offset")?.u64()? + c.field("bytes")?.u64()?;
                if index > 0 {
                    self.chunk_places.push((self.nodes.len(), c.path.clone()));
                }
                Some(Chunk { index, end, document: self.nodes.len() })
            }
            _ => None,
        };
        let preconnect = match kind {
            Kind::Preconnect => {
                let p = at.field("preconnect")?;
                // The partition is the frame's, which walk.rs adds.
                let pool = Pool { privacy_mode: p.field("privacyMode")?.bool()?, partitioned: false };
                Some(Preconnect { origin: p.field("origin")?.string()?, pool, sockets: 1 })
            }
            _ => None,
        };
        let timeout_ms = match kind {
            Kind::Timer => Some(at.field("timer")?.field("timeoutMs")?.f64()?),
            _ => None,
        };
        let segment = match kind {
            Kind::Script => at.field("script")?.field("segment")?.u64()?,
            Kind::Css => at.field("css")?.field("segment")?.u64()?,
            Kind::Timer => at.field("timer")?.field("segment")?.u64()?,
            Kind::Event => at.field("event")?.field("segment")?.u64()?,
            _ => 0,
        };
        let duration = at.field("duration")?.f64()?;
        if duration < 0.0 {
            return at.field("duration")?.fail("must not be negative");
        }
        let ranks = ranks_of(at.optional("priority")?)?;
        let body_reached = match kind {
            Kind::Parse => {
                let p = at.field("parse")?;
                let reached = p.optional("bodyReached")?.map(|b| b.bool()).transpose()?.unwrap_or(false);
                if let (true, Some(byte)) = (reached, p.optional("bodyByte")?) {
                    self.body_bytes.push((self.nodes.len(), p.field("url")?.string()?, byte.u64()?));
                }
                reached
            }
            _ => false,
        };
        let recorded = (at.field("start")?.f64()?, at.field("end")?.f64()?);
        self.index.insert(id.clone(), Some(self.nodes.len()));
        let (parents, children) = (Vec::new(), Vec::new());
        self.nodes.push(Node { id, kind, frame, duration, fetch, chunk, preconnect, timeout_ms, segment, ranks, recorded, dispatch_ms: 0.0, hop_ms: 0.0, body_reached, body_chunk: None, after_sync_request: false, parents, children });
        Ok(())
    }

    fn endpoint(&self, at: &At) -> Result<Option<usize>, String> {
        let id = at.str()?;
        match self.index.get(id) {
            Some(found) => Ok(*found),
            None => at.fail(&format!("no node has id {id:?}")),
        }
    }

    pub fn link(&mut self, at: &At) -> Result<(), String> {
        let from = self.endpoint(&at.field("from")?)?;
        let to = self.endpoint(&at.field("to")?)?;
        let rule_at = at.field("rule")?;
        let rule = rule_at.string()?;
        if !is_rule(&rule) {
            return rule_at.fail(&format!("{rule:?} is not a rule graph.md names (R1..R25, continuation, completion-dcl, ...)"));
        }
        let (Some(from), Some(to)) = (from, to) else { return Ok(()) };
        if from == to {
            return at.fail("an edge from a node to itself");
        }
        let link = match rule.as_str() {
            "preload" => Link::Preload,
            "completion-load-raced" | "render-raced" => Link::IfStarted,
            "font-display-block" => Link::Font(FontDisplay::Block),
            "font-display-auto" => Link::Font(FontDisplay::Auto),
            "R1" if self.nodes[from].kind == Kind::Parse => Link::ParserTag,
            _ => Link::Plain,
        };
        if rule == "sync-xhr" {
            self.nodes[to].after_sync_request = true;
        }
        let parents = &mut self.nodes[to].parents;
        match parents.iter_mut().find(|(p, _)| *p == from) {
            // Two rules joining the same nodes: the dependency is plain unless both say the same.
            Some((_, known)) if *known != link => *known = Link::Plain,
            Some(_) => {}
            None => parents.push((from, link)),
        }
        Ok(())
    }

    /// The nodes with parents and children sorted, chunks joined to their document, and the id index.
    pub fn finish(mut self) -> Result<(Vec<Node>, IdIndex), String> {
        for (i, place) in std::mem::take(&mut self.chunk_places) {
            let document = self.chunk_zero_for(i).ok_or_else(|| {
                format!("{place}: no emulated chunk 0 of {} in the same frame", self.nodes[i].fetch.as_ref().map_or("", |f| &f.url))
            })?;
            if let Some(chunk) = self.nodes[i].chunk.as_mut() {
                chunk.document = document;
            }
        }
        for (i, url, byte) in std::mem::take(&mut self.body_bytes) {
            // The first of the document's chunks to end at or past the tag; none in a graph whose
            // chunks are not of this document (the chunk then reaches the body as it completes).
            let frame = self.nodes[i].frame;
            let holding = (0..self.nodes.len())
                .filter(|&d| self.nodes[d].kind == Kind::Download && self.nodes[d].frame == frame && self.nodes[d].fetch.as_ref().is_some_and(|f| f.url == url))
                .filter(|&d| self.nodes[d].chunk.as_ref().is_some_and(|c| c.end >= byte))
                .min_by_key(|&d| self.nodes[d].chunk.as_ref().map_or(u64::MAX, |c| c.end));
            self.nodes[i].body_chunk = holding;
        }
        for i in 0..self.nodes.len() {
            self.nodes[i].parents.sort_by_key(|&(p, _)| p);
            for p in self.nodes[i].parents.iter().map(|&(p, _)| p).collect::<Vec<_>>() {
                self.nodes[p].children.push(i);
            }
        }
        self.check_acyclic()?;
        Ok((self.nodes, self.index))
    }

    /// A cycle among emulated nodes would stall the page for ever: name one.
    fn check_acyclic(&self) -> Result<(), String> {
        let mut missing: Vec<usize> = self.nodes.iter().map(|n| n.parents.len()).collect();
        let mut free: Vec<usize> = (0..self.nodes.len()).filter(|&n| missing[n] == 0).collect();
        let mut ordered = 0;
        while let Some(n) = free.pop() {
            ordered += 1;
            for &c in &self.nodes[n].children {
                missing[c] -= 1;
                if missing[c] == 0 {
                    free.push(c);
                }
            }
        }
        if ordered == self.nodes.len() {
            return Ok(());
        }
        // Walking up from a node left over always meets a cycle: some parent is left over too.
        let mut path = vec![(0..self.nodes.len()).find(|&n| missing[n] > 0).expect("a node is left over")];
        loop {
            let last = *path.last().expect("the path is not empty");
            let up = self.nodes[last].parents.iter().map(|&(p, _)| p).find(|&p| missing[p] > 0).expect("a parent is left over");
            if let Some(start) = path.iter().position(|&n| n == up) {
                let ids: Vec<&str> = path[start..].iter().rev().map(|&n| self.nodes[n].id.as_str()).collect();
                return Err(format!("/edges: a cycle joins {} (each waits for the one before it)", ids.join(" -> ")));
            }
            path.push(up);
        }
    }

    /// A later chunk's document: the chunk 0 of the same URL in the same frame, the nearest one
    /// before it in the file when a frame loaded the URL more than once.
    fn chunk_zero_for(&self, i: usize) -> Option<usize> {
        let url = |n: &Node| n.fetch.as_ref().map(|f| f.url.clone());
        let same = |n: &Node| {
            n.kind == Kind::Download && n.chunk.as_ref().is_some_and(|c| c.index == 0) && n.frame == self.nodes[i].frame && url(n) == url(&self.nodes[i])
        };
        let before = (0..i).rev().find(|&j| same(&self.nodes[j]));
        before.or_else(|| (i + 1..self.nodes.len()).find(|&j| same(&self.nodes[j])))
    }
}
