//! When a node is ready (Algorithm 3): all its parents are complete, except that a resource the
//! preload scanner found needs only one of its tag's parse chunk and its `preload` download chunk
//! (graph.md, `preload` rule), and that a `completion-load-raced` parent counts only once it has
//! started (graph.md, *Completion markers*). Without the preloader, `preload` edges do not count.

use super::browser::Phase;
use super::graph::{Graph, Link};

struct Requirement {
    /// Parents that must all be complete.
    all: Vec<usize>,
    /// Parents of which one is enough; empty when there is no such choice.
    any: Vec<usize>,
    /// Parents that must be complete once started, and are not waited for before.
    if_started: Vec<usize>,
}

pub(crate) struct Readiness {
    requirements: Vec<Requirement>,
}

impl Readiness {
    pub fn new(graph: &Graph, preloader: bool) -> Readiness {
        let requirements = graph
            .nodes
            .iter()
            .map(|node| {
                let preloaded = node.parents.iter().any(|&(_, link)| link == Link::Preload);
                let mut requirement = Requirement { all: Vec::new(), any: Vec::new(), if_started: Vec::new() };
                for &(parent, link) in &node.parents {
                    match link {
                        Link::Preload if !preloader => {}
                        Link::Preload | Link::ParserTag if preloaded && preloader => requirement.any.push(parent),
                        Link::IfStarted => requirement.if_started.push(parent),
                        _ => requirement.all.push(parent),
                    }
                }
                requirement
            })
            .collect();
        Readiness { requirements }
    }

    /// All required parents are done, one of the alternatives if there are any, and every
    /// started `if_started` parent.
    pub fn is_ready(&self, node: usize, phase: impl Fn(usize) -> Phase) -> bool {
        let r = &self.requirements[node];
        let done = |p: usize| phase(p) == Phase::Done;
        r.all.iter().all(|&p| done(p)) && (r.any.is_empty() || r.any.iter().any(|&p| done(p))) && r.if_started.iter().all(|&p| phase(p) != Phase::Ready)
    }

    /// The parents a node still waits for, for a stall report.
    pub fn missing(&self, node: usize, phase: impl Fn(usize) -> Phase) -> Vec<usize> {
        let r = &self.requirements[node];
        let done = |p: usize| phase(p) == Phase::Done;
        let mut missing: Vec<usize> = r.all.iter().copied().filter(|&p| !done(p)).collect();
        missing.extend(r.if_started.iter().copied().filter(|&p| phase(p) == Phase::Ready));
        if !r.any.is_empty() && !r.any.iter().any(|&p| done(p)) {
            missing.extend(&r.any);
        }
        missing
    }

    /// A node with nothing to wait for.
    pub fn has_no_parents(&self, node: usize) -> bool {
        let r = &self.requirements[node];
        r.all.is_empty() && r.any.is_empty() && r.if_started.is_empty()
    }
}
