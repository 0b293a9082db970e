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
use super::network_stack_scheduler::host_of;
use super::resource_scheduler::RequestClass;
use super::Ms;
use std::collections::HashMap;

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
    let mut sends: Vec<Option<Ms>> = nodes.iter().zip(&held).map(|(n, &held)| if held { None } else { recorded_send(n, &setups) }).collect();
    let hop = median(nodes.iter().zip(&sends).filter_map(|(n, s)| Some((s.as_ref()? - n.recorded.0).max(0.0))).collect());
    let released: Vec<Option<Ms>> = (0..nodes.len()).map(|i| released_at(nodes, i)).collect();
    in_take_up_order(nodes, &mut sends, &released);
    for i in 0..nodes.len() {
        let n = &nodes[i];
        let Some(released) = released[i] else { continue };
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

/// When the parents of a fetch, or of a document's first parse chunk, let it go in the recording
/// (for a preloaded fetch, the earlier of its scanned download chunk and its parse chunk); None for
/// other nodes, which keep no latency.
fn released_at(nodes: &[Node], i: usize) -> Option<Ms> {
    let n = &nodes[i];
    let is_fetch = n.kind == Kind::Resource || n.chunk.as_ref().is_some_and(|c| c.index == 0);
    let commits = n.kind == Kind::Parse && n.parents.iter().all(|&(p, _)| nodes[p].kind == Kind::Download);
    if !(is_fetch || commits) || n.parents.is_empty() {
        return None;
    }
    let preloaded = n.parents.iter().any(|&(_, l)| l == Link::Preload);
    let either_parent = |l: Link| preloaded && l != Link::Plain;
    let end = |p: usize| nodes[p].recorded.1;
    let either = n.parents.iter().filter(|&&(_, l)| either_parent(l)).map(|&(p, _)| end(p)).reduce(f64::min);
    let plain = n.parents.iter().filter(|&&(_, l)| !either_parent(l)).map(|&(p, _)| end(p));
    Some(plain.chain(either).fold(f64::NEG_INFINITY, f64::max))
}

/// How far apart at least `in_take_up_order` puts requests it orders.
const IN_ORDER_MS: Ms = 0.001;

/// Among the requests one release let go to one host, none is sent before one the network service
/// took up before it: a host's connections go to its requests in the order they were taken up
/// (HTTP/1.1's socket pool binds an idle connection as the request starts; HTTP/2 and HTTP/3 open
/// streams in that order), whatever order their sends had on the recording's connection. On
/// gen-pagepath-15 the recording, made over one HTTP/2 connection, sent a head style sheet
/// (VeryHigh) 0.5 ms before a head script (High) taken up before it; in replay over HTTP/1.1 at
/// 5 Mbit/s 50 ms Chromium gave the script the host's second idle connection and opened a third
/// for the sheet, while the model, sending in the recorded order, gave the sheet that connection
/// and the script waited 370 ms for it (DOMContentLoaded 5,232 ms against Chromium's 6,606; 6,051
/// in take-up order).
fn in_take_up_order(nodes: &[Node], sends: &mut [Option<Ms>], released: &[Option<Ms>]) {
    let mut groups: HashMap<(u64, &str), Vec<(Ms, usize)>> = HashMap::new();
    for i in 0..nodes.len() {
        let Some(fetch) = nodes[i].fetch.as_ref() else { continue };
        let (Some(_), Some(released), Some(taken_up), Some(host)) = (sends[i], released[i], fetch.network.and_then(|t| t.taken_up), host_of(&fetch.first_url)) else { continue };
        groups.entry((released.to_bits(), host)).or_default().push((taken_up, i));
    }
    for mut group in groups.into_values() {
        group.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut latest = f64::NEG_INFINITY;
        for (_, i) in group {
            // A microsecond after the one before at least, so that no tie leaves their order to the model's queues.
            latest = (latest + IN_ORDER_MS).max(sends[i].unwrap());
            sends[i] = Some(latest);
        }
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
