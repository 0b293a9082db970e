//! The ideal network model of seed 000 §4.4.1, as a deterministic sender-side simulation to run
//! schedulers on: each path has a fixed one-way latency and a fixed capacity. Without a congestion
//! window the sender paces at the capacity (seed 000's model: a path can send when its link is
//! idle); with one, it sends whenever the window has room, acknowledgements (one latency back)
//! reopen it, and packets queue at the link. The unit tests use it (`bench schedulers` drives
//! schedulers on a sender of its own, with slow start and losses); it is not the virtual-time
//! simulator, which runs real transports.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::scheduler::{Event, PathChoice, Scheduler};
use crate::snapshot::{Context, PathId, PathSnapshot, StreamId, StreamSnapshot};

#[derive(Clone, Debug)]
pub struct ModelPath {
    pub one_way: Duration,
    /// Capacity, bytes per second.
    pub rate: f64,
    /// Congestion window in bytes; None: the sender paces at the link's capacity.
    pub cwnd: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub id: StreamId,
    pub size: u64,
    pub release: Duration,
    pub urgency: u8,
    pub critical_priority: Option<u32>,
}

impl Message {
    pub fn new(id: u64, size: u64) -> Message {
        Message { id: StreamId(id), size, release: Duration::ZERO, urgency: 3, critical_priority: None }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    pub path: PathId,
    pub stream: StreamId,
    pub bytes: u64,
    pub sent: Duration,
    pub arrives: Duration,
}

#[derive(Debug)]
pub struct Outcome {
    pub chunks: Vec<Chunk>,
    /// Per message: when its last byte arrived, less its release.
    pub completion: BTreeMap<StreamId, Duration>,
}

impl Outcome {
    /// Completion times in milliseconds, in message order.
    pub fn completion_ms(&self, messages: &[Message]) -> Vec<f64> {
        messages.iter().map(|m| self.completion[&m.id].as_secs_f64() * 1e3).collect()
    }

