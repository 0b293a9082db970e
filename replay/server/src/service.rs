//! The replay as the protocol front ends see it: what to answer to a request (matching, body,
//! processing delay, priority), a fresh response schedule per connection, and the logs. Shared
//! by every connection of every origin, HTTP/1.1 and HTTP/2 over TCP as well as HTTP/3.

use crate::core::archive::{Archive, Origin};
use crate::core::delay::DelayModel;
use crate::core::matcher::{MatchKind, Matcher};
use crate::core::priority::{priority_for, Priority, PriorityScheme};
use crate::core::schedule::{ConnectionSchedule, ScheduleConfig, StreamTimes};
use crate::io::logs::LogFiles;
use crate::io::stream_paths::StreamPathLog;
use bytes::Bytes;
use serde::Serialize;
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OriginServer {
    #[serde(serialize_with = "crate::io::origins_file::origin_text")]
    pub origin: Origin,
    pub address: IpAddr,
    pub port: u16,
}

pub struct RequestHead<'a> {
    pub origin: usize,
    pub method: &'a str,
    pub target: &'a str,
    pub priority_header: Option<&'a str>,
}

pub struct Prepared {
    pub status: u16,
    pub headers: Arc<[(String, String)]>,
    pub body: Bytes,
    pub delay_us: u64,
    pub priority: Priority,
    /// The graph's `criticalPathRank` of the resource, whatever the priority scheme.
    pub critical_rank: Option<i64>,
    pub url: String,
    pub kind: MatchKind,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamLog {
    pub connection: u64,
    pub stream: u64,
    pub origin: String,
    pub method: String,
    pub url: String,
    pub status: u16,
    pub kind: MatchKind,
    pub delay_us: u64,
    pub priority: Priority,
    pub times: StreamTimes,
    /// What each path carried of the response; None where the transport does not say (MPTCP,
    /// tquic's own multipath schedulers).
    pub paths: Option<Vec<StreamPathLog>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathLog {
    pub local: String,
    pub remote: String,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub packets_sent: u64,
    pub packets_lost: u64,
    pub rtt_us: Option<u64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionLog {
    pub connection: u64,
    pub origin: String,
    pub protocol: String,
    pub transport: String,
    pub peer: String,
    pub opened_us: u64,
    pub closed_us: u64,
    pub requests: u64,
    pub paths: Vec<PathLog>,
    /// The controller the connection ran with, as its stack reports it; null when unknown.
    pub congestion: Option<String>,
}

/// Everything a replay answers with, loaded and checked before any server listens.
pub struct Content {
    pub archive: Archive,
    /// One per archive resource; responses without a recorded body are empty.
    pub bodies: Vec<Bytes>,
    pub delays: DelayModel,
    pub critical_ranks: HashMap<String, i64>,
    /// The delay samples missing delays are drawn from, kept beside the logs for reruns.
    pub samples: crate::core::delay::DelaySamples,
}

pub struct Service {
    content: Content,
    matcher: Mutex<Matcher>,
    origins: Vec<OriginServer>,
    priority: PriorityScheme,
    schedule: ScheduleConfig,
    logs: Mutex<LogFiles>,
    start: Instant,
    /// The wall clock at `start`, for readers putting the logs' times on theirs.
    start_wall: SystemTime,
    next_connection: AtomicU64,
    /// Connections logged so far: once it reaches the ids handed out, every connection is logged.
    logged_connections: AtomicU64,
    stopping: AtomicBool,
    cert_file: PathBuf,
    key_file: PathBuf,
    qlog_dir: Option<PathBuf>,
    congestion: String,
    backup_peers: Vec<std::net::IpAddr>,
}

pub struct ServiceParts {
    pub content: Content,
    pub origins: Vec<OriginServer>,
    pub priority: PriorityScheme,
    pub schedule: ScheduleConfig,
    pub logs: LogFiles,
    pub cert_file: PathBuf,
    pub key_file: PathBuf,
    pub qlog_dir: Option<PathBuf>,
    pub congestion: String,
    pub backup_peers: Vec<std::net::IpAddr>,
}

impl Service {
    pub fn new(p: ServiceParts) -> Service {
        let matcher = Matcher::new(&p.content.archive);
        Service {
            content: p.content,
            matcher: Mutex::new(matcher),
            origins: p.origins,
            priority: p.priority,
            schedule: p.schedule,
            logs: Mutex::new(p.logs),
            // tquic's clock: the wall clock, or the simulator's virtual time (replay/sim).
            start: tquic::clock::now(),
            start_wall: SystemTime::now(),
            next_connection: AtomicU64::new(1),
            logged_connections: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
            cert_file: p.cert_file,
            key_file: p.key_file,
            qlog_dir: p.qlog_dir,
            congestion: p.congestion,
            backup_peers: p.backup_peers,
        }
    }

    pub fn origins(&self) -> &[OriginServer] {
        &self.origins
    }

    pub fn prepare(&self, req: &RequestHead) -> Prepared {
        let origin = &self.origins[req.origin].origin;
        let url = format!("{origin}{}", req.target);
        let found = self.matcher.lock().unwrap().lookup(origin, req.method, req.target);
        let Some(i) = found.resource else {
            return not_recorded(req.method, url);
        };
        let r = &self.content.archive.resources[i];
        let (delay_us, _) = self.content.delays.delay_us(i);
        let priority = priority_for(self.priority, Some(r), &self.content.critical_ranks, req.priority_header);
        let body = if req.method == "HEAD" { Bytes::new() } else { self.content.bodies[i].clone() };
        let critical_rank = self.content.critical_ranks.get(&r.url).copied();
        Prepared { status: r.status, headers: r.headers.clone(), body, delay_us, priority, critical_rank, url, kind: found.kind }
    }

    pub fn new_schedule(&self) -> ConnectionSchedule {
        ConnectionSchedule::new(self.schedule)
    }

    pub fn backup_peers(&self) -> &[std::net::IpAddr] {
        &self.backup_peers
    }

    pub fn congestion(&self) -> &str {
        &self.congestion
    }

    pub fn chunk_bytes(&self) -> u64 {
        self.schedule.chunk_bytes
    }

    pub fn next_connection_id(&self) -> u64 {
        self.next_connection.fetch_add(1, Ordering::Relaxed)
    }

    pub fn now_us(&self) -> u64 {
        tquic::clock::now().saturating_duration_since(self.start).as_micros() as u64
    }

    /// `t` on the logs' clock (µs since the server started).
    pub fn us_at(&self, t: Instant) -> u64 {
        t.saturating_duration_since(self.start).as_micros() as u64
    }

    /// The wall clock when the logs' time 0 was.
    pub fn start_wall(&self) -> SystemTime {
        self.start_wall
    }

    /// The logs' time 0 as ms since the Unix epoch (origins.json's `clockStartUnixMs`).
    pub fn clock_start_unix_ms(&self) -> f64 {
        self.start_wall.duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64() * 1000.0).unwrap_or(0.0)
    }

    pub fn log_stream(&self, log: StreamLog) {
        self.logs.lock().unwrap().stream(&log);
    }

    pub fn log_connection(&self, log: ConnectionLog) {
        self.logs.lock().unwrap().connection(&log);
        self.logged_connections.fetch_add(1, Ordering::SeqCst);
    }

    /// True when every connection opened so far has been logged (each logs itself as it ends).
    pub fn all_connections_logged(&self) -> bool {
        self.logged_connections.load(Ordering::SeqCst) + 1 >= self.next_connection.load(Ordering::SeqCst)
    }

    /// Flushes the logs and rewrites the fidelity report; called periodically and at the end.
    pub fn write_reports(&self) -> Result<(), String> {
        let report = self.matcher.lock().unwrap().report(&self.content.archive);
        self.logs.lock().unwrap().flush_with_fidelity(&report)
    }

    pub fn cert_file(&self) -> &Path {
        &self.cert_file
    }

    pub fn key_file(&self) -> &Path {
        &self.key_file
    }

    pub fn qlog_dir(&self) -> Option<&Path> {
        self.qlog_dir.as_deref()
    }

    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

fn not_recorded(method: &str, url: String) -> Prepared {
    let text = format!("pagepath replay: nothing was recorded for {method} {url}\n");
    Prepared {
        status: 404,
        headers: Arc::from([("content-type".to_string(), "text/plain; charset=utf-8".to_string())]),
        body: Bytes::from(text),
        delay_us: 0,
        priority: Priority::default(),
        critical_rank: None,
        url,
        kind: MatchKind::Unmatched,
    }
}
