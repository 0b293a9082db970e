//! The Head-of-line-Blocking Eliminating Scheduler (HBES) of Xing et al., as seed 004 (Petri Rocha
//! thesis) §3.1.2 describes it: two parts that address the two kinds of blocking apart.
//!
//! - The Priority-Based Stream Manager (PSM) orders packets between streams with a "scattered"
//!   weighted round-robin: stream priorities are rescaled to tokens per round ("32:128 is rescaled
//!   down to absolute permits of 1:4"), a packet consumes a token, every stream gets at least one
//!   token a round, and a new round starts when no stream with data has a token left. Short rounds
//!   keep a low-priority stream from filling the window ahead of a more urgent one.
//! - The Stream-Aware Arrival-Time-Based Path Selector (SAPS) puts each packet on the path where it
//!   would arrive first: (bytes waiting in that path's send buffer + the packet) / the path's
//!   throughput, plus half its RTT. SAPS keeps one send buffer per path, so data queues on a fast
//!   path until the queue makes a slower one arrive earlier.
//!
//! Options: `weights=` per RFC 9218 urgency (as the `fair` scheduler takes them; default 8 - u),
//! `packet=` the bytes SAPS assigns at a time (default 1200, a QUIC packet's payload).
//!
//! Choices the seed leaves open, or that differ here:
//! - Priorities are RFC 9218 urgencies weighted by `weights=` (PSM was written for HTTP/2 weights,
//!   which HTTP/3 has not; seed 004 notes the incremental flag goes unused, as it does here).
//!   Tokens are the weights of the streams with data divided by their greatest common divisor,
//!   the exact form of the seed's 32:128 → 1:4; a stream that gets data mid-round joins it with
//!   max(1, ⌊w / that divisor⌋) tokens.
//! - "Scattered": within a round the streams take turns a packet at a time in the transport's
//!   order, skipping those out of tokens, rather than each sending its tokens in one burst; each
//!   round starts again from the first stream in that order, the most urgent.
//! - The per-path send buffers live in the scheduler: a packet assigned to a path whose window is
//!   full waits there (the decision is Wait unless another path has buffered data and room), and
//!   a path with room sends the oldest bytes of its own buffer first. A buffer's bytes are only a
//!   claim on the streams' unsent data, so nothing is held outside the transport; a path that
//!   stops being usable loses its buffer, whose bytes go back to be assigned again.
//! - Throughput is the snapshot's rate (the pacing rate, else a window per RTT); the one-way time
//!   is half the smoothed RTT, as the seed says. Ties go to the lower RTT, then the lower path id.
//! - PSM consumes a token when a packet is assigned to a path, which is when HBES orders it.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use crate::registry::Entry;
use crate::scheduler::{Decision, Event, Scheduler};
use crate::schedulers::fair::parse_weights;
use crate::snapshot::{Context, PathId, PathSnapshot, StreamId, StreamSnapshot};

pub const ENTRY: Entry = Entry {
    name: "hbes",
    summary: "seed 004 §3.1.2's Head-of-line-Blocking Eliminating Scheduler: stream priorities as tokens per round (PSM), each packet on the path where it would arrive first given that path's send buffer (SAPS); options weights, packet",
    build: |opts| {
        let weights = parse_weights(opts.text("weights").as_deref())?;
        let packet = opts.f64("packet", 1200.0, 1.0, 65536.0)?.round() as u64;
        opts.check_all_read("hbes")?;
        Ok(Box::new(Hbes::new(weights, packet)))
    },
};

/// Assignments to full paths one decision may make before it gives up for now, so the cost of a
/// decision stays bounded when a fast path's buffer has to grow long before a slow one wins.
const MAX_ASSIGNED_PER_DECISION: usize = 4096;

pub struct Hbes {
    weights: [u64; 8],
    packet: u64,
    /// SAPS's send buffer per path: bytes of which stream, oldest first.
    buffers: BTreeMap<PathId, VecDeque<(StreamId, u64)>>,
    /// PSM's tokens left this round.
    tokens: BTreeMap<StreamId, u64>,
    /// The divisor this round's tokens were rescaled by.
    scale: u64,
    /// The stream PSM last served, for the turns.
    last: Option<StreamId>,
}

impl Hbes {
    pub fn new(weights: [u64; 8], packet: u64) -> Hbes {
        Hbes { weights, packet: packet.max(1), buffers: BTreeMap::new(), tokens: BTreeMap::new(), scale: 1, last: None }
    }

    /// Bytes in `path`'s send buffer.
    pub fn buffered(&self, path: PathId) -> u64 {
        self.buffers.get(&path).map_or(0, |b| b.iter().map(|(_, n)| n).sum())
    }

    /// Tokens `stream` has left in this round.
    pub fn tokens(&self, stream: StreamId) -> u64 {
        self.tokens.get(&stream).copied().unwrap_or(0)
    }

    fn weight(&self, s: &StreamSnapshot) -> u64 {
        self.weights[s.urgency.min(7) as usize]
    }

    fn assigned(&self, stream: StreamId) -> u64 {
        self.buffers.values().flatten().filter(|(s, _)| *s == stream).map(|(_, n)| n).sum()
    }

