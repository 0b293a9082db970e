mod common;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::{PathId, StreamId};

#[test]
fn starts_on_the_lowest_rtt_path_and_takes_the_other_only_while_it_is_full() {
    let paths = fast_and_slow();
    let out = run_named("lowest-rtt", "", &paths, &[Message::new(0, 200_000)], 1_000);
    assert_eq!(out.chunks[0].path, PathId(0), "the first packet goes on the 20 ms path");
    // the slow path is used only at instants the fast one's window was full
    for c in out.chunks.iter().filter(|c| c.path == PathId(1)) {
        let in_flight: u64 = out.chunks.iter().filter(|f| f.path == PathId(0) && f.sent <= c.sent && c.sent < f.arrives + ms(10.0)).map(|f| f.bytes).sum();
        assert!(in_flight + 1_000 > 25_000, "a packet went on the slow path at {:?} with {in_flight} bytes in flight on the fast one", c.sent);
    }
    assert!(out.bytes_on(PathId(1), StreamId(0)) > 0, "a 200 KB message overflows the fast path's window onto the slow one");
}

#[test]
fn a_small_message_stays_on_the_fast_path() {
    let out = run_named("lowest-rtt", "", &fast_and_slow(), &[Message::new(0, 10_000)], 1_000);
    assert_eq!(out.bytes_on(PathId(1), StreamId(0)), 0);
    // 10 KB at 10 Mbit/s is 8 ms, plus 10 ms of latency
    let done = out.completion[&StreamId(0)].as_secs_f64() * 1e3;
    assert!((done - 18.0).abs() < 1e-6, "{done} ms");
}

#[test]
fn unknown_options_and_names_are_refused_with_what_there_is() {
    let e = pagepath_multipath::build("lowest-rtt", &pagepath_multipath::Options::parse(["beta=1"]).unwrap()).err().unwrap();
    assert_eq!(e, "scheduler lowest-rtt takes no options, got beta");
    let e = pagepath_multipath::build("fastest", &pagepath_multipath::Options::default()).err().unwrap();
    assert!(e.starts_with("no scheduler fastest; the schedulers are lowest-rtt"), "{e}");
}
