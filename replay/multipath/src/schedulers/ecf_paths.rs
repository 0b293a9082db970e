//! ECF's view of the paths, shared by the stream-aware ECF schedulers (srpt-ecf, sa-ecf): when
//! each path can start on new bytes, when a chunk sent on it would arrive, and whether a path is
//! worth using for a backlog of S bytes. Not a scheduler itself.
//!
//! The model is seed 000 §4.4.1's: path p has a one-way delay D_p (half the smoothed RTT) and a
//! rate B_p (the pacing rate, else a window per RTT). Seed 000 §4.4.2 states ECF for a fluid: use
//! the slower path while the remaining size is at least S_lim = B1 (D2 - D1) (Eq. 4.3). With
//! packets, the same question is asked of the chunk about to be sent: a chunk of c bytes on path p
//! arrives at T_p = start_p + c/B_p + D_p; without p, the other paths would deliver the S bytes
//! ahead no sooner than when their capacity up to T_p, Σ_q B_q (T_p - start_q - D_q)+, covers S.
//! So p is useful for S exactly when S ≥ that capacity: for two idle paths it is Eq. 4.3's
//! threshold plus B1 c/B2, the slow path's own serialisation of the chunk. Without that term, a
//! chunk started just before the threshold is crossed still goes on the slow path and arrives
//! after the fast path has finished (Fig 4.7's message 0 would end at 11.2 ms, not 11).
//!
//! start_p is the seed's "last time at which we sent a data-chunk on a path" (§4.6.1) carried
//! forward: each send keeps the path busy for bytes/B_p after it (or after the previous send's
//! end), which is when its link is free again in the ideal model and its bottleneck queue has
//! drained on a real one.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::scheduler::Event;
use crate::snapshot::{Context, PathId, PathSnapshot};

/// Before the transport has sent anything the packet size is unknown: QUIC's smallest maximum
/// datagram size stands in for it; the largest send seen replaces it.
const DEFAULT_PACKET: u64 = 1200;

#[derive(Default)]
pub struct EcfPaths {
    /// Per path: the estimated time its link is free of what was sent so far, and the rate and
    /// delay last seen for it (events carry neither).
    busy_until: BTreeMap<PathId, Duration>,
    seen: BTreeMap<PathId, (f64, Duration)>,
    packet: Option<u64>,
}

impl EcfPaths {
    /// Called at the start of each decision: keeps each path's rate and delay for the events that
    /// follow it.
    pub fn observe(&mut self, cx: &Context) {
        for p in cx.paths {
            self.seen.insert(p.id, (p.rate(), p.one_way()));
        }
    }

    /// Records a send; returns the estimated arrival of its last byte (None for other events).
    pub fn on_event(&mut self, now: Duration, event: &Event) -> Option<Duration> {
        let Event::Sent { path, bytes, .. } = *event else { return None };
        self.packet = Some(self.packet.unwrap_or(0).max(bytes));
        let (rate, one_way) = *self.seen.get(&path)?;
        let busy = self.busy_until.entry(path).or_default();
        *busy = (*busy).max(now) + secs(bytes as f64 / rate);
        Some(*busy + one_way)
    }

    /// The bytes the next packet will carry from a stream with `remaining` bytes to send.
    pub fn chunk(&self, remaining: u64) -> u64 {
        self.packet.unwrap_or(DEFAULT_PACKET).min(remaining).max(1)
    }

    /// When `p` can start serialising new bytes. A path whose window is full although its link
    /// is estimated free (a window-limited path waiting for acks) opens again once the excess
    /// over its window has been acknowledged, taken at its rate.
    pub fn start(&self, cx: &Context, p: &PathSnapshot) -> Duration {
        let busy = self.busy_until.get(&p.id).copied().unwrap_or_default().max(cx.now);
        if p.can_send || busy > cx.now {
            return busy;
        }
        let excess = (p.bytes_in_flight + self.chunk(u64::MAX)).saturating_sub(p.cwnd);
        cx.now + secs(excess as f64 / p.rate())
    }

    /// When `bytes` sent next on `p` would have arrived.
    pub fn arrival(&self, cx: &Context, p: &PathSnapshot, bytes: u64) -> Duration {
        self.start(cx, p) + secs(bytes as f64 / p.rate()) + p.one_way()
    }

    /// The candidate path on which `bytes` would arrive first (lowest id on a tie).
    pub fn fastest(&self, cx: &Context, bytes: u64) -> Option<PathId> {
        cx.candidates().min_by_key(|p| (self.arrival(cx, p, bytes), p.id)).map(|p| p.id)
    }

    /// Whether sending the next `chunk` bytes of a backlog of `backlog` bytes (the chunk
    /// included) on `p` can make the backlog's last byte arrive no later: ECF's threshold test, in
    /// the packet form explained above. An infinite backlog uses every path (seed 000 §4.8.4).
    pub fn useful(&self, cx: &Context, p: &PathSnapshot, backlog: f64, chunk: u64) -> bool {
        let t = self.arrival(cx, p, chunk);
        let others: f64 = cx
            .candidates()
            .filter(|q| q.id != p.id)
            .map(|q| q.rate() * t.saturating_sub(self.start(cx, q) + q.one_way()).as_secs_f64())
            .sum();
        backlog >= others
    }
}

/// ECF's completion time for `size` bytes on idle paths (seed 000 Eq. 4.1-4.2, for n paths: the
/// water level T at which Σ_p B_p (T - D_p)+ reaches the size), from now. Infinite for an
/// infinite size or no path.
pub fn isolated_completion(cx: &Context, size: f64) -> f64 {
    let mut paths: Vec<(f64, f64)> = cx.candidates().map(|p| (p.one_way().as_secs_f64(), p.rate())).collect();
    paths.sort_by(|a, b| a.0.total_cmp(&b.0));
    if !size.is_finite() || paths.is_empty() {
        return f64::INFINITY;
    }
    // Fill path by path in order of delay: with the first k paths in use, the level rises at
    // Σ B; the next path joins when the level reaches its delay.
    let (mut level, mut rate, mut left) = (paths[0].0, 0.0, size);
    for (i, &(_, b)) in paths.iter().enumerate() {
        rate += b;
        let next = paths.get(i + 1).map_or(f64::INFINITY, |q| q.0);
        let fits = rate * (next - level);
        if left <= fits {
            return level + left / rate;
        }
        left -= fits;
        level = next;
    }
    unreachable!("the last path's level is unbounded")
}

fn secs(x: f64) -> Duration {
    Duration::from_secs_f64(x.max(0.0))
}
