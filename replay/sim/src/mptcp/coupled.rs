//! Coupled congestion control of an MPTCP connection's subflows: how much of Reno's
//! congestion-avoidance growth each subflow takes, so that the connection as a whole is no more
//! aggressive than one TCP flow on its best path. LIA is RFC 6356 (§3, the "Linked Increases"
//! algorithm); OLIA is Khalili et al., "MPTCP is not Pareto-optimal" (IEEE/ACM ToN 2013, §IV),
//! as the out-of-tree Linux MPTCP (v0.9x) that seed 001's §6.5 experiments ran both shipped.
//! Slow start and the response to loss stay Reno's. The real replay's kernel MPTCP has neither
//! (upstream Linux couples no subflows), so only the simulator runs them.
//!
//! Sans-IO: the endpoint hands in each subflow's window, RTT and bytes acknowledged, and sets
//! the returned scale on the subflow's Reno (smoltcp's `set_increase_scale`), which multiplies
//! its per-ACK growth of MSS²/cwnd.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coupling {
    Lia,
    Olia,
}

/// One subflow as the coupling sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Congestion window, bytes.
    pub cwnd: f64,
    /// Smoothed RTT, seconds (greater than 0).
    pub rtt: f64,
}

/// RFC 6356 §3: alpha = cwnd_total * max_i(cwnd_i / rtt_i^2) / (sum_i(cwnd_i / rtt_i))^2, and
/// each ACK on subflow i grows it by min(alpha * MSS^2 / cwnd_total, MSS^2 / cwnd_i): Reno's
/// MSS^2 / cwnd_i times min(alpha * cwnd_i / cwnd_total, 1).
pub fn lia_scales(subflows: &[Window]) -> Vec<f64> {
    let total: f64 = subflows.iter().map(|w| w.cwnd).sum();
    let best = subflows.iter().map(|w| w.cwnd / (w.rtt * w.rtt)).fold(0.0, f64::max);
    let sum: f64 = subflows.iter().map(|w| w.cwnd / w.rtt).sum();
    if total <= 0.0 || sum <= 0.0 {
        return vec![1.0; subflows.len()];
    }
    let alpha = total * best / (sum * sum);
    subflows.iter().map(|w| (alpha * w.cwnd / total).min(1.0)).collect()
}

/// What OLIA remembers of a subflow's losses: the bytes acknowledged between its last two loss
/// events and since the last one (the paper's l1r and l2r).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LossIntervals {
    between: f64,
    since: f64,
    acked_at_loss: f64,
    losses_seen: u64,
}

impl LossIntervals {
    /// `acked`: bytes the subflow has had acknowledged so far; `losses`: its loss events so far
    /// (retransmissions counted by the simulator; a burst of them within one update is one).
    pub fn update(&mut self, acked: f64, losses: u64) {
        if losses > self.losses_seen {
            self.between = acked - self.acked_at_loss;
            self.acked_at_loss = acked;
            self.losses_seen = losses;
        }
        self.since = acked - self.acked_at_loss;
    }

    /// l_r = max(l1r, l2r): the subflow's recent bytes between losses.
    pub fn recent(&self) -> f64 {
        self.between.max(self.since)
    }
}

