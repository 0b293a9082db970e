mod common;

use common::*;
use pagepath_multipath::ideal_paths::Message;
use pagepath_multipath::{PathId, StreamId};

#[test]
fn each_chunk_goes_on_both_paths_and_completes_with_the_faster_copy() {
    // 20 KB fits both 25 KB windows, so every chunk can go on both paths at once
    let message = [Message::new(0, 20_000)];
    let out = run_named("redundant", "", &fast_and_slow(), &message, 1_000);
    assert_eq!(out.chunks.len(), 40);
    for pair in out.chunks.chunks(2) {
        assert_eq!((pair[0].path, pair[1].path), (PathId(0), PathId(1)));
        assert_eq!((pair[0].sent, pair[0].bytes), (pair[1].sent, pair[1].bytes), "the copies are the same packet");
    }
    let fast_last = out.chunks.iter().filter(|c| c.path == PathId(0)).map(|c| c.arrives).max().unwrap();
    let slow_last = out.chunks.iter().filter(|c| c.path == PathId(1)).map(|c| c.arrives).max().unwrap();
    assert_eq!(out.completion[&StreamId(0)], fast_last, "done when the fast copies are in");
    // 20 chunks of 0.8 ms plus 10 ms; the slow copies take 80 ms plus 50 ms
    assert_eq!((fast_last, slow_last), (ms(26.0), ms(130.0)));
}

#[test]
fn a_bulk_transfer_runs_at_the_fastest_paths_pace_with_copies_where_the_other_has_room() {
    let paths = fast_and_slow();
    let message = [Message::new(0, 200_000)];
    let out = run_named("redundant", "", &paths, &message, 1_000);
    assert_eq!(out.bytes_on(PathId(0), StreamId(0)), 200_000, "every byte on the fast path");
    // the slow path carries a copy of each packet sent while its window had room, and only those
    let mut copies = 0;
    for (i, c) in out.chunks.iter().enumerate().filter(|(_, c)| c.path == PathId(0)) {
        let copied = out.chunks.get(i + 1).is_some_and(|n| n.path == PathId(1) && n.sent == c.sent);
        let room = in_flight_before(&out, &paths, i, PathId(1)) + 1_000 <= 25_000;
        assert_eq!(copied, room, "chunk sent at {:?}", c.sent);
        copies += copied as u64;
    }
    assert_eq!(out.bytes_on(PathId(1), StreamId(0)), copies * 1_000);
    // never slower than the fast path on its own
    let alone = run_named("lowest-rtt", "", &paths[..1], &message, 1_000);
    assert_eq!(out.completion[&StreamId(0)], alone.completion[&StreamId(0)]);
}
