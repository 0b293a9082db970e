//! tquic's public snapshots (from pagepath's patch) as pagepath-multipath's.

use pagepath_multipath::{PathId, PathSnapshot, StreamId, StreamSnapshot};
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

/// What the application knows of a stream and tquic does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamFacts {
    /// The bytes the stream will carry in all (a response's recorded body), while tquic does not
    /// yet know its final size; a lower bound, the HTTP/3 framing aside.
    pub total: Option<u64>,
    /// The resource's critical-path priority from the page's graph, lower more critical.
    pub critical_priority: Option<u32>,
}

/// RFC 9218's least urgent; tquic gives streams without a priority 127.
const LEAST_URGENT: u8 = 7;

/// A path with an address in `backup` at either end is kept as backup.
pub fn paths(from: &[tquic::PathSnapshot], backup: &[IpAddr], into: &mut Vec<PathSnapshot>) {
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
        // tquic 1.6.0 reads no PATH_STATUS frames, so the endpoint's own configuration says.
        backup: backup.contains(&p.local.ip()) || backup.contains(&p.remote.ip()),
    }));
}

/// `ready_at` keeps, for each stream in the list, when it first appeared there; a stream that
/// left the list (all sent) and comes back with new data is ready anew. With a total from `facts`,
/// `remaining` is what of the whole is unsent, not only what the application has written so far.
pub fn streams(
    from: &[tquic::StreamSnapshot],
    now: Duration,
    facts: &HashMap<u64, StreamFacts>,
    ready_at: &mut HashMap<u64, Duration>,
    into: &mut Vec<StreamSnapshot>,
) {
    let before = std::mem::take(ready_at);
    into.clear();
    for s in from {
        let since = *ready_at.entry(s.stream_id).or_insert_with(|| before.get(&s.stream_id).copied().unwrap_or(now));
        let fact = facts.get(&s.stream_id).copied().unwrap_or_default();
        let written = s.sent + s.unsent;
        let total = s.final_size.or(fact.total.map(|t| t.max(written)));
        into.push(StreamSnapshot {
            id: StreamId(s.stream_id),
            // what is left of the whole, and what was lost and waits to be sent again: a stream with
            // only lost bytes left still has something for a scheduler to place
            remaining: total.map_or(s.unsent, |t| t.saturating_sub(s.sent)) + s.retransmit,
            sent: s.sent,
            total,
            urgency: s.urgency.min(LEAST_URGENT),
            incremental: s.incremental,
            critical_priority: fact.critical_priority,
            ready_at: since,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tquic_stream(stream_id: u64, sent: u64, unsent: u64, final_size: Option<u64>) -> tquic::StreamSnapshot {
        tquic::StreamSnapshot { stream_id, unsent, sent, retransmit: 0, final_size, urgency: 3, incremental: false }
    }

    fn convert(from: &[tquic::StreamSnapshot], facts: &HashMap<u64, StreamFacts>) -> Vec<StreamSnapshot> {
        let mut into = Vec::new();
        streams(from, Duration::ZERO, facts, &mut HashMap::new(), &mut into);
        into
    }

    #[test]
    fn bytes_lost_and_waiting_to_be_resent_count_as_remaining() {
        // all 900 B sent once, 300 of them lost: the stream is not done, a scheduler must see it
        let lost = tquic::StreamSnapshot { stream_id: 0, unsent: 0, sent: 900, retransmit: 300, final_size: Some(900), urgency: 3, incremental: false };
        let s = convert(&[lost], &HashMap::new());
        assert_eq!(s[0].remaining, 300);
    }

    #[test]
    fn the_servers_facts_give_the_whole_size_and_the_graphs_priority() {
        // 100 000 B of body, 20 000 written so far, 5 000 of them sent
        let from = [tquic_stream(0, 5_000, 15_000, None), tquic_stream(4, 0, 300, None)];
        let facts = HashMap::from([(0, StreamFacts { total: Some(100_000), critical_priority: Some(2) })]);
        let s = convert(&from, &facts);
        assert_eq!((s[0].total, s[0].remaining, s[0].critical_priority), (Some(100_000), 95_000, Some(2)));
        // without facts, what tquic knows
        assert_eq!((s[1].total, s[1].remaining, s[1].critical_priority), (None, 300, None));
        // tquic's final size wins, and a total below what was written (framing) is raised to it
        let from = [tquic_stream(0, 5_000, 95_080, Some(100_080)), tquic_stream(4, 0, 320, None)];
        let facts = HashMap::from([(0, StreamFacts { total: Some(100_000), critical_priority: None }), (4, StreamFacts { total: Some(300), critical_priority: None })]);
        let s = convert(&from, &facts);
        assert_eq!((s[0].total, s[0].remaining), (Some(100_080), 95_080));
        assert_eq!((s[1].total, s[1].remaining), (Some(320), 320));
    }
}
