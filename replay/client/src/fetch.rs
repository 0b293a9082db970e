//! The fetch as tquic's callbacks see it: paths and requests go out once the connection is up,
//! responses come in.

use pagepath_client::args::Target;
use bytes::Bytes;
use ring::digest;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Instant;
use tquic::error::ConnectionError;
use tquic::h3::connection::Http3Connection;
use tquic::h3::{Header, Http3Config, Http3Error, Http3Event, NameValue};
use tquic::Connection;

/// One request and what came back, times in µs since the connection was opened.
pub struct Exchange {
    pub target: Target,
    stream: Option<u64>,
    /// tquic holds a request head it could not write whole until the stream is writable.
    head_held: bool,
    pub start_us: Option<u64>,
    pub headers_us: Option<u64>,
    pub end_us: Option<u64>,
    pub status: Option<u16>,
    pub bytes: u64,
    pub body_digest: digest::Context,
    pub error: Option<String>,
}

pub struct Fetch {
    opened: Instant,
    authority: String,
    remote: SocketAddr,
    /// Local addresses that each add a path once the connection is up.
    extra_locals: Vec<SocketAddr>,
    pub exchanges: Vec<Exchange>,
    by_stream: HashMap<u64, usize>,
    h3: Option<Http3Connection>,
    pub handshake_us: Option<u64>,
    /// Why the connection ended before every response was in.
    pub failure: Option<String>,
    buf: Vec<u8>,
}

impl Fetch {
    pub fn new(opened: Instant, authority: String, remote: SocketAddr, extra_locals: Vec<SocketAddr>, targets: Vec<Target>) -> Fetch {
        let exchanges = targets
            .into_iter()
            .map(|target| Exchange {
                target,
                stream: None,
                head_held: false,
                start_us: None,
                headers_us: None,
                end_us: None,
                status: None,
                bytes: 0,
                body_digest: digest::Context::new(&digest::SHA256),
                error: None,
            })
            .collect();
        Fetch {
            opened,
            authority,
            remote,
            extra_locals,
            exchanges,
            by_stream: HashMap::new(),
            h3: None,
            handshake_us: None,
            failure: None,
            buf: vec![0; 64 * 1024],
        }
    }

    fn now_us(&self) -> u64 {
        self.opened.elapsed().as_micros() as u64
    }

    /// Every response is complete or has failed.
    pub fn finished(&self) -> bool {
        self.exchanges.iter().all(|e| e.end_us.is_some() || e.error.is_some())
    }

    pub fn on_established(&mut self, conn: &mut Connection) {
        self.handshake_us = Some(self.now_us());
        for local in &self.extra_locals {
            if let Err(e) = conn.add_path(*local, self.remote) {
                eprintln!("pagepath-fetch: cannot add the path {local} -> {}: {e}", self.remote);
            }
        }
        match Http3Connection::new_with_quic_conn(conn, &Http3Config::default()) {
            Ok(h3) => self.h3 = Some(h3),
            Err(e) => self.failure = Some(format!("cannot start HTTP/3 on the connection: {e}")),
        }
        self.send_requests(conn);
    }

    /// Opens a stream for each request not yet sent, all at once, as far as the server's stream
    /// limit allows; the rest go when it raises the limit.
    pub fn send_requests(&mut self, conn: &mut Connection) {
        let now_us = self.now_us();
        let Some(h3) = self.h3.as_mut() else { return };
        for (i, e) in self.exchanges.iter_mut().enumerate().filter(|(_, e)| e.stream.is_none()) {
            let Ok(stream) = h3.stream_new(conn) else { return };
            let mut head = vec![
                Header::new(b":method", b"GET"),
                Header::new(b":scheme", b"https"),
                Header::new(b":authority", self.authority.as_bytes()),
                Header::new(b":path", e.target.path.as_bytes()),
                Header::new(b"user-agent", b"pagepath-fetch"),
            ];
            if let Some(p) = &e.target.priority {
                head.push(Header::new(b"priority", p.as_bytes()));
            }
            match h3.send_headers(conn, stream, &head, true) {
                Ok(()) => {}
                Err(Http3Error::StreamBlocked) => e.head_held = true,
                Err(err) => e.error = Some(format!("cannot send the request: {err}")),
            }
            e.stream = Some(stream);
            e.start_us = Some(now_us);
            self.by_stream.insert(stream, i);
        }
    }

    pub fn on_writable(&mut self, conn: &mut Connection, stream: u64) {
        let (Some(h3), Some(&i)) = (self.h3.as_mut(), self.by_stream.get(&stream)) else { return };
        let e = &mut self.exchanges[i];
        if e.head_held {
            // tquic writes a held head on the next send_body and says so with NoError.
            match h3.send_body(conn, stream, Bytes::new(), true) {
                Err(Http3Error::NoError) => e.head_held = false,
                Err(Http3Error::StreamBlocked) | Err(Http3Error::Done) => {}
                Ok(_) | Err(_) => e.error = Some("cannot send the request".into()),
            }
        }
    }

    pub fn on_readable(&mut self, conn: &mut Connection) {
        let now_us = self.now_us();
        let Some(h3) = self.h3.as_mut() else { return };
        loop {
            let (stream, event) = match h3.poll(conn) {
                Ok(v) => v,
                Err(_) => return,
            };
            let Some(&i) = self.by_stream.get(&stream) else { continue };
            let e = &mut self.exchanges[i];
            match event {
                Http3Event::Headers { headers, fin } => {
                    let status = headers.iter().find(|h| h.name() == b":status");
                    e.status = status.and_then(|h| std::str::from_utf8(h.value()).ok()?.parse().ok());
                    e.headers_us.get_or_insert(now_us);
                    if fin {
                        e.end_us.get_or_insert(now_us);
                    }
                }
                Http3Event::Data => {
                    while let Ok(n) = h3.recv_body(conn, stream, &mut self.buf) {
                        e.bytes += n as u64;
                        e.body_digest.update(&self.buf[..n]);
                    }
                }
                Http3Event::Finished => {
                    e.end_us.get_or_insert(now_us);
                }
                Http3Event::Reset(code) => {
                    e.error = Some(format!("the server reset the stream (HTTP/3 error {code:#x})"));
                }
                Http3Event::GoAway | Http3Event::PriorityUpdate => {}
            }
        }
    }

    pub fn on_closed(&mut self, conn: &Connection) {
        if !self.finished() && self.failure.is_none() {
            self.failure = Some(why_closed(conn));
        }
    }
}

fn why_closed(conn: &Connection) -> String {
    let describe = |who: &str, e: &ConnectionError| {
        let layer = if e.is_app { "HTTP/3" } else { "QUIC" };
        let reason = String::from_utf8_lossy(&e.reason);
        format!("{who} closed the connection with {layer} error {:#x} {reason:?}", e.error_code)
    };
    if conn.is_handshake_timeout() {
        "the QUIC handshake timed out".into()
    } else if conn.is_idle_timeout() {
        "the connection went idle until its timeout".into()
    } else if conn.is_reset() {
        "the server reset the connection (stateless reset)".into()
    } else if let Some(e) = conn.peer_error() {
        describe("the server", e)
    } else if let Some(e) = conn.local_error() {
        describe("this client", e)
    } else {
        "the connection closed".into()
    }
}
