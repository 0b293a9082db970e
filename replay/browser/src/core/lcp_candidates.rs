//! The largest contentful paint among the graph's candidates (graph.md, *LCP candidates*; W3C
//! Largest Contentful Paint §2). Chromium reports a new candidate at each paint that shows an
//! element larger than any shown before, and sizes a block's text once, at its first paint, by
//! what had been parsed by then: so the element, and with it the time, follows the replay's
//! parse and arrival order, not the recording's.

use super::json::At;
use serde::Serialize;
use std::collections::BTreeMap;

/// An element the largest contentful paint may name.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub element: LcpElement,
    /// (parse chunk, area once it is done), growing; None: from the start.
    pub sizes: Vec<(Option<usize>, f64)>,
    /// Nodes its paint waits for besides its first chunk and the first contentful paint.
    pub waits: Vec<usize>,
    /// The recording's element: it paints when the `lcp` marker does.
    pub recorded: bool,
    /// It names a node the emulation leaves out, so it never paints.
    pub unreachable: bool,
}

/// The element a largest contentful paint showed, as run results name it (run-result.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LcpElement {
    #[serde(rename = "type")]
    pub kind: String,
    pub node_name: String,
    pub url: Option<String>,
    pub size: f64,
}

/// A paint marker as the run left it: when its frame began rendering and when it was presented.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Painted {
    pub frame_start: f64,
    pub at: f64,
}

/// Reads `lcpCandidates`; empty when the graph has none. `index` maps node ids to emulated nodes.
pub(crate) fn read_candidates(top: &At, index: &BTreeMap<String, Option<usize>>) -> Result<Vec<Candidate>, String> {
    let Some(list) = top.optional("lcpCandidates")? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for item in list.items()? {
        let mut unreachable = false;
        let mut node = |at: &At| -> Result<Option<usize>, String> {
            match index.get(at.str()?) {
                Some(Some(n)) => Ok(Some(*n)),
                Some(None) => {
                    unreachable = true;
                    Ok(None)
                }
                None => at.fail(&format!("no node has id {:?}", at.str()?)),
            }
        };
        let mut sizes = Vec::new();
        for s in item.field("sizes")?.items()? {
            let after = match s.optional("after")? {
                Some(a) => Some(node(&a)?.unwrap_or(usize::MAX)),
                None => None,
            };
            sizes.push((after, s.field("size")?.f64()?));
        }
        let mut waits = Vec::new();
        for w in item.field("waitsFor")?.items()? {
            waits.extend(node(&w)?);
        }
        let kind = item.field("type")?;
        if !matches!(kind.str()?, "image" | "text") {
            return kind.fail("must be image or text");
        }
        let url = item.optional("url")?.map(|u| u.string()).transpose()?;
        let element = LcpElement { kind: kind.string()?, node_name: item.field("nodeName")?.string()?, url, size: 0.0 };
        // A chunk left out of the emulation never ends: its size step never counts.
        sizes.retain(|(after, _)| *after != Some(usize::MAX));
        out.push(Candidate { element, sizes, waits, recorded: item.field("recorded")?.bool()?, unreachable });
    }
    Ok(out)
}

/// The largest contentful paint: the last candidate to be larger than every one painted before it
/// or in the same frame. A candidate other than the recorded element paints in the first
/// contentful paint's frame when its chunk and what it waits for were done as that frame began,
/// else `render_ms` after they are; at the size its chunks gave it by then. `end` gives a node's
/// end, None while it has not ended.
pub(crate) fn largest(candidates: &[Candidate], end: impl Fn(usize) -> Option<f64>, fcp: Painted, lcp: Option<Painted>, render_ms: f64) -> Option<(f64, LcpElement)> {
    let mut painted: Vec<(f64, f64, &Candidate)> = Vec::new();
    for c in candidates.iter().filter(|c| !c.unreachable) {
        let frame = if c.recorded {
            match lcp {
                Some(p) => p,
                None => continue,
            }
        } else {
            let first = c.sizes.first().and_then(|(after, _)| *after);
            let mut ready = fcp.frame_start;
            let mut done = true;
            for n in first.into_iter().chain(c.waits.iter().copied()) {
                match end(n) {
                    Some(t) => ready = ready.max(t),
                    None => done = false,
                }
            }
            if !done {
                continue;
            }
            if ready <= fcp.frame_start + 1e-9 {
                fcp
            } else {
                Painted { frame_start: ready, at: ready + render_ms }
            }
        };
        // The size its text had by its frame's presentation, fixed from then on: the parser goes on
        // while a frame renders (paint markers do not hold the main thread), and Chromium's replays
        // of gen-pagepath-22 at 25 Mbit/s 20 ms painted the body's text with lines parsed after
        // the frame had begun (7,038-12,274 px, where the chunk before it gives 2,510).
        let size = c
            .sizes
            .iter()
            .filter(|(after, _)| after.is_none_or(|n| end(n).is_some_and(|t| t <= frame.at + 1e-9)))
            .map(|&(_, s)| s)
            .last();
        if let Some(size) = size {
            painted.push((frame.at, size, c));
        }
    }
    painted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best: Option<(f64, f64, &Candidate)> = None;
    for p in painted {
        if best.is_none_or(|b| p.1 > b.1) {
            best = Some(p);
        }
    }
    best.map(|(at, size, c)| (at, LcpElement { size, ..c.element.clone() }))
}
