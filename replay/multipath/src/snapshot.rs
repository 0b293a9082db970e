//! What a scheduler sees: read-only snapshots of the paths and of the streams with data to send,
//! taken by the transport (or a model of one) before each decision. Times are durations since an
//! origin the caller chooses; a scheduler never reads a clock, so the same code runs in real and in
//! virtual time.

use std::time::Duration;

/// A path's index in the connection's path list, as the transport numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PathId(pub usize);

/// A stream's id, as the transport numbers them (QUIC stream ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamId(pub u64);

#[derive(Clone, Debug, PartialEq)]
pub struct PathSnapshot {
    pub id: PathId,
    pub srtt: Duration,
    pub rttvar: Duration,
    pub min_rtt: Duration,
    /// Congestion window, bytes.
    pub cwnd: u64,
    pub bytes_in_flight: u64,
    /// Bytes per second the sender paces at, where the controller paces.
    pub pacing_rate: Option<u64>,
    pub in_slow_start: bool,
    /// Where the controller has one (Cubic, Reno); None before the first loss or for BBR.
    pub ssthresh: Option<u64>,
    pub lost_packets: u64,
    /// Validated and active: the transport may send on it at all.
    pub usable: bool,
    /// Room in the congestion window (and pacing allows) for one more packet now.
    pub can_send: bool,
    /// Kept as backup: only for when no other path is usable.
    pub backup: bool,
}

impl PathSnapshot {
    /// The bandwidth the sender can expect: the pacing rate, else a window per smoothed RTT.
    pub fn rate(&self) -> f64 {
        match self.pacing_rate {
            Some(r) if r > 0 => r as f64,
            _ => self.cwnd as f64 / self.srtt.as_secs_f64().max(1e-6),
        }
    }

    /// One-way delay, taken as half the smoothed RTT (paths are assumed symmetric).
    pub fn one_way(&self) -> Duration {
        self.srtt / 2
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct StreamSnapshot {
    pub id: StreamId,
    /// Bytes not yet sent (retransmissions excluded).
    pub remaining: u64,
    /// Bytes already sent once.
    pub sent: u64,
    /// The whole size when known (a response with a Content-Length, a recorded body).
    pub total: Option<u64>,
    /// RFC 9218 urgency, 0 (most urgent) to 7.
    pub urgency: u8,
    pub incremental: bool,
    /// The resource's critical-path priority from the page's graph, when the server has it: lower
    /// is more critical (PCP's priorities, seed 001 Algorithms 1-2).
    pub critical_priority: Option<u32>,
    /// When the stream got data to send.
    pub ready_at: Duration,
}

/// Everything one decision is made on.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub now: Duration,
    pub paths: &'a [PathSnapshot],
    /// In the order the transport would send them without a stream scheduler (RFC 9218 order).
    pub streams: &'a [StreamSnapshot],
}

impl<'a> Context<'a> {
    pub fn path(&self, id: PathId) -> Option<&'a PathSnapshot> {
        self.paths.iter().find(|p| p.id == id)
    }

    pub fn stream(&self, id: StreamId) -> Option<&'a StreamSnapshot> {
        self.streams.iter().find(|s| s.id == id)
    }

    /// Usable paths, the backups only when nothing else is usable.
    pub fn candidates(&self) -> impl Iterator<Item = &'a PathSnapshot> + 'a {
        let primary = self.paths.iter().any(|p| p.usable && !p.backup);
        self.paths.iter().filter(move |p| p.usable && (!primary || !p.backup))
    }
}
