//! Chromium starts requests one at a time: each is taken up in turn by the network service (its
//! URLLoader and URLRequest made, CORS and cache checked, a stream found on a connection) before
//! the next. When a request scheduler releases many requests at once, they reach the network
//! stack spaced by that per-request work, not together: a page of 40 images behind blocking head
//! scripts had its images start 1-3 ms apart in replay (issue 21), every image a step later than
//! the one before.
//!
//! The spacing is read from the recording: the gaps between consecutive network starts of
//! requests that were both waiting to start (asked for earlier), with no response arriving in
//! between to release them. Such a gap is the per-request work, plus whatever else ran between the
//! two; its lower quartile is taken as the work alone.

use super::graph::{Kind, Node};
use super::Ms;

/// A request counts as waiting when it was asked for at least this long before the network
/// started the one ahead of it (the recording's times are rounded to microseconds; a request
/// asked for in the same task as the start ahead of it was not queued behind it).
const WAITING_MS: Ms = 2.0;

/// Fewer qualifying gaps than this say nothing: no spacing is modelled.
const MIN_GAPS: usize = 5;

/// The recorded browser's time between starting one waiting request and the next, or 0 when the
/// recording shows too few such starts (or the graph has no phases).
pub(crate) fn recorded_start_spacing(nodes: &[Node]) -> Ms {
    // (asked, started) per recorded fetch: resources, and each document's first chunk.
    let mut starts: Vec<(Ms, Ms)> = Vec::new();
    let mut responses: Vec<Ms> = Vec::new();
    for n in nodes {
        let first_of_fetch = n.kind == Kind::Resource || (n.kind == Kind::Download && n.chunk.as_ref().is_some_and(|c| c.index == 0));
        let Some(times) = n.fetch.as_ref().and_then(|f| f.network).filter(|_| first_of_fetch) else { continue };
        starts.push((n.recorded.0, times.started));
        responses.extend(times.headers);
        responses.push(n.recorded.1);
    }
    starts.sort_by(|a, b| a.1.total_cmp(&b.1));
    responses.sort_by(f64::total_cmp);
    let mut gaps: Vec<Ms> = starts
        .windows(2)
        .filter(|w| {
            let ((asked_ahead, ahead), (asked, next)) = (w[0], w[1]);
            let waiting = asked_ahead <= ahead - WAITING_MS && asked <= ahead - WAITING_MS;
            // A response in between may be what let the next one go.
            let released_by_response = responses.partition_point(|&r| r < ahead) < responses.partition_point(|&r| r < next);
            waiting && !released_by_response && next > ahead
        })
        .map(|w| w[1].1 - w[0].1)
        .collect();
    if gaps.len() < MIN_GAPS {
        return 0.0;
    }
    gaps.sort_by(f64::total_cmp);
    gaps[(gaps.len() - 1) / 4]
}
