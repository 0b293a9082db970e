//! What each simulated connection carried, counted as its segments cross the paths: the bytes
//! the client sent (retransmissions included, as Linux's tcpi_bytes_sent) and the bytes that
//! reached it, and the segments each end sent again.

use rustc_hash::FxHashMap;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Default, Debug)]
pub struct ConnectionCounts {
    pub up: AtomicU64,
    pub down: AtomicU64,
    pub packets_down: AtomicU64,
    pub retransmitted_up: AtomicU64,
    pub retransmitted_down: AtomicU64,
}

/// A TCP segment's addresses, sequence number and payload length, from its IPv4 packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub src: SocketAddr,
    pub dst: SocketAddr,
    pub seq: u32,
    pub payload: u32,
    /// A SYN without an ACK: a connection's first segment.
    pub opens: bool,
}

pub fn segment(packet: &[u8]) -> Option<Segment> {
    if packet.len() < 40 || packet[0] >> 4 != 4 || packet[9] != 6 {
        return None;
    }
    let ihl = usize::from(packet[0] & 0x0f) * 4;
    let total = usize::from(u16::from_be_bytes([packet[2], packet[3]]));
    let tcp = packet.get(ihl..total)?;
    if tcp.len() < 20 {
        return None;
    }
    let ip = |at: usize| Ipv4Addr::new(packet[at], packet[at + 1], packet[at + 2], packet[at + 3]);
    let port = |at: usize| u16::from_be_bytes([tcp[at], tcp[at + 1]]);
    let offset = usize::from(tcp[12] >> 4) * 4;
    Some(Segment {
        src: SocketAddrV4::new(ip(12), port(0)).into(),
        dst: SocketAddrV4::new(ip(16), port(2)).into(),
        seq: u32::from_be_bytes([tcp[4], tcp[5], tcp[6], tcp[7]]),
        payload: tcp.len().saturating_sub(offset) as u32,
        opens: tcp[13] & 0x12 == 0x02,
    })
}

/// Every connection's counts by (client, server) address, and the highest sequence number each
/// direction has sent, which tells a retransmission from new data.
#[derive(Default)]
pub struct Ledger {
    /// Looked up for every segment: Fx hashing, as the keys are not chosen by anyone hostile.
    connections: FxHashMap<(SocketAddr, SocketAddr), (Arc<ConnectionCounts>, Option<u32>, Option<u32>)>,
}

impl Ledger {
    pub fn open(&mut self, client: SocketAddr, server: SocketAddr) -> Arc<ConnectionCounts> {
        self.connections.entry((client, server)).or_insert_with(|| (Arc::default(), None, None)).0.clone()
    }

    /// A segment leaving its sender; `from_client` says which end that is.
    pub fn sent(&mut self, s: &Segment, from_client: bool) {
        let key = if from_client { (s.src, s.dst) } else { (s.dst, s.src) };
        let Some((counts, up_end, down_end)) = self.connections.get_mut(&key) else { return };
        let (again, end) = if from_client {
            (&counts.retransmitted_up, up_end)
        } else {
            counts.packets_down.fetch_add(1, Ordering::Relaxed);
            (&counts.retransmitted_down, down_end)
        };
        if s.payload == 0 {
            return;
        }
        if from_client {
            counts.up.fetch_add(u64::from(s.payload), Ordering::Relaxed);
        }
        let seg_end = s.seq.wrapping_add(s.payload);
        match end {
            // Serial-number comparison (RFC 1982): at or before what was sent is sent again.
            Some(e) if (seg_end.wrapping_sub(*e) as i32) <= 0 => {
                again.fetch_add(1, Ordering::Relaxed);
            }
            _ => *end = Some(seg_end),
        }
    }

    /// Segments sent again, in both directions, over every connection.
    pub fn retransmitted(&self) -> u64 {
        let again = |c: &ConnectionCounts| c.retransmitted_up.load(Ordering::Relaxed) + c.retransmitted_down.load(Ordering::Relaxed);
        self.connections.values().map(|(c, _, _)| again(c)).sum()
    }

    /// A segment reaching the client.
    pub fn delivered_to_client(&self, s: &Segment) {
        if let Some((counts, _, _)) = self.connections.get(&(s.dst, s.src)) {
            counts.down.fetch_add(u64::from(s.payload), Ordering::Relaxed);
        }
    }
}
