mod common;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::{build, Options, PathId, StreamId};

// On fast_and_slow with 1000-byte packets: RTT_s/RTT_f = 5, cwnd_f = 25 segments, so while the
// fast path is full BLEST expects it to send X = 1000 × 5 × (25 + (5 - 1)/2) = 135 000 B during
// one slow RTT.

#[test]
fn a_small_window_keeps_the_slow_path_unused_where_lowest_rtt_uses_it() {
    let message = [Message::new(0, 200_000)];
    let blest = run_named("blest", "window=65536", &fast_and_slow(), &message, 1_000);
    let lowest = run_named("lowest-rtt", "", &fast_and_slow(), &message, 1_000);
    assert_eq!(blest.bytes_on(PathId(1), StreamId(0)), 0, "X = 135 000 B exceeds any room a 64 KiB window leaves");
    assert_eq!(lowest.bytes_on(PathId(1), StreamId(0)), 34_000);
}

#[test]
fn a_large_window_sends_as_lowest_rtt_does() {
    let message = [Message::new(0, 200_000)];
    let blest = run_named("blest", "window=1048576", &fast_and_slow(), &message, 1_000);
    let lowest = run_named("lowest-rtt", "", &fast_and_slow(), &message, 1_000);
    assert!(blest.bytes_on(PathId(1), StreamId(0)) > 0);
    assert_eq!(blest.chunks, lowest.chunks, "nothing a 1 MiB window would block");
    // the default window (10 MiB) blocks nothing here either
    assert_eq!(run_named("blest", "", &fast_and_slow(), &message, 1_000).chunks, lowest.chunks);
}

#[test]
fn the_slow_path_gets_only_the_room_the_fast_path_leaves_in_the_window() {
    // W = 150 000 B: the slow path may send while X·λ ≤ W - inflight_s - MSS, so while its bytes
    // in flight are at most 14 000 (λ = 1) or 500 (λ = 1.1: X·λ = 148 500), and it does fill
    // that room
    let paths = fast_and_slow();
    let message = [Message::new(0, 200_000)];
    for (opts, most) in [("window=150000", 14_000), ("window=150000,lambda=1.1", 0)] {
        let out = run_named("blest", opts, &paths, &message, 1_000);
        let in_flight: Vec<u64> = (0..out.chunks.len()).filter(|i| out.chunks[*i].path == PathId(1)).map(|i| in_flight_before(&out, &paths, i, PathId(1))).collect();
        assert_eq!(in_flight.iter().max(), Some(&most), "{opts}: bytes in flight on the slow path before each of its packets: {in_flight:?}");
    }
}

#[test]
fn options_are_checked() {
    let err = |opts: &str| build("blest", &Options::parse([opts]).unwrap()).err().unwrap();
    assert_eq!(err("window=0"), "scheduler option window=0: expected a number from 1 to 1000000000000000");
    assert_eq!(err("lambda=x"), "scheduler option lambda=x: expected a number from 0 to 100");
    assert_eq!(err("beta=1"), "scheduler blest has no option beta; it takes lambda, window");
}
