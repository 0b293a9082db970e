//! One HTTP/3 connection: its requests in, its schedule's chunks out, its logs at the end.

use super::budget::UnsentBudget;
use super::carried_paths::carried;
use super::paths::path_logs;
use super::request::{request_fields, RequestFields, Response};
use super::writer::{PendingChunk, Progress};
use crate::core::schedule::ConnectionSchedule;
use crate::io::stream_paths::written;
use crate::service::{ConnectionLog, RequestHead, Service, StreamLog};
use pagepath_tquic_scheduler::{Plugged, StreamFacts};
use std::collections::HashMap;
use tquic::h3::connection::{Http3Connection, Http3Priority};
use tquic::h3::{Http3Config, Http3Event};
use tquic::{Connection, Shutdown};

/// RFC 9114 error codes sent when the server gives up a request stream.
const H3_INTERNAL_ERROR: u64 = 0x102;
const H3_REQUEST_CANCELLED: u64 = 0x10c;
const H3_MESSAGE_ERROR: u64 = 0x10e;

pub(super) struct QuicConnection {
    id: u64,
    /// Index into `Service::origins()`.
    origin: usize,
    opened_us: u64,
    peer: String,
    h3: Option<Http3Connection>,
    schedule: ConnectionSchedule,
    /// By stream, until the schedule reports the stream finished.
    responses: HashMap<u64, Response>,
    pending: Option<PendingChunk>,
    requests: u64,
    budget: UnsentBudget,
    /// Body bytes written into each stream that tquic has not yet closed.
    stream_written: HashMap<u64, u64>,
    /// Request bodies are not part of a replay, but must be read for flow control to move.
    discard: Vec<u8>,
    /// Streams the schedule has finished whose log waits for tquic to close them, so that their
    /// `paths` count every packet, retransmissions included (a pagepath scheduler only).
    unlogged: HashMap<u64, StreamLog>,
    /// A pagepath scheduler that orders the streams itself drives the connection: the schedule
    /// then writes every ready response in, past the unsent budget, for it to choose from.
    transport_orders_streams: bool,
}

impl QuicConnection {
    pub(super) fn new(service: &Service, origin: usize, conn: &Connection) -> QuicConnection {
        let peer = conn.get_active_path().map(|p| p.remote_addr().to_string()).unwrap_or_default();
        QuicConnection {
            id: service.next_connection_id(),
            origin,
            opened_us: service.now_us(),
            peer,
            h3: None,
            schedule: service.new_schedule(),
            responses: HashMap::new(),
            pending: None,
            requests: 0,
            budget: UnsentBudget::default(),
            stream_written: HashMap::new(),
            discard: vec![0; 64 * 1024],
            unlogged: HashMap::new(),
            transport_orders_streams: false,
        }
    }

    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// Opens HTTP/3's control and QPACK streams once the handshake is done.
    pub(super) fn on_established(&mut self, conn: &mut Connection) {
        if self.h3.is_none() {
            match Http3Connection::new_with_quic_conn(conn, &Http3Config::default()) {
                Ok(h3) => self.h3 = Some(h3),
                Err(e) => {
                    let _ = conn.close(true, H3_INTERNAL_ERROR, format!("cannot start HTTP/3: {e}").as_bytes());
                }
            }
        }
    }

    /// Takes in whatever the peer's streams now carry: requests, cancellations, request bodies.
    pub(super) fn on_readable(&mut self, service: &Service, conn: &mut Connection) {
        let Some(h3) = self.h3.as_mut() else { return };
        let (mut arrived, mut reset) = (Vec::new(), Vec::new());
        loop {
            match h3.poll(conn) {
                Ok((stream, Http3Event::Headers { headers, .. })) => arrived.push((stream, request_fields(&headers))),
                Ok((stream, Http3Event::Data)) => while h3.recv_body(conn, stream, &mut self.discard).is_ok() {},
                Ok((stream, Http3Event::Reset(_))) => reset.push(stream),
                // A PRIORITY_UPDATE cannot reorder a schedule that has fixed each response's
                // priority at its request; FINISHED and GOAWAY need nothing from the server.
                Ok(_) => {}
                Err(_) => break,
            }
        }
        // Requests that arrive together count as simultaneous, in stream order: the order the
        // client sent them, which tquic's hash-ordered polling loses.
        arrived.sort_by_key(|(stream, _)| *stream);
        let now_us = service.now_us();
        for (stream, fields) in arrived {
            match fields {
                Some(fields) => self.on_request(service, conn, now_us, stream, fields),
                None => {
                    let _ = conn.stream_shutdown(stream, Shutdown::Write, H3_MESSAGE_ERROR);
                    let _ = conn.stream_shutdown(stream, Shutdown::Read, H3_MESSAGE_ERROR);
                }
            }
        }
        for stream in reset {
            self.give_up(service, conn, stream, H3_REQUEST_CANCELLED);
        }
    }

