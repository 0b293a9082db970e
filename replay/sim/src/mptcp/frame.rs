//! What MPTCP says in TCP options (RFC 8684), said in-band instead: smoltcp has no room for
//! MPTCP's options, so each subflow's byte stream carries frames. A subflow's first frame names
//! its connection (MP_CAPABLE's key, MP_JOIN's token); each data frame carries a DSS mapping (the
//! data sequence number of its bytes). A mapping's header takes the room Linux's DSS option takes
//! from a data segment's payload, so a segment carries as much page data as the kernel's.

/// Linux's DSS option on a data segment: a 32-bit data ACK and a 64-bit mapping, 22 bytes,
/// padded to 24 (net/mptcp/options.c, TCPOLEN_MPTCP_DSS_*).
pub const DATA_HEADER: usize = 24;
/// A subflow's greeting: a kind and a 64-bit key or token.
const HELLO: usize = 9;

const DATA: u8 = 0;
const DATA_FIN: u8 = 1;
const CAPABLE: u8 = 2;
const JOIN: u8 = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The connection's first subflow, and its token.
    Capable(u64),
    /// Another subflow of the connection with this token.
    Join(u64),
    /// Bytes of the connection's data stream from data sequence number `dsn` on.
    Data { dsn: u64, bytes: Vec<u8> },
    /// The data stream ends at `dsn` (DATA_FIN).
    DataFin { dsn: u64 },
}

impl Frame {
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Frame::Capable(token) | Frame::Join(token) => {
                out.push(if matches!(self, Frame::Capable(_)) { CAPABLE } else { JOIN });
                out.extend_from_slice(&token.to_be_bytes());
            }
            Frame::Data { dsn, bytes } => {
                header(out, DATA, *dsn, u16::try_from(bytes.len()).expect("a frame's payload fits a segment"));
                out.extend_from_slice(bytes);
            }
            Frame::DataFin { dsn } => header(out, DATA_FIN, *dsn, 0),
        }
    }
}

fn header(out: &mut Vec<u8>, kind: u8, dsn: u64, len: u16) {
    let start = out.len();
    out.push(kind);
    out.extend_from_slice(&dsn.to_be_bytes());
    out.extend_from_slice(&len.to_be_bytes());
    out.resize(start + DATA_HEADER, 0);
}

/// Frames from a subflow's bytes as they arrive, however the stream splits them.
#[derive(Default)]
pub struct Decoder {
    pending: Vec<u8>,
}

impl Decoder {
    pub fn push(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// The next whole frame; Err for bytes that are not a frame (a peer that is not this
    /// simulator's MPTCP).
    pub fn next(&mut self) -> Result<Option<Frame>, String> {
        let Some(&kind) = self.pending.first() else { return Ok(None) };
        let (frame, used) = match kind {
            CAPABLE | JOIN => {
                if self.pending.len() < HELLO {
                    return Ok(None);
                }
                let token = u64::from_be_bytes(self.pending[1..9].try_into().expect("8 bytes"));
                (if kind == CAPABLE { Frame::Capable(token) } else { Frame::Join(token) }, HELLO)
            }
            DATA | DATA_FIN => {
                if self.pending.len() < DATA_HEADER {
                    return Ok(None);
                }
                let dsn = u64::from_be_bytes(self.pending[1..9].try_into().expect("8 bytes"));
                let len = u16::from_be_bytes(self.pending[9..11].try_into().expect("2 bytes")) as usize;
                if self.pending.len() < DATA_HEADER + len {
                    return Ok(None);
                }
                let frame = if kind == DATA { Frame::Data { dsn, bytes: self.pending[DATA_HEADER..DATA_HEADER + len].to_vec() } } else { Frame::DataFin { dsn } };
                (frame, DATA_HEADER + len)
            }
            other => return Err(format!("an MPTCP subflow carried a frame of unknown kind {other}")),
        };
        self.pending.drain(..used);
        Ok(Some(frame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_come_back_whole_however_the_bytes_are_split() {
        let frames = vec![
            Frame::Capable(7),
            Frame::Data { dsn: 0, bytes: b"hello".to_vec() },
            Frame::Data { dsn: 5, bytes: vec![9; 1400] },
            Frame::DataFin { dsn: 1405 },
            Frame::Join(u64::MAX),
        ];
        let mut wire = Vec::new();
        for f in &frames {
            f.encode(&mut wire);
        }
        assert_eq!(wire.len(), 2 * HELLO + 3 * DATA_HEADER + 1405);
        for split in [1, 7, 24, 1000] {
            let mut d = Decoder::default();
            let mut got = Vec::new();
            for chunk in wire.chunks(split) {
                d.push(chunk);
                while let Some(f) = d.next().unwrap() {
                    got.push(f);
                }
            }
            assert_eq!(got, frames, "split every {split} bytes");
        }
    }

    #[test]
    fn bytes_that_are_no_frame_are_refused() {
        let mut d = Decoder::default();
        d.push(b"GET / HTTP/1.1\r\n");
        assert!(d.next().unwrap_err().contains("unknown kind"));
    }
}
