//! The graph file (docs/formats/graph.md) as the model needs it: the emulated nodes (`excluded:
//! null`) in file order and the edges between two of them. Only the fields the model uses are
//! read; the TypeScript validator checks the rest of the shape before the browser runs.

use super::connection_pool::Pool;
use super::font_display::FontDisplay;
use super::json::At;
use super::lcp_candidates::{read_candidates, Candidate};
use super::dispatch_latency::set_dispatch_latency;
use super::request_start_spacing::recorded_start_spacing;
use std::collections::BTreeMap;

pub(crate) const SCHEMA_VERSION: u64 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Download,
    Parse,
    Resource,
    Script,
    Css,
    Timer,
    Event,
    Dcl,
    Load,
    /// The main frame's rendering in one task (style, layout, paint): main-thread work that
    /// layout's requests and the parser's next chunk wait for (graph.md, `render`).
    Render,
    /// The main frame's first and largest contentful paint markers (graph.md, Paint markers).
    Fcp,
    Lcp,
    /// A connection opened ahead of its requests for a `<link rel=preconnect>` (graph.md, `preconnect`).
    Preconnect,
}

/// What a `preconnect` node opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preconnect {
    /// `scheme://host[:port]`.
    pub origin: String,
    /// Its `crossorigin` (privacy mode); the partition is its frame's, which walk.rs adds.
    pub pool: Pool,
    /// How many connections the origin should have open or opening once it is done: 1 for a
    /// `<link rel=preconnect>`, 2 for the main frame's origin at navigation
    /// (navigation_preconnect.rs).
    pub sockets: usize,
}

/// What a parent edge means to the preloader (graph.md, `preload` rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    /// A `preload` edge from the download chunk the preload scanner had seen.
    Preload,
    /// An `R1` edge from the parse chunk holding the tag.
    ParserTag,
    /// A `completion-load-raced` or `render-raced` edge: the load event (a rendering) waits for
    /// this parent only if it has started by the time everything else it waits for is done.
    IfStarted,
    /// A `font-display-*` edge: a text paint waits for its web font until the face's block
    /// period ends (font_display.rs).
    Font(FontDisplay),
    /// Any other dependency.
    Plain,
}

