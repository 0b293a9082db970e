//! The header at the front of every probe datagram (udp-send data and end markers, rtt probes),
//! big-endian: u64 sequence, u64 send time (ns, CLOCK_MONOTONIC), u64 total, u32 flags. The rest
//! of the datagram is zero padding up to the requested size.

pub const HEADER_BYTES: usize = 28;

/// Set on the markers udp-send sends after its last data packet.
pub const FLAG_END: u32 = 0x1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    pub seq: u64,
    pub sent_ns: u64,
    /// How many data packets the sender sends in all, when it knows (0 otherwise).
    pub total: u64,
    pub flags: u32,
}

impl Header {
    pub fn write(&self, buf: &mut [u8]) {
        buf[0..8].copy_from_slice(&self.seq.to_be_bytes());
        buf[8..16].copy_from_slice(&self.sent_ns.to_be_bytes());
        buf[16..24].copy_from_slice(&self.total.to_be_bytes());
        buf[24..28].copy_from_slice(&self.flags.to_be_bytes());
    }

    /// None for a datagram too short to be ours.
    pub fn read(buf: &[u8]) -> Option<Header> {
        let u64_at = |at: usize| u64::from_be_bytes(buf[at..at + 8].try_into().unwrap());
        (buf.len() >= HEADER_BYTES).then(|| Header {
            seq: u64_at(0),
            sent_ns: u64_at(8),
            total: u64_at(16),
            flags: u32::from_be_bytes(buf[24..28].try_into().unwrap()),
        })
    }

    pub fn is_end(&self) -> bool {
        self.flags & FLAG_END != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_short_datagrams() {
        let h = Header {
            seq: 7,
            sent_ns: 123_456_789_012,
            total: 1000,
            flags: FLAG_END,
        };
        let mut buf = [0u8; 64];
        h.write(&mut buf);
        assert_eq!(Header::read(&buf), Some(h));
        assert!(Header::read(&buf).unwrap().is_end());
        assert_eq!(Header::read(&buf[..HEADER_BYTES - 1]), None);
    }
}
