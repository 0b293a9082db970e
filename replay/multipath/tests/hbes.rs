//! Seed 004 §3.1.2's Head-of-line-Blocking Eliminating Scheduler: PSM's tokens, SAPS's arrival times.
mod common;

use std::time::Duration;

use common::*;
use pagepath_multipath::ideal_paths::{Message, ModelPath};
use pagepath_multipath::schedulers::hbes::{estimate_arrival, Hbes};
use pagepath_multipath::schedulers::fair::parse_weights;
use pagepath_multipath::{build, Context, Decision, Event, Options, PathId, Scheduler, StreamId};

const NAME: &str = "hbes";

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

// SAPS by hand on the fast_and_slow paths (10 Mbit/s 20 ms RTT, 2 Mbit/s 100 ms), 1 200 B
// packets: on the slow path a packet arrives after 1 200 / 250 000 s + 50 ms = 54.8 ms; on the
// fast one behind q buffered bytes after (q + 1 200) / 1 250 000 s + 10 ms, which stays at or
// under 54.8 ms up to q = 54 000 (54.16 ms) and passes it at q = 55 200 (55.12 ms). So with the
// fast path's window full, packets 1-46 of a 200 KB stream queue for the fast path (55 200 B)
// and the 47th goes on the slow path, which can send.
#[test]
fn each_packet_goes_to_the_path_where_it_would_arrive_first() {
    let fast = path_snapshot(0, 20.0, 1_250_000.0, 25_000, 25_000, false);
    let slow = path_snapshot(1, 100.0, 250_000.0, 25_000, 0, true);
    assert!((millis(estimate_arrival(&slow, 0, 1_200)) - 54.8).abs() < 1e-6);
    assert!((millis(estimate_arrival(&fast, 54_000, 1_200)) - 54.16).abs() < 1e-6);
    assert!((millis(estimate_arrival(&fast, 55_200, 1_200)) - 55.12).abs() < 1e-6);

    let mut hbes = Hbes::new(parse_weights(None).unwrap(), 1_200);
    let streams = [stream_snapshot(0, 200_000, 3)];
    let decide = |h: &mut Hbes, paths: &[pagepath_multipath::PathSnapshot], streams: &[pagepath_multipath::StreamSnapshot]| h.decide(&Context { now: Duration::ZERO, paths, streams });
    assert_eq!(decide(&mut hbes, &[fast.clone(), slow.clone()], &streams), Decision::on(PathId(1), Some(StreamId(0))));
    assert_eq!(hbes.buffered(PathId(0)), 46 * 1_200);
    hbes.on_event(Duration::ZERO, &Event::Sent { path: PathId(1), stream: Some(StreamId(0)), bytes: 1_200 });
    assert_eq!(hbes.buffered(PathId(1)), 0);

    // the slow path's empty buffer still wins (54.8 ms against 55.12), the fast one's stays put
    let streams = [stream_snapshot(0, 198_800, 3)];
    let mut slow_busy = slow.clone();
    slow_busy.bytes_in_flight = 1_200;
    assert_eq!(decide(&mut hbes, &[fast.clone(), slow_busy.clone()], &streams), Decision::on(PathId(1), Some(StreamId(0))));
    assert_eq!(hbes.buffered(PathId(0)), 46 * 1_200);
    hbes.on_event(Duration::ZERO, &Event::Sent { path: PathId(1), stream: Some(StreamId(0)), bytes: 1_200 });

    // when the fast path's window opens it sends the oldest bytes of its own buffer
    let mut fast_open = fast.clone();
    fast_open.can_send = true;
    slow_busy.can_send = false;
    let streams = [stream_snapshot(0, 197_600, 3)];
    assert_eq!(decide(&mut hbes, &[fast_open, slow_busy], &streams), Decision::on(PathId(0), Some(StreamId(0))));
    assert_eq!(hbes.buffered(PathId(0)), 46 * 1_200, "sending it is the transport's, told back by Sent");
}

