//! A synthetic two-path sender that a scheduler drives, so that its decisions are timed on the
//! inputs a transport would give it rather than on one frozen context: windows that open in slow
//! start and halve on loss, smoothed RTTs that grow with the queue, a pacer, acks and losses
//! arriving as time passes, streams finishing and new ones taking their place. It is a source of
//! evolving contexts, not a network model to judge schedulers by (ideal_paths and the real stack
//! are those).

use std::collections::VecDeque;
use std::time::Duration;

use pagepath_multipath::{Decision, Event, PathChoice, PathId, PathSnapshot, StreamId, StreamSnapshot};

pub const PACKET: u64 = 1200;

/// A fast short path beside a slower, longer one, small enough that slow start ends and losses
/// come within a few thousand packets (decision cost does not depend on the rates).
const LINKS: [(f64, u64); 2] = [(20e6 / 8.0, 10), (10e6 / 8.0, 30)];

/// Response sizes and RFC 9218 urgencies a page's streams cycle through: scripts and styles
/// urgent and small, images incremental and larger.
const SIZES: [u64; 10] = [3_000, 14_000, 40_000, 120_000, 8_000, 600_000, 25_000, 1_500, 260_000, 70_000];
const URGENCIES: [u8; 10] = [0, 1, 2, 3, 1, 4, 3, 0, 5, 2];

struct InFlight {
    sent: Duration,
    /// When its ack (or, if lost, the loss) is known.
    known_at: Duration,
    bytes: u64,
    lost: bool,
}

struct Path {
    rate: f64,
    one_way: Duration,
    busy_until: Duration,
    pacer_free_at: Duration,
    flights: VecDeque<InFlight>,
    in_flight: u64,
    cwnd: u64,
    ssthresh: Option<u64>,
    slow_start: bool,
    recovery_since: Duration,
    srtt: Duration,
    rttvar: Duration,
    min_rtt: Duration,
    lost_packets: u64,
}

impl Path {
    fn new(rate: f64, one_way_ms: u64) -> Path {
        let rtt = Duration::from_millis(2 * one_way_ms);
        Path {
            rate,
            one_way: Duration::from_millis(one_way_ms),
            busy_until: Duration::ZERO,
            pacer_free_at: Duration::ZERO,
            flights: VecDeque::new(),
            in_flight: 0,
            cwnd: 10 * PACKET,
            ssthresh: None,
            slow_start: true,
            recovery_since: Duration::ZERO,
            srtt: rtt,
            rttvar: rtt / 2,
            min_rtt: rtt,
            lost_packets: 0,
        }
    }

    fn pacing_rate(&self) -> f64 {
        let gain = if self.slow_start { 2.0 } else { 1.25 };
        gain * self.cwnd as f64 / self.srtt.as_secs_f64()
    }

    fn can_send(&self, now: Duration) -> bool {
        self.in_flight + PACKET <= self.cwnd && self.pacer_free_at <= now
    }

    /// A packet of `bytes` leaves now: queued behind the link, dropped if it would wait longer
    /// than one base RTT (a queue of one BDP).
    fn send(&mut self, now: Duration, bytes: u64) {
        let start = self.busy_until.max(now);
        let lost = start - now > 2 * self.one_way;
        let leaves = start + Duration::from_secs_f64(bytes as f64 / self.rate);
        if !lost {
            self.busy_until = leaves;
        }
        self.flights.push_back(InFlight { sent: now, known_at: leaves + 2 * self.one_way, bytes, lost });
        self.in_flight += bytes;
        self.pacer_free_at = self.pacer_free_at.max(now) + Duration::from_secs_f64(bytes as f64 / self.pacing_rate());
    }

    /// Acks and losses known by `now`: (acked bytes, lost bytes), with the window and RTT updated.
    fn settle(&mut self, now: Duration) -> (u64, u64) {
        let (mut acked, mut lost) = (0, 0);
        while self.flights.front().is_some_and(|f| f.known_at <= now) {
            let f = self.flights.pop_front().expect("a front flight");
            self.in_flight -= f.bytes;
            if f.lost {
                lost += f.bytes;
                self.lost_packets += 1;
                if f.sent >= self.recovery_since {
                    self.cwnd = (self.cwnd / 2).max(2 * PACKET);
                    self.ssthresh = Some(self.cwnd);
                    self.slow_start = false;
                    self.recovery_since = now;
                }
                continue;
            }
            acked += f.bytes;
            let sample = f.known_at - f.sent;
            let diff = if sample > self.srtt { sample - self.srtt } else { self.srtt - sample };
            self.rttvar = (self.rttvar * 3 + diff) / 4;
            self.srtt = (self.srtt * 7 + sample) / 8;
            self.min_rtt = self.min_rtt.min(sample);
            if self.slow_start {
                self.cwnd += f.bytes;
            } else {
                self.cwnd += (PACKET * f.bytes / self.cwnd).max(1);
            }
        }
        (acked, lost)
    }

    fn snapshot(&self, id: usize, now: Duration) -> PathSnapshot {
        PathSnapshot {
            id: PathId(id),
            srtt: self.srtt,
            rttvar: self.rttvar,
            min_rtt: self.min_rtt,
            cwnd: self.cwnd,
            bytes_in_flight: self.in_flight,
            pacing_rate: Some(self.pacing_rate() as u64),
            in_slow_start: self.slow_start,
            ssthresh: self.ssthresh,
            lost_packets: self.lost_packets,
            usable: true,
            can_send: self.can_send(now),
            backup: false,
        }
    }

