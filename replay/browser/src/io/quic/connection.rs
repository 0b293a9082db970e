//! One QUIC connection to one origin and the fetches on it: queued until the handshake is done and
//! the server's stream limit allows, then a request stream each, its response reported as Events.

use super::paths::{snapshot, PathSnapshot};
use super::request::request_head;
use crate::core::{Pool, RequestId};
use crate::io::transport::{ConnectionRecord, Event, Events, Fetch, Handshake, OriginAddress};
use bytes::Bytes;
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::time::Instant;
use tquic::h3::connection::Http3Connection;
use tquic::h3::{Http3Config, Http3Error, Http3Event, NameValue};
use tquic::{clock, Connection};

const H3_INTERNAL_ERROR: u64 = 0x102;
const READ_BUFFER: usize = 64 * 1024;

/// One request stream and what has come back on it.
struct Exchange {
    id: RequestId,
    status: Option<u16>,
    received: u64,
    /// tquic holds a request head it could not write whole until the stream is writable.
    head_held: bool,
    /// When its head went to tquic, and the handshake if it opened the connection.
    sent: Instant,
    handshake: Option<Handshake>,
}

pub struct OriginConnection {
    /// tquic's index of the connection, while it lives (tquic reuses indexes afterwards).
    pub index: u64,
    pub origin: OriginAddress,
    /// The origin's pool it carries requests of (privacy mode, network partition).
    pub pool: Pool,
    pub opened: Instant,
    pub closed: Option<Instant>,
    /// tquic is closing it (idle timeout, the server's close): fetches to its origin open another.
    pub retired: bool,
    /// The fetch the connection was opened for, until it is sent: its phases show the handshake.
    opener: Option<RequestId>,
    established: Option<Instant>,
    h3: Option<Http3Connection>,
    queued: VecDeque<Fetch>,
    streams: HashMap<u64, Exchange>,
    paths: PathSnapshot,
    events: Events,
    read_buf: Vec<u8>,
}

impl OriginConnection {
    pub fn new(index: u64, origin: OriginAddress, pool: Pool, events: Events) -> OriginConnection {
        OriginConnection {
            index,
            origin,
            pool,
            opened: clock::now(),
            closed: None,
            retired: false,
            opener: None,
            established: None,
            h3: None,
            queued: VecDeque::new(),
            streams: HashMap::new(),
            paths: PathSnapshot::default(),
            events,
            read_buf: vec![0; READ_BUFFER],
        }
    }

    pub fn live(&self) -> bool {
        self.closed.is_none()
    }

    pub fn queue(&mut self, fetch: Fetch) {
        if self.h3.is_none() && self.opener.is_none() && self.queued.is_empty() {
            self.opener = Some(fetch.id);
        }
        self.queued.push_back(fetch);
    }



    /// Adds a path from each of `extra_locals` when both ends speak multipath QUIC, starts HTTP/3
    /// and sends what waited for the handshake.
    pub fn on_established(&mut self, conn: &mut Connection, extra_locals: &[SocketAddr]) {
        self.established = Some(clock::now());
        if conn.is_multipath() {
            let remote = self.origin.address;
            for local in extra_locals {
                if let Err(e) = conn.add_path(*local, remote) {
                    // The connection goes on with the paths it has; its record says which.
                    eprintln!("pagepath-browser: {}: cannot add the path {local} -> {remote}: {e}", self.origin.origin);
                }
            }
        }
        match Http3Connection::new_with_quic_conn(conn, &Http3Config::default()) {
            Ok(h3) => self.h3 = Some(h3),
            Err(e) => {
                let reason = format!("the HTTP/3 connection to {}: cannot start HTTP/3 on it: {e}", self.origin.origin);
                let _ = conn.close(true, H3_INTERNAL_ERROR, reason.as_bytes());
                self.fail_all(&reason);
                return;
            }
        }
        self.send_queued(conn);
    }

    /// Opens a request stream for each queued fetch, highest priority first and in the order
    /// queued within one priority (`Fetch::net_priority`), as far as the server's stream limit
    /// allows; the rest wait until it raises the limit. On real-gentelella over HTTP/3 Chromium's
    /// connection to the static host took its four waiting requests style sheet first, though the
    /// sheet came last in the document, and the server's same-urgency streams go in stream order.
    pub fn send_queued(&mut self, conn: &mut Connection) {
        let Some(h3) = self.h3.as_mut() else { return };
        while !self.queued.is_empty() {
            let Ok(stream) = h3.stream_new(conn) else { return };
            let Some(next) = (0..self.queued.len()).min_by_key(|&i| (self.queued[i].waiting_rank(), i)) else { return };
            let Some(fetch) = self.queued.remove(next) else { return };
            let sent = request_head(&fetch).and_then(|head| match h3.send_headers(conn, stream, &head, true) {
                Ok(()) => Ok(false),
                Err(Http3Error::StreamBlocked) => Ok(true),
                Err(e) => Err(format!("{}: cannot send the request to {}: {e}", fetch.url, self.origin.origin)),
            });
            match sent {
                Ok(head_held) => {
                    let handshake = handshake_for(&mut self.opener, self.opened, self.established, fetch.id);
                    self.streams.insert(stream, Exchange { id: fetch.id, status: None, received: 0, head_held, sent: clock::now(), handshake });
                }
                Err(reason) => {
                    let _ = h3.stream_close(conn, stream);
                    send(&self.events, Event::Failed { id: fetch.id, reason, at: clock::now() });
                }
            }
        }
    }

