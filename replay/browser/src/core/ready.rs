//! When a node is ready (Algorithm 3): all its parents are complete, except that a resource the
//! preload scanner found needs only one of its tag's parse chunk and its `preload` download chunk
//! (graph.md, `preload` rule), that a `completion-load-raced` or `render-raced` parent counts
//! only once it has started (graph.md, *Completion markers*, `render-raced`), and that a text paint stops waiting for its web font
//! when the face's block period ends (`font-display-*`, font_display.rs). Without the preloader,
//! `preload` edges do not count.

use super::browser::Phase;
use super::font_display::FontDisplay;
use super::graph::{Graph, Link};

struct Requirement {
    /// Parents that must all be complete.
    all: Vec<usize>,
    /// Parents of which one is enough; empty when there is no such choice.
    any: Vec<usize>,
    /// Parents that must be complete once started, and are not waited for before.
    if_started: Vec<usize>,
    /// Web fonts waited for until they are complete or their block period is over.
    fonts: Vec<(usize, FontDisplay)>,
}

pub(crate) struct Readiness {
    requirements: Vec<Requirement>,
    /// The nodes with `fonts`, which time alone can make ready.
    font_waiters: Vec<usize>,
}

impl Readiness {
    pub fn new(graph: &Graph, preloader: bool) -> Readiness {
        let requirements: Vec<Requirement> = graph
            .nodes
            .iter()
            .map(|node| {
                let preloaded = node.parents.iter().any(|&(_, link)| link == Link::Preload);
                let mut requirement = Requirement { all: Vec::new(), any: Vec::new(), if_started: Vec::new(), fonts: Vec::new() };
                for &(parent, link) in &node.parents {
                    match link {
                        Link::Preload if !preloader => {}
                        Link::Preload | Link::ParserTag if preloaded && preloader => requirement.any.push(parent),
                        Link::IfStarted => requirement.if_started.push(parent),
                        Link::Font(display) => requirement.fonts.push((parent, display)),
                        _ => requirement.all.push(parent),
                    }
                }
                requirement
            })
            .collect();
        let font_waiters = (0..requirements.len()).filter(|&n| !requirements[n].fonts.is_empty()).collect();
        Readiness { requirements, font_waiters }
    }

    /// All required parents are done, one of the alternatives if there are any, every started
    /// `if_started` parent, and every font either done or `waited_out`.
    pub fn is_ready(&self, node: usize, phase: impl Fn(usize) -> Phase, waited_out: impl Fn(usize, FontDisplay) -> bool) -> bool {
        let r = &self.requirements[node];
        let done = |p: usize| phase(p) == Phase::Done;
        r.all.iter().all(|&p| done(p))
            && (r.any.is_empty() || r.any.iter().any(|&p| done(p)))
            && r.if_started.iter().all(|&p| phase(p) != Phase::Ready)
            && r.fonts.iter().all(|&(p, display)| done(p) || waited_out(p, display))
    }

    /// The parents a node still waits for, for a stall report.
    pub fn missing(&self, node: usize, phase: impl Fn(usize) -> Phase) -> Vec<usize> {
        let r = &self.requirements[node];
        let done = |p: usize| phase(p) == Phase::Done;
        let mut missing: Vec<usize> = r.all.iter().copied().filter(|&p| !done(p)).collect();
        missing.extend(r.if_started.iter().copied().filter(|&p| phase(p) == Phase::Ready));
        missing.extend(r.fonts.iter().map(|&(p, _)| p).filter(|&p| !done(p)));
        if !r.any.is_empty() && !r.any.iter().any(|&p| done(p)) {
            missing.extend(&r.any);
        }
        missing
    }

    /// A node with nothing to wait for.
    pub fn has_no_parents(&self, node: usize) -> bool {
        let r = &self.requirements[node];
        r.all.is_empty() && r.any.is_empty() && r.if_started.is_empty() && r.fonts.is_empty()
    }

    /// The nodes that wait for web fonts, and the fonts each waits for.
    pub fn font_waits(&self) -> impl Iterator<Item = (usize, &[(usize, FontDisplay)])> + '_ {
        self.font_waiters.iter().map(|&n| (n, self.requirements[n].fonts.as_slice()))
    }
}