    /// Buffers only claim what the transport still holds: paths no longer usable lose theirs, and
    /// a stream's claims never exceed its unsent bytes.
    fn reconcile(&mut self, cx: &Context) {
        self.buffers.retain(|p, b| cx.candidates().any(|c| c.id == *p) && !b.is_empty());
        let streams: Vec<StreamId> = self.buffers.values().flatten().map(|(s, _)| *s).collect();
        for id in streams {
            let mut excess = self.assigned(id).saturating_sub(cx.stream(id).map_or(0, |s| s.remaining));
            for buffer in self.buffers.values_mut().rev() {
                for entry in buffer.iter_mut().rev().filter(|(s, _)| *s == id) {
                    let cut = excess.min(entry.1);
                    entry.1 -= cut;
                    excess -= cut;
                }
                buffer.retain(|(_, n)| *n > 0);
            }
        }
    }

    /// PSM: the stream whose packet goes next, or None when every byte is already assigned.
    fn next_stream(&mut self, cx: &Context, unassigned: &BTreeMap<StreamId, u64>) -> Option<StreamId> {
        let backlogged: Vec<&StreamSnapshot> = cx.streams.iter().filter(|s| unassigned.contains_key(&s.id)).collect();
        if backlogged.is_empty() {
            return None;
        }
        if backlogged.iter().all(|s| self.tokens(s.id) == 0) {
            self.scale = backlogged.iter().map(|s| self.weight(s)).fold(0, gcd).max(1);
            self.tokens = backlogged.iter().map(|s| (s.id, self.weight(s) / self.scale)).collect();
            self.last = None;
        } else {
            for s in &backlogged {
                if !self.tokens.contains_key(&s.id) {
                    self.tokens.insert(s.id, (self.weight(s) / self.scale).max(1));
                }
            }
        }
        let after = self.last.and_then(|l| cx.streams.iter().position(|s| s.id == l));
        let index = |s: &StreamSnapshot| cx.streams.iter().position(|t| t.id == s.id);
        let has_token = |s: &&&StreamSnapshot| self.tokens(s.id) > 0;
        let next = backlogged.iter().filter(|s| index(s) > after).find(has_token).or_else(|| backlogged.iter().find(has_token))?;
        Some(next.id)
    }

    fn assign(&mut self, path: PathId, stream: StreamId, bytes: u64) {
        let buffer = self.buffers.entry(path).or_default();
        match buffer.back_mut() {
            Some((s, n)) if *s == stream => *n += bytes,
            _ => buffer.push_back((stream, bytes)),
        }
        if let Some(t) = self.tokens.get_mut(&stream) {
            *t = t.saturating_sub(1);
        }
        self.last = Some(stream);
    }
}

/// SAPS's arrival estimate for `bytes` put on `path` behind `buffered` bytes: the queueing time
/// (buffered + bytes) / throughput, plus the one-way delay RTT/2.
pub fn estimate_arrival(path: &PathSnapshot, buffered: u64, bytes: u64) -> Duration {
    let queueing = (buffered + bytes) as f64 / path.rate().max(1e-9);
    Duration::try_from_secs_f64(queueing).unwrap_or(Duration::MAX).saturating_add(path.one_way())
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Scheduler for Hbes {
    fn name(&self) -> &'static str {
        "hbes"
    }

    fn decide(&mut self, cx: &Context) -> Decision {
        self.reconcile(cx);
        let paths: Vec<&PathSnapshot> = cx.candidates().collect();
        if !paths.iter().any(|p| p.can_send) {
            return Decision::WAIT;
        }
        let mut unassigned: BTreeMap<StreamId, u64> =
            cx.streams.iter().map(|s| (s.id, s.remaining.saturating_sub(self.assigned(s.id)))).filter(|(_, n)| *n > 0).collect();
        for _ in 0..MAX_ASSIGNED_PER_DECISION {
            let ready = paths.iter().filter(|p| p.can_send).find_map(|p| self.buffers.get(&p.id)?.front().map(|(s, _)| (p.id, *s)));
            if let Some((path, stream)) = ready {
                return Decision::on(path, Some(stream));
            }
            let Some(stream) = self.next_stream(cx, &unassigned) else {
                return Decision::WAIT;
            };
            let bytes = self.packet.min(unassigned[&stream]);
            let arrival = |p: &PathSnapshot| estimate_arrival(p, self.buffered(p.id), bytes);
            let path = paths.iter().min_by(|a, b| arrival(a).cmp(&arrival(b)).then(a.srtt.cmp(&b.srtt)).then(a.id.cmp(&b.id))).expect("a path can send").id;
            self.assign(path, stream, bytes);
            let left = unassigned.get_mut(&stream).expect("PSM picks a stream with unassigned bytes");
            *left -= bytes;
            if *left == 0 {
                unassigned.remove(&stream);
            }
        }
        Decision::WAIT
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        if let Event::Sent { path, stream: Some(stream), bytes } = *event {
            let Some(buffer) = self.buffers.get_mut(&path) else { return };
            let mut left = bytes;
            for entry in buffer.iter_mut().filter(|(s, _)| *s == stream) {
                let taken = left.min(entry.1);
                entry.1 -= taken;
                left -= taken;
            }
            buffer.retain(|(_, n)| *n > 0);
        }
    }
}
