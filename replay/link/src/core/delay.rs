//! Propagation delay after the bottleneck, as mm-delay adds it: each packet leaving the link is
//! held for the one-way delay plus its jitter draw, and packets leave in the order they came.

use super::config::Jitter;
use super::rng::Rng;
use super::Micros;
use std::collections::VecDeque;

/// Holds any number of packets: netem's `limit`, which caps the packets in its delay line and so
/// silently drops packets in flight on a long fat path, is a known pitfall (seed 003 §5.2.2).
pub struct DelayLine {
    delay: Micros,
    jitter_max: Option<Micros>,
    rng: Rng,
    /// (release time, packet), release times non-decreasing.
    packets: VecDeque<(Micros, Vec<u8>)>,
    last_release: Micros,
}

impl DelayLine {
    pub fn new(delay: Micros, jitter: &Jitter, rng: Rng) -> DelayLine {
        let jitter_max = match *jitter {
            Jitter::None => None,
            Jitter::PerPacket { max } => Some(max),
        };
        DelayLine {
            delay,
            jitter_max,
            rng,
            packets: VecDeque::new(),
            last_release: 0,
        }
    }

    /// A packet that left the link at `departed`.
    pub fn push(&mut self, departed: Micros, packet: Vec<u8>) {
        let extra = self.jitter_max.map_or(0, |max| self.rng.below(max + 1));
        // Waiting for the packet ahead instead of overtaking it keeps jitter from reordering,
        // which TCP would otherwise read as loss.
        let release = (departed + self.delay + extra).max(self.last_release);
        self.last_release = release;
        self.packets.push_back((release, packet));
    }

    /// The next packet due at or before `now`, with its release time.
    pub fn pop_ready(&mut self, now: Micros) -> Option<(Vec<u8>, Micros)> {
        let &(release, _) = self.packets.front()?;
        if release > now {
            return None;
        }
        self.packets
            .pop_front()
            .map(|(release, packet)| (packet, release))
    }

    pub fn next_release(&self) -> Option<Micros> {
        self.packets.front().map(|&(release, _)| release)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Purpose;

    #[test]
    fn fixed_delay_releases_each_packet_after_exactly_the_delay() {
        let mut line = DelayLine::new(10_000, &Jitter::None, Rng::new(0, Purpose::Jitter));
        line.push(5, vec![1]);
        line.push(7, vec![2]);
        assert_eq!(line.next_release(), Some(10_005));
        assert_eq!(line.pop_ready(10_004), None);
        assert_eq!(line.pop_ready(10_006), Some((vec![1], 10_005)));
        assert_eq!(line.pop_ready(10_006), None);
        assert_eq!(line.pop_ready(20_000), Some((vec![2], 10_007)));
        assert_eq!(line.next_release(), None);
    }

    /// Pushes n packets `spacing` apart and checks order and bounds; the (min, max) extra delay.
    fn jittered(spacing: Micros, n: u64) -> (Micros, Micros) {
        let (delay, max) = (10_000, 5_000);
        let mut line = DelayLine::new(
            delay,
            &Jitter::PerPacket { max },
            Rng::new(1, Purpose::Jitter),
        );
        for i in 0..n {
            line.push(i * spacing, i.to_le_bytes().to_vec());
        }
        let (mut previous, mut smallest, mut largest) = (0, Micros::MAX, 0);
        for i in 0..n {
            let (packet, release) = line.pop_ready(Micros::MAX).unwrap();
            assert_eq!(packet, i.to_le_bytes().to_vec(), "order");
            let extra = release - i * spacing - delay;
            assert!(
                extra <= max && release >= previous,
                "packet {i} released at {release}"
            );
            (previous, smallest, largest) = (release, smallest.min(extra), largest.max(extra));
        }
        (smallest, largest)
    }

    #[test]
    fn jitter_stays_in_range_and_never_reorders() {
        // 100 us apart, far closer than the 5 ms range: many draws would overtake.
        jittered(100, 10_000);
        // 10 ms apart, no packet waits for another: the draws spread over the whole range.
        let (smallest, largest) = jittered(10_000, 1000);
        assert!(smallest < 500 && largest > 4500, "{smallest}..{largest}");
    }

    #[test]
    fn holds_any_number_of_packets() {
        let mut line = DelayLine::new(1_000_000, &Jitter::None, Rng::new(0, Purpose::Jitter));
        for i in 0..200_000 {
            line.push(i, vec![]);
        }
        assert_eq!(
            std::iter::from_fn(|| line.pop_ready(Micros::MAX)).count(),
            200_000
        );
    }
}
