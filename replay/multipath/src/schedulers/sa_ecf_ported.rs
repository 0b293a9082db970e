//! SA-ECF as seed 004 ports it to multipath QUIC (§5.3, Algorithm 1, with Algorithm 2's
//! bytesUntilCompletion), over the round-robin of streams with per-round guarantees that seed
//! 004's hierarchical link sharing gives (see `stream_rounds`).
//!
//! Algorithm 1: p_f is the usable path with the lowest RTT, p_s the lowest-RTT one that can send.
//! If p_f can send, it takes the packet and the round-robin's order is untouched. Otherwise, with
//! δ = max(σ_f, σ_s), each pending stream i in turn computes k = bytesUntilCompletion(r_i, g_i) and
//! n = 1 + k/cwnd_f, and
//!   if n RTT_f < (1 + waiting_i β)(RTT_s + δ):
//!     if (k/cwnd_s) RTT_s ≥ 2 RTT_f + δ: waiting_i = 1, next stream
//!     else: send i on p_s (moved to the front of the order)
//!   else: waiting_i = 0, send i on p_s (moved to the front)
//! and if every stream waits, nothing is sent.
//!
//! Algorithm 2: k = r_i if the request fits in the stream's guarantee g_i; else, with
//! left = r_i / g_i rounds and gap = the guarantees of all other leaves, k = (left - 1) gap + r_i.
//!
//! Choices where the seed leaves things open:
//! - A stream's guarantee g_i is its share of a round, quantum x weight (seed 004 takes it from
//!   the application's class hierarchy; pagepath has none, and a flat hierarchy with one leaf per
//!   stream is seed 004's own default). Options `quantum` (bytes per unit of weight per round,
//!   default 1500) and `weights` as for `sa-ecf`.
//! - The leaves L that Algorithm 2's gap sums over ("even those that are not active") are the
//!   streams this scheduler has seen that have not finished: seed 004's hierarchy is fixed in
//!   advance, ours grows as streams appear.
//! - Integers as in seed 004's code ("β = 1 to avoid floating-point operations"): left = r_i / g_i
//!   rounds down. n and k/cwnd_s are kept as fractions: rounded down they would make any k under
//!   one window cost no time at all.
//! - RTT is the smoothed RTT and σ the RTT variation the transport reports. Option `beta`,
//!   default 1 (seed 004; 0.25 in the original ECF).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::stream_rounds::{parse_common, Rounds};
use crate::urgency_weights::UrgencyWeights;
use crate::registry::Entry;
use crate::scheduler::{Decision, Event, Scheduler};
use crate::snapshot::{Context, PathSnapshot, StreamId, StreamSnapshot};

pub const ENTRY: Entry = Entry {
    name: "sa-ecf-ported",
    summary: "seed 004's port of SA-ECF (Algorithm 1 with Algorithm 2's bytes until completion) over round-robin guarantees; quantum=BYTES, weights=..., beta=1",
    build: |opts| {
        let (quantum, weights) = parse_common(opts)?;
        let beta = opts.f64("beta", 1.0, 0.0, 1e6)?;
        opts.check_all_read("sa-ecf-ported")?;
        Ok(Box::new(SaEcfPorted { leaves: Leaves::new(quantum, weights), beta, waiting: BTreeSet::new() }))
    },
};

/// The streams as seed 004's leaves: the round-robin with its guarantees, and every leaf known.
pub struct Leaves {
    pub rounds: Rounds,
    /// g_j of every stream seen and not finished, bytes.
    guarantees: BTreeMap<StreamId, u64>,
}

impl Leaves {
    pub fn new(quantum: f64, weights: UrgencyWeights) -> Leaves {
        Leaves { rounds: Rounds::new(quantum, weights), guarantees: BTreeMap::new() }
    }

    /// The pending leaves L_ac, in visiting order.
    pub fn pending<'a>(&mut self, cx: &Context<'a>) -> Vec<&'a StreamSnapshot> {
        for s in cx.streams {
            self.guarantees.insert(s.id, self.guarantee(s));
        }
        self.rounds.pending(cx)
    }

    fn guarantee(&self, s: &StreamSnapshot) -> u64 {
        (self.rounds.guarantee(s).round() as u64).max(1)
    }

    /// Algorithm 2.
    pub fn bytes_until_completion(&self, s: &StreamSnapshot) -> u64 {
        let (r, g) = (s.remaining, self.guarantee(s));
        if g >= r {
            return r;
        }
        let left = r / g;
        let gap: u64 = self.guarantees.iter().filter(|(id, _)| **id != s.id).map(|(_, g)| g).sum();
        (left - 1) * gap + r
    }

    pub fn on_event(&mut self, event: &Event) {
        match *event {
            Event::Sent { stream: Some(s), bytes, .. } => self.rounds.charge(s, bytes),
            Event::StreamFinished { stream } => {
                self.guarantees.remove(&stream);
            }
            _ => {}
        }
    }
}

/// The frame Algorithms 1 and 3 share (lines 3-6, then the loop over leaves): the fastest path
/// whenever it can send, with the stream at the head; else each pending stream in turn is asked
/// whether it would rather wait for the fastest path, and the first that would not goes on the
/// fastest path that can send, moved to the front of the round; if all wait, nothing is sent.
pub fn fastest_or_first_not_waiting(
    leaves: &mut Leaves,
    cx: &Context,
    mut waits: impl FnMut(&Leaves, &StreamSnapshot, &PathSnapshot, &PathSnapshot) -> bool,
) -> Decision {
    let pending = leaves.pending(cx);
    let Some(head) = pending.first() else { return Decision::WAIT };
    let Some(f) = cx.candidates().min_by_key(|p| (p.srtt, p.id)) else { return Decision::WAIT };
    if f.can_send {
        return Decision::on(f.id, Some(head.id));
    }
    let Some(s) = cx.candidates().filter(|p| p.can_send).min_by_key(|p| (p.srtt, p.id)) else { return Decision::WAIT };
    for leaf in pending {
        if !waits(leaves, leaf, f, s) {
            leaves.rounds.swap_to_front(leaf.id);
            return Decision::on(s.id, Some(leaf.id));
        }
    }
    Decision::WAIT
}

pub struct SaEcfPorted {
    leaves: Leaves,
    beta: f64,
    /// The streams whose waiting flag is set.
    waiting: BTreeSet<StreamId>,
}

impl Scheduler for SaEcfPorted {
    fn name(&self) -> &'static str {
        "sa-ecf-ported"
    }

    fn decide(&mut self, cx: &Context) -> Decision {
        let (beta, waiting) = (self.beta, &mut self.waiting);
        fastest_or_first_not_waiting(&mut self.leaves, cx, |leaves, leaf, f, s| {
            let (rtt_f, rtt_s) = (f.srtt.as_secs_f64(), s.srtt.as_secs_f64());
            let delta = f.rttvar.max(s.rttvar).as_secs_f64();
            let k = leaves.bytes_until_completion(leaf) as f64;
            let n = 1.0 + k / f.cwnd.max(1) as f64;
            let was_waiting = if waiting.contains(&leaf.id) { 1.0 } else { 0.0 };
            if n * rtt_f < (1.0 + was_waiting * beta) * (rtt_s + delta) {
                if k / s.cwnd.max(1) as f64 * rtt_s >= 2.0 * rtt_f + delta {
                    waiting.insert(leaf.id);
                    return true;
                }
            } else {
                waiting.remove(&leaf.id);
            }
            false
        })
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        self.leaves.on_event(event);
        if let Event::StreamFinished { stream } = *event {
            self.waiting.remove(&stream);
        }
    }
}
