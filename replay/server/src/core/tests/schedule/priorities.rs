//! Which ready response goes first under the out-of-order model (seed 001 §3.7.7.7).

use super::*;

/// A 100 kB response of low urgency ready at once, and a 2 kB urgent one ready at 11 ms.
fn big_then_urgent() -> Vec<Request> {
    vec![
        urgent(5, false, request(0, 1, 0, 100_000)),
        urgent(0, false, request(MS, 3, 10 * MS, 2000)),
    ]
}

#[test]
fn without_preemption_a_started_response_goes_out_whole() {
    let (sent, finished) = drive(
        config(ServerModel::OutOfOrder, false),
        &big_then_urgent(),
        &[],
        1,
    );
    assert_eq!(
        timeline(&finished),
        [
            (1, 0, 0, Some(0), Some(99 * MS)),
            (3, MS, 11 * MS, Some(100 * MS), Some(101 * MS))
        ]
    );
    assert!(sent[..100].iter().all(|(_, c)| c.stream == 1));
}

#[test]
fn with_preemption_an_urgent_response_takes_over_at_the_next_chunk() {
    let (sent, finished) = drive(
        config(ServerModel::OutOfOrder, true),
        &big_then_urgent(),
        &[],
        1,
    );
    assert_eq!(
        timeline(&finished),
        [
            (3, MS, 11 * MS, Some(11 * MS), Some(12 * MS)),
            (1, 0, 0, Some(0), Some(101 * MS))
        ]
    );
    let around: Vec<(u64, u64, u64, bool)> = sent[10..14]
        .iter()
        .map(|&(at, c)| (at, c.stream, c.offset, c.first))
        .collect();
    // The big one's 11th chunk went at 10 ms; the urgent one's two at 11 and 12; then the big one
    // resumes where it stopped, without headers again.
    assert_eq!(
        around,
        [
            (10 * MS, 1, 10_000, false),
            (11 * MS, 3, 0, true),
            (12 * MS, 3, 1000, false),
            (13 * MS, 1, 11_000, false)
        ]
    );
}

fn stream_order(sent: &[(u64, Chunk)]) -> Vec<u64> {
    sent.iter().map(|(_, c)| c.stream).collect()
}

#[test]
fn incremental_responses_of_one_urgency_take_turns() {
    let requests = || {
        vec![
            urgent(3, true, request(0, 1, 0, 3000)),
            urgent(3, true, request(0, 3, 0, 3000)),
            request(0, 5, 0, 3000),
        ]
    };
    for preemption in [false, true] {
        let (sent, _) = drive(
            config(ServerModel::OutOfOrder, preemption),
            &requests(),
            &[],
            0,
        );
        assert_eq!(
            stream_order(&sent),
            [1, 3, 1, 3, 1, 3, 5, 5, 5],
            "preemption {preemption}"
        );
    }
    let not_incremental = [
        request(0, 1, 0, 3000),
        request(0, 3, 0, 3000),
        request(0, 5, 0, 3000),
    ];
    let (sent, _) = drive(
        config(ServerModel::OutOfOrder, true),
        &not_incremental,
        &[],
        0,
    );
    assert_eq!(stream_order(&sent), [1, 1, 1, 3, 3, 3, 5, 5, 5]);
}

#[test]
fn priorities_do_not_reorder_a_fifo() {
    let requests = [
        urgent(7, false, request(0, 1, 0, 1000)),
        urgent(0, false, request(0, 3, 0, 1000)),
    ];
    let (sent, _) = drive(config(ServerModel::Parallel, true), &requests, &[], 0);
    assert_eq!(stream_order(&sent), [1, 3]);
    let (sent, _) = drive(config(ServerModel::OutOfOrder, true), &requests, &[], 0);
    assert_eq!(stream_order(&sent), [3, 1]);
}
