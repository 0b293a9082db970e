//! One direction of one path: loss, then the bottleneck queue, then the link, then propagation
//! delay, in Mahimahi's order (mm-loss outside mm-link, mm-delay after it). This is the one type
//! the forwarder drives.

use super::config::DirectionConfig;
use super::delay::DelayLine;
use super::link::{Event, Link};
use super::log::LinkLog;
use super::loss::Loss;
use super::queue::{wire_size, Queue};
use super::rng::{Purpose, Rng};
use super::stats::Stats;
use super::Micros;

pub struct Direction {
    start: Micros,
    loss: Loss,
    queue: Queue,
    /// None when unlimited.
    link: Option<Link>,
    delay: DelayLine,
    stats: Stats,
    log: Option<LinkLog>,
}

/// Whole ms since `start`, as the log counts time.
fn ms(start: Micros, at: Micros) -> u64 {
    at.saturating_sub(start) / 1000
}

impl Direction {
    pub fn new(cfg: &DirectionConfig, start: Micros, log: Option<LinkLog>) -> Direction {
        Direction {
            start,
            loss: Loss::new(&cfg.loss, Rng::new(cfg.seed, Purpose::Loss)),
            queue: Queue::new(&cfg.queue, Rng::new(cfg.seed, Purpose::Queue)),
            link: Link::new(&cfg.capacity, start),
            delay: DelayLine::new(cfg.delay, &cfg.jitter, Rng::new(cfg.seed, Purpose::Jitter)),
            stats: Stats::default(),
            log,
        }
    }

    /// A packet handed to the link at `now` (loss, then queue).
    pub fn arrive(&mut self, now: Micros, packet: Vec<u8>) {
        // Mahimahi runs the link up to the arrival first, so the packet cannot take an
        // opportunity that passed before it came; doing it here makes that hold for any caller.
        self.advance(now);
        let wire = wire_size(&packet);
        let at = ms(self.start, now);
        self.stats.arrived_packets += 1;
        self.stats.arrived_bytes += wire;
        if let Some(log) = &mut self.log {
            log.arrival(at, wire);
        }
        if self.loss.lose() {
            self.stats.lost_packets += 1;
            // mm-loss is a shell of its own with no log; showing losses as drops here keeps the
            // whole direction in one log.
            if let Some(log) = &mut self.log {
                log.drops(at, 1, wire);
            }
            return;
        }
        if self.link.is_none() {
            self.stats.record_departure(wire, 0);
            if let Some(log) = &mut self.log {
                log.departure(at, wire, 0);
            }
            self.delay.push(now, packet);
            return;
        }
        let drops = self.queue.enqueue(now, packet);
        self.stats.record_drops(drops);
        self.stats
            .record_queue(self.queue.len_packets(), self.queue.len_bytes());
        if let (Some(log), true) = (&mut self.log, drops.packets > 0) {
            log.drops(at, drops.packets, drops.bytes);
        }
    }

    /// Runs the link up to `now`: uses every opportunity at or before now, moving departures
    /// into the delay line.
    pub fn advance(&mut self, now: Micros) {
        let Some(link) = &mut self.link else { return };
        let (start, stats, log, delay) =
            (self.start, &mut self.stats, &mut self.log, &mut self.delay);
        link.run(now, &mut self.queue, log.is_some(), |event| match event {
            Event::Opportunity(at) => {
                if let Some(log) = log.as_mut() {
                    log.opportunity(ms(start, at));
                }
            }
            Event::Dropped { at, drops } => {
                stats.record_drops(drops);
                if let Some(log) = log.as_mut() {
                    log.drops(ms(start, at), drops.packets, drops.bytes);
                }
            }
            Event::Departed {
                at,
                packet,
                enqueued_at,
            } => {
                let wire = wire_size(&packet);
                stats.record_departure(wire, at - enqueued_at);
                if let Some(log) = log.as_mut() {
                    log.departure(ms(start, at), wire, ms(start, at) - ms(start, enqueued_at));
                }
                delay.push(at, packet);
            }
        });
        self.stats.opportunities_used = link.opportunities_used();
        self.stats.opportunities_unused = link.opportunities_unused();
    }

