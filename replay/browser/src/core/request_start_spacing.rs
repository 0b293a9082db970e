//! Chromium starts requests one at a time: each is taken up in turn by the network service (its
//! URLLoader and URLRequest made, the HTTP cache asked, a stream sought on a connection) before
//! the next, and a request's send waits behind the starts queued before it (network.rs). When a
//! request scheduler releases many requests at once, they are taken up spaced by that
//! per-request work and leave together after the last.
//!
//! The spacing is read from the recording: the gaps between consecutive network starts
//! (ResourceTiming's `requestTime`, graph `networkStartMs`) of requests that were both waiting to
//! start (asked for earlier), with no response arriving in between to release them; their median
//! is the network service's time per request. Over the 46 corpus recordings the median gap is
//! 0.9 ms, and Chromium's own in replay at 25 Mbit/s 20 ms 0.8 ms (`docs/emulated-browser.md`).
//! The ends of the `queued` phase are no measure of it: they are the sends, which leave in a
//! burst after the starts (0.1 ms apart).

use super::graph::{Kind, Node};
use super::Ms;

/// A request counts as waiting when it was asked for at least this long before the network
/// started the one ahead of it (the recording's times are rounded to microseconds; a request
/// asked for in the same task as the start ahead of it was not queued behind it).
const WAITING_MS: Ms = 2.0;

/// Fewer qualifying gaps than this say nothing: no spacing is modelled.
const MIN_GAPS: usize = 5;

/// The recorded browser's time between starting one waiting request and the next, or 0 when the
/// recording shows too few such starts (or the graph has no `networkStartMs`).
pub(crate) fn recorded_start_spacing(nodes: &[Node]) -> Ms {
    // (asked, started) per recorded fetch: resources, and each document's first chunk.
    let mut starts: Vec<(Ms, Ms)> = Vec::new();
    let mut responses: Vec<Ms> = Vec::new();
    for n in nodes {
        let first_of_fetch = n.kind == Kind::Resource || (n.kind == Kind::Download && n.chunk.as_ref().is_some_and(|c| c.index == 0));
        let Some(times) = n.fetch.as_ref().and_then(|f| f.network).filter(|_| first_of_fetch) else { continue };
        let Some(taken_up) = times.taken_up else { continue };
        starts.push((n.recorded.0, taken_up));
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
    gaps[(gaps.len() - 1) / 2]
}
