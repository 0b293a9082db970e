//! The bottleneck queue in front of the link: FIFO storage and the policy that decides what it
//! drops. Sizes are wire sizes (IP length plus the TUN header), as Mahimahi counts them.

use super::config::{Limit, QueueConfig};
use super::rng::Rng;
use super::{Micros, OPPORTUNITY_BYTES, TUN_HEADER_BYTES};
use std::collections::VecDeque;

pub fn wire_size(packet: &[u8]) -> u64 {
    packet.len() as u64 + TUN_HEADER_BYTES
}

/// Packets a queue operation dropped, with their total wire size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drops {
    pub packets: u64,
    pub bytes: u64,
}

impl Drops {
    fn add(&mut self, wire: u64) {
        self.packets += 1;
        self.bytes += wire;
    }
}

/// RED as the thesis configures it (seed 001 Table 3.4): max_q = 1.5 BDP is the hard limit given
/// here, min_th = 0.66 max_q, max_th = 0.8 max_q, max_p = 0.1, weight 1 (the average is the
/// instantaneous queue), gentle, and no waiting between drops.
pub fn red_thesis(limit: Limit) -> QueueConfig {
    let max_q = limit_value(limit) as f64;
    QueueConfig::Red {
        limit,
        min_th: 0.66 * max_q,
        max_th: 0.8 * max_q,
        max_p: 0.1,
        weight: 1.0,
        gentle: true,
    }
}

fn limit_value(limit: Limit) -> u64 {
    match limit {
        Limit::Packets(n) | Limit::Bytes(n) => n,
    }
}

fn fits(limit: Limit, packets: u64, bytes: u64) -> bool {
    match limit {
        Limit::Packets(n) => packets <= n,
        Limit::Bytes(n) => bytes <= n,
    }
}

struct Queued {
    packet: Vec<u8>,
    enqueued_at: Micros,
}

#[derive(Default)]
struct Fifo {
    items: VecDeque<Queued>,
    bytes: u64,
}

impl Fifo {
    fn push(&mut self, item: Queued) {
        self.bytes += wire_size(&item.packet);
        self.items.push_back(item);
    }

    fn pop(&mut self) -> Option<Queued> {
        let item = self.items.pop_front()?;
        self.bytes -= wire_size(&item.packet);
        Some(item)
    }

    fn fits_with(&self, limit: Limit, wire: u64) -> bool {
        fits(limit, self.items.len() as u64 + 1, self.bytes + wire)
    }
}

struct Red {
    limit: Limit,
    min_th: f64,
    max_th: f64,
    max_p: f64,
    weight: f64,
    gentle: bool,
    avg: f64,
    /// Arrivals since the last drop, -1 when the average is below min_th (Floyd & Jacobson).
    count: i64,
    rng: Rng,
}

impl Red {
    fn admit(&mut self, fifo: &Fifo, wire: u64) -> bool {
        let current = match self.limit {
            Limit::Packets(_) => fifo.items.len() as f64,
            Limit::Bytes(_) => fifo.bytes as f64,
        };
        self.avg = (1.0 - self.weight) * self.avg + self.weight * current;
        if !fifo.fits_with(self.limit, wire) {
            return false;
        }
        let avg = self.avg;
        if avg < self.min_th {
            self.count = -1;
            return true;
        }
        let p = if avg < self.max_th {
            // Counting arrivals since the last drop spreads drops evenly instead of in clumps.
            self.count += 1;
            let pb = self.max_p * (avg - self.min_th) / (self.max_th - self.min_th);
            let spent = self.count as f64 * pb;
            if spent >= 1.0 {
                1.0
            } else {
                (pb / (1.0 - spent)).clamp(0.0, 1.0)
            }
        } else if self.gentle {
            let room = limit_value(self.limit) as f64 - self.max_th;
            if room > 0.0 {
                self.max_p + (1.0 - self.max_p) * (avg - self.max_th) / room
            } else {
                1.0
            }
        } else {
            1.0
        };
        let drop = self.rng.chance(p);
        if drop {
            self.count = 0;
        }
        !drop
    }
}

/// RFC 8289 CoDel state, acting when the link takes packets out.
struct Codel {
    limit: Limit,
    target: Micros,
    interval: Micros,
    first_above: Option<Micros>,
    dropping: bool,
    drop_next: Micros,
    count: u64,
    last_count: u64,
}

impl Codel {
    fn control_law(&self, t: Micros) -> Micros {
        t + (self.interval as f64 / (self.count as f64).sqrt()).round() as Micros
    }

