mod common;

use std::time::Duration;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::schedulers::sa_ecf_ported::Leaves;
use pagepath_multipath::urgency_weights::{DefaultWeights, UrgencyWeights};
use pagepath_multipath::{build, Context, Decision, Event, Options, PathId, PathSnapshot, Scheduler, StreamId, StreamSnapshot};

const NAME: &str = "sa-ecf-ported";

/// A fast path (20 ms RTT) and a slow one (`slow_rtt_ms`), both with a 25 KB window; the fast one
/// full or not, the slow one free.
fn paths(fast_can_send: bool, slow_rtt_ms: f64) -> Vec<PathSnapshot> {
    // the rate a window per RTT gives, as a transport without pacing would report it
    let path = |id, rtt: f64, can_send: bool| path_snapshot(id, rtt, 25_000.0 / (rtt / 1e3), 25_000, if can_send { 0 } else { 25_000 }, can_send);
    vec![path(0, 20.0, fast_can_send), path(1, slow_rtt_ms, true)]
}

fn stream(id: u64, remaining: u64) -> StreamSnapshot {
    stream_snapshot(id, remaining, 3)
}

fn scheduler(options: &str) -> Box<dyn Scheduler> {
    build(NAME, &Options::parse([options]).unwrap()).unwrap()
}

fn decide(s: &mut dyn Scheduler, paths: &[PathSnapshot], streams: &[StreamSnapshot]) -> Decision {
    s.decide(&Context { now: Duration::ZERO, paths, streams })
}

#[test]
fn the_fastest_path_takes_every_packet_it_can() {
    for size in [1_000, 50_000, 300_000] {
        let d = decide(scheduler("").as_mut(), &paths(true, 100.0), &[stream(0, size), stream(1, 2_000)]);
        assert_eq!(d, Decision::on(PathId(0), Some(StreamId(0))), "a {size} B stream at the head");
    }
    // over a whole transfer: the slow path gets a packet only while the fast one's window is full
    let model = fast_and_slow();
    let out = run_named(NAME, "", &model, &[Message::new(0, 100_000), Message::new(1, 20_000)], 1_000);
    for (i, c) in out.chunks.iter().enumerate().filter(|(_, c)| c.path == PathId(1)) {
        let in_flight = in_flight_on(&out.chunks[..i], &model, PathId(0), c.sent);
        assert!(in_flight + 1_000 > 25_000, "a packet went on the slow path at {:?} with {in_flight} B in flight on the fast one", c.sent);
    }
    assert!(out.bytes_on(PathId(1), StreamId(0)) > 0);
}

fn in_flight_on(before: &[pagepath_multipath::ideal_paths::Chunk], model: &[pagepath_multipath::ideal_paths::ModelPath], path: PathId, at: Duration) -> u64 {
    before.iter().filter(|c| c.path == path && c.arrives + model[path.0].one_way > at).map(|c| c.bytes).sum()
}

/// With the fast path full, Algorithm 1 with k = 50 KB (one stream, so k = r): n = 1 + 50/25 = 3
/// bursts of 20 ms (60 ms) beat the slow path's 100 ms RTT, and the slow path would need
/// (50/25) x 100 ms = 200 ms ≥ 2 x 20 ms: the stream waits. A 2 KB stream goes on the slow path
/// (0.08 x 100 ms < 40 ms), and a 300 KB one too (13 x 20 ms ≥ 100 ms: the slow path helps).
#[test]
fn with_the_fast_path_full_a_stream_that_would_finish_later_on_the_slow_path_waits() {
    let full = paths(false, 100.0);
    assert_eq!(decide(scheduler("").as_mut(), &full, &[stream(0, 50_000)]), Decision::WAIT);
    assert_eq!(decide(scheduler("").as_mut(), &full, &[stream(0, 2_000)]), Decision::on(PathId(1), Some(StreamId(0))));
    assert_eq!(decide(scheduler("").as_mut(), &full, &[stream(0, 300_000)]), Decision::on(PathId(1), Some(StreamId(0))));
}

