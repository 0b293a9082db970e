//! The receiving side of an MPTCP connection's data stream (RFC 8684 §3.3): bytes come over any
//! subflow, in any order and, from a redundant scheduler, more than once; the application reads
//! them in data sequence order, and reaches the end at the DATA_FIN.

use std::collections::{BTreeMap, VecDeque};

#[derive(Default)]
pub struct Reassembly {
    /// The next data sequence number the application has not been given.
    next: u64,
    readable: VecDeque<u8>,
    /// Bytes beyond a gap, by their first data sequence number.
    early: BTreeMap<u64, Vec<u8>>,
    fin: Option<u64>,
}

impl Reassembly {
    pub fn insert(&mut self, dsn: u64, bytes: Vec<u8>) {
        let end = dsn + bytes.len() as u64;
        if end <= self.next {
            return;
        }
        match self.early.get(&dsn) {
            Some(held) if held.len() >= bytes.len() => {}
            _ => {
                self.early.insert(dsn, bytes);
            }
        }
        while let Some(entry) = self.early.first_entry() {
            let start = *entry.key();
            if start > self.next {
                break;
            }
            let bytes = entry.remove();
            let skip = (self.next - start) as usize;
            if skip < bytes.len() {
                self.readable.extend(&bytes[skip..]);
                self.next = start + bytes.len() as u64;
            }
        }
    }

    pub fn finish_at(&mut self, dsn: u64) {
        self.fin = Some(dsn);
    }

    /// Moves up to `out.len()` in-order bytes into `out`.
    pub fn read(&mut self, out: &mut [u8]) -> usize {
        let n = out.len().min(self.readable.len());
        for (o, b) in out.iter_mut().zip(self.readable.drain(..n)) {
            *o = b;
        }
        n
    }

    /// Any of the peer's data has come, in order or not.
    pub fn heard(&self) -> bool {
        self.next > 0 || !self.early.is_empty()
    }

    pub fn has_readable(&self) -> bool {
        !self.readable.is_empty()
    }

    /// Everything up to the DATA_FIN has been read.
    pub fn at_end(&self) -> bool {
        self.readable.is_empty() && self.fin.is_some_and(|f| self.next >= f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(r: &mut Reassembly) -> Vec<u8> {
        let mut out = vec![0; 1 << 16];
        let n = r.read(&mut out);
        out.truncate(n);
        out
    }

    #[test]
    fn bytes_are_read_in_data_order_whatever_order_they_come_in() {
        let mut r = Reassembly::default();
        r.insert(5, b"world".to_vec());
        assert!(!r.has_readable(), "a gap holds later bytes back");
        r.insert(0, b"hello".to_vec());
        assert_eq!(read_all(&mut r), b"helloworld");
        r.finish_at(10);
        assert!(r.at_end());
    }

    #[test]
    fn copies_and_overlaps_are_read_once() {
        let mut r = Reassembly::default();
        r.insert(0, b"abc".to_vec());
        r.insert(0, b"abc".to_vec());
        r.insert(2, b"cdef".to_vec());
        r.insert(4, b"ef".to_vec());
        assert_eq!(read_all(&mut r), b"abcdef");
        r.finish_at(8);
        assert!(!r.at_end(), "two bytes are still to come");
        r.insert(6, b"gh".to_vec());
        assert_eq!(read_all(&mut r), b"gh");
        assert!(r.at_end());
    }
}