    /// RFC 8289's dodequeue: the head packet, and whether its sojourn has stayed above target
    /// for a whole interval.
    fn pop(&mut self, now: Micros, fifo: &mut Fifo) -> Option<(Queued, bool)> {
        let Some(item) = fifo.pop() else {
            self.first_above = None;
            return None;
        };
        // Below one MTU of backlog the link is not the problem; dropping would only idle it.
        if now.saturating_sub(item.enqueued_at) < self.target || fifo.bytes <= OPPORTUNITY_BYTES {
            self.first_above = None;
            return Some((item, false));
        }
        let ok = match self.first_above {
            None => {
                self.first_above = Some(now + self.interval);
                false
            }
            Some(t) => now >= t,
        };
        Some((item, ok))
    }

    fn dequeue(&mut self, now: Micros, fifo: &mut Fifo, drops: &mut Drops) -> Option<Queued> {
        let Some((mut head, ok)) = self.pop(now, fifo) else {
            self.dropping = false;
            return None;
        };
        if self.dropping {
            self.dropping = ok;
            while self.dropping && now >= self.drop_next {
                drops.add(wire_size(&head.packet));
                self.count += 1;
                let Some((next, ok)) = self.pop(now, fifo) else {
                    self.dropping = false;
                    return None;
                };
                head = next;
                self.dropping = ok;
                if ok {
                    self.drop_next = self.control_law(self.drop_next);
                }
            }
        } else if ok {
            drops.add(wire_size(&head.packet));
            let next = self.pop(now, fifo);
            self.dropping = true;
            // Re-entering soon after the last dropping state resumes near its drop rate rather
            // than starting again from one drop per interval.
            let delta = self.count - self.last_count;
            let recent = now.saturating_sub(self.drop_next) < 16 * self.interval;
            self.count = if delta > 1 && recent { delta } else { 1 };
            self.drop_next = self.control_law(now);
            self.last_count = self.count;
            return next.map(|(item, _)| item);
        }
        Some(head)
    }
}

enum Policy {
    Infinite,
    DropTail(Limit),
    DropHead(Limit),
    Red(Red),
    Codel(Codel),
}

pub struct Queue {
    fifo: Fifo,
    policy: Policy,
}

impl Queue {
    /// `rng` drives RED's drops; other policies never draw from it.
    pub fn new(cfg: &QueueConfig, rng: Rng) -> Queue {
        let policy = match *cfg {
            QueueConfig::Infinite => Policy::Infinite,
            QueueConfig::DropTail(limit) => Policy::DropTail(limit),
            QueueConfig::DropHead(limit) => Policy::DropHead(limit),
            QueueConfig::Red {
                limit,
                min_th,
                max_th,
                max_p,
                weight,
                gentle,
            } => Policy::Red(Red {
                limit,
                min_th,
                max_th,
                max_p,
                weight,
                gentle,
                avg: 0.0,
                count: -1,
                rng,
            }),
            QueueConfig::Codel {
                limit,
                target,
                interval,
            } => Policy::Codel(Codel {
                limit,
                target,
                interval,
                first_above: None,
                dropping: false,
                drop_next: 0,
                count: 0,
                last_count: 0,
            }),
        };
        Queue {
            fifo: Fifo::default(),
            policy,
        }
    }

    pub fn enqueue(&mut self, now: Micros, packet: Vec<u8>) -> Drops {
        let wire = wire_size(&packet);
        let mut drops = Drops::default();
        let admit = match &mut self.policy {
            Policy::Infinite | Policy::DropHead(_) => true,
            Policy::DropTail(limit) | Policy::Codel(Codel { limit, .. }) => {
                self.fifo.fits_with(*limit, wire)
            }
            Policy::Red(red) => red.admit(&self.fifo, wire),
        };
        if admit {
            self.fifo.push(Queued {
                packet,
                enqueued_at: now,
            });
        } else {
            drops.add(wire);
        }
        if let Policy::DropHead(limit) = self.policy {
            while !fits(limit, self.len_packets(), self.len_bytes()) {
                let oldest = self.fifo.pop().expect("an over-limit queue is not empty");
                drops.add(wire_size(&oldest.packet));
            }
        }
        drops
    }

    /// The head packet with its enqueue time, and what CoDel dropped to get to it.
    pub fn dequeue(&mut self, now: Micros) -> (Option<(Vec<u8>, Micros)>, Drops) {
        let mut drops = Drops::default();
        let head = match &mut self.policy {
            Policy::Codel(codel) => codel.dequeue(now, &mut self.fifo, &mut drops),
            _ => self.fifo.pop(),
        };
        (head.map(|q| (q.packet, q.enqueued_at)), drops)
    }

    pub fn len_packets(&self) -> u64 {
        self.fifo.items.len() as u64
    }

