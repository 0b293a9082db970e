//! tquic's public snapshots (from pagepath's patch) as pagepath-multipath's.

use pagepath_multipath::{PathId, PathSnapshot, StreamId, StreamSnapshot};
use std::collections::HashMap;
use std::time::Duration;

/// RFC 9218's least urgent; tquic gives streams without a priority 127.
const LEAST_URGENT: u8 = 7;

pub fn paths(from: &[tquic::PathSnapshot], into: &mut Vec<PathSnapshot>) {
    into.clear();
    into.extend(from.iter().map(|p| PathSnapshot {
        id: PathId(p.path_id),
        srtt: p.srtt,
        rttvar: p.rttvar,
        min_rtt: p.min_rtt,
        cwnd: p.cwnd,
        bytes_in_flight: p.bytes_in_flight,
        pacing_rate: p.pacing_rate,
        in_slow_start: p.in_slow_start,
        ssthresh: p.ssthresh,
        lost_packets: p.lost_packets,
        usable: p.active && p.validated,
        can_send: p.can_send,
        // tquic 1.6.0 reads no PATH_STATUS frames, so it has no backup paths.
        backup: false,
    }));
}

/// `ready_at` keeps, for each stream in the list, when it first appeared there; a stream that
/// left the list (all sent) and comes back with new data is ready anew.
pub fn streams(from: &[tquic::StreamSnapshot], now: Duration, ready_at: &mut HashMap<u64, Duration>, into: &mut Vec<StreamSnapshot>) {
    let before = std::mem::take(ready_at);
    into.clear();
    for s in from {
        let since = *ready_at.entry(s.stream_id).or_insert_with(|| before.get(&s.stream_id).copied().unwrap_or(now));
        into.push(StreamSnapshot {
            id: StreamId(s.stream_id),
            remaining: s.unsent,
            sent: s.sent,
            total: s.final_size,
            urgency: s.urgency.min(LEAST_URGENT),
            incremental: s.incremental,
            // The graph's priorities are the server's to add: tquic does not know them.
            critical_priority: None,
            ready_at: since,
        });
    }
}
