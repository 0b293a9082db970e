//! Per-path traffic of a connection, as tquic counted it on this side.

use crate::service::PathLog;
use tquic::Connection;

pub fn path_logs(conn: &mut Connection) -> Vec<PathLog> {
    let mut tuples: Vec<_> = conn.paths_iter().collect();
    // tquic lists its paths in no stable order; by address reads the same from run to run.
    tuples.sort_by_key(|t| (t.local, t.remote));
    tuples
        .into_iter()
        .filter_map(|t| {
            let s = conn.get_path_stats(t.local, t.remote).ok()?;
            Some(PathLog {
                local: t.local.to_string(),
                remote: t.remote.to_string(),
                bytes_sent: s.sent_bytes,
                bytes_received: s.recv_bytes,
                packets_sent: s.sent_count,
                packets_lost: s.lost_count,
                // tquic reports its initial guess until an acknowledgement gives a sample.
                rtt_us: (s.acked_count > 0).then_some(s.srtt),
            })
        })
        .collect()
}