/// Algorithm 1 visits the pending streams in order and sends the first that does not wait,
/// moving it to the front of the round-robin (`swap(0, i)`): the fast path then serves it first.
#[test]
fn a_stream_that_does_not_wait_is_sent_and_moved_to_the_front() {
    let mut s = scheduler("quantum=100000");
    let streams = [stream(0, 50_000), stream(1, 2_000)];
    assert_eq!(decide(s.as_mut(), &paths(false, 100.0), &streams), Decision::on(PathId(1), Some(StreamId(1))));
    assert_eq!(decide(s.as_mut(), &paths(true, 100.0), &streams), Decision::on(PathId(0), Some(StreamId(1))));
}

/// β: a stream that waited keeps waiting while n RTT_f < (1 + β)(RTT_s + δ). 150 KB: n = 7,
/// 140 ms. It first waits beside a 200 ms path (140 < 200, and 6 x 200 ms ≥ 40 ms); beside a
/// 100 ms path it then still waits with β = 1 (140 < 200) but not with β = 0 (140 ≥ 100).
#[test]
fn the_hysteresis_beta_keeps_a_waiting_stream_waiting() {
    for (options, then) in [("", Decision::WAIT), ("beta=1", Decision::WAIT), ("beta=0", Decision::on(PathId(1), Some(StreamId(0))))] {
        let mut s = scheduler(options);
        let streams = [stream(0, 150_000)];
        assert_eq!(decide(s.as_mut(), &paths(false, 200.0), &streams), Decision::WAIT);
        assert_eq!(decide(s.as_mut(), &paths(false, 100.0), &streams), then, "{options}");
    }
    // without having waited, the same stream is sent at once
    assert_eq!(decide(scheduler("").as_mut(), &paths(false, 100.0), &[stream(0, 150_000)]), Decision::on(PathId(1), Some(StreamId(0))));
}

/// Algorithm 2: k = r within one guarantee, else (r / g - 1) x (the other leaves' guarantees) + r,
/// r / g rounded down; leaves count until they finish, with data or not.
#[test]
fn bytes_until_completion_counts_the_other_leaves_guarantees() {
    let mut leaves = Leaves::new(1_000.0, UrgencyWeights::parse(None, DefaultWeights::Equal).unwrap());
    let paths = paths(true, 100.0);
    let (a, b) = (stream(0, 5_500), stream(1, 3_000));
    leaves.pending(&Context { now: Duration::ZERO, paths: &paths, streams: &[a.clone(), b.clone()] });
    assert_eq!(leaves.bytes_until_completion(&a), 4 * 1_000 + 5_500);
    assert_eq!(leaves.bytes_until_completion(&stream(0, 800)), 800);
    // b has no data now but has not finished: still a leaf
    leaves.pending(&Context { now: Duration::ZERO, paths: &paths, streams: std::slice::from_ref(&a) });
    assert_eq!(leaves.bytes_until_completion(&a), 9_500);
    leaves.on_event(&Event::StreamFinished { stream: StreamId(1) });
    assert_eq!(leaves.bytes_until_completion(&a), 5_500);
    // weights scale the guarantees: urgency 0 has 8 shares, urgency 7 one
    let mut weighted = Leaves::new(1_000.0, UrgencyWeights::parse(Some("urgency"), DefaultWeights::Equal).unwrap());
    let (u0, u7) = (StreamSnapshot { urgency: 0, ..stream(0, 20_000) }, StreamSnapshot { urgency: 7, ..stream(1, 20_000) });
    weighted.pending(&Context { now: Duration::ZERO, paths: &paths, streams: &[u0.clone(), u7.clone()] });
    // g = 8000 B: 20000 / 8000 = 2 rounds, one gap of the other's 1000 B
    assert_eq!(weighted.bytes_until_completion(&u0), 21_000);
    // g = 1000 B: 20 rounds, 19 gaps of 8000 B
    assert_eq!(weighted.bytes_until_completion(&u7), 19 * 8_000 + 20_000);
}

#[test]
fn bad_options_are_refused() {
    let err = |o: &str| build(NAME, &Options::parse([o]).unwrap()).err().unwrap();
    assert_eq!(err("beta=-1"), "scheduler option beta=-1: expected a number from 0 to 1000000");
    assert_eq!(err("priority=urgency"), "scheduler sa-ecf-ported has no option priority; it takes beta, quantum, weights");
}
