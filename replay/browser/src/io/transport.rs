//! What the driver and the transports (HTTP/1.x and HTTP/2 over TCP or MPTCP, HTTP/3 over QUIC
//! or multipath QUIC) say to each other. A transport takes fetches and reports back through an
//! mpsc channel; it never blocks the caller.

use crate::core::{Pool, RequestId};
use serde::Serialize;
use std::net::{IpAddr, SocketAddr};
use std::sync::mpsc::Sender;
use std::time::Instant;

/// How HTTP/1.x uses connections (seed 001 Table 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Http1Mode {
    /// HTTP/1.0: a new connection per request, closed after the response.
    PerRequest,
    /// HTTP/1.1 keep-alive: one request at a time on each of up to k connections per origin.
    KeepAlive,
    /// HTTP/1.1 pipelining: requests sent back to back on up to k connections per origin.
    Pipelined,
}

/// Where an origin (`scheme://host:port`) is served, from the replay's origins.json.
#[derive(Clone, Debug)]
pub struct OriginAddress {
    pub origin: String,
    pub host: String,
    pub address: SocketAddr,
    /// false for `http://` origins: clear HTTP/1.1 whatever the protocol.
    pub tls: bool,
}

#[derive(Clone, Debug)]
pub struct TransportConfig {
    pub origins: Vec<OriginAddress>,
    /// Local addresses, path 0 first; empty: let the kernel choose (one path).
    pub locals: Vec<IpAddr>,
    /// base64 SHA-256 of the replay certificate's SubjectPublicKeyInfo: the only one accepted.
    pub spki_hash: String,
    /// MPTCP (tcp transports) or multipath QUIC (quic transports).
    pub multipath: bool,
    pub http1: Http1Mode,
    /// Connections per origin for HTTP/1.x (k); HTTP/2 and HTTP/3 use one.
    pub connections_per_origin: usize,
    /// The multipath QUIC scheduler, with multipath QUIC.
    pub scheduler: pagepath_tquic_scheduler::Choice,
    /// When the run started: the zero of every `*_ms` in ConnectionRecord.
    pub started: Instant,
}

/// One request on the wire (one hop: the driver follows redirects with a new Fetch, same id).
#[derive(Clone, Debug)]
pub struct Fetch {
    pub id: RequestId,
    /// Absolute URL; its origin is one of TransportConfig::origins.
    pub url: String,
    pub method: String,
    /// RFC 9218 `priority` header value (`u=2` or `u=3, i`), or None to send none.
    pub priority: Option<String>,
    /// Chromium's priority of the request, 0 VeryHigh .. 4 VeryLow (None: unknown, taken as Low):
    /// requests waiting for a connection go highest first, in the order asked within one
    /// priority, as Chromium's socket pools and its HTTP/2 and QUIC session requests take them.
    pub net_priority: Option<u8>,
    /// Which of the origin's connections it may use, as Chromium keys its connection pools.
    pub pool: Pool,
}

/// Chromium's Low, where a request's priority is unknown.
const LOW: u8 = 3;

impl Fetch {
    /// Its place among requests waiting for a connection: 0 (VeryHigh) goes first.
    pub fn waiting_rank(&self) -> u8 {
        self.net_priority.unwrap_or(LOW)
    }
}

/// How the connection a request opened was set up; only the request that opened it carries it, as
/// DevTools shows the handshake on that request alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handshake {
    /// The first SYN or Initial.
    pub started: Instant,
    /// When TLS began: after TCP's handshake; at `started` over QUIC, whose handshake is TLS's (as
    /// Chromium stamps it); None for clear connections.
    pub tls_started: Option<Instant>,
    /// Ready for requests.
    pub established: Instant,
}

#[derive(Clone, Debug)]
pub enum Event {
    /// Response headers are in. `sent`: when the request went out on its connection (None when
    /// the transport cannot tell); `handshake`: the connection's, if this request opened it.
    Headers { id: RequestId, status: u16, location: Option<String>, at: Instant, sent: Option<Instant>, handshake: Option<Handshake> },
    /// `received` body bytes in so far (cumulative); sent as data arrives.
    Progress { id: RequestId, received: u64, at: Instant },
    /// The response is complete.
    Done { id: RequestId, status: u16, body_bytes: u64, at: Instant },
    /// The request failed (connection refused or reset, stream reset, TLS error...).
    Failed { id: RequestId, reason: String, at: Instant },
    /// A connection to `origin` (as in TransportConfig::origins) negotiated HTTP/2 as its TLS
    /// handshake ended: what tells Chromium's network stack the server prioritises.
    Http2Connection { origin: String, at: Instant },
}

/// Bytes a connection carried on one path; index into TransportConfig::locals (0 when single-path).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PathBytes {
    pub path: usize,
    pub bytes_up: Option<u64>,
    pub bytes_down: Option<u64>,
}

/// One connection, as run-result.md's ConnectionRecord.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionRecord {
    pub id: String,
    pub origin: String,
    /// "h1", "h2" or "h3": what was negotiated.
    pub protocol: String,
    /// "tcp", "mptcp", "quic" or "mpquic": what the connection really used.
    pub transport: String,
    pub opened_ms: f64,
    pub closed_ms: Option<f64>,
    pub paths: Vec<PathBytes>,
}

pub trait Transport {
    /// Starts a request; what happens to it comes back as Events.
    fn fetch(&mut self, fetch: Fetch);
    /// Opens connections to `origin` (`scheme://host[:port]`) in `pool` until `sockets` are open
    /// or opening (`<link rel=preconnect>`: 1; a navigation: 2); a transport that multiplexes over
    /// QUIC opens one at most. Nothing comes back. An origin no replay server serves is ignored.
    fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize);
    /// Closes every connection (cancelling what is in flight) and reports them all.
    fn finish(self: Box<Self>) -> Vec<ConnectionRecord>;
}

pub type Events = Sender<Event>;
