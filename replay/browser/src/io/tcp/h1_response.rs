//! Reading HTTP/1.x responses off a connection in request order, reporting each as it arrives:
//! Headers when the head is in (parsed with httparse), Progress on every read that carried body
//! bytes, Done at the end of the body.

use super::h1_body::{Chunk, Framing};
use super::request::Request;
use super::shared::Shared;
use crate::io::transport::Event;
use bytes::{Buf, BytesMut};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncReadExt};

const MAX_HEADERS: usize = 128;
const MAX_HEAD: usize = 1 << 20;
const READ_SIZE: usize = 64 * 1024;

pub(super) struct ResponseReader<R> {
    io: R,
    buf: BytesMut,
    /// When the newest bytes in `buf` were read: the time of what is parsed from it.
    last_read: Instant,
}

struct Head {
    status: u16,
    location: Option<String>,
    framing: Option<Framing>,
    /// The server will close the connection after this response.
    closes: bool,
}

impl<R: AsyncRead + Unpin> ResponseReader<R> {
    pub fn new(io: R) -> Self {
        ResponseReader { io, buf: BytesMut::with_capacity(READ_SIZE), last_read: tquic::clock::now() }
    }

    /// Reads more; 0 means the server closed the connection.
    async fn fill(&mut self) -> Result<usize, String> {
        self.buf.reserve(READ_SIZE);
        let n = self.io.read_buf(&mut self.buf).await.map_err(|e| format!("reading the response failed: {e}"))?;
        self.last_read = tquic::clock::now();
        Ok(n)
    }

    /// Reads the response to `request`; true when the connection can carry another.
    pub async fn read(&mut self, request: &Request, shared: &Shared) -> Result<bool, String> {
        let head = loop {
            if let Some(head) = self.parse_head(request)? {
                // Interim responses (100 Continue, 103 Early Hints) come before the real one.
                if !(100..200).contains(&head.status) {
                    break head;
                }
            } else if self.fill().await? == 0 {
                return Err("the server closed the connection before the response head".to_string());
            }
        };
        let status = head.status;
        shared.emit(Event::Headers { id: request.id, status, location: head.location, at: self.last_read, sent: request.sent, handshake: request.handshake });
        let mut received = 0;
        if let Some(mut framing) = head.framing {
            loop {
                let taken = framing.consume(&mut self.buf)?;
                if taken > 0 {
                    received += taken;
                    shared.emit(Event::Progress { id: request.id, received, at: self.last_read });
                }
                if framing.is_complete() {
                    break;
                }
                if self.fill().await? == 0 {
                    framing.at_close()?;
                    shared.emit(Event::Done { id: request.id, status, body_bytes: received, at: self.last_read });
                    return Ok(false);
                }
            }
        }
        shared.emit(Event::Done { id: request.id, status, body_bytes: received, at: self.last_read });
        Ok(!head.closes)
    }

    /// The head at the front of the buffer, taken from it, or None until it is all there.
    fn parse_head(&mut self, request: &Request) -> Result<Option<Head>, String> {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut response = httparse::Response::new(&mut headers);
        let length = match response.parse(&self.buf) {
            Ok(httparse::Status::Complete(length)) => length,
            Ok(httparse::Status::Partial) if self.buf.len() > MAX_HEAD => return Err(format!("the response head is over {MAX_HEAD} bytes")),
            Ok(httparse::Status::Partial) => return Ok(None),
            Err(e) => return Err(format!("the response head is malformed: {e}")),
        };
        let status = response.code.unwrap_or_default();
        // A header sent several times is one comma-separated list (RFC 9110 §5.3).
        let header = |name: &str| {
            let values: Vec<String> =
                response.headers.iter().filter(|h| h.name.eq_ignore_ascii_case(name)).map(|h| String::from_utf8_lossy(h.value).trim().to_string()).collect();
            (!values.is_empty()).then(|| values.join(", "))
        };
        let has_token = |name: &str, token: &str| {
            header(name).is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
        };
        let location = header("location");
        let chunked = header("transfer-encoding").is_some_and(|v| v.rsplit(',').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("chunked")));
        let framing = if request.is_head() || matches!(status, 100..=199 | 204 | 304) {
            None
        } else if chunked {
            Some(Framing::Chunked(Chunk::Size))
        } else if let Some(length) = header("content-length") {
            Some(Framing::Length { left: content_length(&length)? })
        } else {
            Some(Framing::UntilClose)
        };
        let http10 = response.version == Some(0);
        let closes = has_token("connection", "close")
            || (http10 && !has_token("connection", "keep-alive"))
            || matches!(framing, Some(Framing::UntilClose));
        self.buf.advance(length);
        Ok(Some(Head { status, location, framing, closes }))
    }
}

/// Repeated Content-Length values must agree (RFC 9112 §6.3).
fn content_length(value: &str) -> Result<u64, String> {
    let mut lengths = value.split(',').map(|v| v.trim().parse::<u64>());
    let first = lengths.next().and_then(Result::ok);
    match first {
        Some(n) if lengths.all(|l| l == Ok(n)) => Ok(n),
        _ => Err(format!("the response's Content-Length {value:?} is not one number")),
    }
}
