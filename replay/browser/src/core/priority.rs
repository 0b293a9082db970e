//! The RFC 9218 priority each request asks for, by the run's priority scheme (run-result.md's
//! `configuration.priority`).

use super::browser::PriorityScheme;
use super::graph::{Graph, Kind, Node};

/// Urgencies RFC 9218 offers: 0 (most urgent) to 7.
const URGENCY_LEVELS: u64 = 8;
/// mimeRank of images, the one kind of response worth rendering as it arrives.
const IMAGE_MIME_RANK: u64 = 3;
/// mimeRank of anything not HTML, CSS, JavaScript or an image: also for a node without one.
const OTHER_MIME_RANK: u64 = 4;

pub(crate) struct Urgency {
    scheme: PriorityScheme,
    /// How many emulated resources carry a criticalPathRank and a depthRank.
    critical_path_ranked: u64,
    depth_ranked: u64,
}

/// Chrome's request priorities in RFC 9218 terms; an unknown one counts as Low.
fn chrome_urgency(priority: Option<&str>) -> u8 {
    match priority {
        Some("VeryHigh") => 0,
        Some("High") => 1,
        Some("Medium") => 2,
        Some("VeryLow") => 4,
        _ => 3,
    }
}

/// A rank among `count` ranked resources, spread evenly over the urgencies and kept in order.
fn spread(rank: Option<u64>, count: u64) -> u8 {
    match rank {
        Some(rank) if count > 0 => (rank * URGENCY_LEVELS / count).min(URGENCY_LEVELS - 1) as u8,
        // A resource the ranking left out goes last.
        _ => (URGENCY_LEVELS - 1) as u8,
    }
}

impl Urgency {
    pub fn new(graph: &Graph, scheme: PriorityScheme) -> Urgency {
        let resources = || graph.nodes.iter().filter(|n| n.kind == Kind::Resource);
        Urgency {
            scheme,
            critical_path_ranked: resources().filter(|n| n.ranks.critical_path.is_some()).count() as u64,
            depth_ranked: resources().filter(|n| n.ranks.depth.is_some()).count() as u64,
        }
    }

    /// The urgency (None: send no priority) and incremental flag of the request for `node`.
    pub fn of(&self, node: &Node) -> (Option<u8>, bool) {
        let document = node.kind == Kind::Download;
        let urgency = match self.scheme {
            PriorityScheme::None => return (None, false),
            PriorityScheme::Browser => {
                let image = node.ranks.mime == Some(IMAGE_MIME_RANK);
                let chrome = node.fetch.as_ref().and_then(|f| f.chrome_priority.as_deref());
                return (Some(chrome_urgency(chrome)), image);
            }
            _ if document => 0,
            PriorityScheme::Mime => node.ranks.mime.unwrap_or(OTHER_MIME_RANK).min(URGENCY_LEVELS - 1) as u8,
            PriorityScheme::CriticalPath => spread(node.ranks.critical_path, self.critical_path_ranked),
            PriorityScheme::Depth => spread(node.ranks.depth, self.depth_ranked),
        };
        (Some(urgency), false)
    }
}