/// OLIA: each ACK on subflow r grows it, in segments, by (w_r / rtt_r^2) / (sum_p w_p / rtt_p)^2
/// + alpha_r / w_r, where alpha_r moves growth from the paths with the largest windows (M) to the
/// best paths (B, the greatest l_r^2 / rtt_r) that are not among them: 1 / (|P| |B \ M|) on
/// those, -1 / (|P| |M|) on M's, 0 elsewhere or when B \ M is empty. In bytes that is Reno's
/// MSS^2 / cwnd_r times w_r^2 / rtt_r^2 / (sum_p w_p / rtt_p)^2 + alpha_r.
pub fn olia_scales(subflows: &[Window], intervals: &[LossIntervals]) -> Vec<f64> {
    let n = subflows.len();
    let sum: f64 = subflows.iter().map(|w| w.cwnd / w.rtt).sum();
    if n == 0 || sum <= 0.0 {
        return vec![1.0; n];
    }
    let largest = subflows.iter().map(|w| w.cwnd).fold(0.0, f64::max);
    let quality: Vec<f64> = subflows.iter().zip(intervals).map(|(w, l)| l.recent() * l.recent() / w.rtt).collect();
    let best_quality = quality.iter().copied().fold(0.0, f64::max);
    let in_m: Vec<bool> = subflows.iter().map(|w| w.cwnd >= largest).collect();
    let best_not_m: Vec<bool> = (0..n).map(|i| quality[i] >= best_quality && !in_m[i]).collect();
    let (m, bm) = (in_m.iter().filter(|&&x| x).count(), best_not_m.iter().filter(|&&x| x).count());
    let paths = n as f64;
    subflows
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let alpha = if bm == 0 {
                0.0
            } else if best_not_m[i] {
                1.0 / (paths * bm as f64)
            } else if in_m[i] {
                -1.0 / (paths * m as f64)
            } else {
                0.0
            };
            w.cwnd * w.cwnd / (w.rtt * w.rtt) / (sum * sum) + alpha
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: f64 = 1460.0;

    #[test]
    fn one_subflow_grows_as_reno() {
        let one = [Window { cwnd: 20.0 * MSS, rtt: 0.04 }];
        assert_eq!(lia_scales(&one), vec![1.0]);
        // (w / rtt^2) / (w / rtt)^2 = 1 / w, in segments: w * that = 1.
        let olia = olia_scales(&one, &[LossIntervals::default()]);
        assert!((olia[0] - 1.0).abs() < 1e-9, "{olia:?}");
    }

    #[test]
    fn two_equal_subflows_grow_as_one_flow_between_them() {
        // alpha = 2w * (w / r^2) / (2w / r)^2 = 1/2; each subflow takes min(1/2 * w / 2w, 1) = 1/4
        // of Reno's growth, so the pair grows by half a segment a round trip each, one together.
        let equal = [Window { cwnd: 20.0 * MSS, rtt: 0.04 }, Window { cwnd: 20.0 * MSS, rtt: 0.04 }];
        for s in lia_scales(&equal) {
            assert!((s - 0.25).abs() < 1e-12, "{s}");
        }
        // OLIA's first term alone is the same quarter; equal windows put both in M, B \ M empty.
        for s in olia_scales(&equal, &[LossIntervals::default(); 2]) {
            assert!((s - 0.25).abs() < 1e-12, "{s}");
        }
    }

    #[test]
    fn lia_gives_the_better_path_no_more_than_one_flows_growth() {
        // A path with 5x the RTT (seed 001 §6.5.1) and equal windows: alpha = 2w (w / r^2) /
        // (w / r + w / 5r)^2 = 2 / 1.44 = 1.389; each subflow's scale 1.389 / 2 = 0.694.
        let mismatch = [Window { cwnd: 30.0 * MSS, rtt: 0.02 }, Window { cwnd: 30.0 * MSS, rtt: 0.1 }];
        let s = lia_scales(&mismatch);
        assert!((s[0] - 0.6944).abs() < 1e-3 && (s[1] - 0.6944).abs() < 1e-3, "{s:?}");
    }

    #[test]
    fn olia_moves_growth_from_the_largest_window_to_a_better_path() {
        // The first path has the larger window but loses more often: its recent bytes between
        // losses are fewer, so the second is the best path and not in M.
        let w = [Window { cwnd: 40.0 * MSS, rtt: 0.04 }, Window { cwnd: 10.0 * MSS, rtt: 0.04 }];
        let mut lossy = LossIntervals::default();
        lossy.update(100_000.0, 1);
        lossy.update(150_000.0, 2);
        let mut clean = LossIntervals::default();
        clean.update(400_000.0, 0);
        assert_eq!((lossy.recent(), clean.recent()), (50_000.0, 400_000.0));
        let s = olia_scales(&w, &[lossy, clean]);
        // First terms: 40^2 / 50^2 = 0.64 and 10^2 / 50^2 = 0.04; alpha -1/2 and +1/2.
        assert!((s[0] - (0.64 - 0.5)).abs() < 1e-9 && (s[1] - (0.04 + 0.5)).abs() < 1e-9, "{s:?}");
    }
}
