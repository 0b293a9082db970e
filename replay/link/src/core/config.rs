//! What one direction of one path does, already validated and resolved (BDP multiples turned into
//! packet or byte limits, trace files read). The topology reader builds these from the topology
//! file or Mahimahi-style arguments.

use super::Micros;

#[derive(Clone, Debug, PartialEq)]
pub struct DirectionConfig {
    pub capacity: Capacity,
    /// One-way propagation delay, applied after the bottleneck queue.
    pub delay: Micros,
    pub jitter: Jitter,
    pub loss: LossModel,
    pub queue: QueueConfig,
    /// Seeds every random choice of this direction (loss, RED, jitter).
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Capacity {
    /// No bottleneck: packets pass the link stage at once.
    Unlimited,
    /// Constant rate: one 1504-byte opportunity every 1504*8/bits_per_second seconds, in exact
    /// microseconds (not rounded to milliseconds as a trace would be).
    Constant { bits_per_second: u64 },
    /// Mahimahi packet-delivery trace: opportunity times in ms from the start, non-decreasing,
    /// the last one > 0; repeats with period = last timestamp unless `once`.
    Trace { opportunities_ms: Vec<u64>, once: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Jitter {
    None,
    /// Each packet's delay gets a uniform extra in [0, max]; packets keep their order (a packet
    /// never leaves before one that entered the delay line earlier), so jitter does not reorder
    /// as netem's does.
    PerPacket { max: Micros },
}

#[derive(Clone, Debug, PartialEq)]
pub enum LossModel {
    None,
    /// Each packet lost independently with this probability.
    Bernoulli { p: f64 },
    /// Two-state Markov chain evaluated per packet: good->bad with p, bad->good with r; a packet
    /// is lost with loss_good in the good state and loss_bad in the bad state.
    GilbertElliott { p: f64, r: f64, loss_good: f64, loss_bad: f64 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum QueueConfig {
    Infinite,
    DropTail(Limit),
    DropHead(Limit),
    /// RED with the thesis's semantics (seed 001 Table 3.4): average queue in packets or bytes
    /// (same unit as limit), EWMA weight, gentle mode growing the drop probability linearly from
    /// max_p at max_th to 1 at the limit, no waiting between drops.
    Red { limit: Limit, min_th: f64, max_th: f64, max_p: f64, weight: f64, gentle: bool },
    /// CoDel (RFC 8289) with a hard limit.
    Codel { limit: Limit, target: Micros, interval: Micros },
}
