//! MPTCP's own retransmission (RFC 8684 §3.3.6), as Linux does it (net/mptcp/protocol.c): data a
//! subflow was given stays in the connection's retransmit queue until the peer has it in data
//! order (the DATA_ACK); when the connection's retransmit timer fires with the queue's head still
//! out, the head fragment is sent again on a subflow that has nothing outstanding at the TCP
//! level (`mptcp_subflow_get_retrans`), so data stuck on a slow path reaches the peer over a fast
//! one. Without it a page's bytes mapped onto a path of five times the RTT hold every later byte
//! of the connection behind them.
//!
//! The peer's DATA_ACK rides on its subflows' ACKs; here a mapping counts as DATA_ACKed once the
//! subflow that carried it has had it acknowledged, which is when that peer has it, known after
//! the same return trip.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

/// What one reinjection sends at most: the head of the queue as the kernel keeps its data, in
/// fragments of its socket's page frags (32 KB, SKB_FRAG_PAGE_ORDER).
pub const REINJECT_BYTES: usize = 32 << 10;
/// The timer's interval when no subflow has a retransmission timer pending (TCP_RTO_MIN).
pub const RTO_MIN: Duration = Duration::from_millis(200);

#[derive(Default)]
pub struct Retransmission {
    /// Mapped bytes the peer is not known to have, by data sequence number.
    unacked: BTreeMap<u64, Vec<u8>>,
    /// Per subflow: (its stream offset at the frame's end, the frame's data sequence number), in
    /// the order they went into its send buffer.
    carried: Vec<VecDeque<(u64, u64)>>,
    /// The bytes of `unacked`.
    held: usize,
    deadline: Option<Duration>,
}

impl Retransmission {
    /// The frame of the bytes at `dsn` went into subflow `subflow`'s send buffer, ending at its
    /// stream offset `end` (`keep` holds the bytes).
    pub fn carried(&mut self, subflow: usize, end: u64, dsn: u64) {
        if self.carried.len() <= subflow {
            self.carried.resize_with(subflow + 1, VecDeque::new);
        }
        self.carried[subflow].push_back((end, dsn));
    }

    /// The bytes mapped at `dsn`, until the peer has them.
    pub fn keep(&mut self, dsn: u64, bytes: Vec<u8>) {
        if let std::collections::btree_map::Entry::Vacant(e) = self.unacked.entry(dsn) {
            self.held += bytes.len();
            e.insert(bytes);
        }
    }

    /// Bytes mapped that the peer is not known to have: they stay in the send buffer.
    pub fn held(&self) -> usize {
        self.held
    }

    /// Subflow `subflow` has had its stream acknowledged up to offset `acked`; true if the
    /// DATA_ACK moved.
    pub fn acknowledged(&mut self, subflow: usize, acked: u64) -> bool {
        let Some(queue) = self.carried.get_mut(subflow) else { return false };
        let head = self.unacked.keys().next().copied();
        while queue.front().is_some_and(|(end, _)| *end <= acked) {
            let (_, dsn) = queue.pop_front().expect("checked above");
            if let Some(bytes) = self.unacked.remove(&dsn) {
                self.held -= bytes.len();
            }
        }
        self.unacked.keys().next().copied() != head
    }

    pub fn is_empty(&self) -> bool {
        self.unacked.is_empty()
    }

    /// Arms the timer if it is not (`mptcp_reset_rtx_timer` after pushing data).
    pub fn arm(&mut self, now: Duration, interval: Duration) {
        if self.deadline.is_none() && !self.unacked.is_empty() {
            self.deadline = Some(now + interval);
        }
    }

    /// Restarts the timer, or stops it with nothing out (`__mptcp_clean_una` on DATA_ACK progress).
    pub fn restart(&mut self, now: Duration, interval: Duration) {
        self.deadline = (!self.unacked.is_empty()).then_some(now + interval);
    }

    pub fn deadline(&self) -> Option<Duration> {
        self.deadline
    }

