//! The sending side of an MPTCP connection's data stream: the bytes the application wrote that
//! no subflow has taken yet, each given its data sequence number as a scheduler hands it to a
//! subflow (RFC 8684 §3.3.1's mapping). Subflows are reliable, so a byte handed over is not kept
//! for reinjection: no path in a simulation fails.

use std::collections::VecDeque;

#[derive(Default)]
pub struct Sending {
    next_dsn: u64,
    unmapped: VecDeque<u8>,
    closing: bool,
    fin_sent: bool,
}

impl Sending {
    pub fn write(&mut self, bytes: &[u8]) {
        self.unmapped.extend(bytes);
    }

    pub fn unmapped(&self) -> usize {
        self.unmapped.len()
    }

    /// The next at most `max` bytes, with the data sequence number of the first.
    pub fn take(&mut self, max: usize) -> (u64, Vec<u8>) {
        let n = max.min(self.unmapped.len());
        let dsn = self.next_dsn;
        self.next_dsn += n as u64;
        (dsn, self.unmapped.drain(..n).collect())
    }

    /// The application is done writing.
    pub fn close(&mut self) {
        self.closing = true;
    }

    /// The DATA_FIN's data sequence number, once everything written is mapped and once only.
    pub fn fin_due(&mut self) -> Option<u64> {
        let due = self.closing && !self.fin_sent && self.unmapped.is_empty();
        self.fin_sent |= due;
        due.then_some(self.next_dsn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_numbered_as_they_are_taken_and_the_fin_follows_the_last() {
        let mut s = Sending::default();
        s.write(b"abcdef");
        s.close();
        assert_eq!(s.take(4), (0, b"abcd".to_vec()));
        assert_eq!(s.fin_due(), None, "two bytes are still unmapped");
        assert_eq!(s.take(4), (4, b"ef".to_vec()));
        assert_eq!(s.fin_due(), Some(6));
        assert_eq!(s.fin_due(), None, "one DATA_FIN");
    }
}
