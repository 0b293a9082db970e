//! SA-ECF, the stream-aware ECF of Rabitsch et al. (CoNEXT 2018), as seed 000 §4.3.3 and Fig 4.8
//! use it: a weighted round-robin over streams (see `stream_rounds`) for stream scheduling, and
//! ECF per stream for path allocation, on the size the connection sends until the stream
//! completes, since under round-robin its bytes are interleaved with the others'. Seed 004 §3.1.1
//! gives that size: with the stream's share w_s of the weights, g = (1 - w_s) / w_s (Eq. 3.1),
//! L bytes per turn and l = r/L turns left, k = L (g (l - 1) + l) (Eq. 3.2).
//!
//! ECF here is seed 000's (§4.4, in packet form, see `ecf_paths`), on the path model both
//! schedulers of Fig 4.7-4.8 are compared on: the fastest path serves the stream whose turn it is;
//! another path that can send serves the first stream in round-robin order for which ECF on k
//! finds it useful, or nobody (wait).
//!
//! Choices where the sources leave things open:
//! - L is the stream's guarantee per round, quantum x weight, and w_s is its weight over those of
//!   the streams with data now (Rabitsch normalise HTTP/2 weights over the tree; there is no tree
//!   here), so g L is the others' guarantees. l counts turns, so it is r/L rounded up (Fig 3.1's
//!   "l = 5 visits"; a last, partial turn is still a turn): k = r + (l - 1) g L, and k = r for a
//!   stream whose remaining bytes fit in one turn. (Seed 004's ported Algorithm 2 divides
//!   integers instead; that is `sa-ecf-ported`.)
//! - Options: `quantum` in bytes per unit of weight (default 1500, about one full packet;
//!   Fig 4.8 uses 150), and `weights` by RFC 9218 urgency (`equal`, the default and Fig 4.8's;
//!   `urgency`; or eight numbers, see `urgency_weights.rs`).

use super::ecf_paths::EcfPaths;
use super::stream_rounds::{parse_common, Rounds};
use crate::registry::Entry;
use crate::scheduler::{Decision, Event, Scheduler};
use crate::snapshot::{Context, PathSnapshot, StreamSnapshot};

use std::time::Duration;

pub const ENTRY: Entry = Entry {
    name: "sa-ecf",
    summary: "weighted round-robin over streams with ECF per stream on the bytes sent until it completes (Rabitsch et al., as seed 000 Fig 4.8 runs it); quantum=BYTES, weights=equal|urgency|w0:..:w7",
    build: |opts| {
        let (quantum, weights) = parse_common(opts)?;
        opts.check_all_read("sa-ecf")?;
        Ok(Box::new(SaEcf { rounds: Rounds::new(quantum, weights), paths: EcfPaths::default() }))
    },
};

pub struct SaEcf {
    rounds: Rounds,
    paths: EcfPaths,
}

impl SaEcf {
    /// Eq. 3.2: the bytes the connection sends until `s` has sent its last byte.
    fn bytes_until_completion(&self, s: &StreamSnapshot, active: &[&StreamSnapshot]) -> f64 {
        let turn = self.rounds.guarantee(s);
        let r = s.remaining as f64;
        if r <= turn {
            return r;
        }
        let others: f64 = active.iter().filter(|o| o.id != s.id).map(|o| self.rounds.guarantee(o)).sum();
        ((r / turn).ceil() - 1.0) * others + r
    }
}

impl Scheduler for SaEcf {
    fn name(&self) -> &'static str {
        "sa-ecf"
    }

    fn decide(&mut self, cx: &Context) -> Decision {
        self.paths.observe(cx);
        let pending = self.rounds.pending(cx);
        let Some(head) = pending.first() else { return Decision::WAIT };
        let active: Vec<&StreamSnapshot> = cx.streams.iter().filter(|s| s.remaining > 0).collect();
        let head_path = self.paths.fastest(cx, self.paths.chunk(head.remaining));
        let full = self.paths.chunk(u64::MAX);
        let mut sendable: Vec<&PathSnapshot> = cx.candidates().filter(|p| p.can_send).collect();
        sendable.sort_by_key(|p| (self.paths.arrival(cx, p, full), p.id));
        for p in sendable {
            for (i, s) in pending.iter().enumerate() {
                let k = self.bytes_until_completion(s, &active);
                if (i == 0 && head_path == Some(p.id)) || self.paths.useful(cx, p, k, self.paths.chunk(s.remaining)) {
                    return Decision::on(p.id, Some(s.id));
                }
            }
        }
        Decision::WAIT
    }

    fn on_event(&mut self, now: Duration, event: &Event) {
        self.paths.on_event(now, event);
        if let Event::Sent { stream: Some(s), bytes, .. } = *event {
            self.rounds.charge(s, bytes);
        }
    }
}
