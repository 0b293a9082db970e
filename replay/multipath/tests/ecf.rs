mod common;

use common::*;
use pagepath_multipath::ideal_paths::{Message, ModelPath};
use pagepath_multipath::{build, Options, PathId, StreamId};

/// Seed 000 Eq. 4.2 and 4.3 for Fig 4.5's paths (latencies in ms, capacities in bytes per ms).
fn fig_4_5_ecf(size: f64) -> (f64, f64) {
    let (d1, b1, d2, b2) = (5.0, 200.0, 10.0, 500.0);
    let s_lim = b1 * (d2 - d1);
    (s_lim, d2 + (size - s_lim) / (b1 + b2))
}

#[test]
fn size_form_reproduces_fig_4_5_switch_at_12_86_ms_and_eq_4_2() {
    // 10-byte chunks stand in for the seed's fluid: the figures then hold within one chunk's time
    let paths = fig_4_5();
    let out = run_named("ecf", "form=size", &paths, &[Message::new(0, 10_000)], 10);
    let (s_lim, completion) = fig_4_5_ecf(10_000.0);
    assert_eq!(s_lim, 1_000.0);
    // both paths until the remaining size drops below S_lim, at (10 000 - 1 000) / 700 B/ms
    let switch = (10_000.0 - s_lim) / 700.0;
    let slow_ends = out.chunks.iter().filter(|c| c.path == PathId(1)).map(|c| (c.arrives - ms(10.0)).as_secs_f64() * 1e3).fold(0.0, f64::max);
    assert!((switch - 12.857).abs() < 1e-3 && (slow_ends - switch).abs() <= 0.02, "the slow path stops at {slow_ends} ms, Fig 4.5 at 12.86");
    let done = out.completion[&StreamId(0)].as_secs_f64() * 1e3;
    assert!((done - completion).abs() <= 0.02, "completes at {done} ms, Eq. 4.2 gives {completion}");
    // the point of Fig 4.5: both paths finish together at the receiver
    let last_on = |p| out.chunks.iter().filter(|c| c.path == PathId(p)).map(|c| c.arrives.as_secs_f64() * 1e3).fold(0.0, f64::max);
    assert!((last_on(0) - last_on(1)).abs() <= 0.05, "fast path ends at {}, slow at {}", last_on(0), last_on(1));
    let lowest = run_named("lowest-rtt", "", &paths, &[Message::new(0, 10_000)], 10);
    assert!(lowest.completion[&StreamId(0)].as_secs_f64() * 1e3 > done + 1.0, "lowest-rtt keeps the slow path busy to the end");
}

#[test]
fn size_form_keeps_a_message_under_s_lim_on_the_fast_path_as_eq_4_1() {
    let out = run_named("ecf", "form=size", &fig_4_5(), &[Message::new(0, 900)], 10);
    assert_eq!(out.bytes_on(PathId(1), StreamId(0)), 0);
    // Eq. 4.1: D1 + S/B1 = 5 ms + 900 B / 200 B/ms
    let done = out.completion[&StreamId(0)].as_secs_f64() * 1e3;
    assert!((done - 9.5).abs() < 1e-6, "{done} ms");
    let lowest = run_named("lowest-rtt", "", &fig_4_5(), &[Message::new(0, 900)], 10);
    assert!(lowest.bytes_on(PathId(1), StreamId(0)) > 0, "lowest-rtt spills onto the slow path whenever the fast one is busy");
}

#[test]
fn size_form_takes_a_third_path_only_past_the_second_threshold_as_fig_4_6() {
    // Fig 4.5's paths and a third, 1000 B/ms with 20 ms: it is worth using once the size exceeds
    // S_lim23 = B1 (D3 - D1) + B2 (D3 - D2) = 200 × 15 + 500 × 10 = 8 000 B
    let mut paths = fig_4_5();
    paths.push(ModelPath { one_way: ms(20.0), rate: 1_000_000.0, cwnd: None });
    let small = run_named("ecf", "form=size", &paths, &[Message::new(0, 5_000)], 10);
    assert_eq!(small.bytes_on(PathId(2), StreamId(0)), 0);
    assert!(small.bytes_on(PathId(1), StreamId(0)) > 0);
    let large = run_named("ecf", "form=size", &paths, &[Message::new(0, 20_000)], 10);
    assert!(large.bytes_on(PathId(2), StreamId(0)) > 0);
    // all three finish together: Σ B_i (C - D_i) = S, C = (20 000 + 1 000 + 5 000 + 20 000) / 1 700
    let expected = 46_000.0 / 1_700.0;
    for (out, size, c) in [(&small, 5_000.0, fig_4_5_ecf(5_000.0).1), (&large, 20_000.0, expected)] {
        let done = out.completion[&StreamId(0)].as_secs_f64() * 1e3;
        assert!((done - c).abs() <= 0.05, "{size} B completes at {done} ms, ECF gives {c}");
    }
}

