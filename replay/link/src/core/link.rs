//! The bottleneck link, with Mahimahi LinkQueue's byte accounting: each delivery opportunity
//! carries up to 1504 bytes of whatever is at the head of the queue, a packet may straddle
//! opportunities, and bytes an opportunity does not use are lost, not saved for later.

use super::config::Capacity;
use super::queue::{wire_size, Drops, Queue};
use super::{Micros, OPPORTUNITY_BYTES};

/// What the link did, in time order, for the direction to count, log and pass on.
#[derive(Debug, PartialEq)]
pub enum Event {
    /// An opportunity came, used or not (reported only when visiting every one).
    Opportunity(Micros),
    /// CoDel dropped packets while the link took the next one.
    Dropped { at: Micros, drops: Drops },
    Departed {
        at: Micros,
        packet: Vec<u8>,
        enqueued_at: Micros,
    },
}

enum Kind {
    Constant { bits_per_second: u64 },
    Trace { ms: Vec<u64>, once: bool },
}

/// Opportunity times as a function of their index, so that any index can be reached directly.
struct Schedule {
    start: Micros,
    kind: Kind,
}

/// Microseconds of one opportunity times bits per second: 1504 bytes * 8 * 1e6.
const OPPORTUNITY_BIT_MICROS: u128 = OPPORTUNITY_BYTES as u128 * 8 * 1_000_000;

impl Schedule {
    /// Opportunity k, or None past the end of a trace played once.
    fn time(&self, k: u64) -> Option<Micros> {
        match &self.kind {
            // Computed from k rather than by adding up spacings, which would drift.
            Kind::Constant { bits_per_second } => {
                let b = u128::from(*bits_per_second);
                Some(
                    self.start
                        + ((2 * u128::from(k) * OPPORTUNITY_BIT_MICROS + b) / (2 * b)) as Micros,
                )
            }
            Kind::Trace { ms, once } => {
                let len = ms.len() as u64;
                if *once && k >= len {
                    return None;
                }
                let period = ms[ms.len() - 1];
                Some(self.start + ((k / len) * period + ms[(k % len) as usize]) * 1000)
            }
        }
    }

    /// The index of the first opportunity after `t`, found without visiting the ones before.
    fn first_after(&self, t: Micros) -> u64 {
        let Some(elapsed) = t.checked_sub(self.start) else {
            return 0;
        };
        match &self.kind {
            Kind::Constant { bits_per_second } => {
                // Rounding puts opportunity floor(elapsed * rate) at or before t; a few more
                // may round down to t too.
                let mut k = (u128::from(elapsed) * u128::from(*bits_per_second)
                    / OPPORTUNITY_BIT_MICROS) as u64;
                while self.time(k).is_some_and(|at| at <= t) {
                    k += 1;
                }
                k
            }
            Kind::Trace { ms, once } => {
                let len = ms.len() as u64;
                let elapsed_ms = elapsed / 1000;
                let period = ms[ms.len() - 1];
                let within = ms.partition_point(|&m| m <= elapsed_ms % period) as u64;
                let k = (elapsed_ms / period) * len + within;
                if *once {
                    k.min(len)
                } else {
                    k
                }
            }
        }
    }
}

struct InTransit {
    packet: Vec<u8>,
    enqueued_at: Micros,
    remaining: u64,
}

pub struct Link {
    schedule: Schedule,
    next: u64,
    in_transit: Option<InTransit>,
    used: u64,
    unused: u64,
}

impl Link {
    /// None for an unlimited link, which packets cross at once.
    pub fn new(capacity: &Capacity, start: Micros) -> Option<Link> {
        let kind = match capacity {
            Capacity::Unlimited => return None,
            &Capacity::Constant { bits_per_second } => {
                assert!(bits_per_second > 0, "a constant link needs a rate above 0");
                Kind::Constant { bits_per_second }
            }
            Capacity::Trace {
                opportunities_ms,
                once,
            } => {
                assert!(
                    opportunities_ms.last().is_some_and(|&l| l > 0),
                    "a trace must last longer than 0 ms"
                );
                Kind::Trace {
                    ms: opportunities_ms.clone(),
                    once: *once,
                }
            }
        };
        Some(Link {
            schedule: Schedule { start, kind },
            next: 0,
            in_transit: None,
            used: 0,
            unused: 0,
        })
    }