    fn on_request(&mut self, service: &Service, conn: &mut Connection, now_us: u64, stream: u64, fields: RequestFields) {
        let prepared = service.prepare(&RequestHead {
            origin: self.origin,
            method: &fields.method,
            target: &fields.target,
            priority_header: fields.priority.as_deref(),
        });
        let body_len = prepared.body.len() as u64;
        self.schedule.on_request(now_us, stream, prepared.delay_us, body_len, prepared.priority);
        if let Some(plugged) = Plugged::of(conn) {
            let critical_priority = prepared.critical_rank.map(|r| r.clamp(0, u32::MAX as i64) as u32);
            plugged.set_stream_facts(stream, StreamFacts { total: Some(body_len), critical_priority });
        }
        self.responses.insert(stream, Response::new(fields.method, prepared));
        self.requests += 1;
    }

    /// tquic closes a stream when both sides are done, which for one still being served means the
    /// peer stopped it (STOP_SENDING, then tquic's RESET_STREAM).
    pub(super) fn on_stream_closed(&mut self, service: &Service, conn: &mut Connection, stream: u64) {
        let serving = self.responses.contains_key(&stream) || self.pending.as_ref().is_some_and(|p| p.stream == stream);
        if serving {
            self.give_up(service, conn, stream, H3_REQUEST_CANCELLED);
        }
        self.stream_written.remove(&stream);
        if let Some(h3) = self.h3.as_mut() {
            h3.stream_destroy(stream);
        }
        if let Some(mut log) = self.unlogged.remove(&stream) {
            log.paths = Plugged::of(conn).map(|p| carried(service, p, stream));
            service.log_stream(log);
        }
    }

    fn may_write_chunk(&self, conn: &Connection) -> bool {
        self.transport_orders_streams || self.budget.allows_chunk(conn)
    }

    /// Whether `drive` has anything to do, now or at `next_timeout`.
    pub(super) fn has_work(&self) -> bool {
        self.pending.is_some() || self.schedule.pending() > 0
    }

    /// When `drive` next has something to write, on the service clock: None while it waits for
    /// the stream or the connection instead, which wake the loop themselves.
    pub(super) fn wake_at(&self, conn: &Connection) -> Option<u64> {
        if self.h3.is_none() || self.pending.is_some() || !self.may_write_chunk(conn) {
            return None;
        }
        self.schedule.next_timeout()
    }

    /// Writes the schedule's chunks while their streams and the unsent budget take them; true
    /// when anything was written.
    pub(super) fn drive(&mut self, service: &Service, conn: &mut Connection) -> bool {
        self.sweep_stopped(service, conn);
        // tquic plugs the scheduler in once multipath is negotiated, not at the handshake.
        if !self.transport_orders_streams {
            self.transport_orders_streams = Plugged::of(conn).is_some_and(|p| p.orders_streams());
        }
        let mut progressed = false;
        while let Some(h3) = self.h3.as_mut() {
            if let Some(chunk) = self.pending.as_mut() {
                let mut written = 0;
                let progress = chunk.write(h3, conn, &mut written);
                let stream = chunk.stream;
                self.budget.on_written(written);
                *self.stream_written.entry(stream).or_default() += written;
                progressed |= written > 0 || !matches!(progress, Progress::Blocked);
                match progress {
                    Progress::Done => self.pending = None,
                    Progress::Blocked => break,
                    Progress::Failed => self.give_up(service, conn, stream, H3_INTERNAL_ERROR),
                }
                continue;
            }
            if !self.may_write_chunk(conn) {
                break;
            }
            let Some(chunk) = self.schedule.next_chunk(service.now_us()) else { break };
            // The schedule only hands out chunks of requests it was given, all kept here.
            let Some(response) = self.responses.get_mut(&chunk.stream) else { continue };
            let head = if chunk.first { response.head.take() } else { None };
            let body = response.body.slice(chunk.offset as usize..(chunk.offset + chunk.len) as usize);
            let priority = Http3Priority::new(response.priority.urgency, response.priority.incremental);
            self.pending = Some(PendingChunk::new(chunk.stream, head, body, chunk.last, priority));
        }
        self.log_finished(service, conn);
        progressed
    }

