//! What each path carried of each stream, counted from every packet tquic reports sent: the record
//! of a scheduler's choices per path and per resource (streams.jsonl's `paths`, run results'
//! `requests[].paths`).

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;
use tquic::SentStreamData;

/// One path's share of one stream: STREAM frame payload bytes, retransmissions and redundant
/// copies included, the packets that carried them, and when the first and the last left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathCarried {
    pub bytes: u64,
    pub packets: u64,
    pub first: Instant,
    pub last: Instant,
}

#[derive(Default)]
pub struct CarriedLog {
    by_stream: HashMap<u64, BTreeMap<usize, PathCarried>>,
}

impl CarriedLog {
    pub fn on_sent(&mut self, now: Instant, path: usize, data: &[SentStreamData]) {
        for (i, d) in data.iter().enumerate() {
            // A bare FIN carries none of the stream's bytes.
            if d.length == 0 {
                continue;
            }
            let paths = self.by_stream.entry(d.stream_id).or_default();
            let c = paths.entry(path).or_insert(PathCarried { bytes: 0, packets: 0, first: now, last: now });
            c.bytes += d.length as u64;
            // A packet counts once for a stream, however many of its frames it holds.
            if !data[..i].iter().any(|e| e.stream_id == d.stream_id && e.length > 0) {
                c.packets += 1;
            }
            c.last = now;
        }
    }

    /// What `stream` has carried so far, by path id in ascending order; forgotten afterwards.
    pub fn take(&mut self, stream: u64) -> Vec<(usize, PathCarried)> {
        self.by_stream.remove(&stream).map(|m| m.into_iter().collect()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn frame(stream_id: u64, offset: u64, length: usize) -> SentStreamData {
        SentStreamData { stream_id, offset, length, fin: false }
    }

    #[test]
    fn counts_bytes_packets_and_times_per_stream_and_path() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut log = CarriedLog::default();
        log.on_sent(at(0), 0, &[frame(4, 0, 1000), frame(8, 0, 200)]);
        log.on_sent(at(5), 1, &[frame(4, 1000, 1200)]);
        // two frames of one stream in a packet: one packet
        log.on_sent(at(7), 0, &[frame(4, 2200, 100), frame(4, 2300, 50)]);
        // a retransmission of lost bytes counts again
        log.on_sent(at(30), 1, &[frame(4, 0, 1000)]);
        log.on_sent(at(31), 1, &[SentStreamData { stream_id: 4, offset: 2350, length: 0, fin: true }]);
        let carried = log.take(4);
        assert_eq!(
            carried,
            vec![
                (0, PathCarried { bytes: 1150, packets: 2, first: at(0), last: at(7) }),
                (1, PathCarried { bytes: 2200, packets: 2, first: at(5), last: at(30) }),
            ]
        );
        assert!(log.take(4).is_empty(), "taken once");
        assert_eq!(log.take(8), vec![(0, PathCarried { bytes: 200, packets: 1, first: at(0), last: at(0) })]);
    }
}