    /// The next moment this path's state changes by itself: an ack or loss known, or the pacer
    /// letting the next packet go.
    fn next_change(&self, now: Duration) -> Option<Duration> {
        let known = self.flights.front().map(|f| f.known_at);
        let pacer = (self.pacer_free_at > now && self.in_flight + PACKET <= self.cwnd).then_some(self.pacer_free_at);
        known.into_iter().chain(pacer).min()
    }
}

struct Stream {
    snapshot: StreamSnapshot,
}

pub struct World {
    now: Duration,
    paths: Vec<Path>,
    streams: Vec<Stream>,
    made: u64,
    /// Streams kept sendable: a finished one is replaced by the next of the page.
    concurrent: usize,
    pub sent_per_path: [u64; 2],
}

impl World {
    pub fn new(concurrent: usize) -> World {
        let paths = LINKS.iter().map(|&(rate, one_way)| Path::new(rate, one_way)).collect();
        let mut world = World { now: Duration::ZERO, paths, streams: Vec::new(), made: 0, concurrent, sent_per_path: [0; 2] };
        while world.streams.len() < concurrent {
            world.add_stream();
        }
        world
    }

    pub fn now(&self) -> Duration {
        self.now
    }

    pub fn lost_packets(&self) -> u64 {
        self.paths.iter().map(|p| p.lost_packets).sum()
    }

    fn add_stream(&mut self) {
        let i = self.made as usize;
        self.made += 1;
        // one stream alone is a bulk transfer that never ends within a run
        let size = if self.concurrent == 1 { 1 << 40 } else { SIZES[i % SIZES.len()] };
        let urgency = URGENCIES[i % URGENCIES.len()];
        self.streams.push(Stream {
            snapshot: StreamSnapshot {
                id: StreamId(4 * i as u64),
                remaining: size,
                sent: 0,
                total: Some(size),
                urgency,
                incremental: urgency >= 4,
                critical_priority: (i % 3 != 2).then_some((i % 7) as u32),
                ready_at: self.now,
            },
        });
        // the transport's own order: urgency, then stream id
        self.streams.sort_by_key(|s| (s.snapshot.urgency, s.snapshot.id));
    }

    /// The acks and losses known by now, one event per path and kind, as the transport reports
    /// them before its next decision.
    pub fn settle(&mut self, events: &mut Vec<Event>) {
        for (i, p) in self.paths.iter_mut().enumerate() {
            let (acked, lost) = p.settle(self.now);
            if acked > 0 {
                events.push(Event::Acked { path: PathId(i), bytes: acked });
            }
            if lost > 0 {
                events.push(Event::Lost { path: PathId(i), bytes: lost });
            }
        }
    }

    pub fn snapshot(&self, paths: &mut Vec<PathSnapshot>, streams: &mut Vec<StreamSnapshot>) {
        paths.clear();
        paths.extend(self.paths.iter().enumerate().map(|(i, p)| p.snapshot(i, self.now)));
        streams.clear();
        streams.extend(self.streams.iter().map(|s| s.snapshot.clone()));
    }

    pub fn any_can_send(&self) -> bool {
        self.paths.iter().any(|p| p.can_send(self.now))
    }

    /// Carries a decision out as a transport would; the events it makes (sends, a stream
    /// finished) go to `events`. False when it sent nothing: a wait, or a choice the transport
    /// cannot follow (a full path, a stream with nothing left), which it also treats as a wait.
    pub fn apply(&mut self, decision: Decision, events: &mut Vec<Event>) -> bool {
        let on: Vec<usize> = match decision.path {
            PathChoice::One(p) if p.0 < self.paths.len() && self.paths[p.0].can_send(self.now) => vec![p.0],
            PathChoice::Every => (0..self.paths.len()).filter(|&i| self.paths[i].can_send(self.now)).collect(),
            _ => Vec::new(),
        };
        let stream = match decision.stream {
            Some(id) => self.streams.iter().position(|s| s.snapshot.id == id && s.snapshot.remaining > 0),
            None => self.streams.iter().position(|s| s.snapshot.remaining > 0),
        };
        let Some(index) = stream.filter(|_| !on.is_empty()) else { return false };
        let s = &mut self.streams[index].snapshot;
        let bytes = PACKET.min(s.remaining);
        s.remaining -= bytes;
        s.sent += bytes;
        let id = s.id;
        for p in on {
            self.paths[p].send(self.now, bytes);
            self.sent_per_path[p] += 1;
            events.push(Event::Sent { path: PathId(p), stream: Some(id), bytes });
        }
        if self.streams[index].snapshot.remaining == 0 {
            events.push(Event::StreamFinished { stream: id });
            self.streams.remove(index);
            self.add_stream();
        }
        true
    }

    /// Moves time on to the next moment anything changes; false if nothing ever will.
    pub fn advance(&mut self) -> bool {
        match self.paths.iter().filter_map(|p| p.next_change(self.now)).min() {
            Some(t) => {
                self.now = t.max(self.now);
                true
            }
            None => false,
        }
    }
}