    pub fn on_writable(&mut self, conn: &mut Connection, stream: u64) {
        let (Some(h3), Some(e)) = (self.h3.as_mut(), self.streams.get_mut(&stream)) else { return };
        if !e.head_held {
            return;
        }
        // tquic writes a held head on the next send_body and says so with NoError.
        match h3.send_body(conn, stream, Bytes::new(), true) {
            Err(Http3Error::NoError) => e.head_held = false,
            Err(Http3Error::StreamBlocked) | Err(Http3Error::Done) => {}
            Ok(_) | Err(_) => {
                let reason = format!("cannot send the request to {}", self.origin.origin);
                let id = e.id;
                self.streams.remove(&stream);
                send(&self.events, Event::Failed { id, reason, at: clock::now() });
            }
        }
    }

    /// Takes in what HTTP/3 has: headers, body bytes, ends and resets of responses.
    pub fn on_readable(&mut self, conn: &mut Connection) {
        let Some(h3) = self.h3.as_mut() else { return };
        while let Ok((stream, event)) = h3.poll(conn) {
            let Some(e) = self.streams.get_mut(&stream) else { continue };
            let at = clock::now();
            let ended = match event {
                Http3Event::Headers { headers, fin } => {
                    // A second HEADERS frame is trailers: the response's status is already in.
                    if e.status.is_none() {
                        let value = |name: &[u8]| {
                            headers.iter().find(|h| h.name() == name).map(|h| String::from_utf8_lossy(h.value()).into_owned())
                        };
                        let status = value(b":status").and_then(|s| s.parse().ok()).unwrap_or(0);
                        e.status = Some(status);
                        let (sent, handshake) = (Some(e.sent), e.handshake.take());
                        send(&self.events, Event::Headers { id: e.id, status, location: value(b"location"), at, sent, handshake });
                    }
                    fin.then(|| done(e, at))
                }
                Http3Event::Data => {
                    let before = e.received;
                    while let Ok(n) = h3.recv_body(conn, stream, &mut self.read_buf) {
                        e.received += n as u64;
                    }
                    if e.received > before {
                        send(&self.events, Event::Progress { id: e.id, received: e.received, at });
                    }
                    None
                }
                Http3Event::Finished => Some(done(e, at)),
                Http3Event::Reset(code) => Some(Event::Failed {
                    id: e.id,
                    reason: format!("{}: the server reset the request's stream (HTTP/3 error {code:#x})", self.origin.origin),
                    at,
                }),
                Http3Event::GoAway | Http3Event::PriorityUpdate => None,
            };
            if let Some(event) = ended {
                self.streams.remove(&stream);
                send(&self.events, event);
            }
        }
    }

    /// The connection has ended: what was on it or waiting for it fails with `reason` (None when
    /// the transport closed it on purpose), and its paths' counts are final.
    pub fn on_closed(&mut self, conn: &mut Connection, locals: &[SocketAddr], reason: Option<&str>) {
        self.take_snapshot(conn, locals);
        self.closed.get_or_insert_with(clock::now);
        match reason {
            Some(reason) => self.fail_all(reason),
            None => {
                self.streams.clear();
                self.queued.clear();
            }
        }
    }

    pub fn take_snapshot(&mut self, conn: &mut Connection, locals: &[SocketAddr]) {
        self.paths = snapshot(conn, locals);
    }

    fn fail_all(&mut self, reason: &str) {
        let at = clock::now();
        let ids = self.streams.drain().map(|(_, e)| e.id).chain(self.queued.drain(..).map(|f| f.id));
        for id in ids {
            send(&self.events, Event::Failed { id, reason: reason.to_string(), at });
        }
    }

    /// The record of this connection, the `n`-th opened (from 1).
    pub fn record(&self, n: usize, started: Instant) -> ConnectionRecord {
        let ms = |t: Instant| t.saturating_duration_since(started).as_secs_f64() * 1000.0;
        ConnectionRecord {
            id: format!("quic-{n}"),
            origin: self.origin.origin.clone(),
            protocol: "h3".into(),
            transport: if self.paths.multipath && self.paths.validated > 1 { "mpquic" } else { "quic" }.into(),
            opened_ms: ms(self.opened),
            closed_ms: self.closed.map(ms),
            paths: self.paths.bytes.clone(),
        }
    }
}

/// The connection's handshake, for the fetch it was opened for only.
fn handshake_for(opener: &mut Option<RequestId>, opened: Instant, established: Option<Instant>, id: RequestId) -> Option<Handshake> {
    let established = established?;
    (*opener == Some(id)).then(|| {
        *opener = None;
        Handshake { started: opened, tls_started: Some(opened), established }
    })
}

fn done(e: &Exchange, at: Instant) -> Event {
    Event::Done { id: e.id, status: e.status.unwrap_or(0), body_bytes: e.received, at }
}

/// The driver may have stopped listening; nothing is left to tell then.
fn send(events: &Events, event: Event) {
    let _ = events.send(event);
}