    pub fn len_bytes(&self) -> u64 {
        self.fifo.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.fifo.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Purpose;

    fn packet(wire: u64) -> Vec<u8> {
        vec![0; (wire - TUN_HEADER_BYTES) as usize]
    }

    fn queue(cfg: QueueConfig, seed: u64) -> Queue {
        Queue::new(&cfg, Rng::new(seed, Purpose::Queue))
    }

    #[test]
    fn infinite_never_drops() {
        let mut q = queue(QueueConfig::Infinite, 0);
        let dropped: u64 = (0..10_000)
            .map(|_| q.enqueue(0, packet(1504)).packets)
            .sum();
        assert_eq!(
            (dropped, q.len_packets(), q.len_bytes()),
            (0, 10_000, 15_040_000)
        );
    }

    #[test]
    fn droptail_drops_the_arrival_past_a_packet_limit() {
        let mut q = queue(QueueConfig::DropTail(Limit::Packets(2)), 0);
        assert_eq!(q.enqueue(0, vec![1]), Drops::default());
        assert_eq!(q.enqueue(0, vec![2]), Drops::default());
        assert_eq!(
            q.enqueue(0, vec![3]),
            Drops {
                packets: 1,
                bytes: 5
            }
        );
        assert_eq!(q.dequeue(9).0, Some((vec![1], 0)));
        assert_eq!(q.dequeue(9).0, Some((vec![2], 0)));
        assert!(q.is_empty());
    }

    #[test]
    fn droptail_byte_limit_admits_up_to_exactly_the_limit() {
        let mut q = queue(QueueConfig::DropTail(Limit::Bytes(1100)), 0);
        for wire in [500, 500, 100] {
            assert_eq!(q.enqueue(0, packet(wire)).packets, 0);
        }
        // 1100 + 4 > 1100: even an empty IP packet no longer fits.
        assert_eq!(
            q.enqueue(0, packet(4)),
            Drops {
                packets: 1,
                bytes: 4
            }
        );
        assert_eq!((q.len_packets(), q.len_bytes()), (3, 1100));
    }

    #[test]
    fn drophead_drops_the_oldest() {
        let mut q = queue(QueueConfig::DropHead(Limit::Packets(2)), 0);
        for (t, b) in [(1, 1u8), (2, 2), (3, 3)] {
            q.enqueue(t, vec![b]);
        }
        assert_eq!(q.dequeue(5).0, Some((vec![2], 2)));
        assert_eq!(q.dequeue(5).0, Some((vec![3], 3)));

        let mut q = queue(QueueConfig::DropHead(Limit::Bytes(1000)), 0);
        q.enqueue(0, packet(500));
        q.enqueue(0, packet(500));
        // 1600 bytes: both older packets must go before the newest fits.
        assert_eq!(
            q.enqueue(0, packet(600)),
            Drops {
                packets: 2,
                bytes: 1000
            }
        );
        assert_eq!((q.len_packets(), q.len_bytes()), (1, 600));
    }

    /// Holds the queue at `held` packets and offers `n` arrivals; true where RED dropped.
    fn red_drops(cfg: QueueConfig, seed: u64, held: u64, n: usize) -> Vec<bool> {
        let mut q = queue(cfg, seed);
        while q.len_packets() < held {
            q.enqueue(0, packet(1504));
        }
        (0..n)
            .map(|_| {
                let dropped = q.enqueue(0, packet(1504)).packets > 0;
                if !dropped {
                    q.dequeue(0);
                }
                dropped
            })
            .collect()
    }

    fn red(min_th: f64, max_th: f64, gentle: bool) -> QueueConfig {
        QueueConfig::Red {
            limit: Limit::Packets(100),
            min_th,
            max_th,
            max_p: 0.1,
            weight: 1.0,
            gentle,
        }
    }

    fn rate(drops: &[bool]) -> f64 {
        drops.iter().filter(|&&d| d).count() as f64 / drops.len() as f64
    }

    #[test]
    fn red_never_drops_below_min_th() {
        assert_eq!(rate(&red_drops(red(10.0, 30.0, false), 1, 5, 10_000)), 0.0);
    }

    #[test]
    fn red_always_drops_at_the_limit_and_above_max_th_without_gentle() {
        // Thresholds out of reach: only the hard limit of 100 packets acts.
        assert_eq!(
            rate(&red_drops(red(1000.0, 2000.0, false), 1, 100, 1000)),
            1.0
        );
        assert_eq!(rate(&red_drops(red(2.0, 4.0, false), 1, 4, 1000)), 1.0);
    }

    #[test]
    fn red_between_thresholds_drops_at_twice_pb() {
        // Queue held at 20 with thresholds 10..30: pb = 0.1 * 10/20 = 0.05. With count, the k-th
        // arrival after a drop is dropped with pb/(1 - k pb), which makes the gap between drops
        // uniform on 1..19 (1/pb - 1): mean 10, variance 30, so the drop rate is 2 pb = 0.1.
        // Renewal theory gives the drop count's variance as n*30/10^3: sd 55 drops in 1e5
        // arrivals, 0.00055 in rate; allow about 5 sd. A Bernoulli pb would give 0.05.
        let r = rate(&red_drops(red(10.0, 30.0, false), 3, 20, 100_000));
        assert!((r - 0.1).abs() < 0.003, "{r}");
    }

    #[test]
    fn red_gentle_rises_linearly_from_max_p_to_the_limit() {
        // Thesis RED at 100 packets: max_th = 80; at 90, halfway to the limit, p = 0.1 + 0.9/2.
        // Independent draws: sd = sqrt(0.55 * 0.45 / 20000) = 0.0035; 4.5 sd = 0.016.
        let r = rate(&red_drops(red_thesis(Limit::Packets(100)), 4, 90, 20_000));
        assert!((r - 0.55).abs() < 0.016, "{r}");
    }

    #[test]
    fn red_thesis_defaults() {
        let QueueConfig::Red {
            limit,
            min_th,
            max_th,
            max_p,
            weight,
            gentle,
        } = red_thesis(Limit::Bytes(150_000))
        else {
            panic!("not RED")
        };
        assert_eq!(limit, Limit::Bytes(150_000));
        assert!((min_th - 99_000.0).abs() < 1e-6 && (max_th - 120_000.0).abs() < 1e-6);
        assert_eq!((max_p, weight, gentle), (0.1, 1.0, true));
    }

    #[test]
    fn red_same_seed_same_drops() {
        let cfg = red(10.0, 30.0, false);
        assert_eq!(
            red_drops(cfg.clone(), 5, 20, 2000),
            red_drops(cfg.clone(), 5, 20, 2000)
        );
        assert_ne!(
            red_drops(cfg.clone(), 5, 20, 2000),
            red_drops(cfg, 6, 20, 2000)
        );
    }

    /// Each ms from `from` to `to`: `arrivals` full packets in, then `services` dequeues. Returns
    /// the ms of every CoDel drop.
    fn codel_run(q: &mut Queue, from: u64, to: u64, arrivals: u64, services: u64) -> Vec<u64> {
        let mut drops = Vec::new();
        for t in from..to {
            for _ in 0..arrivals {
                q.enqueue(t * 1000, packet(1504));
            }
            for _ in 0..services {
                drops.extend(std::iter::repeat_n(
                    t,
                    q.dequeue(t * 1000).1.packets as usize,
                ));
            }
        }
        drops
    }

    fn codel() -> Queue {
        queue(
            QueueConfig::Codel {
                limit: Limit::Packets(10_000),
                target: 5000,
                interval: 100_000,
            },
            0,
        )
    }

    #[test]
    fn codel_leaves_a_queue_below_target_alone() {
        let mut q = codel();
        for _ in 0..3 {
            q.enqueue(0, packet(1504));
        }
        // Every packet waits 3 ms < 5 ms for 10 s.
        assert_eq!(codel_run(&mut q, 0, 10_000, 1, 1), Vec::<u64>::new());
    }

    #[test]
    fn codel_drops_a_standing_queue_ever_faster_and_resumes_its_rate() {
        let mut q = codel();
        // Two in, one out per ms: the packet served at t ms came in at t/2, so it waited
        // ceil(t/2) ms, reaching the 5 ms target at t = 9. After a full interval, at 109, CoDel
        // drops (count 1), then at 109 + 100/sqrt(n) ms for n = 1.. : 209, 279.711, 337.446,
        // 387.446, 432.167 (dequeues happen on whole ms, so 280, 338, 388, 433).
        assert_eq!(
            codel_run(&mut q, 0, 450, 2, 1),
            [109, 209, 280, 338, 388, 433]
        );
        // Drain it (dropping ends before the next drop, due at 472.992), then build it again:
        // above target from 469, dropping again at 569. Count was 6 and 1 on entry, so it
        // resumes at count 5: the next drop is 100/sqrt(5) = 44.721 ms later, not 100 ms.
        assert_eq!(codel_run(&mut q, 450, 460, 0, 50), Vec::<u64>::new());
        assert!(q.is_empty());
        assert_eq!(codel_run(&mut q, 460, 620, 2, 1), [569, 614]);
    }

    #[test]
    fn codel_drops_arrivals_past_its_limit() {
        let mut q = queue(
            QueueConfig::Codel {
                limit: Limit::Packets(3),
                target: 5000,
                interval: 100_000,
            },
            0,
        );
        let dropped: u64 = (0..4).map(|_| q.enqueue(0, packet(100)).packets).sum();
        assert_eq!((dropped, q.len_packets()), (1, 3));
    }
}
