//! The Linux kernel's default MPTCP scheduler (net/mptcp/protocol.c, mptcp_subflow_get_send,
//! since Linux 6.1): the active subflow whose queued bytes would drain soonest at its pacing rate
//! ("linger time": queued bytes / pacing rate), a backup only when no other is active; if that
//! subflow has no room, nothing is sent. Linux's
//! pacing rate is the window per smoothed RTT, doubled in slow start and 1.2 times in congestion
//! avoidance (tcp_update_pacing_rate). The kernel queues on a subflow more than its window can
//! send at once (in bursts of up to 64 KB, as long as the subflow's send buffer has room), so a
//! transport that models it offers paths on that rule rather than on window room: `can_send` is
//! then room in the send buffer (the simulator's MPTCP does, replay/sim/src/mptcp).

use crate::registry::Entry;
use crate::scheduler::{PathChoice, PathScheduler, Paired, TransportOrder};
use crate::snapshot::{Context, PathSnapshot};

pub const ENTRY: Entry = Entry {
    name: "kernel-default",
    summary: "Linux's default MPTCP scheduler: the subflow whose queue drains soonest at its pacing rate (net/mptcp/protocol.c)",
    build: |opts| {
        opts.check_all_read("kernel-default")?;
        Ok(Box::new(Paired { name: "kernel-default", paths: KernelDefault::default(), streams: TransportOrder }))
    },
};

/// The kernel's send burst (MPTCP_SEND_BURST_SIZE), what one choice hands a subflow.
const BURST: f64 = 65_428.0;

/// Each subflow's pacing rate as the kernel averages it (subflow->avg_pacing_rate): the socket's
/// until the subflow is first chosen (the kernel takes it then from a socket whose handshake has
/// measured an RTT), then, each time it is chosen, the mean of the old average weighted by the
/// bytes it has queued and the socket's rate now weighted by the burst. A subflow whose window was
/// just cut keeps most of its old rate while much is queued on it.
#[derive(Default)]
pub struct KernelDefault {
    avg_pacing: std::collections::HashMap<crate::snapshot::PathId, f64>,
}

/// Bytes per second, as tcp_update_pacing_rate sets sk_pacing_rate where the controller does not
/// pace itself.
fn pacing_rate(p: &PathSnapshot) -> f64 {
    match p.pacing_rate {
        Some(r) if r > 0 => r as f64,
        _ => p.cwnd as f64 / p.srtt.as_secs_f64().max(1e-6) * if p.in_slow_start { 2.0 } else { 1.2 },
    }
}

impl PathScheduler for KernelDefault {
    /// The kernel picks the subflow of least linger time among the active ones first, and only
    /// then asks whether it has room (sk_stream_memory_free): when it has none, nothing is sent
    /// until it has, rather than on a slower subflow ("according to the blest algorithm, to avoid
    /// HoL blocking for the faster flow", as the source comments it).
    fn select_path(&mut self, cx: &Context) -> PathChoice {
        let avg = &self.avg_pacing;
        let rate = |p: &PathSnapshot| avg.get(&p.id).copied().unwrap_or_else(|| pacing_rate(p));
        let linger = |p: &PathSnapshot| p.bytes_in_flight as f64 / rate(p);
        match cx.candidates().min_by(|a, b| linger(a).total_cmp(&linger(b)).then(a.id.cmp(&b.id))) {
            Some(p) if p.can_send => {
                let queued = p.bytes_in_flight as f64;
                let old = rate(p);
                self.avg_pacing.insert(p.id, (old * queued + pacing_rate(p) * BURST) / (BURST + queued));
                PathChoice::One(p.id)
            }
            _ => PathChoice::Wait,
        }
    }
}