#[derive(Clone, Debug)]
pub(crate) struct Fetch {
    /// The recorded URL, after any redirects.
    pub url: String,
    /// The URL to ask for: the first redirect hop, else `url`.
    pub first_url: String,
    pub method: String,
    pub body_size: u64,
    /// The recording served it from a cache (`fromCache` not null).
    pub recorded_from_cache: bool,
    /// Chrome's recorded request priority (`VeryHigh` .. `VeryLow`), the last it had.
    pub chrome_priority: Option<String>,
    /// The priority the request was made with; a layout may raise it to `chrome_priority` later
    /// (graph.md, `initialPriority`). The same as `chrome_priority` in graphs without the field.
    pub initial_priority: Option<String>,
    /// CDP's resource type as recorded (`Document`, `Script`, `Image`, ...).
    pub resource_type: String,
    /// Sent without credentials to another origin (graph `privacyMode`): on connections of its own.
    pub privacy_mode: bool,
    /// Made by a `<link rel=preload>` (graph `linkPreload`).
    pub link_preload: bool,
    /// An image the recording's final layout drew in the viewport (graph `inViewport`): a
    /// rendering that lays it out raises it to High, whether or not the recording saw the raise.
    pub in_viewport: bool,
    /// Where the recorded fetch met the network stack; None in graphs without phases.
    pub network: Option<NetworkTimes>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct NetworkTimes {
    /// When the network service took the request up (graph `networkStartMs`: ResourceTiming's
    /// `requestTime`), if the graph says.
    pub taken_up: Option<f64>,
    /// When the request went on the wire (the start of `send`).
    pub sent: Option<f64>,
    /// The connection set up for it (from the start of `dns` or `connect` to the end of `connect`
    /// or `ssl`), if one was.
    pub setup: Option<(f64, f64)>,
    /// The recorded connection's id, if known.
    pub connection: Option<u64>,
    /// When the response's headers arrived, if they did.
    pub headers: Option<f64>,
}

#[derive(Clone, Debug)]
pub(crate) struct Chunk {
    pub index: u64,
    /// Where the chunk's bytes end in the recorded body (offset + bytes).
    pub end: u64,
    /// The node index of the document's chunk 0, which stands for the document's one request.
    pub document: usize,
}


#[derive(Clone, Debug, Default)]
pub(crate) struct Ranks {
    pub mime: Option<u64>,
    pub critical_path: Option<u64>,
    pub depth: Option<u64>,
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub id: String,
    pub kind: Kind,
    pub frame: usize,
    pub duration: f64,
    pub fetch: Option<Fetch>,
    pub chunk: Option<Chunk>,
    pub preconnect: Option<Preconnect>,
    /// For timers: the delay asked for.
    pub timeout_ms: Option<f64>,
    /// For computations: 0, or which part of a re-entrant computation split around its nested
    /// children this is.
    pub segment: u64,
    pub ranks: Ranks,
    /// Recorded start and end, ms since navigation start.
    pub recorded: (f64, f64),
    /// For fetches: how long after its parents finished the recorded browser sent the request
    /// (renderer to network service, the preload scanner's pass, request scheduling). For a
    /// document's first parse chunk: how long after its first bytes the parser started (the
    /// navigation's commit to the renderer). 0 otherwise.
    pub dispatch_ms: f64,
    /// For resources: how long after the renderer's scheduler let it go the request reached the
    /// network stack (dispatch_latency.rs). 0 otherwise.
    pub hop_ms: f64,
    /// For parse chunks: the parser reached the document's `<body>` in it.
    pub body_reached: bool,
    /// For that chunk: the download chunk holding the `<body>` tag (graph.md, `bodyByte`). The
    /// parser gets there as those bytes arrive, before the rest of the chunk's.
    pub body_chunk: Option<usize>,
    /// For a computation's later piece: it goes on once a synchronous request the piece before sent
    /// is in (a `sync-xhr` parent), and the main thread runs nothing else meanwhile.
    pub after_sync_request: bool,
    /// Emulated parents by node index, ascending, one entry per parent.
    pub parents: Vec<(usize, Link)>,
    /// Emulated children by node index, ascending.
    pub children: Vec<usize>,
}

#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub id: String,
    pub parent: Option<usize>,
    /// The frame's completion markers, when they are emulated.
    pub dcl: Option<usize>,
    pub load: Option<usize>,
    /// Of another site than the main frame: its requests go on connections apart (graph.md, `crossSite`).
    pub cross_site: bool,
}

/// The main frame's paint markers, when emulated. Graphs made before them have none.
#[derive(Clone, Debug, Default)]
pub(crate) struct Paints {
    pub fcp: Option<usize>,
    pub lcp: Option<usize>,
    /// Why the recording has no largest contentful paint (`recorded.largestContentfulPaintMissing`).
    pub lcp_missing: Option<String>,
    /// The elements the largest contentful paint may name (`lcpCandidates`); empty in graphs without them.
    pub candidates: Vec<Candidate>,
    /// When the document's first content is images only, the images of which the first to arrive
    /// makes the first contentful paint (the `fcp` node's `firstImages`); empty otherwise.
    pub fcp_images: Vec<usize>,
}

/// The emulated part of a page's dependency graph.
#[derive(Clone, Debug)]
pub struct Graph {
    pub(crate) nodes: Vec<Node>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) root: usize,
    pub(crate) main_frame: usize,
    pub(crate) paints: Paints,
    /// The recorded browser's time between starting one waiting request and the next
    /// (request_start_spacing.rs); 0 where the recording does not show it.
    pub(crate) request_start_spacing_ms: f64,
    /// Parse chunks whose `body_chunk` is known: their frame's parser may reach `<body>` before
    /// they complete.
    pub(crate) early_bodies: Vec<usize>,
}

impl Graph {
    /// How many nodes the emulation runs (`excluded: null`).
    pub fn emulated_node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The emulated nodes' ids, in file order.
    pub fn node_ids(&self) -> impl Iterator<Item = &str> {
        self.nodes.iter().map(|n| n.id.as_str())
    }

    /// The ids of an emulated node's emulated parents.
    pub fn parent_ids(&self, id: &str) -> Vec<&str> {
        let Some(node) = self.nodes.iter().find(|n| n.id == id) else { return Vec::new() };
        node.parents.iter().map(|&(p, _)| self.nodes[p].id.as_str()).collect()
    }

    pub(crate) fn frame_id(&self, node: usize) -> &str {
        &self.frames[self.nodes[node].frame].id
    }
}

