//! Figure 3.15's server models, cancellation, chunking and timeouts.

use super::*;

/// Figure 3.15: three pipelined requests R1, R2, R3 (streams 1, 3, 5) arriving at 0, 1 and 2 ms
/// with processing times of 30, 10 and 20 ms, 10 kB each.
fn figure_3_15() -> Vec<Request> {
    vec![
        request(0, 1, 30 * MS, 10_000),
        request(MS, 3, 10 * MS, 10_000),
        request(2 * MS, 5, 20 * MS, 10_000),
    ]
}

#[test]
fn serial_processes_one_request_after_another() {
    let (sent, finished) = drive(config(ServerModel::Serial, false), &figure_3_15(), &[], 0);
    assert_eq!(
        timeline(&finished),
        [
            (1, 0, 30 * MS, Some(30 * MS), Some(30 * MS)),
            // S2: R2 arrived at 1 ms but waits for R1's processing to end at 30 ms.
            (3, 30 * MS, 40 * MS, Some(40 * MS), Some(40 * MS)),
            (5, 40 * MS, 60 * MS, Some(60 * MS), Some(60 * MS)),
        ]
    );
    assert_eq!(sent.len(), 30);
    let r1: Vec<(u64, bool, bool)> = sent[..10]
        .iter()
        .map(|(_, c)| (c.offset, c.first, c.last))
        .collect();
    assert_eq!(r1[0], (0, true, false));
    assert_eq!(r1[5], (5000, false, false));
    assert_eq!(r1[9], (9000, false, true));
    assert!(sent.iter().all(|(_, c)| c.len == 1000));
    assert!(finished.iter().all(|t| t.bytes == 10_000 && !t.cancelled));
}

#[test]
fn parallel_processes_at_once_but_answers_in_order() {
    let (_, finished) = drive(config(ServerModel::Parallel, false), &figure_3_15(), &[], 0);
    assert_eq!(
        timeline(&finished),
        [
            (1, 0, 30 * MS, Some(30 * MS), Some(30 * MS)),
            // Q2: ready at 11 ms, queued behind R1 until 30 ms.
            (3, MS, 11 * MS, Some(30 * MS), Some(30 * MS)),
            (5, 2 * MS, 22 * MS, Some(30 * MS), Some(30 * MS)),
        ]
    );
}

#[test]
fn out_of_order_answers_whatever_is_ready() {
    let (_, finished) = drive(
        config(ServerModel::OutOfOrder, false),
        &figure_3_15(),
        &[],
        0,
    );
    assert_eq!(
        timeline(&finished),
        [
            (3, MS, 11 * MS, Some(11 * MS), Some(11 * MS)),
            (5, 2 * MS, 22 * MS, Some(22 * MS), Some(22 * MS)),
            (1, 0, 30 * MS, Some(30 * MS), Some(30 * MS)),
        ]
    );
}