    /// The next packet whose release time is <= now, with that release time (the forwarder
    /// measures its own lateness from it).
    pub fn pop_ready(&mut self, now: Micros) -> Option<(Vec<u8>, Micros)> {
        let (packet, release) = self.delay.pop_ready(now)?;
        self.stats.delivered_packets += 1;
        self.stats.delivered_bytes += wire_size(&packet);
        Some((packet, release))
    }

    /// When something next needs doing: the next opportunity if a packet is queued or in
    /// transit, or the next release from the delay line, whichever is sooner; None if idle.
    pub fn next_event(&self) -> Option<Micros> {
        let opportunity = self
            .link
            .as_ref()
            .filter(|link| link.in_transit() || !self.queue.is_empty())
            .and_then(Link::next_opportunity);
        match (opportunity, self.delay.next_release()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Flushes the log, if any, and reports the first error writing it met.
    pub fn finish_log(&mut self) -> std::io::Result<()> {
        self.log.as_mut().map_or(Ok(()), LinkLog::finish)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::{Capacity, Jitter, Limit, LossModel, QueueConfig};
    use crate::core::log::tests::Shared;
    use crate::core::log::{describe_capacity, describe_queue, LogHeader};
    use crate::core::queue::red_thesis;

    fn config(capacity: Capacity, queue: QueueConfig) -> DirectionConfig {
        DirectionConfig {
            capacity,
            delay: 0,
            jitter: Jitter::None,
            loss: LossModel::None,
            queue,
            seed: 1,
        }
    }

    fn trace(ms: &[u64], once: bool) -> Capacity {
        Capacity::Trace {
            opportunities_ms: ms.to_vec(),
            once,
        }
    }

    /// Drives a direction as the forwarder does, to idle; every delivered packet with its release.
    fn drive(d: &mut Direction, arrivals: &[(Micros, Vec<u8>)]) -> Vec<(Vec<u8>, Micros)> {
        let (mut out, mut pending) = (Vec::new(), arrivals.iter().peekable());
        loop {
            let t = match (pending.peek().map(|a| a.0), d.next_event()) {
                (Some(a), Some(b)) => a.min(b),
                (Some(t), None) | (None, Some(t)) => t,
                (None, None) => return out,
            };
            d.advance(t);
            while let Some((_, packet)) = pending.next_if(|a| a.0 == t) {
                d.arrive(t, packet.clone());
            }
            out.extend(std::iter::from_fn(|| d.pop_ready(t)));
        }
    }

    #[test]
    fn logs_a_small_scenario_in_mm_link_format() {
        let cfg = config(
            trace(&[2, 4], false),
            QueueConfig::DropTail(Limit::Packets(2)),
        );
        let shared = Shared::default();
        let header = LogHeader {
            link_name: "uplink",
            capacity: &describe_capacity(&cfg.capacity),
            log_path: "/tmp/up.log",
            command_line: "pagepath-net",
            queue: &describe_queue(&cfg.queue),
            init_timestamp_ms: 1_700_000_000_000,
        };
        let mut d = Direction::new(
            &cfg,
            10_000,
            Some(LinkLog::new(Box::new(shared.clone()), &header)),
        );
        // Opportunities at 12, 14, 16 ms absolute (2, 4, 6 ms in). The third packet finds two
        // queued and is dropped; the others wait 1.5 and 3.3 ms, logged as 2 - 0 and 4 - 0.
        d.arrive(10_500, vec![0; 1500]);
        d.arrive(10_700, vec![0; 496]);
        d.arrive(10_900, vec![0; 96]);
        d.advance(16_000);
        d.finish_log().unwrap();
        assert_eq!(
            shared.text(),
            "# mahimahi mm-link (uplink) [trace, 2 opportunities over 4 ms, repeating] > /tmp/up.log\n\
             # command line: pagepath-net\n# queue: droptail [packets=2]\n\
             # init timestamp: 1700000000000\n# base timestamp: 0\n\
             0 + 1504\n0 + 500\n0 + 100\n0 d 1 100\n\
             2 # 1504\n2 - 1504 2\n4 # 1504\n4 - 500 4\n6 # 1504\n"
        );
        assert_eq!(d.pop_ready(16_000), Some((vec![0; 1500], 12_000)));
        assert_eq!(d.pop_ready(16_000), Some((vec![0; 496], 14_000)));
        let expected = Stats {
            arrived_packets: 3,
            arrived_bytes: 2104,
            dropped_packets: 1,
            dropped_bytes: 100,
            departed_packets: 2,
            departed_bytes: 2004,
            delivered_packets: 2,
            delivered_bytes: 2004,
            opportunities_used: 2,
            opportunities_unused: 1,
            max_queue_packets: 2,
            max_queue_bytes: 2004,
            sum_queue_delay_us: 1500 + 3300,
            max_queue_delay_us: 3300,
            ..Stats::default()
        };
        assert_eq!(d.stats(), &expected);
    }

    #[test]
    fn losses_are_counted_and_logged_as_drops() {
        let mut cfg = config(Capacity::Unlimited, QueueConfig::Infinite);
        cfg.loss = LossModel::Bernoulli { p: 1.0 };
        let shared = Shared::default();
        let header = LogHeader {
            link_name: "",
            capacity: "",
            log_path: "",
            command_line: "",
            queue: "",
            init_timestamp_ms: 0,
        };
        let mut d = Direction::new(
            &cfg,
            0,
            Some(LinkLog::new(Box::new(shared.clone()), &header)),
        );
        d.arrive(2500, vec![0; 96]);
        assert!(
            shared
                .text()
                .ends_with("# base timestamp: 0\n2 + 100\n2 d 1 100\n"),
            "{}",
            shared.text()
        );
        assert_eq!(
            (
                d.stats().lost_packets,
                d.stats().departed_packets,
                d.next_event()
            ),
            (1, 0, None)
        );
    }

    #[test]
    fn arrivals_never_take_earlier_opportunities_even_without_advance() {
        let mut d = Direction::new(
            &config(
                trace(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], false),
                QueueConfig::Infinite,
            ),
            0,
            None,
        );
        d.arrive(5500, vec![0; 1500]);
        assert_eq!(d.next_event(), Some(6000));
        d.advance(6000);
        assert_eq!(d.pop_ready(6000), Some((vec![0; 1500], 6000)));
        assert_eq!(d.next_event(), None);
    }

    #[test]
    fn once_leaves_the_rest_queued_and_goes_idle() {
        let mut d = Direction::new(
            &config(trace(&[1, 2], true), QueueConfig::Infinite),
            0,
            None,
        );
        let out = drive(
            &mut d,
            &[(0, vec![1; 1500]), (0, vec![2; 1500]), (0, vec![3; 1500])],
        );
        assert_eq!(out, [(vec![1; 1500], 1000), (vec![2; 1500], 2000)]);
        d.advance(1_000_000_000);
        assert_eq!((d.stats().departed_packets, d.next_event()), (2, None));
    }

    #[test]
    fn unlimited_link_only_delays() {
        let mut cfg = config(
            Capacity::Unlimited,
            QueueConfig::DropTail(Limit::Packets(1)),
        );
        cfg.delay = 20_000;
        let mut d = Direction::new(&cfg, 0, None);
        // The queue never builds, so a one-packet limit drops nothing.
        let out = drive(&mut d, &[(100, vec![1]), (100, vec![2]), (150, vec![3])]);
        assert_eq!(
            out,
            [(vec![1], 20_100), (vec![2], 20_100), (vec![3], 20_150)]
        );
        assert_eq!(
            (d.stats().dropped_packets, d.stats().max_queue_packets),
            (0, 0)
        );
    }

    #[test]
    fn same_seed_same_output_sequence() {
        let run = |seed| {
            let mut cfg = config(
                Capacity::Constant {
                    bits_per_second: 10_000_000,
                },
                red_thesis(Limit::Packets(30)),
            );
            cfg.seed = seed;
            cfg.loss = LossModel::Bernoulli { p: 0.05 };
            cfg.jitter = Jitter::PerPacket { max: 3000 };
            cfg.delay = 20_000;
            let mut d = Direction::new(&cfg, 0, None);
            // 2000 packets at twice the link rate: the queue fills and RED drops.
            let arrivals: Vec<_> = (0..2000u64)
                .map(|i| (i * 600, i.to_le_bytes().repeat(187)))
                .collect();
            let out = drive(&mut d, &arrivals);
            let s = d.stats().clone();
            assert!(s.lost_packets > 0 && s.dropped_packets > 0, "{s:?}");
            assert_eq!(
                s.arrived_packets,
                s.lost_packets + s.dropped_packets + s.delivered_packets
            );
            (out, s)
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7).0, run(8).0);
    }
}
