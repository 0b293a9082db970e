//! The response scheduler, driven as an I/O loop would drive it over virtual time.

mod models;
mod priorities;

use crate::core::priority::Priority;
use crate::core::schedule::*;

const MS: u64 = 1000;

struct Request {
    at_us: u64,
    stream: u64,
    delay_us: u64,
    body_len: u64,
    priority: Priority,
}

fn request(at_us: u64, stream: u64, delay_us: u64, body_len: u64) -> Request {
    Request {
        at_us,
        stream,
        delay_us,
        body_len,
        priority: Priority::default(),
    }
}

fn urgent(urgency: u8, incremental: bool, request: Request) -> Request {
    Request {
        priority: Priority {
            urgency,
            rank: 0,
            incremental,
        },
        ..request
    }
}

fn config(model: ServerModel, preemption: bool) -> ScheduleConfig {
    ScheduleConfig {
        model,
        preemption,
        chunk_bytes: 1000,
    }
}

/// Plays requests and cancels (at_us, stream) against a schedule as an I/O loop would: take a
/// chunk whenever one is available, spending `us_per_byte` sending it, else sleep until the next
/// timeout or arrival. Returns every chunk with the time it was handed out, and what finished.
fn drive(
    config: ScheduleConfig,
    requests: &[Request],
    cancels: &[(u64, u64)],
    us_per_byte: u64,
) -> (Vec<(u64, Chunk)>, Vec<StreamTimes>) {
    let mut schedule = ConnectionSchedule::new(config);
    let (mut now, mut next_request, mut next_cancel) = (0, 0, 0);
    let mut sent = Vec::new();
    loop {
        // What arrived while a chunk was being written is handed over with its own time.
        while let Some(r) = requests.get(next_request).filter(|r| r.at_us <= now) {
            schedule.on_request(r.at_us, r.stream, r.delay_us, r.body_len, r.priority);
            next_request += 1;
        }
        while let Some(&(at_us, stream)) = cancels.get(next_cancel).filter(|c| c.0 <= now) {
            schedule.on_cancel(at_us, stream);
            next_cancel += 1;
        }
        if let Some(chunk) = schedule.next_chunk(now) {
            sent.push((now, chunk));
            now += chunk.len * us_per_byte;
            continue;
        }
        let timeout = schedule.next_timeout();
        assert!(
            timeout.is_none_or(|t| t > now),
            "next_timeout {timeout:?} at {now} would spin"
        );
        let wake = [
            timeout,
            requests.get(next_request).map(|r| r.at_us),
            cancels.get(next_cancel).map(|c| c.0),
        ];
        match wake.into_iter().flatten().min() {
            Some(at) => now = at,
            None => break,
        }
    }
    assert_eq!(schedule.pending(), 0);
    (sent, schedule.take_finished())
}

/// (stream, processing start, ready, first chunk, last chunk).
type Timeline = (u64, u64, u64, Option<u64>, Option<u64>);

/// Each stream's timeline, in the order streams finished.
fn timeline(finished: &[StreamTimes]) -> Vec<Timeline> {
    finished
        .iter()
        .map(|t| {
            (
                t.stream,
                t.processing_start_us,
                t.ready_us,
                t.first_chunk_us,
                t.last_chunk_us,
            )
        })
        .collect()
}
