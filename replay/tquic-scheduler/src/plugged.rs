//! One pagepath scheduler as the external scheduler of one tquic connection.

use crate::carried::{CarriedLog, PathCarried};
use crate::snapshots::{self, StreamFacts};
use pagepath_multipath::{Context, Event, PathChoice, PathId, PathSnapshot, Scheduler, StreamId, StreamSnapshot};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};
use tquic::{ExternalDecision, SentStreamData};

pub struct Plugged {
    scheduler: Box<dyn Scheduler>,
    /// The scheduler's clock starts at the connection's first decision.
    origin: Option<Instant>,
    /// Each path's cumulative acknowledged and lost bytes at the last decision: tquic tells its
    /// external scheduler of sends only, so acks and losses are the growth of these counters.
    counted: HashMap<usize, (u64, u64)>,
    ready_at: HashMap<u64, Duration>,
    paths: Vec<PathSnapshot>,
    streams: Vec<StreamSnapshot>,
    /// What the application told of its streams (`set_stream_facts`).
    facts: HashMap<u64, StreamFacts>,
    carried: CarriedLog,
    /// Each path's local and remote address as tquic last showed them.
    addresses: HashMap<usize, (SocketAddr, SocketAddr)>,
    /// Paths from or to these addresses are backups: used only when no other path is usable.
    backup: Vec<IpAddr>,
}

impl Plugged {
    pub fn new(scheduler: Box<dyn Scheduler>, backup: Vec<IpAddr>) -> Plugged {
        Plugged {
            scheduler,
            origin: None,
            counted: HashMap::new(),
            ready_at: HashMap::new(),
            paths: Vec::new(),
            streams: Vec::new(),
            facts: HashMap::new(),
            carried: CarriedLog::default(),
            addresses: HashMap::new(),
            backup,
        }
    }

    /// Whether the scheduler chooses among the streams itself (`Scheduler::orders_streams`).
    pub fn orders_streams(&self) -> bool {
        self.scheduler.orders_streams()
    }

    /// The connection's Plugged, when a pagepath scheduler drives it.
    pub fn of(conn: &mut tquic::Connection) -> Option<&mut Plugged> {
        conn.external_scheduler_mut()?.as_any_mut()?.downcast_mut::<Plugged>()
    }

    /// What the application knows of `stream` and tquic does not (its whole size before the last
    /// byte is written, the graph's priority), for the scheduler's snapshots.
    pub fn set_stream_facts(&mut self, stream: u64, facts: StreamFacts) {
        self.facts.insert(stream, facts);
    }

    /// What each path has carried of `stream`, by path id; the stream is forgotten afterwards.
    pub fn take_carried(&mut self, stream: u64) -> Vec<(usize, PathCarried)> {
        self.facts.remove(&stream);
        self.carried.take(stream)
    }

    /// A path's (local, remote) addresses.
    pub fn path_addresses(&self, path_id: usize) -> Option<(SocketAddr, SocketAddr)> {
        self.addresses.get(&path_id).copied()
    }

    fn since_origin(&mut self, now: Instant) -> Duration {
        now.saturating_duration_since(*self.origin.get_or_insert(now))
    }

    fn report_acks_and_losses(&mut self, now: Duration, paths: &[tquic::PathSnapshot]) {
        for p in paths {
            let (acked, lost) = self.counted.insert(p.path_id, (p.acked_bytes, p.lost_bytes)).unwrap_or((0, 0));
            let path = PathId(p.path_id);
            if p.acked_bytes > acked {
                self.scheduler.on_event(now, &Event::Acked { path, bytes: p.acked_bytes - acked });
            }
            if p.lost_bytes > lost {
                self.scheduler.on_event(now, &Event::Lost { path, bytes: p.lost_bytes - lost });
            }
        }
    }
}

impl tquic::ExternalScheduler for Plugged {
    fn select(&mut self, now: Instant, paths: &[tquic::PathSnapshot], streams: &[tquic::StreamSnapshot]) -> ExternalDecision {
        let now = self.since_origin(now);
        self.report_acks_and_losses(now, paths);
        self.addresses.extend(paths.iter().map(|p| (p.path_id, (p.local, p.remote))));
        snapshots::paths(paths, &self.backup, &mut self.paths);
        snapshots::streams(streams, now, &self.facts, &mut self.ready_at, &mut self.streams);
        let cx = Context { now, paths: &self.paths, streams: &self.streams };
        // With no stream bytes to place there is no scheduling question, yet tquic asks: for its
        // control frames (MAX_DATA, NEW_CONNECTION_ID, ...) and for FINs with no data left. A
        // scheduler would answer Wait, and those would stall the connection until its idle timeout.
        if self.streams.iter().all(|s| s.remaining == 0) {
            let fastest = cx.candidates().filter(|p| p.can_send).min_by_key(|p| (p.srtt, p.id));
            let fin_only = streams.iter().find(|s| s.unsent == 0 && s.retransmit == 0).map(|s| s.stream_id);
            return ExternalDecision { path: fastest.map(|p| p.id.0), redundant: false, stream: fin_only };
        }
        let decision = self.scheduler.decide(&cx);
        let stream = decision.stream.map(|s| s.0);
        match decision.path {
            PathChoice::One(p) => ExternalDecision { path: Some(p.0), redundant: false, stream },
            // tquic sends the packet on one path and queues copies of its STREAM frames on the
            // others (its Redundant scheduler's mechanism): the first is the fastest that can send.
            PathChoice::Every => {
                let first = cx.candidates().filter(|p| p.can_send).min_by_key(|p| (p.srtt, p.id));
                ExternalDecision { path: first.map(|p| p.id.0), redundant: true, stream }
            }
            PathChoice::Wait => ExternalDecision::default(),
        }
    }

    fn on_sent(&mut self, at: Instant, path_id: usize, _size: usize, data: &[SentStreamData]) {
        self.carried.on_sent(at, path_id, data);
        let now = self.since_origin(at);
        for d in data {
            let stream = StreamId(d.stream_id);
            self.scheduler.on_event(now, &Event::Sent { path: PathId(path_id), stream: Some(stream), bytes: d.length as u64 });
            // once, though a redundant copy or a retransmission carries the FIN again
            if d.fin && self.ready_at.remove(&d.stream_id).is_some() {
                self.scheduler.on_event(now, &Event::StreamFinished { stream });
            }
        }
    }

    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }
}