#[test]
fn server_models_on_a_link_that_takes_10_ms_per_response() {
    let ends = |model| {
        let (_, finished) = drive(config(model, false), &figure_3_15(), &[], 1);
        finished
            .iter()
            .map(|t| {
                (
                    t.stream,
                    t.first_chunk_us.unwrap(),
                    t.last_chunk_us.unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    // The last chunk is handed out 9 ms after the first: 1 µs per byte, 1 kB chunks.
    assert_eq!(
        ends(ServerModel::Serial),
        [
            (1, 30 * MS, 39 * MS),
            (3, 40 * MS, 49 * MS),
            (5, 60 * MS, 69 * MS)
        ]
    );
    assert_eq!(
        ends(ServerModel::Parallel),
        [
            (1, 30 * MS, 39 * MS),
            (3, 40 * MS, 49 * MS),
            (5, 50 * MS, 59 * MS)
        ]
    );
    // R1 is ready at 30 ms while R3 is going out; it waits for R3's end at 32 ms.
    assert_eq!(
        ends(ServerModel::OutOfOrder),
        [
            (3, 11 * MS, 20 * MS),
            (5, 22 * MS, 31 * MS),
            (1, 32 * MS, 41 * MS)
        ]
    );
}

#[test]
fn cancelling_the_head_of_a_fifo_lets_the_next_go() {
    let requests = [request(0, 1, 30 * MS, 1000), request(0, 3, 5 * MS, 1000)];
    let (sent, finished) = drive(
        config(ServerModel::Parallel, false),
        &requests,
        &[(10 * MS, 1)],
        0,
    );
    assert_eq!(
        sent,
        [(
            10 * MS,
            Chunk {
                stream: 3,
                offset: 0,
                len: 1000,
                first: true,
                last: true
            }
        )]
    );
    let summary: Vec<(u64, bool, u64, Option<u64>)> = finished
        .iter()
        .map(|t| (t.stream, t.cancelled, t.bytes, t.last_chunk_us))
        .collect();
    assert_eq!(
        summary,
        [(1, true, 0, None), (3, false, 1000, Some(10 * MS))]
    );
}

#[test]
fn a_serial_worker_drops_cancelled_work_it_has_not_begun() {
    let requests = [
        request(0, 1, 30 * MS, 0),
        request(MS, 3, 10 * MS, 0),
        request(2 * MS, 5, 10 * MS, 0),
    ];
    let ready = |cancels: &[(u64, u64)]| {
        let (_, finished) = drive(config(ServerModel::Serial, false), &requests, cancels, 0);
        finished
            .iter()
            .filter(|t| !t.cancelled)
            .map(|t| (t.stream, t.ready_us))
            .collect::<Vec<_>>()
    };
    assert_eq!(ready(&[]), [(1, 30 * MS), (3, 40 * MS), (5, 50 * MS)]);
    // R2 was still queued: R3 takes its place.
    assert_eq!(ready(&[(5 * MS, 3)]), [(1, 30 * MS), (5, 40 * MS)]);
    // R1 was being processed: the worker finishes it, so R2 and R3 keep their times.
    assert_eq!(ready(&[(5 * MS, 1)]), [(3, 40 * MS), (5, 50 * MS)]);
}

#[test]
fn a_cancel_mid_transfer_stops_the_stream() {
    let (sent, finished) = drive(
        config(ServerModel::OutOfOrder, false),
        &[request(0, 1, 0, 5000)],
        &[(2500, 1)],
        1,
    );
    assert_eq!(sent.len(), 3);
    assert_eq!(
        (
            finished[0].bytes,
            finished[0].cancelled,
            finished[0].first_chunk_us
        ),
        (3000, true, Some(0))
    );
}

#[test]
fn empty_bodies_are_one_empty_chunk_and_chunk_bytes_0_sends_whole_responses() {
    let (sent, _) = drive(
        config(ServerModel::Serial, false),
        &[request(0, 1, 0, 0)],
        &[],
        0,
    );
    assert_eq!(
        sent,
        [(
            0,
            Chunk {
                stream: 1,
                offset: 0,
                len: 0,
                first: true,
                last: true
            }
        )]
    );
    let whole = ScheduleConfig {
        chunk_bytes: 0,
        ..config(ServerModel::OutOfOrder, true)
    };
    let (sent, _) = drive(whole, &[request(0, 1, 0, 123_456)], &[], 0);
    assert_eq!(
        sent,
        [(
            0,
            Chunk {
                stream: 1,
                offset: 0,
                len: 123_456,
                first: true,
                last: true
            }
        )]
    );
}

#[test]
fn timeouts_name_the_next_readiness_that_can_matter() {
    let mut schedule = ConnectionSchedule::new(config(ServerModel::Parallel, false));
    assert_eq!(schedule.next_timeout(), None);
    schedule.on_request(0, 1, 30 * MS, 100, Priority::default());
    schedule.on_request(MS, 3, 10 * MS, 100, Priority::default());
    assert_eq!(schedule.next_timeout(), Some(30 * MS));
    assert_eq!(schedule.next_chunk(20 * MS), None);
    assert_eq!(
        schedule.next_timeout(),
        Some(30 * MS),
        "the ready R2 cannot go before R1"
    );
    assert!(schedule
        .next_chunk(30 * MS)
        .is_some_and(|c| c.stream == 1 && c.last));
    assert!(schedule
        .next_chunk(30 * MS)
        .is_some_and(|c| c.stream == 3 && c.last));
    assert_eq!((schedule.next_timeout(), schedule.pending()), (None, 0));

    let mut schedule = ConnectionSchedule::new(config(ServerModel::OutOfOrder, false));
    schedule.on_request(0, 1, 30 * MS, 100, Priority::default());
    schedule.on_request(MS, 3, 10 * MS, 100, Priority::default());
    assert_eq!(schedule.next_timeout(), Some(11 * MS));
    assert_eq!(schedule.next_chunk(5 * MS), None);
    // A response ready the moment it arrives is news even at an instant already polled.
    schedule.on_request(5 * MS, 5, 0, 100, Priority::default());
    assert_eq!(schedule.next_timeout(), Some(5 * MS));
    assert!(schedule.next_chunk(5 * MS).is_some_and(|c| c.stream == 5));
    assert_eq!(
        (schedule.next_timeout(), schedule.pending()),
        (Some(11 * MS), 2)
    );
}