#[test]
fn cwnd_form_waits_for_the_fast_path_rather_than_put_a_short_tail_on_the_slow_one() {
    // 30 KB is one 25 KB fast window and a 5 KB tail
    let message = [Message::new(0, 30_000)];
    let ecf = run_named("ecf", "", &fast_and_slow(), &message, 1_000);
    let lowest = run_named("lowest-rtt", "", &fast_and_slow(), &message, 1_000);
    assert_eq!(ecf.bytes_on(PathId(1), StreamId(0)), 0, "ECF sent part of the tail on the 100 ms path");
    assert_eq!(lowest.bytes_on(PathId(1), StreamId(0)), 5_000);
    let (e, l) = (ecf.completion_ms(&message)[0], lowest.completion_ms(&message)[0]);
    // the tail leaves as the first acks come back (20.8 ms) and arrives by 34.8 ms; on the slow
    // path it takes 20 ms at 2 Mbit/s plus 50 ms
    assert!((e - 34.8).abs() < 1e-6 && (l - 70.0).abs() < 1e-6, "ecf {e} ms, lowest-rtt {l} ms");
}

#[test]
fn cwnd_form_uses_the_slow_path_only_while_the_backlog_outlasts_its_rtt() {
    // n·RTT_f < RTT_s fails while k ≥ (RTT_s/RTT_f - 1)·cwnd_f = 4 × 25 KB: then the slow path is
    // worth it; below that ECF waits, and keeps waiting (the hysteresis only widens the bound)
    let paths = fast_and_slow();
    let out = run_named("ecf", "", &paths, &[Message::new(0, 200_000)], 1_000);
    assert!(out.bytes_on(PathId(1), StreamId(0)) > 0, "a 200 KB backlog is worth the slow path");
    let mut unsent = 200_000u64;
    for c in &out.chunks {
        if c.path == PathId(1) {
            assert!(unsent >= 100_000, "a packet went on the slow path at {:?} with {unsent} B left", c.sent);
        }
        unsent -= c.bytes;
    }
}

#[test]
fn beta_is_a_hysteresis_against_going_back_to_the_slow_path() {
    // ECF waits at 0 ms for a 5 KB tail; at 5 ms 150 KB more arrive, k = 155 KB: n·RTT_f = 144 ms,
    // beyond RTT_s = 100 ms but within (1 + β)·100 ms for β = 1, not for β = 0.25
    let messages = [Message::new(0, 30_000), Message { release: ms(5.0), ..Message::new(1, 150_000) }];
    let slow_bytes = |opts| run_named("ecf", opts, &fast_and_slow(), &messages, 1_000).chunks.iter().filter(|c| c.path == PathId(1)).map(|c| c.bytes).sum::<u64>();
    let first_slow = run_named("ecf", "beta=0.25", &fast_and_slow(), &messages, 1_000).chunks.iter().find(|c| c.path == PathId(1)).map(|c| c.sent);
    assert_eq!(first_slow, Some(ms(5.0)), "with β = 0.25 ECF switches to the slow path when the backlog grows");
    assert_eq!(slow_bytes("beta=1"), 0, "with β = 1 (seed 004) it keeps waiting for the fast path");
}

#[test]
fn options_are_checked() {
    let err = |opts: &str| build("ecf", &Options::parse([opts]).unwrap()).err().unwrap();
    assert_eq!(err("form=fluid"), "scheduler option form=fluid: expected cwnd or size");
    assert_eq!(err("form=size,beta=1"), "scheduler option beta applies to ecf's form=cwnd; form=size has no hysteresis");
    assert_eq!(err("beta=-1"), "scheduler option beta=-1: expected a number from 0 to 10");
    assert_eq!(err("lambda=1"), "scheduler ecf has no option lambda; it takes beta, form");
    assert!(build("ecf", &Options::parse(["form=cwnd,beta=1"]).unwrap()).is_ok());
}