    /// Uses every opportunity at or before `now`. With `every_opportunity` false, an idle stretch
    /// is skipped arithmetically; a log needs each opportunity, so it visits them all.
    pub fn run(
        &mut self,
        now: Micros,
        queue: &mut Queue,
        every_opportunity: bool,
        mut on: impl FnMut(Event),
    ) {
        while let Some(at) = self.next_opportunity().filter(|&at| at <= now) {
            if !every_opportunity && self.in_transit.is_none() && queue.is_empty() {
                let after = self.schedule.first_after(now);
                self.unused += after - self.next;
                self.next = after;
                return;
            }
            self.next += 1;
            on(Event::Opportunity(at));
            if self.deliver(at, queue, &mut on) {
                self.used += 1;
            } else {
                self.unused += 1;
            }
        }
    }

    /// Sends one opportunity's bytes; whether it carried any.
    fn deliver(&mut self, at: Micros, queue: &mut Queue, on: &mut impl FnMut(Event)) -> bool {
        let mut left = OPPORTUNITY_BYTES;
        let mut current = self.in_transit.take();
        while left > 0 {
            let mut sending = match current.take() {
                Some(sending) => sending,
                None => {
                    let (head, drops) = queue.dequeue(at);
                    if drops.packets > 0 {
                        on(Event::Dropped { at, drops });
                    }
                    let Some((packet, enqueued_at)) = head else {
                        break;
                    };
                    InTransit {
                        remaining: wire_size(&packet),
                        packet,
                        enqueued_at,
                    }
                }
            };
            let sent = left.min(sending.remaining);
            sending.remaining -= sent;
            left -= sent;
            if sending.remaining == 0 {
                on(Event::Departed {
                    at,
                    packet: sending.packet,
                    enqueued_at: sending.enqueued_at,
                });
            } else {
                current = Some(sending);
            }
        }
        self.in_transit = current;
        left < OPPORTUNITY_BYTES
    }

    /// None once a trace played once has run out.
    pub fn next_opportunity(&self) -> Option<Micros> {
        self.schedule.time(self.next)
    }

    /// Whether a packet is partly sent.
    pub fn in_transit(&self) -> bool {
        self.in_transit.is_some()
    }

    pub fn opportunities_used(&self) -> u64 {
        self.used
    }

    pub fn opportunities_unused(&self) -> u64 {
        self.unused
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::QueueConfig;
    use crate::core::rng::{Purpose, Rng};

    fn trace(ms: &[u64], once: bool) -> Capacity {
        Capacity::Trace {
            opportunities_ms: ms.to_vec(),
            once,
        }
    }

    fn times(capacity: &Capacity, start: Micros, n: u64) -> Vec<Micros> {
        let link = Link::new(capacity, start).unwrap();
        (0..n).map_while(|k| link.schedule.time(k)).collect()
    }

    /// Queues packets of the given wire sizes at `arrival`, runs the link to `until`, and returns
    /// (departure time, wire size) of each departure.
    fn departures(
        capacity: &Capacity,
        arrival: Micros,
        wires: &[u64],
        until: Micros,
    ) -> (Link, Vec<(Micros, u64)>) {
        let mut link = Link::new(capacity, 0).unwrap();
        let mut queue = Queue::new(&QueueConfig::Infinite, Rng::new(0, Purpose::Queue));
        link.run(arrival, &mut queue, false, |_| {});
        for &wire in wires {
            queue.enqueue(arrival, vec![0; wire as usize - 4]);
        }
        let mut out = Vec::new();
        link.run(until, &mut queue, false, |e| {
            if let Event::Departed { at, packet, .. } = e {
                out.push((at, wire_size(&packet)));
            }
        });
        (link, out)
    }

    #[test]
    fn trace_wraps_with_the_last_timestamp_as_period() {
        // [2, 5] from 1 ms: 3, 6, then the base moves 5 ms: 8, 11, 13, 16.
        assert_eq!(
            times(&trace(&[2, 5], false), 1000, 6),
            [3000, 6000, 8000, 11_000, 13_000, 16_000]
        );
        // Repeated timestamps are opportunities at one instant; period 3 ms.
        assert_eq!(
            times(&trace(&[0, 0, 3], false), 0, 7),
            [0, 0, 3000, 3000, 3000, 6000, 6000]
        );
        assert_eq!(times(&trace(&[0, 0, 3], true), 0, 7), [0, 0, 3000]);
    }

    #[test]
    fn constant_rate_spacing_is_exact_to_the_microsecond() {
        // 12 Mbit/s: 12032 bits take 1002.667 us; k = 1, 2, 3 round to 1003, 2005, 3008.
        let c = Capacity::Constant {
            bits_per_second: 12_000_000,
        };
        assert_eq!(times(&c, 10, 4), [10, 1013, 2015, 3018]);
        // 1000 full packets queued at 0 miss opportunity 0 (used up by then) and take 1..=1000;
        // the last departs at 1000 * 1002.667 = 1002667 us, about 1.0027 s.
        let (link, out) = departures(&c, 0, &[1504; 1000], 2_000_000);
        assert_eq!(out.len(), 1000);
        assert_eq!(out[0].0, 1003);
        assert_eq!(out[999].0, 1_002_667);
        assert_eq!(link.opportunities_used(), 1000);
    }

    #[test]
    fn small_packets_share_an_opportunity_and_leftover_bytes_are_lost() {
        // 3 x 500 = 1500 bytes fit the 1 ms opportunity; the 4th sends 4 bytes there, the rest
        // at 2 ms, whose other 1008 bytes go unused.
        let (link, out) = departures(&trace(&[1, 2, 3], true), 0, &[500; 4], 10_000);
        assert_eq!(out, [(1000, 500), (1000, 500), (1000, 500), (2000, 500)]);
        assert_eq!(
            (link.opportunities_used(), link.opportunities_unused()),
            (2, 1)
        );
    }

    #[test]
    fn a_packet_straddles_opportunities() {
        // 500 + 1004 of the 1504-byte packet at 1 ms; its last 500 and the next 500 at 2 ms.
        let (_, out) = departures(&trace(&[1, 2, 3], true), 0, &[500, 1504, 500], 10_000);
        assert_eq!(out, [(1000, 500), (2000, 1504), (2000, 500)]);
    }

    #[test]
    fn packets_only_use_opportunities_after_they_arrive() {
        let (link, out) = departures(
            &trace(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], false),
            5500,
            &[1504],
            20_000,
        );
        assert_eq!(out, [(6000, 1504)]);
        assert_eq!(link.opportunities_unused(), 5 + 14);
    }