// On the model: 10 KB arrives sooner on the fast path packet by packet, so it all goes there
// (18 ms); 200 KB queues on the fast path until the slow one is earlier: 25 packets go on the fast
// path's open window, the 26th on the slow path, which then takes its whole window (25 packets at
// 54-150 ms), and the transfer ends at 154.8 ms, against 190 ms for lowest-RTT.
#[test]
fn a_small_stream_stays_on_the_fast_path_and_a_large_one_spills_onto_the_slow_one() {
    let paths = fast_and_slow();
    let small = [Message::new(0, 10_000)];
    let out = run_named(NAME, "packet=1000", &paths, &small, 1_000);
    assert_eq!(out.bytes_on(PathId(1), StreamId(0)), 0);
    assert!((out.completion_ms(&small)[0] - 18.0).abs() < 1e-6);

    let large = [Message::new(0, 200_000)];
    let out = run_named(NAME, "packet=1000", &paths, &large, 1_000);
    let first_slow = out.chunks.iter().position(|c| c.path == PathId(1)).unwrap();
    assert_eq!(first_slow, 25, "the slow path's first packet follows the fast path's window");
    assert_eq!((out.bytes_on(PathId(0), StreamId(0)), out.bytes_on(PathId(1), StreamId(0))), (175_000, 25_000));
    let done = out.completion_ms(&large)[0];
    let lowest_rtt = run_named("lowest-rtt", "", &paths, &large, 1_000).completion_ms(&large)[0];
    assert!((done - 154.8).abs() < 1e-6 && done < lowest_rtt, "{done} ms, lowest-RTT {lowest_rtt} ms");
}

/// One path, so that packets leave in the order PSM hands them out.
fn one_path() -> Vec<ModelPath> {
    vec![ModelPath { one_way: ms(10.0), rate: 1_250_000.0, cwnd: Some(25_000) }]
}

fn order(options: &str, messages: &[Message], n: usize) -> Vec<u64> {
    run_named(NAME, options, &one_path(), messages, 1_000).chunks.iter().take(n).map(|c| c.stream.0).collect()
}

fn urgent_and_default() -> [Message; 2] {
    [Message { urgency: 0, ..Message::new(0, 100_000) }, Message { urgency: 3, ..Message::new(4, 100_000) }]
}

// PSM: default weights 8 - u give urgency 0 eight tokens a round and urgency 3 five (their gcd is
// 1); the round is scattered, a packet each in turn until one runs out: 0 4 0 4 0 4 0 4 0 4 0 0 0.
#[test]
fn tokens_per_round_follow_the_priorities_and_are_scattered() {
    let round = [0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 0, 0];
    let got = order("packet=1000", &urgent_and_default(), 26);
    assert_eq!(got, [round, round].concat());
    // over 130 packets (10 rounds) 80 and 50
    let got = order("packet=1000", &urgent_and_default(), 130);
    assert_eq!((got.iter().filter(|s| **s == 0).count(), got.iter().filter(|s| **s == 4).count()), (80, 50));
}

// The seed's example: weights 128 and 32 are rescaled to permits of 4 and 1 (divided by their gcd).
#[test]
fn weights_are_rescaled_to_tokens_as_in_the_seed_example() {
    let round = [0, 4, 0, 0, 0];
    let got = order("packet=1000,weights=0:128/3:32", &urgent_and_default(), 15);
    assert_eq!(got, [round, round, round].concat());
    let mut hbes = Hbes::new(parse_weights(Some("0:128/3:32")).unwrap(), 1_000);
    let paths = [path_snapshot(0, 20.0, 1_250_000.0, 25_000, 0, true)];
    let streams = [stream_snapshot(0, 100_000, 0), stream_snapshot(4, 100_000, 3)];
    hbes.decide(&Context { now: Duration::ZERO, paths: &paths, streams: &streams });
    assert_eq!((hbes.tokens(StreamId(0)), hbes.tokens(StreamId(4))), (3, 1), "the first packet took one of stream 0's 4 tokens");
}

#[test]
fn options_are_checked() {
    let opts = |s: &str| Options::parse([s]).unwrap();
    assert!(build(NAME, &opts("packet=1350,weights=0:4/3:1")).is_ok());
    assert_eq!(build(NAME, &opts("packet=0")).err().unwrap(), "scheduler option packet=0: expected a number from 1 to 65536");
    assert!(build(NAME, &opts("quantum=1")).err().unwrap().starts_with("scheduler hbes has no option quantum"));
}
