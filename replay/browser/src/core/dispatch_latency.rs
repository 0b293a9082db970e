//! How long after its parents let it go the recorded browser sent each request: the model waits
//! as long before handing the request to its network code (walk.rs, `become_ready`).
//!
//! A request Chromium's schedulers never hold back (priority High or VeryHigh, and documents)
//! still takes time between the renderer asking for it (`requestWillBeSent`) and its headers
//! leaving: the renderer's loader posts it, the network service takes it up, checks the cache and
//! finds it a stream. On the corpus recordings that is 2-60 ms (real-sb-admin: a style sheet asked
//! for at 179 ms reached the network stack at 201 ms and the wire at 207 ms, on a connection open
//! since the document), none of which the model's network code spends. For those requests the
//! latency runs to when the request was sent, less any connection it set up, which the model's
//! transports spend themselves. A request the schedulers may hold hides its own way behind the
//! hold (which resource_scheduler.rs and network_stack_scheduler.rs make), so it takes the page's
//! median way from `requestWillBeSent`.
//!
//! A resource's latency is spent in two parts around the renderer's scheduler: up to its
//! `requestWillBeSent` (the preload scanner's or the parser's pass, before the request is asked
//! for: `dispatch_ms`), and from there on (`hop_ms`, its way to the network stack), which a hold
//! hides: the request reaches the network stack at its release or `hop_ms` after it was asked
//! for, whichever is later (network.rs). So requests are asked for in the order Chromium asked for
//! them, and the scheduler decides on that order: on gen-pagepath-8 a Low async script the scanner
//! asked for first, while nothing was in flight, went at once in Chromium; asked for after the
//! High scripts found with it, whose own way was shorter, it waited.

use super::graph::{Kind, Link, NetworkTimes, Node};
use super::resource_scheduler::RequestClass;
use super::Ms;

/// Sets each fetch's dispatch latency from the recording: its recorded send (above) less the
/// moment its parents let it go (for a preloaded fetch, the earlier of its scanned download chunk
/// and its parse chunk). A document's first parse chunk, the one its bytes start rather than an
/// earlier chunk or a script's `document.write`, gets its recorded gap too: Chromium commits the
/// navigation to the renderer before parsing, 15-27 ms on the corpus recordings. Other chunks and
/// kinds keep 0.
pub(crate) fn set_dispatch_latency(nodes: &mut [Node]) {
    let setups: Vec<(u64, Ms)> = nodes
        .iter()
        .filter_map(|n| n.fetch.as_ref()?.network)
        .filter_map(|t| Some((t.connection?, t.setup?.1)))
        .collect();
    let held: Vec<bool> = nodes.iter().map(may_be_held).collect();
    let sends: Vec<Option<Ms>> = nodes.iter().zip(&held).map(|(n, &held)| if held { None } else { recorded_send(n, &setups) }).collect();
    let hop = median(nodes.iter().zip(&sends).filter_map(|(n, s)| Some((s.as_ref()? - n.recorded.0).max(0.0))).collect());
    for i in 0..nodes.len() {
        let n = &nodes[i];
        let is_fetch = n.kind == Kind::Resource || n.chunk.as_ref().is_some_and(|c| c.index == 0);
        let commits = n.kind == Kind::Parse && n.parents.iter().all(|&(p, _)| nodes[p].kind == Kind::Download);
        if !(is_fetch || commits) || n.parents.is_empty() {
            continue;
        }
        let preloaded = n.parents.iter().any(|&(_, l)| l == Link::Preload);
        let either_parent = |l: Link| preloaded && l != Link::Plain;
        let end = |p: usize| nodes[p].recorded.1;
        let either = n.parents.iter().filter(|&&(_, l)| either_parent(l)).map(|&(p, _)| end(p)).reduce(f64::min);
        let plain = n.parents.iter().filter(|&&(_, l)| !either_parent(l)).map(|&(p, _)| end(p));
        let released = plain.chain(either).fold(f64::NEG_INFINITY, f64::max);
        let sent = match sends[i] {
            Some(sent) => sent,
            // A hold hides this request's own way to the network: it takes the page's usual one.
            None if held[i] => n.recorded.0 + hop,
            None => n.recorded.0,
        };
        let latency = (sent - released).max(0.0);
        let asked = if n.kind == Kind::Resource { (n.recorded.0 - released).clamp(0.0, latency) } else { latency };
        nodes[i].dispatch_ms = asked;
        nodes[i].hop_ms = latency - asked;
    }
}

/// A resource Chromium's schedulers may hold back (resource_scheduler.rs, `delayable`), judged by
/// the priority it was made with: an image a layout raised from Low to High was held as Low, and
/// its recorded send includes that hold, which the model makes itself (walk.rs asks with the
/// first priority).
fn may_be_held(n: &Node) -> bool {
    n.kind == Kind::Resource && n.fetch.as_ref().is_some_and(|f| RequestClass::new(f.initial_priority.as_deref(), &f.resource_type, None).delayable())
}

/// When the fetch left the recorded browser, its own connection's set-up taken out; None without
/// phases, and for one that waited for a connection another fetch was setting up (that wait is the
/// model transport's to make).
fn recorded_send(n: &Node, setups: &[(u64, Ms)]) -> Option<Ms> {
    let NetworkTimes { sent, setup, connection, .. } = n.fetch.as_ref()?.network?;
    let sent = sent?;
    match setup {
        Some((start, end)) => Some(sent - (end - start).max(0.0)),
        None => {
            let waited_for_setup = connection.is_some_and(|c| setups.iter().any(|&(other, ready)| other == c && ready > n.recorded.0));
            (!waited_for_setup).then_some(sent)
        }
    }
}

fn median(mut xs: Vec<Ms>) -> Ms {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