    #[test]
    fn once_stops_delivering_after_the_last_opportunity() {
        let (link, out) = departures(&trace(&[1, 2], true), 0, &[1504; 3], 1_000_000_000);
        assert_eq!(out, [(1000, 1504), (2000, 1504)]);
        assert_eq!(link.next_opportunity(), None);
    }

    #[test]
    fn skipping_lands_where_stepping_does() {
        let capacities = [
            trace(&[0, 0, 3, 3, 7], false),
            trace(&[2, 5], true),
            Capacity::Constant {
                bits_per_second: 12_000_000,
            },
            Capacity::Constant {
                bits_per_second: 100_000_000_000,
            },
        ];
        for c in &capacities {
            let link = Link::new(c, 1234).unwrap();
            let all = times(c, 1234, 400_000);
            for t in (0..40_000).step_by(97) {
                let stepped = all.partition_point(|&at| at <= t) as u64;
                assert_eq!(link.schedule.first_after(t), stepped, "{c:?} at {t}");
            }
        }
    }

    #[test]
    fn idle_fast_forward_counts_every_skipped_opportunity() {
        // 1 Gbit/s: opportunity k at round(k * 12.032 us). Up to 10 s: k*1504 < (1e7 + 0.5)*125
        // holds for k <= 831117 (1504 * 831117 = 1249999968), so 831118 opportunities.
        let mut link = Link::new(
            &Capacity::Constant {
                bits_per_second: 1_000_000_000,
            },
            0,
        )
        .unwrap();
        let mut queue = Queue::new(&QueueConfig::Infinite, Rng::new(0, Purpose::Queue));
        link.run(10_000_000, &mut queue, false, |_| {
            panic!("idle link reported an event")
        });
        assert_eq!(
            (link.opportunities_used(), link.opportunities_unused()),
            (0, 831_118)
        );
        // 1e6 s more, 8.3e10 opportunities, could not finish if visited one by one:
        // 1504 * 83111702127 = 124999999999008 is the last below 1.25e14 + 62.5; the next
        // opportunity is at (124999999999008 + 1504) / 125 = 1e12 + 4.096 us.
        link.run(1_000_000_000_000, &mut queue, false, |_| {});
        assert_eq!(link.opportunities_unused(), 83_111_702_128);
        assert_eq!(link.next_opportunity(), Some(1_000_000_000_004));
    }

    #[test]
    fn visiting_every_opportunity_reports_each() {
        let mut link = Link::new(&trace(&[1, 2, 3], false), 0).unwrap();
        let mut queue = Queue::new(&QueueConfig::Infinite, Rng::new(0, Purpose::Queue));
        let mut seen = Vec::new();
        link.run(6000, &mut queue, true, |e| seen.push(e));
        let expected: Vec<Event> = [1000, 2000, 3000, 4000, 5000, 6000]
            .map(Event::Opportunity)
            .into();
        assert_eq!(seen, expected);
        assert_eq!(link.opportunities_unused(), 6);
    }
}
