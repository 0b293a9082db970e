//! Loss, duplication and reordering from the sequence numbers that arrived.

use std::collections::HashSet;

use serde::Serialize;

#[derive(Default)]
pub struct SeqTracker {
    seen: HashSet<u64>,
    highest: Option<u64>,
    duplicates: u64,
    reordered: u64,
}

#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Loss {
    /// Distinct data packets.
    pub received: u64,
    pub expected: u64,
    pub lost: u64,
    pub loss_rate: f64,
    pub duplicates: u64,
    pub reordered: u64,
    /// Mean length of the runs of consecutive missing sequence numbers: 1 for random loss, more
    /// for the bursts a tail-drop queue or a Gilbert-Elliott channel produce.
    pub mean_loss_burst: f64,
}

impl SeqTracker {
    /// Records an arrival; true if it is the first copy of `seq`.
    pub fn record(&mut self, seq: u64) -> bool {
        if !self.seen.insert(seq) {
            self.duplicates += 1;
            return false;
        }
        match self.highest {
            Some(highest) if seq < highest => self.reordered += 1,
            _ => self.highest = Some(seq),
        }
        true
    }

    /// `announced` is the sender's own count, which reveals losses after the highest arrival.
    pub fn loss(&self, announced: u64) -> Loss {
        let received = self.seen.len() as u64;
        let expected = self.highest.map_or(0, |h| h + 1).max(announced);
        let mut seqs: Vec<u64> = self.seen.iter().copied().collect();
        seqs.sort_unstable();
        let mut bursts = 0u64;
        let mut next = 0u64;
        for seq in seqs.into_iter().chain([expected]) {
            if seq > next {
                bursts += 1;
            }
            next = seq + 1;
        }
        let lost = expected - received;
        Loss {
            received,
            expected,
            lost,
            loss_rate: if expected > 0 {
                lost as f64 / expected as f64
            } else {
                0.0
            },
            duplicates: self.duplicates,
            reordered: self.reordered,
            mean_loss_burst: if bursts > 0 {
                lost as f64 / bursts as f64
            } else {
                0.0
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bursts_duplicates_and_reordering() {
        let mut t = SeqTracker::default();
        // 0..10 announced; 2,3 lost (burst of 2), 6 lost (burst of 1), 9 lost at the tail.
        for seq in [0, 1, 5, 4, 4, 7, 8] {
            t.record(seq);
        }
        let loss = t.loss(10);
        assert_eq!((loss.received, loss.expected, loss.lost), (6, 10, 4));
        assert_eq!((loss.duplicates, loss.reordered), (1, 1));
        assert!((loss.mean_loss_burst - 4.0 / 3.0).abs() < 1e-12);
        assert!((loss.loss_rate - 0.4).abs() < 1e-12);
    }

    #[test]
    fn no_loss_and_nothing_at_all() {
        let mut t = SeqTracker::default();
        (0..5).for_each(|s| {
            t.record(s);
        });
        assert_eq!(t.loss(0).mean_loss_burst, 0.0);
        assert_eq!(t.loss(0).lost, 0);
        let nothing = SeqTracker::default().loss(3);
        assert_eq!(
            (nothing.lost, nothing.loss_rate, nothing.mean_loss_burst),
            (3, 1.0, 3.0)
        );
    }
}
