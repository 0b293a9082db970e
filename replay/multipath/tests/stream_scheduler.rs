//! Seed 001 §6.4.1's HTTP-aware Stream Scheduler (Algorithms 6-8), with §6.4.2's preemption.
mod common;

use std::time::Duration;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::schedulers::stream_scheduler::{estimate_completion, HttpStreamScheduler};
use pagepath_multipath::{build, Context, Decision, Options, PathId, Scheduler, StreamId};

const NAME: &str = "stream-scheduler";

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() < 1e-6
}

// Algorithm 8 by hand. Congestion avoidance: RTT/2 + size / (W / RTT).
#[test]
fn completion_estimate_in_congestion_avoidance() {
    // 40 ms RTT, W = 25 000 B, so B = 625 000 B/s: 20 ms + 50 000 / 625 000 s = 20 + 80 = 100 ms
    let path = path_snapshot(0, 40.0, 1e6, 25_000, 0, true);
    let got = millis(estimate_completion(50_000, &path));
    assert!(close(got, 100.0), "{got} ms");
}

// Slow start: a full window per RTT while it fits, the window 1.5 times larger each RTT.
#[test]
fn completion_estimate_in_slow_start() {
    let mut path = path_snapshot(0, 100.0, 1e6, 10_000, 0, true);
    path.in_slow_start = true;
    path.ssthresh = Some(40_000);
    // 50 ms; 10 000 B (+100 ms, w 15 000); 15 000 (+100, w 22 500); 22 500 (+100, w 33 750);
    // the last 2 500 B at 33 750 B per 100 ms: +7.407 ms
    let got = millis(estimate_completion(50_000, &path));
    assert!(close(got, 350.0 + 2_500.0 / 337_500.0 * 1e3), "{got} ms");
    // past ssthresh: 50 + 100 (w 15 000) + 100 (w 22 500 ≥ 20 000), then 75 000 B at 225 000 B/s
    path.ssthresh = Some(20_000);
    let got = millis(estimate_completion(100_000, &path));
    assert!(close(got, 250.0 + 75_000.0 / 225_000.0 * 1e3), "{got} ms");
}

// The footnote: with no ssthresh yet, slow start is capped at 10^6 × RTT, here 100 000 B.
#[test]
fn completion_estimate_caps_an_unknown_ssthresh_at_a_million_times_the_rtt() {
    let mut path = path_snapshot(0, 100.0, 1e6, 40_000, 0, true);
    path.in_slow_start = true;
    // 50; 40 000 (+100, w 60 000); 60 000 (+100, w 90 000); 90 000 (+100, w 135 000 ≥ 100 000);
    // the last 210 000 B at 1 350 000 B/s: +155.556 ms (uncapped slow start would give 487.0 ms)
    let got = millis(estimate_completion(400_000, &path));
    assert!(close(got, 350.0 + 210_000.0 / 1_350_000.0 * 1e3), "{got} ms");
}

/// Seed 001 Fig 6.19's two subflows: path 0 10 Mbit/s 20 ms RTT, path 1 2 Mbit/s 100 ms, windows of
/// 25 000 B (the `fast_and_slow` model paths as a transport would snapshot them).
fn fig_6_19(fast_can_send: bool, slow_can_send: bool) -> Vec<pagepath_multipath::PathSnapshot> {
    vec![path_snapshot(0, 20.0, 1_250_000.0, 25_000, 0, fast_can_send), path_snapshot(1, 100.0, 250_000.0, 25_000, 0, slow_can_send)]
}

fn decide(s: &mut dyn Scheduler, paths: &[pagepath_multipath::PathSnapshot], streams: &[pagepath_multipath::StreamSnapshot]) -> Decision {
    s.decide(&Context { now: Duration::ZERO, paths, streams })
}

