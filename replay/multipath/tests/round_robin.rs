mod common;

use std::time::Duration;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::{build, Context, Options, PathChoice, PathId, PathSnapshot, StreamId, StreamSnapshot};

#[test]
fn paths_take_turns_while_both_can_send() {
    let out = run_named("round-robin", "", &equal(), &[Message::new(0, 20_000)], 1_000);
    let order: Vec<usize> = out.chunks.iter().map(|c| c.path.0).collect();
    assert_eq!(order, (0..20).map(|i| i % 2).collect::<Vec<_>>());
}

#[test]
fn a_full_path_is_skipped_and_its_turn_goes_to_the_next() {
    let paths = fast_and_slow();
    let out = run_named("round-robin", "", &paths, &[Message::new(0, 200_000)], 1_000);
    // both 25 KB windows fill in turn at 0 ms
    let first: Vec<usize> = out.chunks[..50].iter().map(|c| c.path.0).collect();
    assert_eq!(first, (0..50).map(|i| i % 2).collect::<Vec<_>>());
    // from then on a path sends twice in a row only when the other one's window is full
    let mut skips = 0;
    for i in 1..out.chunks.len() {
        let (prev, this) = (out.chunks[i - 1].path, out.chunks[i].path);
        if prev == this {
            let other = PathId(1 - this.0);
            assert!(in_flight_before(&out, &paths, i, other) + 1_000 > 25_000, "path {} was passed over at {:?} with room in its window", other.0, out.chunks[i].sent);
            skips += 1;
        }
    }
    assert!(skips > 50, "the fast path's acks come back five times as often: it takes most turns ({skips} skips)");
}

#[test]
fn a_small_message_is_split_evenly_whatever_the_rtts() {
    // seed 000 §2.4.2: "when paths have different RTT, this strategy exhibits poor performance"
    let message = [Message::new(0, 10_000)];
    let rr = run_named("round-robin", "", &fast_and_slow(), &message, 1_000);
    assert_eq!((rr.bytes_on(PathId(0), StreamId(0)), rr.bytes_on(PathId(1), StreamId(0))), (5_000, 5_000));
    // the slow half: 20 ms at 2 Mbit/s plus 50 ms, against 18 ms on the fast path alone
    assert!((rr.completion_ms(&message)[0] - 70.0).abs() < 1e-6, "{:?}", rr.completion_ms(&message));
}

#[test]
fn an_unusable_path_gets_no_turn() {
    let path = |id, usable| PathSnapshot {
        id: PathId(id),
        srtt: Duration::from_millis(20),
        rttvar: Duration::ZERO,
        min_rtt: Duration::from_millis(20),
        cwnd: 50_000,
        bytes_in_flight: 0,
        pacing_rate: None,
        in_slow_start: false,
        ssthresh: None,
        lost_packets: 0,
        usable,
        can_send: true,
        backup: false,
    };
    let paths = [path(0, true), path(1, false), path(2, true)];
    let streams = [StreamSnapshot { id: StreamId(0), remaining: 1_000_000, sent: 0, total: None, urgency: 3, incremental: false, critical_priority: None, ready_at: Duration::ZERO }];
    let mut s = build("round-robin", &Options::default()).unwrap();
    let cx = Context { now: Duration::ZERO, paths: &paths, streams: &streams };
    let mut chosen = Vec::new();
    for _ in 0..4 {
        let d = s.decide(&cx);
        let PathChoice::One(p) = d.path else { panic!("{d:?}") };
        s.on_event(Duration::ZERO, &pagepath_multipath::Event::Sent { path: p, stream: d.stream, bytes: 1_000 });
        chosen.push(p.0);
    }
    assert_eq!(chosen, [0, 2, 0, 2]);
}
