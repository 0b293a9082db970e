//! Hands one chunk of the schedule to its HTTP/3 stream, as far as flow control lets it.

use bytes::{Buf, Bytes};
use tquic::h3::connection::{Http3Connection, Http3Priority};
use tquic::h3::{Header, Http3Error};
use tquic::Connection;

/// The part of a schedule chunk not yet accepted by its stream.
pub(super) struct PendingChunk {
    pub(super) stream: u64,
    /// The response head, when this chunk opens the response and it is not yet written.
    head: Option<Vec<Header>>,
    /// tquic holds a head it could not write whole and writes it on the next `send_body`.
    head_held: bool,
    body: Bytes,
    fin: bool,
    priority: Http3Priority,
}

pub(super) enum Progress {
    Done,
    /// The stream's flow control is exhausted; tquic reports it writable again later.
    Blocked,
    /// The stream is gone (stopped or reset by the peer, or broken).
    Failed,
}

impl PendingChunk {
    pub(super) fn new(stream: u64, head: Option<Vec<Header>>, body: Bytes, fin: bool, priority: Http3Priority) -> Self {
        PendingChunk { stream, head, head_held: false, body, fin, priority }
    }

    /// Writes as much as the stream takes, adding the body bytes written to `written`.
    pub(super) fn write(&mut self, h3: &mut Http3Connection, conn: &mut Connection, written: &mut u64) -> Progress {
        // A response without a body ends with its head.
        let head_fin = (self.head.is_some() || self.head_held) && self.fin && self.body.is_empty();
        if let Some(head) = self.head.take() {
            let sent = h3.send_headers(conn, self.stream, &head, head_fin);
            // tquic resets a stream's priority when it writes the first head, so set it after.
            let _ = h3.stream_set_priority(conn, self.stream, &self.priority);
            match sent {
                Ok(()) => {}
                Err(Http3Error::StreamBlocked) => self.head_held = true,
                Err(_) => return Progress::Failed,
            }
        }
        if self.head_held {
            match h3.send_body(conn, self.stream, Bytes::new(), head_fin) {
                // tquic's way of saying that the held head went out and nothing else did.
                Err(Http3Error::NoError) => self.head_held = false,
                Err(Http3Error::StreamBlocked) | Err(Http3Error::Done) => return Progress::Blocked,
                Ok(_) | Err(_) => return Progress::Failed,
            }
        }
        if self.body.is_empty() && (!self.fin || head_fin) {
            return Progress::Done;
        }
        loop {
            match h3.send_body(conn, self.stream, self.body.clone(), self.fin) {
                Ok(n) => {
                    *written += n as u64;
                    self.body.advance(n);
                    if self.body.is_empty() {
                        return Progress::Done;
                    }
                }
                Err(Http3Error::Done) => return Progress::Blocked,
                Err(_) => return Progress::Failed,
            }
        }
    }
}
