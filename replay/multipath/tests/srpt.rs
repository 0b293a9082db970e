mod common;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::{PathId, StreamId};

fn done_ms(out: &pagepath_multipath::ideal_paths::Outcome, id: u64) -> f64 {
    out.completion[&StreamId(id)].as_secs_f64() * 1e3
}

#[test]
fn the_message_with_the_fewest_bytes_left_goes_first_where_fcfs_takes_them_in_order() {
    let messages = [Message::new(0, 30_000), Message::new(1, 10_000), Message::new(2, 20_000)];
    let srpt = run_named("srpt", "", &fast_and_slow(), &messages, 1_000);
    assert!(done_ms(&srpt, 1) < done_ms(&srpt, 2) && done_ms(&srpt, 2) < done_ms(&srpt, 0), "{:?}", srpt.completion);
    let fcfs = run_named("lowest-rtt", "", &fast_and_slow(), &messages, 1_000);
    assert!(done_ms(&fcfs, 0) < done_ms(&fcfs, 1), "FCFS serves the first message first: {:?}", fcfs.completion);
    // Paths as lowest-RTT takes them: the first packet on the 20 ms path.
    assert_eq!(srpt.chunks[0].path, PathId(0));
}

#[test]
fn a_stream_of_unknown_size_waits_behind_every_sized_one() {
    let mut s = pagepath_multipath::build("srpt", &pagepath_multipath::Options::default()).unwrap();
    let unknown = pagepath_multipath::StreamSnapshot { total: None, ..stream_snapshot(0, 100, 3) };
    let streams = [unknown, stream_snapshot(1, 50_000, 3)];
    let paths = [path_snapshot(0, 20.0, 1e6, 30_000, 0, true)];
    let d = s.decide(&pagepath_multipath::Context { now: ms(0.0), paths: &paths, streams: &streams });
    assert_eq!(d.stream, Some(StreamId(1)));
}
