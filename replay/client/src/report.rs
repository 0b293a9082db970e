//! The JSON line printed when every response is in.

use crate::fetch::Exchange;
use serde::Serialize;
use tquic::Connection;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub protocol: &'static str,
    pub transport: &'static str,
    pub responses: Vec<ResponseReport>,
    pub paths: Vec<PathReport>,
    pub handshake_us: Option<u64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseReport {
    pub target: String,
    pub status: Option<u16>,
    pub bytes: u64,
    /// Hex SHA-256 of the body.
    pub sha256: String,
    pub start_us: Option<u64>,
    pub headers_us: Option<u64>,
    pub end_us: Option<u64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathReport {
    pub local: String,
    pub remote: String,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub packets_sent: u64,
    pub packets_lost: u64,
    pub rtt_us: Option<u64>,
}

pub fn response(e: &Exchange) -> ResponseReport {
    let digest = e.body_digest.clone().finish();
    ResponseReport {
        target: e.target.path.clone(),
        status: e.status,
        bytes: e.bytes,
        sha256: digest.as_ref().iter().map(|b| format!("{b:02x}")).collect(),
        start_us: e.start_us,
        headers_us: e.headers_us,
        end_us: e.end_us,
    }
}

/// Each path's traffic as counted on this side, in address order.
pub fn paths(conn: &mut Connection) -> Vec<PathReport> {
    let mut tuples: Vec<_> = conn.paths_iter().collect();
    tuples.sort_by_key(|t| (t.local, t.remote));
    tuples
        .into_iter()
        .filter_map(|t| {
            let s = conn.get_path_stats(t.local, t.remote).ok()?;
            Some(PathReport {
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
