mod common;

use common::*;
use pagepath_multipath::ideal_paths::{Message, Outcome};
use pagepath_multipath::{PathId, StreamId};

const NAME: &str = "srpt-ecf";

fn at(id: u64, size: u64, release_ms: f64) -> Message {
    Message { release: ms(release_ms), ..Message::new(id, size) }
}

fn assert_ms(out: &Outcome, id: u64, expected: f64) {
    let got = out.completion[&StreamId(id)].as_secs_f64() * 1e3;
    assert!((got - expected).abs() < 1e-3, "message {id} completed in {got} ms, expected {expected} ms");
}

/// Seed 000 Fig 4.7: on Fig 4.5's paths, message 0 of 900 B and message 1 of 800 B complete at
/// (9, 11) ms: message 1 first, on path 0 alone (800 B at 200 KB/s + 5 ms); message 0 puts 500 B on
/// path 1 meanwhile (1 ms at 500 KB/s + 10 ms) and its last 400 B on path 0 after message 1 (6 ms +
/// 5 ms). With 100 B and with 50 B packets the figures are exact; with 300 B packets the slow path's
/// last packet cannot end at 1 ms and message 0 ends at 11.2 ms instead, so the packet must divide
/// 500 B.
#[test]
fn fig_4_7_completion_sequence_is_9_then_11_ms() {
    let messages = [Message::new(0, 900), Message::new(1, 800)];
    for chunk in [100, 50] {
        let out = run_named(NAME, "", &fig_4_5(), &messages, chunk);
        assert_ms(&out, 1, 9.0);
        assert_ms(&out, 0, 11.0);
        assert_eq!(out.bytes_on(PathId(1), StreamId(1)), 0, "the smaller message uses only the low-latency path");
        assert_eq!(out.bytes_on(PathId(1), StreamId(0)), 500, "message 0 stops using path 1 once 500 B are on it");
        assert_eq!(out.bytes_on(PathId(0), StreamId(0)), 400);
    }
}

#[test]
fn serves_the_shortest_remaining_message_first() {
    let messages = [Message::new(0, 30_000), Message::new(1, 10_000), Message::new(2, 20_000)];
    let out = run_named(NAME, "", &fast_and_slow(), &messages, 1_000);
    let done = |id| out.completion[&StreamId(id)];
    assert!(done(1) < done(2) && done(2) < done(0), "completion order {:?}", out.completion);
    // the 10 KB message is below the slow path's threshold (1.25 MB/s x 40 ms = 50 KB): it gets the
    // fast path to itself and completes as if alone, 8 ms of sending and 10 ms of latency
    assert_ms(&out, 1, 18.0);
    assert_eq!(out.bytes_on(PathId(1), StreamId(1)), 0);
    // while the larger ones use the slow path meanwhile: something of theirs goes on it at 0
    assert!(out.chunks.iter().any(|c| c.path == PathId(1) && c.sent.is_zero() && c.stream != StreamId(1)));
}

/// Seed 000 §4.5.2: released together, SRPT-ECF's k-th completion is that of ECF for one message
/// of the k smallest sizes together, C*(S_(1) + ... + S_(k)) (Eq. 4.1-4.3 on Fig 4.5's paths: 5 ms +
/// S / 200 KB/s up to 1000 B, 10 ms + (S - 1000 B) / 700 KB/s beyond), which no scheduler can beat
/// (Eq. 4.4). With 100 B packets it stays within one slow-path packet (0.2 ms) of that bound.
#[test]
fn completion_sequence_follows_ecf_on_the_cumulative_sizes() {
    let sizes = [2_500u64, 700, 4_100, 1_200, 300, 9_000, 1_600];
    let messages: Vec<Message> = sizes.iter().enumerate().map(|(i, s)| Message::new(i as u64, *s)).collect();
    let out = run_named(NAME, "", &fig_4_5(), &messages, 100);
    let mut done = out.completion_ms(&messages);
    done.sort_by(f64::total_cmp);
    let mut sorted = sizes;
    sorted.sort();
    let mut total = 0.0;
    for (k, size) in sorted.iter().enumerate() {
        total += *size as f64;
        let bound = if total <= 1_000.0 { 5.0 + total / 200.0 } else { 10.0 + (total - 1_000.0) / 700.0 };
        assert!(done[k] >= bound - 1e-6 && done[k] <= bound + 0.2, "completion {k}: {} ms, ECF's bound {bound} ms; all: {done:?}", done[k]);
    }
}

