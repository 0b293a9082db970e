//! One pagepath scheduler as the external scheduler of one tquic connection.

use crate::snapshots;
use pagepath_multipath::{Context, Event, PathChoice, PathId, PathSnapshot, Scheduler, StreamId, StreamSnapshot};
use std::collections::HashMap;
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
}

impl Plugged {
    pub fn new(scheduler: Box<dyn Scheduler>) -> Plugged {
        Plugged { scheduler, origin: None, counted: HashMap::new(), ready_at: HashMap::new(), paths: Vec::new(), streams: Vec::new() }
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
        snapshots::paths(paths, &mut self.paths);
        snapshots::streams(streams, now, &mut self.ready_at, &mut self.streams);
        let cx = Context { now, paths: &self.paths, streams: &self.streams };
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

    fn on_sent(&mut self, now: Instant, path_id: usize, _size: usize, data: &[SentStreamData]) {
        let now = self.since_origin(now);
        for d in data {
            let stream = StreamId(d.stream_id);
            self.scheduler.on_event(now, &Event::Sent { path: PathId(path_id), stream: Some(stream), bytes: d.length as u64 });
            // once, though a redundant copy or a retransmission carries the FIN again
            if d.fin && self.ready_at.remove(&d.stream_id).is_some() {
                self.scheduler.on_event(now, &Event::StreamFinished { stream });
            }
        }
    }
}
