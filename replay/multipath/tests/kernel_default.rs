mod common;

use common::*;
use pagepath_multipath::{build, Context, Options, PathChoice, PathId};

fn choose(paths: &[pagepath_multipath::PathSnapshot]) -> PathChoice {
    let mut s = build("kernel-default", &Options::default()).unwrap();
    let streams = [stream_snapshot(0, 100_000, 3)];
    s.decide(&Context { now: ms(0.0), paths, streams: &streams }).path
}

#[test]
fn the_subflow_whose_queue_drains_soonest_takes_the_next_burst() {
    // 25 Mbit/s paced (3.125 MB/s) with 30 KB queued lingers 9.6 ms; 5 Mbit/s (625 KB/s) with
    // 4 KB queued lingers 6.4 ms: the slow path drains sooner and is chosen, as Linux chooses.
    let fast = path_snapshot(0, 20.0, 3_125_000.0, 60_000, 30_000, true);
    let slow = path_snapshot(1, 100.0, 625_000.0, 60_000, 4_000, true);
    assert_eq!(choose(&[fast.clone(), slow.clone()]), PathChoice::One(PathId(1)));
    // With 8 KB queued it lingers 12.8 ms: the fast one again.
    let slower = pagepath_multipath::PathSnapshot { bytes_in_flight: 8_000, ..slow };
    assert_eq!(choose(&[fast, slower]), PathChoice::One(PathId(0)));
}

#[test]
fn without_a_pacing_rate_it_takes_linuxs_window_per_rtt_doubled_in_slow_start() {
    // Both 60 KB windows with 30 KB queued; 20 ms against 30 ms RTT, but the slower one is in
    // slow start: 60 KB / 20 ms x 1.2 = 3.6 MB/s against 60 KB / 30 ms x 2 = 4 MB/s: the latter.
    let unpaced = |id, rtt, slow_start| pagepath_multipath::PathSnapshot { pacing_rate: None, in_slow_start: slow_start, ..path_snapshot(id, rtt, 0.0, 60_000, 30_000, true) };
    assert_eq!(choose(&[unpaced(0, 20.0, false), unpaced(1, 30.0, true)]), PathChoice::One(PathId(1)));
    assert_eq!(choose(&[unpaced(0, 20.0, false), unpaced(1, 30.0, false)]), PathChoice::One(PathId(0)), "both in congestion avoidance: the 20 ms one");
    // A subflow whose send buffer is full is not offered: nothing to choose, wait.
    let full = |id| pagepath_multipath::PathSnapshot { can_send: false, ..unpaced(id, 20.0, false) };
    assert_eq!(choose(&[full(0), full(1)]), PathChoice::Wait);
}

#[test]
fn when_the_subflow_that_drains_soonest_is_full_it_waits_rather_than_spill_onto_a_slower_one() {
    // The fast path lingers 9.6 ms and is full; the slow one, with room, would linger 16 ms.
    let fast = pagepath_multipath::PathSnapshot { can_send: false, ..path_snapshot(0, 20.0, 3_125_000.0, 60_000, 30_000, true) };
    let slow = path_snapshot(1, 100.0, 625_000.0, 60_000, 10_000, true);
    assert_eq!(choose(&[fast.clone(), slow.clone()]), PathChoice::Wait);
    // Once the slow one drains sooner, it is chosen.
    let emptier = pagepath_multipath::PathSnapshot { bytes_in_flight: 2_000, ..slow };
    assert_eq!(choose(&[fast, emptier]), PathChoice::One(PathId(1)));
}

#[test]
fn a_subflow_keeps_its_averaged_pacing_rate_while_much_is_queued_on_it() {
    // Both subflows 25 Mbit/s paced (3.125 MB/s); the first is chosen with 60 KB queued, then its
    // window is cut to a third (1.04 MB/s). The kernel's average changes only when it chooses the
    // subflow, so it is still 3.125 MB/s: with 30 KB queued the first lingers 9.6 ms, less than
    // the other's 16 ms with 50 KB, and the kernel keeps feeding it. By the rate now it would
    // linger 29 ms and the data would move to the other.
    let mut s = build("kernel-default", &Options::default()).unwrap();
    let streams = [stream_snapshot(0, 1_000_000, 3)];
    let mut decide = |paths: &[pagepath_multipath::PathSnapshot]| s.decide(&Context { now: ms(0.0), paths, streams: &streams }).path;
    let first = path_snapshot(0, 20.0, 3_125_000.0, 60_000, 60_000, true);
    let other = path_snapshot(1, 20.0, 3_125_000.0, 60_000, 70_000, true);
    assert_eq!(decide(&[first.clone(), other.clone()]), PathChoice::One(PathId(0)));
    let cut = pagepath_multipath::PathSnapshot { pacing_rate: Some(1_041_667), bytes_in_flight: 30_000, ..first };
    let other = pagepath_multipath::PathSnapshot { bytes_in_flight: 50_000, ..other };
    assert_eq!(decide(&[cut.clone(), other.clone()]), PathChoice::One(PathId(0)));
    assert_eq!(choose(&[cut, other]), PathChoice::One(PathId(1)), "a fresh scheduler goes by the rate now");
}