/// Seed 000 Fig 4.9, with sizes of our own (the figure gives none): message 0 (3000 B) is alone
/// and uses ECF, leaving path 1 before 3 ms; message 1 (400 B, at 4 ms) preempts it, which puts
/// message 0 back on path 1 because its effective size now counts message 1's bytes; message 2
/// (200 B, at 7 ms) preempts it again, too late for path 1, so message 0 waits.
#[test]
fn online_a_later_small_message_preempts_a_big_one() {
    let messages = [at(0, 3_000, 0.0), at(1, 400, 4.0), at(2, 200, 7.0)];
    let out = run_named(NAME, "", &fig_4_5(), &messages, 100);
    // each small message completes in its isolated ECF time on path 0: size / 200 KB/s + 5 ms
    assert_ms(&out, 1, 7.0);
    assert_ms(&out, 2, 6.0);
    let slow: Vec<_> = out.chunks.iter().filter(|c| c.path == PathId(1)).collect();
    assert!(slow.iter().all(|c| c.stream == StreamId(0)));
    assert!(slow.iter().any(|c| c.sent < ms(3.0)), "message 0 alone uses path 1");
    assert!(slow.iter().all(|c| c.sent < ms(3.0) || c.sent == ms(4.0)), "message 0 left path 1 and came back when message 1 arrived: {slow:?}");
    assert!(slow.iter().any(|c| c.sent == ms(4.0)));
    let m0_on_fast = |from: f64, to: f64| out.chunks.iter().any(|c| c.stream == StreamId(0) && c.path == PathId(0) && c.sent >= ms(from) && c.sent < ms(to));
    assert!(!m0_on_fast(4.0, 6.0) && !m0_on_fast(7.0, 8.0), "message 0 yields path 0 to each small message");
    // 3000 B: 1500 on path 1 before 3 ms, 100 more at 4 ms (arriving at 14.2 ms); path 0 carries
    // the other 1400, its last 400 after message 2, from 8 to 10 ms: done at 15 ms
    assert_eq!(out.bytes_on(PathId(1), StreamId(0)), 1_600);
    assert_ms(&out, 0, 15.0);
}

#[test]
fn the_priority_class_comes_before_the_size() {
    let urgent_big = Message { urgency: 1, critical_priority: Some(5), ..Message::new(0, 20_000) };
    let small = Message { urgency: 3, critical_priority: Some(0), ..Message::new(1, 2_000) };
    let messages = [urgent_big, small];
    let first = |options: &str| {
        let out = run_named(NAME, options, &fast_and_slow(), &messages, 1_000);
        if out.completion[&StreamId(0)] < out.completion[&StreamId(1)] { 0 } else { 1 }
    };
    assert_eq!(first(""), 0, "by urgency (the default) the more urgent big message goes first");
    assert_eq!(first("priority=urgency"), 0);
    assert_eq!(first("priority=critical-path"), 1, "by the graph's critical-path priority the small one is more critical");
    assert_eq!(first("priority=none"), 1, "without classes the shorter goes first");
}

#[test]
fn bad_options_are_refused() {
    let build = |o: &str| pagepath_multipath::build(NAME, &pagepath_multipath::Options::parse([o]).unwrap()).err();
    assert_eq!(build("priority=size").unwrap(), "scheduler option priority=size: expected urgency, critical-path or none");
    assert_eq!(build("beta=1").unwrap(), "scheduler srpt-ecf has no option beta; it takes priority");
}

/// Seed 000 §4.8.4: a message of unknown size is infinite: after every finite message of its
/// class, however little it has buffered, and worth any path. Here, on Fig 4.5's paths, the finite
/// 500 B message takes path 0; path 1 would only stretch its tail, so it goes to the 100 B of a
/// response whose size is unknown.
#[test]
fn a_stream_of_unknown_size_comes_last_but_takes_any_path() {
    use pagepath_multipath::{build, Context, Decision, Event, Options, StreamSnapshot};
    use std::time::Duration;
    let path = |id, one_way: f64, rate: u64, can_send| path_snapshot(id, 2.0 * one_way, rate as f64, 100_000, 0, can_send);
    let stream = |id, remaining, total| StreamSnapshot { total, ..stream_snapshot(id, remaining, 3) };
    let streams = [stream(1, 100, None), stream(0, 500, Some(500))];
    let mut s = build(NAME, &Options::default()).unwrap();
    let idle = [path(0, 5.0, 200_000, true), path(1, 10.0, 500_000, true)];
    assert_eq!(s.decide(&Context { now: Duration::ZERO, paths: &idle, streams: &streams }), Decision::on(PathId(0), Some(StreamId(0))));
    s.on_event(Duration::ZERO, &Event::Sent { path: PathId(0), stream: Some(StreamId(0)), bytes: 100 });
    let busy = [path(0, 5.0, 200_000, false), path(1, 10.0, 500_000, true)];
    let streams = [stream(1, 100, None), stream(0, 400, Some(500))];
    assert_eq!(s.decide(&Context { now: Duration::ZERO, paths: &busy, streams: &streams }), Decision::on(PathId(1), Some(StreamId(1))));
}
