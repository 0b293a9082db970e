//! The order and time in which one connection's responses go out, over virtual time (µs since
//! the server started), following the server models of seed 001 §3.7.6 (Figure 3.15) and the
//! prioritisation of §3.7.7.7. Each response first waits for its server processing delay; then
//! its bytes are handed out in chunks, in an order the model decides:
//!
//! - `Serial`: one worker per connection processes requests one after another, so a request
//!   waits for the processing of those before it (the serialisation delay S2 of Fig 3.15a);
//!   responses go out in request order.
//! - `Parallel`: every request is processed from its arrival, but responses still go out in
//!   request order, as HTTP/1.1 must: a slow response holds back ready ones behind it (the
//!   response queuing delay Q2 of Fig 3.15b).
//! - `OutOfOrder`: a framed protocol (HTTP/2, HTTP/3) sends whichever response is ready,
//!   choosing by priority among several. Priorities matter in this model only: the other two
//!   are first-in first-out by definition.
//!
//! Under `OutOfOrder`, without preemption a response that has started goes out to its end before
//! another starts; with preemption every chunk goes to the best ready response, as H2O schedules
//! per chunk. Ready responses of the best (urgency, rank) that are all incremental (RFC 9218)
//! share the connection round-robin, chunk by chunk.
//!
//! Virtual time in, chunks out: no clock and no I/O, so the same inputs give the same schedule.

use serde::Serialize;

use super::priority::Priority;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerModel {
    Serial,
    Parallel,
    OutOfOrder,
}

#[derive(Clone, Copy, Debug)]
pub struct ScheduleConfig {
    pub model: ServerModel,
    /// Under `OutOfOrder`: a more urgent response may interrupt one that has started.
    pub preemption: bool,
    /// The most bytes in one chunk; 0 hands out each response whole.
    pub chunk_bytes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub stream: u64,
    pub offset: u64,
    pub len: u64,
    /// Send the response headers before these bytes.
    pub first: bool,
    /// End the stream after them.
    pub last: bool,
}

/// What happened to one response, for the run's timeline.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamTimes {
    pub stream: u64,
    pub arrival_us: u64,
    pub processing_start_us: u64,
    pub ready_us: u64,
    pub first_chunk_us: Option<u64>,
    pub last_chunk_us: Option<u64>,
    /// Bytes of body handed out.
    pub bytes: u64,
    pub cancelled: bool,
}

/// A response not yet fully handed out.
struct Response {
    stream: u64,
    /// Arrival order on the connection, for round-robin and ties.
    sequence: u64,
    arrival_us: u64,
    delay_us: u64,
    processing_start_us: u64,
    ready_us: u64,
    body_len: u64,
    sent: u64,
    priority: Priority,
    first_chunk_us: Option<u64>,
    /// `next_chunk` has run since the response became ready, so its readiness is no news.
    readiness_seen: bool,
}

impl Response {
    fn times(&self, last_chunk_us: Option<u64>, cancelled: bool) -> StreamTimes {
        StreamTimes {
            stream: self.stream,
            arrival_us: self.arrival_us,
            processing_start_us: self.processing_start_us,
            ready_us: self.ready_us,
            first_chunk_us: self.first_chunk_us,
            last_chunk_us,
            bytes: self.sent,
            cancelled,
        }
    }

    /// The order in which ready responses are preferred: priority, then first ready, then first
    /// asked for.
    fn preference(&self) -> (u8, i64, u64, u64) {
        (
            self.priority.urgency,
            self.priority.rank,
            self.ready_us,
            self.sequence,
        )
    }
}

pub struct ConnectionSchedule {
    config: ScheduleConfig,
    /// In arrival order.
    responses: Vec<Response>,
    next_sequence: u64,
    /// `Serial`: when the worker finishes the processing it has been given.
    worker_free_us: u64,
    /// The response that had the last chunk, where round-robin continues from.
    last_served_sequence: Option<u64>,
    finished: Vec<StreamTimes>,
}

impl ConnectionSchedule {
    pub fn new(config: ScheduleConfig) -> Self {
        ConnectionSchedule {
            config,
            responses: Vec::new(),
            next_sequence: 0,
            worker_free_us: 0,
            last_served_sequence: None,
            finished: Vec::new(),
        }
    }

    /// A request on `stream` (unique on the connection) arrived at `now_us`; its response takes
    /// `delay_us` of processing and has `body_len` bytes of body.
    pub fn on_request(
        &mut self,
        now_us: u64,
        stream: u64,
        delay_us: u64,
        body_len: u64,
        priority: Priority,
    ) {
        debug_assert!(
            self.responses.iter().all(|r| r.stream != stream),
            "stream {stream} asked for twice"
        );
        let processing_start_us = match self.config.model {
            ServerModel::Serial => now_us.max(self.worker_free_us),
            ServerModel::Parallel | ServerModel::OutOfOrder => now_us,
        };
        let ready_us = processing_start_us + delay_us;
        if self.config.model == ServerModel::Serial {
            self.worker_free_us = ready_us;
        }
        self.responses.push(Response {
            stream,
            sequence: self.next_sequence,
            arrival_us: now_us,
            delay_us,
            processing_start_us,
            ready_us,
            body_len,
            sent: 0,
            priority,
            first_chunk_us: None,
            readiness_seen: false,
        });
        self.next_sequence += 1;
    }

