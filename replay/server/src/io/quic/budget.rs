//! Keeps the schedule in charge of the order on the wire: tquic buffers whatever flow control
//! admits (tens of MB here) and sends it in its own stream order, so the connection asks the
//! schedule for a chunk only while little of what it wrote is still unsent, like TCP_NOTSENT_LOWAT.
//! Not under a pagepath scheduler that orders the streams itself (connection.rs): that one must
//! see every ready response to choose among them.

use tquic::Connection;

const UNSENT_LOW_WATER: u64 = 64 * 1024;

/// tquic counts whole datagrams as sent; the smallest 1-RTT packet overhead (1 byte of flags, 1 of
/// packet number, 16 of AEAD tag, no connection ID) is taken off each so that the estimate errs
/// low, never holding back a connection whose data has in fact all gone out.
const MIN_PACKET_OVERHEAD: u64 = 18;

#[derive(Default)]
pub(super) struct UnsentBudget {
    /// Response body bytes written into the connection (heads and framing are left out, which
    /// also errs low).
    written: u64,
    /// Taken off the estimate for data tquic dropped unsent when the peer stopped a stream.
    dropped: u64,
}

impl UnsentBudget {
    pub(super) fn on_written(&mut self, n: u64) {
        self.written += n;
    }

    /// Body bytes written that tquic has not yet put in a packet, at most.
    fn unsent(&self, conn: &Connection) -> u64 {
        let s = conn.stats();
        let packets = s.sent_count.saturating_sub(s.lost_count);
        let payload = s.sent_bytes.saturating_sub(s.lost_bytes).saturating_sub(packets * MIN_PACKET_OVERHEAD);
        self.written.saturating_sub(payload).saturating_sub(self.dropped)
    }

    pub(super) fn allows_chunk(&self, conn: &Connection) -> bool {
        self.unsent(conn) < UNSENT_LOW_WATER
    }

    /// A stream that had `stream_written` body bytes written was stopped, and tquic dropped what
    /// of it was unsent: no more than that, and no more than the estimate, so it still errs low.
    pub(super) fn on_stream_dropped(&mut self, conn: &Connection, stream_written: u64) {
        self.dropped += stream_written.min(self.unsent(conn));
    }
}