    /// None before the timer is due; once it is, the head fragments to send again, contiguous
    /// from the DATA_ACK, up to REINJECT_BYTES. The timer stops; the caller arms it again.
    pub fn fire(&mut self, now: Duration) -> Option<Vec<(u64, Vec<u8>)>> {
        if self.deadline.is_none_or(|d| d > now) {
            return None;
        }
        self.deadline = None;
        let mut out = Vec::new();
        let mut next = None;
        let mut taken = 0;
        for (&dsn, bytes) in &self.unacked {
            if next.is_some_and(|n| n != dsn) || taken + bytes.len() > REINJECT_BYTES.max(bytes.len()) {
                break;
            }
            out.push((dsn, bytes.clone()));
            taken += bytes.len();
            next = Some(dsn + bytes.len() as u64);
        }
        Some(out)
    }
}

/// A subflow's retransmission timeout as Linux sets it (__tcp_set_rto): the smoothed RTT plus
/// four deviations, the deviation term at least TCP_RTO_MIN; 1 s before a sample (RFC 6298).
pub fn subflow_rto(smoothed: Option<(Duration, Duration)>) -> Duration {
    match smoothed {
        Some((srtt, rttvar)) => srtt + (rttvar * 4).max(RTO_MIN),
        None => Duration::from_secs(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn carry(r: &mut Retransmission, subflow: usize, end: u64, dsn: u64, len: usize) {
        r.carried(subflow, end, dsn);
        r.keep(dsn, vec![0; len]);
    }

    #[test]
    fn the_data_ack_moves_only_when_the_head_is_acknowledged() {
        let mut r = Retransmission::default();
        // Bytes 0..10 on subflow 1 (slow), 10..20 and 20..30 on subflow 0.
        carry(&mut r, 1, 34, 0, 10);
        carry(&mut r, 0, 34, 10, 10);
        carry(&mut r, 0, 68, 20, 10);
        assert!(!r.acknowledged(0, 68), "later bytes acknowledged: the DATA_ACK still waits for byte 0");
        assert_eq!(r.held(), 10, "the head's bytes are still held");
        assert!(r.acknowledged(1, 34));
        assert!(r.is_empty());
    }

    #[test]
    fn the_timer_sends_the_head_again_contiguous_and_bounded() {
        let mut r = Retransmission::default();
        carry(&mut r, 1, 1400, 0, 1376);
        carry(&mut r, 1, 2800, 1376, 1376);
        carry(&mut r, 0, 1400, 5000, 1376);
        r.arm(MS(0), MS(1200));
        r.arm(MS(500), MS(1200));
        assert_eq!(r.deadline(), Some(MS(1200)), "arming a pending timer leaves it");
        assert!(r.fire(MS(1199)).is_none(), "not due yet");
        let again = r.fire(MS(1200)).expect("due");
        assert_eq!(again.iter().map(|(dsn, b)| (*dsn, b.len())).collect::<Vec<_>>(), vec![(0, 1376), (1376, 1376)], "the contiguous head, not the bytes past the gap");
        assert_eq!(r.deadline(), None);
        let mut big = Retransmission::default();
        for i in 0..40u64 {
            carry(&mut big, 1, (i + 1) * 1400, i * 1376, 1376);
        }
        big.arm(MS(0), MS(200));
        let sent: usize = big.fire(MS(200)).expect("due").iter().map(|(_, b)| b.len()).sum();
        assert!(sent <= REINJECT_BYTES && sent > REINJECT_BYTES - 1376, "one page frag's worth: {sent}");
    }

    #[test]
    fn a_copy_acknowledged_on_either_subflow_clears_the_bytes() {
        let mut r = Retransmission::default();
        carry(&mut r, 1, 100, 0, 76);
        carry(&mut r, 0, 100, 0, 76);
        assert!(r.acknowledged(0, 100), "the reinjected copy arrived first");
        assert!(r.is_empty());
        assert!(!r.acknowledged(1, 100), "the original's ACK later changes nothing");
        r.restart(MS(10), MS(200));
        assert_eq!(r.deadline(), None, "nothing out: the timer stops");
    }

    #[test]
    fn rto_is_srtt_plus_four_deviations_at_least_the_minimum() {
        assert_eq!(subflow_rto(Some((MS(1000), MS(10)))), MS(1200));
        assert_eq!(subflow_rto(Some((MS(100), MS(100)))), MS(500));
        assert_eq!(subflow_rto(None), MS(1000));
    }
}