    /// The client reset `stream`: nothing more of it is sent and those queued behind it move up.
    /// A serial worker finishes processing it has begun (a server notices a reset only when it
    /// next writes), but work not yet begun is dropped, so later requests start earlier.
    pub fn on_cancel(&mut self, now_us: u64, stream: u64) {
        let Some(index) = self.responses.iter().position(|r| r.stream == stream) else {
            return;
        };
        let cancelled = self.responses.remove(index);
        if self.config.model == ServerModel::Serial && cancelled.processing_start_us > now_us {
            // Those behind it had not begun either; each now starts when the one before ends,
            // the first of them where the cancelled one would have started.
            let mut free_us = cancelled.processing_start_us;
            for later in &mut self.responses[index..] {
                later.processing_start_us = later.arrival_us.max(free_us);
                later.ready_us = later.processing_start_us + later.delay_us;
                free_us = later.ready_us;
            }
            self.worker_free_us = free_us;
        }
        self.finished.push(cancelled.times(None, true));
    }

    /// The earliest processing end that `next_chunk` has not yet seen, or None if there is none
    /// to wait for. It is in the past when a response became ready since `next_chunk` last ran:
    /// then `next_chunk` should run at once.
    pub fn next_timeout(&self) -> Option<u64> {
        let unseen = |r: &&Response| !r.readiness_seen;
        match self.config.model {
            // Only the oldest response can go next, so only its readiness is news.
            ServerModel::Serial | ServerModel::Parallel => {
                self.responses.first().filter(unseen).map(|r| r.ready_us)
            }
            ServerModel::OutOfOrder => self
                .responses
                .iter()
                .filter(unseen)
                .map(|r| r.ready_us)
                .min(),
        }
    }

    /// The next chunk to send at `now_us`, or None if no response may send yet.
    pub fn next_chunk(&mut self, now_us: u64) -> Option<Chunk> {
        for response in &mut self.responses {
            response.readiness_seen |= response.ready_us <= now_us;
        }
        let index = match self.config.model {
            ServerModel::Serial | ServerModel::Parallel => self
                .responses
                .first()
                .is_some_and(|r| r.readiness_seen)
                .then_some(0),
            ServerModel::OutOfOrder => self.choose_out_of_order(),
        }?;
        Some(self.hand_out(index, now_us))
    }

    /// Responses whose last chunk was handed out, or that were cancelled, since the last call.
    pub fn take_finished(&mut self) -> Vec<StreamTimes> {
        std::mem::take(&mut self.finished)
    }

    /// Responses not yet fully handed out (cancelled ones excluded).
    pub fn pending(&self) -> usize {
        self.responses.len()
    }

    /// Among ready responses (readiness already marked), the index of the one to send from.
    fn choose_out_of_order(&self) -> Option<usize> {
        let ready = |r: &Response| r.readiness_seen;
        // Without preemption whatever has started goes on; only round-robin partners (below)
        // can start beside it.
        let started = (!self.config.preemption)
            .then(|| {
                self.responses
                    .iter()
                    .position(|r| r.first_chunk_us.is_some())
            })
            .flatten();
        let leader = started.or_else(|| {
            (0..self.responses.len())
                .filter(|&i| ready(&self.responses[i]))
                .min_by_key(|&i| self.responses[i].preference())
        })?;
        let lead = &self.responses[leader].priority;
        if !lead.incremental {
            return Some(leader);
        }
        let partners: Vec<usize> = (0..self.responses.len())
            .filter(|&i| {
                let r = &self.responses[i];
                ready(r)
                    && r.priority.incremental
                    && (r.priority.urgency, r.priority.rank) == (lead.urgency, lead.rank)
            })
            .collect();
        // Round-robin in arrival order: the first partner after the last one served, else wrap.
        let after_last = |&i: &usize| Some(self.responses[i].sequence) > self.last_served_sequence;
        partners
            .iter()
            .copied()
            .find(after_last)
            .or(partners.first().copied())
    }

    fn hand_out(&mut self, index: usize, now_us: u64) -> Chunk {
        let response = &mut self.responses[index];
        let remaining = response.body_len - response.sent;
        let len = match self.config.chunk_bytes {
            0 => remaining,
            most => remaining.min(most),
        };
        let chunk = Chunk {
            stream: response.stream,
            offset: response.sent,
            len,
            first: response.first_chunk_us.is_none(),
            last: len == remaining,
        };
        response.first_chunk_us.get_or_insert(now_us);
        response.sent += len;
        self.last_served_sequence = Some(response.sequence);
        if chunk.last {
            let done = self.responses.remove(index);
            self.finished.push(done.times(Some(now_us), false));
        }
        chunk
    }
}