/// Reads a graph file's text; the error names the JSON place and what is wrong.
pub fn parse_graph(text: &str) -> Result<Graph, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not a JSON document: {e}"))?;
    let top = At::root(&value);
    let version = top.field("schemaVersion")?;
    if version.u64()? != SCHEMA_VERSION {
        return version.fail(&format!(
            "graph schema version {} is not supported; this browser reads version {SCHEMA_VERSION}",
            version.value
        ));
    }
    let kind = top.field("kind")?;
    if kind.str()? != "pagepath-graph" {
        return kind.fail("must be \"pagepath-graph\"");
    }
    let frame_items = top.field("frames")?.items()?;
    let frame_index: BTreeMap<&str, usize> = frame_items
        .iter()
        .enumerate()
        .map(|(i, f)| Ok((f.field("id")?.str()?, i)))
        .collect::<Result<_, String>>()?;
    let mut reader = super::graph_nodes::NodeReader::new(&frame_index);
    for item in top.field("nodes")?.items()? {
        reader.read(&item)?;
    }
    for edge in top.field("edges")?.items()? {
        reader.link(&edge)?;
    }
    let (mut nodes, index) = reader.finish()?;
    set_dispatch_latency(&mut nodes);
    let emulated = |at: &At| -> Result<Option<usize>, String> {
        let id = at.str()?;
        match index.get(id) {
            Some(found) => Ok(*found),
            None => at.fail(&format!("no node has id {id:?}")),
        }
    };
    let mut frames = Vec::new();
    for item in &frame_items {
        let parent = match item.optional("parentId")? {
            None => None,
            Some(p) => Some(*frame_index.get(p.str()?).ok_or_else(|| format!("{}: no frame has this id", p.path))?),
        };
        let dcl = emulated(&item.field("dcl")?)?;
        let load = emulated(&item.field("load")?)?;
        let cross_site = item.optional("crossSite")?.map(|b| b.bool()).transpose()?.unwrap_or(false);
        frames.push(Frame { id: item.field("id")?.string()?, parent, dcl, load, cross_site });
    }
    let root_at = top.field("root")?;
    let root = emulated(&root_at)?.ok_or_else(|| format!("{}: the root node is excluded from the emulation", root_at.path))?;
    let main_at = top.field("mainFrame")?;
    let main_frame = *frame_index.get(main_at.str()?).ok_or_else(|| format!("{}: no frame has this id", main_at.path))?;
    // Graphs made before parse chunks told where the body starts: take each frame's first.
    for frame in 0..frames.len() {
        if !nodes.iter().any(|n| n.body_reached && n.frame == frame) {
            if let Some(first) = nodes.iter_mut().find(|n| n.kind == Kind::Parse && n.frame == frame) {
                first.body_reached = true;
            }
        }
    }
    let mut paints = paints_of(&top, &nodes, main_frame)?;
    paints.candidates = read_candidates(&top, &index)?;
    paints.fcp_images = first_images(&top, emulated)?;
    let request_start_spacing_ms = recorded_start_spacing(&nodes);
    let early_bodies = (0..nodes.len()).filter(|&n| nodes[n].body_chunk.is_some()).collect();
    Ok(Graph { nodes, frames, root, main_frame, paints, request_start_spacing_ms, early_bodies })
}

/// The main frame's emulated paint markers and the recording's word on a missing LCP.
fn paints_of(top: &At, nodes: &[Node], main_frame: usize) -> Result<Paints, String> {
    let marker = |kind: Kind| nodes.iter().position(|n| n.kind == kind && n.frame == main_frame);
    let lcp_missing = match top.optional("recorded")? {
        Some(recorded) => recorded.optional("largestContentfulPaintMissing")?.map(|m| m.string()).transpose()?,
        None => None,
    };
    Ok(Paints { fcp: marker(Kind::Fcp), lcp: marker(Kind::Lcp), lcp_missing, candidates: Vec::new(), fcp_images: Vec::new() })
}

/// The `fcp` node's `firstImages` that the emulation keeps (graph.md, *Paint markers*);
/// `emulated` gives a node id's index, None when excluded.
fn first_images(top: &At, emulated: impl Fn(&At) -> Result<Option<usize>, String>) -> Result<Vec<usize>, String> {
    let mut images = Vec::new();
    for node in top.field("nodes")?.items()? {
        let Some(fcp) = node.optional("fcp")? else { continue };
        for id in fcp.field("firstImages")?.items()? {
            images.extend(emulated(&id)?);
        }
    }
    Ok(images)
}
