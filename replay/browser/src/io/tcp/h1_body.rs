//! Where an HTTP/1.x response body ends (RFC 9112 §6.3): after Content-Length bytes, at the last
//! chunk of the chunked coding, or when the server closes the connection. Only the body's own
//! bytes are taken from the buffer: a pipelined response behind it stays there.

use bytes::{Buf, BytesMut};

/// A chunk-size or trailer line longer than this is not HTTP.
const MAX_LINE: usize = 8 * 1024;

#[derive(Debug)]
pub(super) enum Framing {
    Length { left: u64 },
    Chunked(Chunk),
    UntilClose,
}

#[derive(Debug, PartialEq)]
pub(super) enum Chunk {
    Size,
    Data { left: u64 },
    DataEnd,
    Trailers,
    Done,
}

impl Framing {
    pub fn is_complete(&self) -> bool {
        matches!(self, Framing::Length { left: 0 } | Framing::Chunked(Chunk::Done))
    }

    /// Takes this body's bytes from the front of `buf`; returns how many body bytes (decoded)
    /// they held.
    pub fn consume(&mut self, buf: &mut BytesMut) -> Result<u64, String> {
        match self {
            Framing::Length { left } => {
                let n = (*left).min(buf.len() as u64);
                buf.advance(n as usize);
                *left -= n;
                Ok(n)
            }
            Framing::UntilClose => {
                let n = buf.len() as u64;
                buf.clear();
                Ok(n)
            }
            Framing::Chunked(state) => consume_chunks(state, buf),
        }
    }

    /// The connection has closed: fine only for a body that ends there.
    pub fn at_close(&self) -> Result<(), String> {
        match self {
            Framing::UntilClose => Ok(()),
            Framing::Length { left } => Err(format!("the server closed the connection {left} bytes before the end of the body")),
            Framing::Chunked(_) => Err("the server closed the connection before the last chunk of the body".to_string()),
        }
    }
}

fn consume_chunks(state: &mut Chunk, buf: &mut BytesMut) -> Result<u64, String> {
    let mut body = 0;
    loop {
        match state {
            Chunk::Size => {
                let Some(line) = take_line(buf)? else { return Ok(body) };
                let digits = line.split(|&b| b == b';').next().unwrap_or_default();
                let text = std::str::from_utf8(digits).unwrap_or("").trim();
                let size = u64::from_str_radix(text, 16)
                    .map_err(|_| format!("malformed chunk size {:?} in a chunked body", String::from_utf8_lossy(&line)))?;
                *state = if size == 0 { Chunk::Trailers } else { Chunk::Data { left: size } };
            }
            Chunk::Data { left } => {
                if buf.is_empty() {
                    return Ok(body);
                }
                let n = (*left).min(buf.len() as u64);
                buf.advance(n as usize);
                body += n;
                *left -= n;
                if *left == 0 {
                    *state = Chunk::DataEnd;
                }
            }
            Chunk::DataEnd => {
                let Some(line) = take_line(buf)? else { return Ok(body) };
                if !line.is_empty() {
                    return Err("a chunk of a chunked body is longer than its size says".to_string());
                }
                *state = Chunk::Size;
            }
            Chunk::Trailers => {
                let Some(line) = take_line(buf)? else { return Ok(body) };
                if line.is_empty() {
                    *state = Chunk::Done;
                }
            }
            Chunk::Done => return Ok(body),
        }
    }
}

/// One line without its CRLF (or bare LF), or None until the buffer holds a whole one.
fn take_line(buf: &mut BytesMut) -> Result<Option<Vec<u8>>, String> {
    let Some(end) = buf.iter().position(|&b| b == b'\n') else {
        return if buf.len() > MAX_LINE { Err("a line of a chunked body is too long".to_string()) } else { Ok(None) };
    };
    let mut line = buf.split_to(end + 1).to_vec();
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `wire` in pieces of `step` bytes, as reads would deliver it.
    fn decode(framing: &mut Framing, wire: &[u8], step: usize) -> (u64, BytesMut) {
        let mut buf = BytesMut::new();
        let mut total = 0;
        for piece in wire.chunks(step) {
            buf.extend_from_slice(piece);
            if !framing.is_complete() {
                total += framing.consume(&mut buf).unwrap();
            }
        }
        (total, buf)
    }

    #[test]
    fn chunked_bodies_decode_whatever_the_reads_and_leave_what_follows() {
        let wire = b"5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\nHTTP/1.1 200";
        for step in [1, 2, 3, 7, wire.len()] {
            let mut framing = Framing::Chunked(Chunk::Size);
            let (total, rest) = decode(&mut framing, wire, step);
            assert_eq!(total, 31, "step {step}");
            assert!(framing.is_complete(), "step {step}");
            assert_eq!(&rest[..], b"HTTP/1.1 200", "step {step}");
        }
    }

    #[test]
    fn length_bodies_stop_at_their_length() {
        let mut framing = Framing::Length { left: 4 };
        let (total, rest) = decode(&mut framing, b"abcdefg", 3);
        assert_eq!((total, &rest[..]), (4, &b"efg"[..]));
        assert!(framing.is_complete());
    }

    #[test]
    fn bad_chunk_sizes_and_early_closes_are_errors() {
        let mut framing = Framing::Chunked(Chunk::Size);
        assert!(framing.consume(&mut BytesMut::from(&b"zz\r\n"[..])).is_err());
        assert!(Framing::Length { left: 3 }.at_close().is_err());
        assert!(Framing::UntilClose.at_close().is_ok());
    }
}