// Fig 6.19(a): α is Resource 1 on Subflow 1 (10 + 160 = 170 ms); both subflows deliver a packet
// before it (10 and 50 ms), and the segment goes on Subflow 2, the higher RTT (Algorithm 6 line 7).
// Fig 6.19(b): with 30 000 B left α is 10 + 24 = 34 ms < 50 ms, so only Subflow 1 is viable.
#[test]
fn both_paths_viable_picks_the_higher_rtt_one_and_a_short_remainder_only_the_fast_one() {
    let mut s = HttpStreamScheduler::new(true, false);
    let paths = fig_6_19(true, true);
    assert_eq!(decide(&mut s, &paths, &[stream_snapshot(0, 200_000, 3)]), Decision::on(PathId(1), Some(StreamId(0))));
    assert_eq!(decide(&mut s, &paths, &[stream_snapshot(0, 30_000, 3)]), Decision::on(PathId(0), Some(StreamId(0))));
    // by RTT, not by path number
    let mut swapped = fig_6_19(true, true);
    swapped.reverse();
    swapped[0].id = PathId(0);
    swapped[1].id = PathId(1);
    assert_eq!(decide(&mut s, &swapped, &[stream_snapshot(0, 200_000, 3)]), Decision::on(PathId(0), Some(StreamId(0))));
}

// Fig 6.19(c): Subflow 1's window is full and Resource 1's last 5 000 B would arrive on Subflow 2
// (50 ms) after Subflow 1 delivers them all (α = 10 + 4 = 14 ms); Resource 2 behind it makes α
// 10 + 205 000 / 1 250 000 s = 174 ms, so Subflow 2 sends Resource 2. Algorithm 6 waits instead.
#[test]
fn lookahead_sends_a_later_resource_on_the_slow_path_when_the_first_would_arrive_too_late() {
    let paths = fig_6_19(false, true);
    let streams = [stream_snapshot(0, 5_000, 3), stream_snapshot(4, 200_000, 3)];
    assert_eq!(decide(&mut HttpStreamScheduler::new(true, false), &paths, &streams), Decision::on(PathId(1), Some(StreamId(4))));
    assert_eq!(decide(&mut HttpStreamScheduler::new(false, false), &paths, &streams), Decision::WAIT);
}

// On the model: 30 KB then 200 KB. With lookahead the slow path starts on the 200 KB resource
// while the 30 KB one is still being sent on the fast path (at 0 ms: 178 ms completion); without
// it the slow path idles until the first resource is all sent (24 ms: 182 ms completion).
#[test]
fn lookahead_keeps_the_slow_path_busy_with_the_next_resource() {
    let paths = fast_and_slow();
    let messages = [Message::new(0, 30_000), Message::new(1, 200_000)];
    for (options, want) in [("lookahead=on", [34.8, 178.0]), ("lookahead=off", [34.8, 182.0])] {
        let out = run_named(NAME, options, &paths, &messages, 1_000);
        assert_eq!(out.bytes_on(PathId(1), StreamId(0)), 0, "{options}: the first resource never goes on the slow path");
        let got = out.completion_ms(&messages);
        assert!(got.iter().zip(want).all(|(g, w)| close(*g, w)), "{options}: completions {got:?} ms, expected {want:?}");
    }
    let out = run_named(NAME, "", &paths, &messages, 1_000);
    let first_sent = |path: usize, stream: u64| out.chunks.iter().find(|c| c.path == PathId(path) && c.stream == StreamId(stream)).map(|c| c.sent);
    let last_of_first = out.chunks.iter().filter(|c| c.stream == StreamId(0)).map(|c| c.sent).max();
    assert!(first_sent(1, 1) < last_of_first, "the slow path starts the second resource before the first is all sent");
}