    /// The peer stopped some streams (STOP_SENDING) without a reset that HTTP/3 reports: tquic
    /// then fails their capacity. Found here, before the budget, which they would otherwise block.
    fn sweep_stopped(&mut self, service: &Service, conn: &mut Connection) {
        let mut stopped: Vec<u64> = (self.responses.keys().chain(self.stream_written.keys()))
            .copied()
            .filter(|&stream| conn.stream_capacity(stream).is_err())
            .collect();
        stopped.sort_unstable();
        stopped.dedup();
        for stream in stopped {
            self.give_up(service, conn, stream, H3_REQUEST_CANCELLED);
        }
    }

    /// Nothing more is sent on `stream`: it was stopped or reset by the peer, or broke.
    fn give_up(&mut self, service: &Service, conn: &mut Connection, stream: u64, code: u64) {
        if self.pending.as_ref().is_some_and(|p| p.stream == stream) {
            self.pending = None;
        }
        self.schedule.on_cancel(service.now_us(), stream);
        // No-op (Done) when the peer's STOP_SENDING made tquic reset the stream already.
        let _ = conn.stream_shutdown(stream, Shutdown::Write, code);
        self.budget.on_stream_dropped(conn, self.stream_written.remove(&stream).unwrap_or(0));
        self.log_finished(service, conn);
    }

    /// The connection is over: whatever is unfinished counts as cancelled, and everything is
    /// logged.
    pub(super) fn close(mut self, service: &Service, conn: &mut Connection) {
        let now_us = service.now_us();
        let mut unfinished: Vec<u64> = self.responses.keys().copied().collect();
        unfinished.sort_unstable();
        for stream in unfinished {
            self.schedule.on_cancel(now_us, stream);
        }
        self.log_finished(service, conn);
        // Streams tquic never closed, the connection having ended first: what was counted so far.
        let mut unlogged: Vec<StreamLog> = self.unlogged.drain().map(|(_, log)| log).collect();
        unlogged.sort_by_key(|log| log.stream);
        for mut log in unlogged {
            log.paths = Plugged::of(conn).map(|p| carried(service, p, log.stream));
            service.log_stream(log);
        }
        let transport = if conn.is_multipath() { "mpquic" } else { "quic" };
        service.log_connection(ConnectionLog {
            connection: self.id,
            origin: service.origins()[self.origin].origin.to_string(),
            protocol: "h3".into(),
            transport: transport.into(),
            peer: self.peer,
            opened_us: self.opened_us,
            closed_us: now_us,
            requests: self.requests,
            paths: path_logs(conn),
            congestion: Some(service.congestion().to_string()),
        });
    }

    /// Logs the streams the schedule has finished: at once, with what was written, on a
    /// single-path connection; without paths under tquic's own multipath schedulers, which do not
    /// say; once tquic closes the stream under a pagepath scheduler, which counted every packet.
    fn log_finished(&mut self, service: &Service, conn: &mut Connection) {
        let finished = self.schedule.take_finished();
        if finished.is_empty() {
            // The common case, after every write: spelling the addresses out cost the simulator
            // a twentieth of an HTTP/3 load.
            return;
        }
        let multipath = conn.is_multipath();
        let counted = Plugged::of(conn).is_some();
        let (local, remote) = conn.get_active_path().map(|p| (p.local_addr().to_string(), p.remote_addr().to_string())).unwrap_or_default();
        for times in finished {
            let Some(r) = self.responses.remove(&times.stream) else { continue };
            let paths = (!multipath).then(|| written(&local, &remote, &times, service.now_us()));
            let log = StreamLog {
                connection: self.id,
                stream: times.stream,
                origin: service.origins()[self.origin].origin.to_string(),
                method: r.method,
                url: r.url,
                status: r.status,
                kind: r.kind,
                delay_us: r.delay_us,
                priority: r.priority,
                times,
                paths,
            };
            if counted {
                self.unlogged.insert(log.stream, log);
            } else {
                service.log_stream(log);
            }
        }
    }
}