    pub fn bytes_on(&self, path: PathId, stream: StreamId) -> u64 {
        self.chunks.iter().filter(|c| c.path == path && c.stream == stream).map(|c| c.bytes).sum()
    }
}

struct PathState {
    busy_until: Duration,
    /// (acknowledged at, bytes)
    in_flight: Vec<(Duration, u64)>,
}

struct StreamState {
    remaining: u64,
    sent: u64,
    last_arrival: Duration,
}

/// Runs `messages` over `paths` with `scheduler`, `chunk` bytes a packet, until every message has
/// arrived. Panics if the scheduler picks a path that cannot send, or waits with nothing in flight
/// (it would wait forever): both are bugs in the scheduler under test.
pub fn run(paths: &[ModelPath], messages: &[Message], chunk: u64, scheduler: &mut dyn Scheduler) -> Outcome {
    let mut now = Duration::ZERO;
    let mut links: Vec<PathState> = paths.iter().map(|_| PathState { busy_until: Duration::ZERO, in_flight: Vec::new() }).collect();
    let mut streams: BTreeMap<StreamId, StreamState> = messages.iter().map(|m| (m.id, StreamState { remaining: m.size, sent: 0, last_arrival: Duration::ZERO })).collect();
    let mut chunks = Vec::new();
    loop {
        for (p, link) in links.iter_mut().enumerate() {
            let acked: u64 = link.in_flight.iter().filter(|(at, _)| *at <= now).map(|(_, b)| b).sum();
            link.in_flight.retain(|(at, _)| *at > now);
            if acked > 0 {
                scheduler.on_event(now, &Event::Acked { path: PathId(p), bytes: acked });
            }
        }
        let snapshots = snapshot_paths(paths, &links, now, chunk);
        let ready = snapshot_streams(messages, &streams, now);
        let cx = Context { now, paths: &snapshots, streams: &ready };
        let decision = if ready.is_empty() { None } else { Some(scheduler.decide(&cx)) };
        let sent_on: Vec<PathId> = match decision.map(|d| d.path) {
            Some(PathChoice::One(p)) => {
                assert!(snapshots[p.0].can_send, "{} chose path {} at {now:?}, which cannot send", scheduler.name(), p.0);
                vec![p]
            }
            Some(PathChoice::Every) => snapshots.iter().filter(|s| s.usable && s.can_send).map(|s| s.id).collect(),
            Some(PathChoice::Wait) | None => Vec::new(),
        };
        if !sent_on.is_empty() {
            let decision = decision.expect("a path was chosen");
            let stream = decision.stream.unwrap_or_else(|| ready[0].id);
            let state = streams.get_mut(&stream).expect("the scheduler chose a known stream");
            let bytes = chunk.min(state.remaining);
            assert!(bytes > 0, "{} chose stream {} with nothing left to send", scheduler.name(), stream.0);
            state.remaining -= bytes;
            state.sent += bytes;
            let mut first_arrival = Duration::MAX;
            for p in sent_on {
                let link = &mut links[p.0];
                let serialised = Duration::from_secs_f64(bytes as f64 / paths[p.0].rate);
                let leaves = link.busy_until.max(now) + serialised;
                let arrives = leaves + paths[p.0].one_way;
                link.busy_until = leaves;
                link.in_flight.push((arrives + paths[p.0].one_way, bytes));
                first_arrival = first_arrival.min(arrives);
                chunks.push(Chunk { path: p, stream, bytes, sent: now, arrives });
                scheduler.on_event(now, &Event::Sent { path: p, stream: Some(stream), bytes });
            }
            state.last_arrival = state.last_arrival.max(first_arrival);
            if state.remaining == 0 {
                scheduler.on_event(now, &Event::StreamFinished { stream });
            }
            continue;
        }
        let next = links
            .iter()
            .flat_map(|l| std::iter::once(l.busy_until).chain(l.in_flight.iter().map(|(at, _)| *at)))
            .chain(messages.iter().map(|m| m.release))
            .filter(|t| *t > now)
            .min();
        match next {
            Some(t) => now = t,
            None => {
                let left: Vec<u64> = streams.iter().filter(|(_, s)| s.remaining > 0).map(|(id, _)| id.0).collect();
                assert!(left.is_empty(), "{} waits with nothing in flight and streams {left:?} unsent", scheduler.name());
                break;
            }
        }
    }
    let completion = messages.iter().map(|m| (m.id, streams[&m.id].last_arrival.saturating_sub(m.release))).collect();
    Outcome { chunks, completion }
}

fn snapshot_paths(paths: &[ModelPath], links: &[PathState], now: Duration, chunk: u64) -> Vec<PathSnapshot> {
    paths
        .iter()
        .zip(links)
        .enumerate()
        .map(|(i, (p, link))| {
            let in_flight: u64 = link.in_flight.iter().map(|(_, b)| b).sum();
            let rtt = p.one_way * 2;
            let cwnd = p.cwnd.unwrap_or((p.rate * rtt.as_secs_f64()).ceil() as u64);
            PathSnapshot {
                id: PathId(i),
                srtt: rtt,
                rttvar: Duration::ZERO,
                min_rtt: rtt,
                cwnd,
                bytes_in_flight: in_flight,
                pacing_rate: Some(p.rate as u64),
                in_slow_start: false,
                ssthresh: None,
                lost_packets: 0,
                usable: true,
                can_send: match p.cwnd {
                    Some(w) => in_flight + chunk <= w,
                    None => link.busy_until <= now,
                },
                backup: false,
            }
        })
        .collect()
}

fn snapshot_streams(messages: &[Message], streams: &BTreeMap<StreamId, StreamState>, now: Duration) -> Vec<StreamSnapshot> {
    let mut ready: Vec<StreamSnapshot> = messages
        .iter()
        .filter(|m| m.release <= now && streams[&m.id].remaining > 0)
        .map(|m| StreamSnapshot {
            id: m.id,
            remaining: streams[&m.id].remaining,
            sent: streams[&m.id].sent,
            total: Some(m.size),
            urgency: m.urgency,
            incremental: false,
            critical_priority: m.critical_priority,
            ready_at: m.release,
        })
        .collect();
    // the transport's own order: RFC 9218 urgency, then stream id
    ready.sort_by_key(|s| (s.urgency, s.id));
    ready
}
