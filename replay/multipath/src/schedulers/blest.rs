//! BLEST, the blocking-estimation scheduler (S. Ferlin, Ö. Alay, O. Mehani, R. Boreli, "BLEST:
//! Blocking Estimation-based MPTCP Scheduler for Heterogeneous Networks", IFIP Networking 2016).
//! Not in the seeds (seed 000 §2.4.2 names it: it "tries to estimate when selecting a path would
//! cause head-of-line blocking"); implemented from the paper's algorithm.
//!
//! Lowest-RTT, except when the fastest path x_f is full: before sending on the fastest path that
//! can send, x_s, BLEST estimates what x_f could send while one packet on x_s is in flight,
//! letting x_f's window grow by one segment per RTT (congestion avoidance):
//!
//!   X = MSS · (RTT_s/RTT_f) · (cwnd_f + (RTT_s/RTT_f − 1)/2),   cwnd_f in segments,
//!
//! and skips x_s (waits for x_f) if X·λ > W − inflight_s − MSS: the packet on x_s would hold the
//! left edge of the connection's window W while x_f needs the room, the sender would block, and
//! the receiver would hold x_f's data behind the slow packet (head-of-line blocking).
//!
//! Choices the paper leaves to the implementation, or that this interface decides:
//! - λ, the scaling factor, is fixed (`lambda=`, default 1). The paper adapts it online, up a step
//!   when the connection was blocked by its window after all and down a step otherwise; that needs
//!   the window's blocking events, which the transport does not report to a scheduler (its
//!   snapshots have no connection flow-control state) and seed 000's ideal model does not have.
//! - W is an option (`window=`, bytes) for the same reason. The default, 10 MiB, is the
//!   connection-level flow-control window the receiver in pagepath's replays grants: tquic's
//!   initial MAX_DATA, which the emulated browser keeps (Chromium grants 15 MB). With windows that
//!   large BLEST rarely skips a path; set `window=` to the receiver's window to study a
//!   constrained one. The scheduler estimates with W, it does not enforce it: flow control is the
//!   transport's.
//! - inflight_s is the bytes in flight on x_s (the paper's MSS_s·inflight_s).
//! - MSS is the largest packet the transport has reported sending, QUIC's minimum datagram size
//!   (1200 B) until the first one.

use std::time::Duration;

use crate::registry::Entry;
use crate::scheduler::{Event, PathChoice, PathScheduler, Paired, TransportOrder};
use crate::snapshot::Context;

/// QUIC's smallest maximum datagram size (RFC 9000 §14), until a send shows the real one.
const DEFAULT_MSS: u64 = 1200;

pub const ENTRY: Entry = Entry {
    name: "blest",
    summary: "lowest-RTT, but skips a slower path whose packet would block the fast path in the window (Ferlin et al. 2016); window=10485760 bytes, lambda=1",
    build: |opts| {
        let window = opts.f64("window", 10.0 * 1024.0 * 1024.0, 1.0, 1e15)?;
        let lambda = opts.f64("lambda", 1.0, 0.0, 100.0)?;
        opts.check_all_read("blest")?;
        Ok(Box::new(Paired { name: "blest", paths: Blest { window, lambda, mss: None }, streams: TransportOrder }))
    },
};

pub struct Blest {
    /// The connection's send window, bytes.
    pub window: f64,
    pub lambda: f64,
    mss: Option<u64>,
}

impl PathScheduler for Blest {
    fn select_path(&mut self, cx: &Context) -> PathChoice {
        let Some(fast) = cx.candidates().min_by_key(|p| (p.srtt, p.id)) else { return PathChoice::Wait };
        if fast.can_send {
            return PathChoice::One(fast.id);
        }
        let Some(slow) = cx.candidates().filter(|p| p.can_send).min_by_key(|p| (p.srtt, p.id)) else { return PathChoice::Wait };
        let mss = self.mss.unwrap_or(DEFAULT_MSS) as f64;
        let ratio = slow.srtt.as_secs_f64() / fast.srtt.as_secs_f64().max(1e-9);
        let x = mss * ratio * (fast.cwnd as f64 / mss + (ratio - 1.0) / 2.0);
        let room = self.window - slow.bytes_in_flight as f64 - mss;
        if x * self.lambda > room {
            PathChoice::Wait
        } else {
            PathChoice::One(slow.id)
        }
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        if let Event::Sent { bytes, .. } = event {
            self.mss = Some(self.mss.unwrap_or(0).max(*bytes));
        }
    }
}
