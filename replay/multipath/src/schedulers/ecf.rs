//! Earliest Completion First: use a slower path only when that finishes the backlog sooner than
//! waiting for a faster one. Two forms, chosen with `form=`:
//!
//! - `form=cwnd` (the default): ECF as published for MPTCP (Lim, Nahum, Towsley, Gibbens, "ECF: An
//!   MPTCP Path Scheduler to Manage Heterogeneous Paths", CoNEXT 2017), as seed 000 §2.4.2 and
//!   seed 004 §3.1.1 describe it, with the inequalities of seed 004 Algorithm 1 lines 8-23. When
//!   the lowest-RTT path x_f is full, the fastest path that can send, x_s, is weighed against
//!   waiting for x_f. With k the connection's bytes left to send and δ = max(σ_f, σ_s) (RTT
//!   variances), ECF waits if n·RTT_f < (1 + waiting·β)(RTT_s + δ) with n = 1 + k/cwnd_f, and
//!   k/cwnd_s·RTT_s ≥ 2·RTT_f + δ; `waiting` is set when it waits and cleared when the first
//!   inequality fails, so β is a hysteresis against switching back to the slow path (`beta=`,
//!   0.25 in ECF, 1 in seed 004).
//! - `form=size`: seed 000 §4.4's ECF on its ideal model (fixed latency D_p and capacity B_p per
//!   path): with paths ordered by latency, use the slower path only while the remaining size is at
//!   least S_lim = B1·(D2 − D1) (Eq. 4.3), so that data on both paths completes at the same time
//!   at the receiver (Eq. 4.2); for n paths (Fig 4.6) a path is worth using while the remaining
//!   size is more than the faster paths could deliver before its first byte arrives. D_p is half
//!   the smoothed RTT (the seed's latency is the one-way delay its figures show from the
//!   receiver's side), B_p the pacing rate, else a window per RTT. The test is asked per packet
//!   in `ecf_paths`, which srpt-ecf shares, so that on a single message the two schedule alike:
//!   a packet goes on a path if the backlog is at least what the other paths could deliver by the
//!   time that packet would arrive, which is Eq. 4.3's threshold for idle paths plus the packet's
//!   own serialisation, and accounts for a path whose link or window is still busy.
//!
//! Choices the seeds leave open:
//! - cwnd is the default: it is the ECF the seeds' experiments compare against, and it reads only
//!   what a transport measures (window, smoothed RTT and its variance), where the size form
//!   assumes the fixed latency and capacity of seed 000's ideal model.
//! - k is the whole connection's unsent bytes, every stream's (MPTCP's send buffer): a path
//!   scheduler does not know which stream fills the packet. Stream-aware forms (SA-ECF,
//!   SRPT-ECF) are their own schedulers.
//! - In the cwnd form each path is taken to need at least one whole round, k_p = max(k, cwnd_p),
//!   as in the ECF authors' Linux implementation (mptcp_ecf.c) and in seed 004 §3.1.1's words
//!   ("the RTT of another path with enough wnd for k bytes"; "at least 2 RTTs" on the fast path,
//!   §5.3). Algorithm 1 as printed uses k itself, which calls a tail smaller than
//!   2·(RTT_f/RTT_s)·cwnd_s quicker on the slow path than one fast RTT and puts it there, where
//!   it arrives after the fast path would have finished.

use std::time::Duration;

use crate::registry::Entry;
use crate::scheduler::{PathChoice, PathScheduler, Paired, TransportOrder};
use super::ecf_paths::EcfPaths;
use crate::scheduler::Event;
use crate::snapshot::{Context, PathSnapshot};

pub const ENTRY: Entry = Entry {
    name: "ecf",
    summary: "wait for the fastest path unless a slower one finishes sooner; form=cwnd (Lim et al. 2017, seed 004 Alg. 1, beta=0.25) or form=size (seed 000 §4.4, S_lim = B1(D2-D1))",
    build: |opts| {
        let form = match opts.text("form").as_deref() {
            None | Some("cwnd") => Form::Cwnd,
            Some("size") => Form::Size,
            Some(other) => return Err(format!("scheduler option form={other}: expected cwnd or size")),
        };
        let beta_given = opts.text("beta").is_some();
        let beta = opts.f64("beta", 0.25, 0.0, 10.0)?;
        if beta_given && form == Form::Size {
            return Err("scheduler option beta applies to ecf's form=cwnd; form=size has no hysteresis".to_string());
        }
        opts.check_all_read("ecf")?;
        Ok(Box::new(Paired { name: "ecf", paths: Ecf { form, beta, waiting: false, ecf_paths: EcfPaths::default() }, streams: TransportOrder }))
    },
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Cwnd,
    Size,
}

pub struct Ecf {
    pub form: Form,
    pub beta: f64,
    /// Set when ECF last chose to wait for the fast path; widens the first inequality by β.
    waiting: bool,
    /// The size form's estimate of when each path is free again.
    ecf_paths: EcfPaths,
}

impl PathScheduler for Ecf {
    fn select_path(&mut self, cx: &Context) -> PathChoice {
        let k: u64 = cx.streams.iter().map(|s| s.remaining).sum();
        match self.form {
            Form::Cwnd => self.by_window(cx, k),
            Form::Size => self.by_size(cx, k),
        }
    }

    fn on_event(&mut self, now: Duration, event: &Event) {
        self.ecf_paths.on_event(now, event);
    }
}

impl Ecf {
    fn by_window(&mut self, cx: &Context, k: u64) -> PathChoice {
        let Some(fast) = cx.candidates().min_by_key(|p| (p.srtt, p.id)) else { return PathChoice::Wait };
        if fast.can_send {
            return PathChoice::One(fast.id);
        }
        let Some(slow) = cx.candidates().filter(|p| p.can_send).min_by_key(|p| (p.srtt, p.id)) else { return PathChoice::Wait };
        let (rtt_f, rtt_s) = (secs(fast.srtt), secs(slow.srtt));
        let delta = secs(fast.rttvar.max(slow.rttvar));
        let n = 1.0 + rounds(k, fast);
        let waiting = if self.waiting { 1.0 } else { 0.0 };
        if n * rtt_f < (1.0 + waiting * self.beta) * (rtt_s + delta) {
            if rounds(k, slow) * rtt_s >= 2.0 * rtt_f + delta {
                self.waiting = true;
                return PathChoice::Wait;
            }
        } else {
            self.waiting = false;
        }
        PathChoice::One(slow.id)
    }

    fn by_size(&mut self, cx: &Context, k: u64) -> PathChoice {
        self.ecf_paths.observe(cx);
        let chunk = self.ecf_paths.chunk(k);
        let mut paths: Vec<&PathSnapshot> = cx.candidates().filter(|p| p.can_send).collect();
        paths.sort_by_key(|p| (p.one_way(), p.id));
        let useful = paths.into_iter().find(|p| self.ecf_paths.useful(cx, p, k as f64, chunk));
        useful.map_or(PathChoice::Wait, |p| PathChoice::One(p.id))
    }
}

/// Windows needed to send `k` bytes on `p`, at least one.
fn rounds(k: u64, p: &PathSnapshot) -> f64 {
    let cwnd = p.cwnd.max(1);
    k.max(cwnd) as f64 / cwnd as f64
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}
