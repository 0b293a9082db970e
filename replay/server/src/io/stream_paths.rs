//! streams.jsonl's `paths`: what each path carried of one response and when
//! (docs/formats/replay-server.md). Measured per packet where a pagepath scheduler drives multipath
//! QUIC (io/quic/carried_paths.rs); on a single-path connection, the one path and what the server
//! wrote to it, which is all the transport says.

use crate::core::schedule::StreamTimes;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamPathLog {
    /// The path's id as the transport numbers them (tquic's), 0 on a single-path connection.
    pub path: u64,
    pub local: String,
    pub remote: String,
    pub bytes: u64,
    /// None where the transport does not say (TCP, single-path QUIC).
    pub packets: Option<u64>,
    pub first_us: u64,
    pub last_us: u64,
}

/// One entry for the connection's only path: the body bytes handed to the transport, from the
/// first chunk to the last (to `now_us` for a response given up part-way); none if nothing went.
pub fn written(local: &str, remote: &str, times: &StreamTimes, now_us: u64) -> Vec<StreamPathLog> {
    let Some(first_us) = times.first_chunk_us else { return Vec::new() };
    if times.bytes == 0 {
        return Vec::new();
    }
    let last_us = times.last_chunk_us.unwrap_or(now_us).max(first_us);
    vec![StreamPathLog { path: 0, local: local.into(), remote: remote.into(), bytes: times.bytes, packets: None, first_us, last_us }]
}
