//! The JSON line printed when every response is in.

use crate::fetch::Exchange;
use serde::Serialize;
use pagepath_server::service::PathLog;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub protocol: &'static str,
    pub transport: &'static str,
    pub responses: Vec<ResponseReport>,
    pub paths: Vec<PathLog>,
    pub handshake_us: Option<u64>,
    /// The CPU time (user and system) this process has used, µs: what a transfer costs the client.
    pub cpu_us: u64,
}

/// This process's user and system CPU time so far, µs.
pub fn cpu_us() -> u64 {
    // SAFETY: getrusage fills the struct it is given and touches nothing else.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    us(usage.ru_utime) + us(usage.ru_stime)
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
