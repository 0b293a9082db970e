//! The adapted SA-ECF of seed 004 (§5.3, Algorithm 3): the ported SA-ECF (`sa-ecf-ported`)
//! without the hysteresis β and with one-way delays, since in multipath QUIC an acknowledgement
//! may come back on any path and the peer is assumed to send it on the fastest. It insists on the
//! faster path: fewer opportunities are given to the slower one.
//!
//! p_f is the usable path with the lowest RTT, p_s the lowest-RTT one that can send. If p_f can
//! send, it takes the packet. Otherwise, with Δ_f = (RTT_f + σ_f)/2, Δ_s = (RTT_s + σ_s)/2 and
//! Δ_ack = min(Δ_f, Δ_s), each pending stream i in turn computes k = bytesUntilCompletion (seed
//! 004's Algorithm 2, as in `sa-ecf-ported`), n = 1 + k/cwnd_f bursts on the fast path and
//! m = k/cwnd_s on the slow one; if n (Δ_f + Δ_ack) < m (Δ_s + Δ_ack) it waits for the faster path,
//! else it is sent on p_s (moved to the front of the order). If every stream waits, nothing is
//! sent.
//!
//! Guarantees, leaves, options (`quantum`, `weights`) and arithmetic are those of `sa-ecf-ported`
//! (see its choices); there is no `beta`.

use std::time::Duration;

use super::sa_ecf_ported::{fastest_or_first_not_waiting, Leaves};
use super::stream_rounds::parse_common;
use crate::registry::Entry;
use crate::scheduler::{Decision, Event, Scheduler};
use crate::snapshot::Context;

pub const ENTRY: Entry = Entry {
    name: "sa-ecf-adapted",
    summary: "seed 004's adapted SA-ECF (Algorithm 3): one-way delays, acknowledgements on the fastest path, waits for the faster path more often; quantum=BYTES, weights=...",
    build: |opts| {
        let (quantum, weights) = parse_common(opts)?;
        opts.check_all_read("sa-ecf-adapted")?;
        Ok(Box::new(SaEcfAdapted { leaves: Leaves::new(quantum, weights) }))
    },
};

pub struct SaEcfAdapted {
    leaves: Leaves,
}

impl Scheduler for SaEcfAdapted {
    fn name(&self) -> &'static str {
        "sa-ecf-adapted"
    }

    fn decide(&mut self, cx: &Context) -> Decision {
        fastest_or_first_not_waiting(&mut self.leaves, cx, |leaves, leaf, f, s| {
            let delta_f = (f.srtt + f.rttvar).as_secs_f64() / 2.0;
            let delta_s = (s.srtt + s.rttvar).as_secs_f64() / 2.0;
            let delta_ack = delta_f.min(delta_s);
            let k = leaves.bytes_until_completion(leaf) as f64;
            let n = 1.0 + k / f.cwnd.max(1) as f64;
            let m = k / s.cwnd.max(1) as f64;
            n * (delta_f + delta_ack) < m * (delta_s + delta_ack)
        })
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        self.leaves.on_event(event);
    }
}
