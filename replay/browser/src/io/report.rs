//! What `pagepath-browser run` prints: the client's part of a run result (run-result.md), which
//! `pagepath replay` completes with the site, configuration and the emulator's path counters.

use super::phases::Phases;
use super::transport::ConnectionRecord;
use crate::core::{Metrics, NodeTiming};
use serde::Serialize;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub kind: &'static str,
    /// "ok", "incomplete" (ended at the timeout or unable to go on) or "failed".
    pub status: &'static str,
    pub error: Option<String>,
    pub started_at: String,
    pub timeout_ms: f64,
    pub metrics: Metrics,
    pub node_timings: Vec<NodeTiming>,
    pub connections: Vec<ConnectionRecord>,
    pub requests: Vec<RequestRecord>,
    pub warnings: Vec<String>,
    pub versions: Versions,
}

#[derive(Serialize)]
pub struct Versions {
    #[serde(rename = "pagepath-browser")]
    pub browser: &'static str,
}

/// One fetch the model asked for, redirects followed.
#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct RequestRecord {
    pub url: String,
    pub node_id: String,
    pub status: Option<u16>,
    pub body_bytes: Option<u64>,
    pub start_ms: f64,
    pub end_ms: Option<f64>,
    /// Not told by the transports: which connection carried it.
    pub connection: Option<String>,
    /// None when the fetch failed or the transport did not say when it sent it.
    pub phases: Option<Phases>,
}
