//! Path sets the scheduler tests share, on the ideal model of seed 000 §4.4.1.
#![allow(dead_code)]

use std::time::Duration;

use pagepath_multipath::ideal_paths::{run, Message, ModelPath, Outcome};
use pagepath_multipath::{build, Options};

pub fn ms(x: f64) -> Duration {
    Duration::from_secs_f64(x / 1e3)
}

/// Seed 000 Fig 4.5: path 0 200 KB/s with 5 ms latency, path 1 500 KB/s with 10 ms.
pub fn fig_4_5() -> Vec<ModelPath> {
    vec![ModelPath { one_way: ms(5.0), rate: 200_000.0, cwnd: None }, ModelPath { one_way: ms(10.0), rate: 500_000.0, cwnd: None }]
}

/// 10 Mbit/s with 20 ms RTT beside 2 Mbit/s with 100 ms, each with a window of one BDP.
pub fn fast_and_slow() -> Vec<ModelPath> {
    vec![
        ModelPath { one_way: ms(10.0), rate: 1_250_000.0, cwnd: Some(25_000) },
        ModelPath { one_way: ms(50.0), rate: 250_000.0, cwnd: Some(25_000) },
    ]
}

/// The same two paths paced at their capacity (no window), as seed 000's model has it: a path can
/// send whenever its link is idle, so the slow path is offered packets while the fast one is busy.
pub fn fast_and_slow_paced() -> Vec<ModelPath> {
    fast_and_slow().into_iter().map(|p| ModelPath { cwnd: None, ..p }).collect()
}

/// Two equal paths: 10 Mbit/s, 40 ms RTT, a window of one BDP.
pub fn equal() -> Vec<ModelPath> {
    let p = ModelPath { one_way: ms(20.0), rate: 1_250_000.0, cwnd: Some(50_000) };
    vec![p.clone(), p]
}

/// Runs the scheduler registered as `name` (with `options`, "k=v,...").
pub fn run_named(name: &str, options: &str, paths: &[ModelPath], messages: &[Message], chunk: u64) -> Outcome {
    let mut s = build(name, &Options::parse([options]).unwrap()).unwrap();
    run(paths, messages, chunk, s.as_mut())
}

/// Bytes in flight on `path` when `out.chunks[index]` was about to be sent: chunks sent before it
/// on that path whose acknowledgement (one latency after arrival) had not come back yet.
pub fn in_flight_before(out: &Outcome, paths: &[ModelPath], index: usize, path: pagepath_multipath::PathId) -> u64 {
    let at = out.chunks[index].sent;
    out.chunks[..index].iter().filter(|c| c.path == path && c.arrives + paths[path.0].one_way > at).map(|c| c.bytes).sum()
}

/// A path as a transport would snapshot it, for tests that hand a scheduler one context: `rate`
/// bytes per second paced, the window `cwnd`, not in slow start.
pub fn path_snapshot(id: usize, rtt_ms: f64, rate: f64, cwnd: u64, in_flight: u64, can_send: bool) -> pagepath_multipath::PathSnapshot {
    pagepath_multipath::PathSnapshot {
        id: pagepath_multipath::PathId(id),
        srtt: ms(rtt_ms),
        rttvar: Duration::ZERO,
        min_rtt: ms(rtt_ms),
        cwnd,
        bytes_in_flight: in_flight,
        pacing_rate: Some(rate as u64),
        in_slow_start: false,
        ssthresh: None,
        lost_packets: 0,
        usable: true,
        can_send,
        backup: false,
    }
}

/// A stream with `remaining` bytes to send, none sent yet.
pub fn stream_snapshot(id: u64, remaining: u64, urgency: u8) -> pagepath_multipath::StreamSnapshot {
    pagepath_multipath::StreamSnapshot {
        id: pagepath_multipath::StreamId(id),
        remaining,
        sent: 0,
        total: Some(remaining),
        urgency,
        incremental: false,
        critical_priority: None,
        ready_at: Duration::ZERO,
    }
}
