//! What a run tells: its outcome, and for a stalled run what the page is waiting for.

use super::browser::{Browser, Metrics, Outcome, Phase};
use super::graph::Kind;
use super::lcp_candidates::{largest, LcpElement, Painted};

/// How many waiting nodes a stall report names.
const EXAMPLES: usize = 5;

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Download => "download chunk",
        Kind::Parse => "parse chunk",
        Kind::Resource => "resource",
        Kind::Script => "script",
        Kind::Css => "style sheet",
        Kind::Timer => "timer",
        Kind::Event => "event",
        Kind::Dcl => "DOMContentLoaded marker",
        Kind::Load => "load marker",
        Kind::Render => "rendering",
        Kind::Fcp => "first contentful paint marker",
        Kind::Lcp => "largest contentful paint marker",
        Kind::Preconnect => "preconnect",
    }
}

impl Browser {
    fn describe(&self, node: usize) -> String {
        format!("{} {}", kind_name(self.kind(node)), self.graph.nodes[node].id)
    }

    /// What the page is waiting for, for a stalled run's error: requests in flight, nodes whose
    /// parents are not done.
    pub fn waiting_for(&self) -> Vec<String> {
        let mut lines = self.network.waiting(&self.graph);
        if let Some((node, until)) = self.scheduler.running() {
            lines.push(format!("{} runs until {until:.3} ms", self.describe(node)));
        }
        let (queued, armed) = self.scheduler.queued();
        for node in queued {
            lines.push(format!("{} waits for the main thread", self.describe(node)));
        }
        for (node, at) in armed {
            lines.push(format!("{} fires at {at:.3} ms", self.describe(node)));
        }
        let waiting: Vec<usize> = (0..self.states.len()).filter(|&n| self.states[n].phase == Phase::Waiting).collect();
        if waiting.is_empty() {
            return lines;
        }
        // The most telling are the nodes held up only by work under way, not by other waiting nodes.
        let missing = |n: usize| self.readiness.missing(n, |p| self.states[p].phase);
        let frontier = waiting.iter().copied().filter(|&n| missing(n).iter().all(|&p| self.states[p].phase != Phase::Waiting));
        let mut examples: Vec<usize> = frontier.take(EXAMPLES).collect();
        if examples.is_empty() {
            examples = waiting.iter().copied().take(EXAMPLES).collect();
        }
        let named: Vec<String> = examples
            .iter()
            .map(|&n| {
                let parents: Vec<&str> = missing(n).iter().map(|&p| self.graph.nodes[p].id.as_str()).collect();
                format!("{} (after {})", self.graph.nodes[n].id, parents.join(", "))
            })
            .collect();
        lines.push(format!("{} nodes wait for their parents, e.g. {}", waiting.len(), named.join("; ")));
        lines
    }

    /// The largest contentful paint among the graph's candidates (lcp_candidates.rs), once the
    /// first contentful paint is done; None without candidates.
    fn largest_candidate(&self) -> Option<(f64, LcpElement)> {
        let paints = &self.graph.paints;
        if paints.candidates.is_empty() {
            return None;
        }
        let painted = |m: usize| Some(Painted { frame_start: self.states[m].start?, at: self.states[m].end? });
        let fcp = painted(paints.fcp?)?;
        let lcp = paints.lcp.and_then(painted);
        let render_ms = paints.lcp.map_or(0.0, |m| self.graph.nodes[m].duration);
        largest(&paints.candidates, |n| self.states[n].end, fcp, lcp, render_ms)
    }

    /// The `fcp` marker's paint, or where the document's first content is images only, the first
    /// frame after one of them arrived, if that is later: the marker is then the first paint
    /// (graph.md, *Paint markers*). Should none arrive, the marker's paint stands.
    fn first_contentful_paint(&self) -> Option<f64> {
        let fcp = self.graph.paints.fcp?;
        let painted = self.states[fcp].end?;
        let first_image = self.graph.paints.fcp_images.iter().filter_map(|&n| self.states[n].end).reduce(f64::min);
        let frame = self.graph.nodes[fcp].duration * self.options.cpu_factor;
        Some(first_image.map_or(painted, |arrived| painted.max(arrived + frame)))
    }

    pub fn outcome(&self) -> Outcome {
        let frame = &self.graph.frames[self.graph.main_frame];
        let end = |marker: Option<usize>| marker.and_then(|m| self.states[m].end);
        let paints = &self.graph.paints;
        let (lcp_ms, lcp_element) = match self.largest_candidate() {
            Some((at, element)) => (Some(at), Some(element)),
            None => (end(paints.lcp), None),
        };
        let lcp_missing = match (paints.lcp, &lcp_element) {
            (None, None) => Some(paints.lcp_missing.clone().unwrap_or_else(|| "the graph has no emulated largest contentful paint marker".into())),
            _ => None,
        };
        Outcome {
            metrics: Metrics {
                dom_content_loaded_ms: end(frame.dcl),
                load_ms: end(frame.load),
                graph_complete_ms: self.graph_complete,
                first_contentful_paint_ms: self.first_contentful_paint(),
                largest_contentful_paint_ms: lcp_ms,
                largest_contentful_paint_missing: lcp_missing,
                largest_contentful_paint_element: lcp_element,
            },
            node_timings: self.timings.clone(),
            warnings: self.warnings.clone(),
        }
    }
}