// The signature of §6.4.1: a small resource stays on one path, a large one is split, and the
// split beats the fast path alone (170 ms) and lowest-RTT, which leaves a tail on the slow path.
#[test]
fn keeps_a_small_resource_on_the_fast_path_and_splits_a_large_one() {
    let paths = fast_and_slow();
    let small = run_named(NAME, "", &paths, &[Message::new(0, 10_000)], 1_000);
    assert_eq!(small.bytes_on(PathId(1), StreamId(0)), 0, "10 KB stays on the fast path");
    assert!(close(small.completion_ms(&[Message::new(0, 10_000)])[0], 18.0));

    let large = [Message::new(0, 200_000)];
    let out = run_named(NAME, "", &paths, &large, 1_000);
    assert_eq!(out.chunks[0].path, PathId(1), "both paths are viable at first: the higher RTT one goes first");
    let (fast, slow) = (out.bytes_on(PathId(0), StreamId(0)), out.bytes_on(PathId(1), StreamId(0)));
    assert_eq!((fast, slow), (174_000, 26_000));
    // Algorithm 6's viability test takes a packet to need RTT/2 (its serialisation "negligible"):
    // at 2 Mbit/s a 1 000 B packet takes 4 ms more, so the slow path's last packet, sent at 104 ms
    // with 50 KB left, lands at 158 ms, 4 ms after the fast path's last one.
    let done = out.completion_ms(&large)[0];
    let lowest_rtt = run_named("lowest-rtt", "", &paths, &large, 1_000).completion_ms(&large)[0];
    assert!(close(done, 158.0) && done < 170.0 && done < lowest_rtt, "{done} ms (fast path alone 170 ms, lowest-RTT {lowest_rtt} ms)");
}

// §6.4.2: a 200 KB resource of critical-path priority 5 has started when a 20 KB one of priority
// 0 arrives at 30 ms. With preemption the critical one takes the fast path at once (done 27.2 ms
// after its release); without, the started resource keeps the fast path until it is all sent.
#[test]
fn preemption_lets_a_more_critical_resource_overtake_one_already_started() {
    let paths = fast_and_slow();
    let mut started = Message::new(0, 200_000);
    started.critical_priority = Some(5);
    let mut critical = Message::new(4, 20_000);
    critical.critical_priority = Some(0);
    critical.release = ms(30.0);
    let messages = [started, critical];

    let on = run_named(NAME, "preemption=on", &paths, &messages, 1_000);
    assert!(on.chunks.iter().any(|c| c.stream == StreamId(0) && c.sent < ms(30.0)), "the large resource had started");
    let critical_done = on.chunks.iter().filter(|c| c.stream == StreamId(4)).map(|c| c.sent).max().unwrap();
    let overtaken = on.chunks.iter().filter(|c| c.path == PathId(0) && c.stream == StreamId(0) && c.sent >= ms(30.0) && c.sent <= critical_done).count();
    assert_eq!(overtaken, 0, "no byte of the started resource goes on the fast path until the critical one is sent");
    let on_ms = on.completion_ms(&messages)[1];
    assert!(close(on_ms, 27.2), "critical resource done {on_ms} ms after release");

    let off = run_named(NAME, "preemption=off", &paths, &messages, 1_000);
    let started_done = off.chunks.iter().filter(|c| c.stream == StreamId(0)).map(|c| c.sent).max().unwrap();
    let jumped = off.chunks.iter().filter(|c| c.path == PathId(0) && c.stream == StreamId(4) && c.sent < started_done).count();
    assert_eq!(jumped, 0, "without preemption the started resource keeps the fast path until it is sent");
    let off_ms = off.completion_ms(&messages)[1];
    assert!(close(off_ms, 140.0), "critical resource done {off_ms} ms after release");
}

#[test]
fn options_are_read_and_out_of_order_off_is_refused() {
    let opts = |s: &str| Options::parse([s]).unwrap();
    assert!(build(NAME, &opts("lookahead=off,preemption=on,out-of-order=on")).is_ok());
    let e = build(NAME, &opts("out-of-order=off")).err().unwrap();
    assert!(e.contains("QUIC delivers each stream"), "{e}");
    let e = build(NAME, &opts("lookahead=sometimes")).err().unwrap();
    assert_eq!(e, "scheduler option lookahead=sometimes: expected on or off");
    let e = build(NAME, &opts("beta=1")).err().unwrap();
    assert!(e.starts_with("scheduler stream-scheduler has no option beta"), "{e}");
}
