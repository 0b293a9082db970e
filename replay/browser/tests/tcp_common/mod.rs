//! What the TCP transport tests share: a synthetic recording, the real replay server serving it
//! on 127.0.1.x, and a page's worth of fetches run to their end.
#![allow(dead_code)]

use pagepath_browser::core::Pool;
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::tcp::{TcpProtocol, TcpTransport};
use pagepath_browser::io::transport::{ConnectionRecord, Event, Fetch, Http1Mode, OriginAddress, Transport, TransportConfig};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// Body sizes that cross the edges that matter: one TCP segment, 16 KiB scheduler chunks, reads.
pub const SIZES: [usize; 8] = [17, 1_460, 16_384, 16_385, 65_536, 100_003, 700_000, 2_500_000];

pub struct Resource {
    pub path: String,
    pub bytes: usize,
    pub delay_ms: f64,
}

pub fn resources(sizes: &[usize], delay_ms: f64) -> Vec<Resource> {
    sizes.iter().enumerate().map(|(i, &bytes)| Resource { path: format!("/r{i}.bin"), bytes, delay_ms }).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pagepath-tcp-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// archive.json and bodies/ (docs/formats/recording.md), each body its size in one letter.
fn write_recording(dir: &Path, sites: &[(&str, &[Resource])]) {
    std::fs::create_dir_all(dir.join("bodies")).unwrap();
    let entries: Vec<Value> = sites
        .iter()
        .flat_map(|&(origin, resources)| resources.iter().map(move |r| (origin, r)))
        .enumerate()
        .map(|(i, (origin, r))| {
            let body = vec![b'A' + (i % 26) as u8; r.bytes];
            let digest = ring::digest::digest(&ring::digest::SHA256, &body);
            let sha256: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
            std::fs::write(dir.join("bodies").join(&sha256), &body).unwrap();
            json!({
                "id": format!("{}", 1000 + i), "url": format!("{origin}{}", r.path), "method": "GET",
                "requestHeaders": {}, "resourceType": "Other",
                "priority": {"initial": "High", "final": "High"},
                "times": {"start": i, "response": i, "end": i, "wallTime": 0},
                "response": {"status": 200, "statusText": "OK", "headers": {"content-type": "application/octet-stream"},
                             "mimeType": "application/octet-stream", "protocol": "h2"},
                "fromCache": null, "sizes": {"encodedDataLength": r.bytes, "bodySize": r.bytes},
                "body": {"sha256": sha256, "size": r.bytes, "base64Encoded": true},
                "serverDelay": {"ms": r.delay_ms, "method": "ttfb-minus-handshake-rtt", "rttMs": null},
            })
        })
        .collect();
    std::fs::write(dir.join("archive.json"), serde_json::to_string(&entries).unwrap()).unwrap();
}

pub struct ReplayServer {
    child: Child,
    dir: PathBuf,
    pub out: PathBuf,
    pub origins: Vec<OriginAddress>,
    pub spki_hash: String,
}

impl ReplayServer {
    /// Serves `resources` from `origin` with pagepath-server; `args` add to `serve`'s.
    pub fn start(name: &str, origin: &str, first_address: &str, resources: &[Resource], args: &[&str]) -> ReplayServer {
        ReplayServer::start_sites(name, &[(origin, resources)], first_address, args)
    }

    /// Serves each origin's resources, each origin from its own address from `first_address` up.
    pub fn start_sites(name: &str, sites: &[(&str, &[Resource])], first_address: &str, args: &[&str]) -> ReplayServer {
        let dir = scratch(name);
        let recording = dir.join("recording");
        write_recording(&recording, sites);
        let out = dir.join("out");
        let binary = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/pagepath-server");
        assert!(binary.is_file(), "{} is missing: cargo build --release -p pagepath-server", binary.display());
        let mut child = Command::new(&binary)
            .arg("serve")
            .arg(&recording)
            .arg("--out")
            .arg(&out)
            .args(["--first-address", first_address])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let ready: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("pagepath-server did not get ready ({e}): {line:?}"));
        let map = read_origins(Path::new(ready["nameMap"].as_str().unwrap())).unwrap();
        assert_eq!(map.spki_hash, ready["spkiHash"].as_str().unwrap());
        ReplayServer { child, dir, out, origins: map.origins, spki_hash: map.spki_hash }
    }

    /// Stops the server so that it writes its logs, and returns streams.jsonl's lines.
    pub fn stop(&mut self) -> Vec<Value> {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
        let text = std::fs::read_to_string(self.out.join("streams.jsonl")).unwrap_or_default();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

impl Drop for ReplayServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn config(origins: Vec<OriginAddress>, spki_hash: &str, http1: Http1Mode, connections_per_origin: usize) -> TransportConfig {
    TransportConfig {
        origins,
        locals: Vec::new(),
        spki_hash: spki_hash.to_string(),
        multipath: false,
        http1,
        connections_per_origin,
        scheduler: pagepath_tquic_scheduler::Choice::MinRtt,
        started: Instant::now(),
    }
}

pub struct Outcome {
    pub events: HashMap<usize, Vec<Event>>,
    pub records: Vec<ConnectionRecord>,
    /// The origins of the Http2Connection events, in order, and when each came.
    pub http2: Vec<(String, Instant)>,
}

/// GETs every URL at once (request i has id i).
pub fn fetch_all(config: TransportConfig, protocol: TcpProtocol, urls: &[String], priority: Option<&str>) -> Outcome {
    let fetches = urls
        .iter()
        .enumerate()
        .map(|(id, url)| Fetch { id, url: url.clone(), method: "GET".into(), priority: priority.map(str::to_string), net_priority: None, pool: Pool::default() })
        .collect();
    run_fetches(config, protocol, fetches)
}

/// Starts every fetch at once, waits until each is done or failed, finishes.
pub fn run_fetches(config: TransportConfig, protocol: TcpProtocol, fetches: Vec<Fetch>) -> Outcome {
    let (events, received) = channel();
    let mut transport: Box<dyn Transport> = Box::new(TcpTransport::new(config, protocol, events).unwrap());
    let count = fetches.len();
    for fetch in fetches {
        transport.fetch(fetch);
    }
    let mut by_id: HashMap<usize, Vec<Event>> = HashMap::new();
    let mut http2 = Vec::new();
    let mut ended = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while ended < count {
        let event = received.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("every fetch ends within 60 s");
        let id = match &event {
            Event::Headers { id, .. } | Event::Progress { id, .. } => *id,
            Event::Done { id, .. } | Event::Failed { id, .. } => {
                ended += 1;
                *id
            }
            Event::Http2Connection { origin, at } => {
                http2.push((origin.clone(), *at));
                continue;
            }
        };
        by_id.entry(id).or_default().push(event);
    }
    Outcome { events: by_id, records: transport.finish(), http2 }
}

fn at(event: &Event) -> Instant {
    match event {
        Event::Headers { at, .. } | Event::Progress { at, .. } | Event::Done { at, .. } | Event::Failed { at, .. } | Event::Http2Connection { at, .. } => *at,
    }
}

/// Headers 200, Progress rising to exactly `bytes`, Done with `bytes`, in time order.
pub fn assert_fetched(events: &[Event], bytes: u64, what: &str) {
    assert!(matches!(events.first(), Some(Event::Headers { status: 200, .. })), "{what}: starts with Headers 200: {events:?}");
    assert!(matches!(events.last(), Some(Event::Done { status: 200, body_bytes, .. }) if *body_bytes == bytes), "{what}: ends Done with {bytes} bytes: {:?}", events.last());
    let progress: Vec<u64> = events.iter().filter_map(|e| if let Event::Progress { received, .. } = e { Some(*received) } else { None }).collect();
    assert!(progress.windows(2).all(|w| w[0] < w[1]), "{what}: Progress rises: {progress:?}");
    assert_eq!(progress.last().copied().unwrap_or(0), bytes, "{what}: Progress ends at the body size");
    assert_eq!(events.len(), progress.len() + 2, "{what}: only Headers, Progress and Done: {events:?}");
    assert!(events.windows(2).all(|w| at(&w[0]) <= at(&w[1])), "{what}: events in time order");
}

/// Records numbered tcp-1.. in order, closed after they opened, carrying at least `body_bytes` down.
pub fn assert_records(records: &[ConnectionRecord], protocol: &str, transport: &str, body_bytes: u64) {
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.id, format!("tcp-{}", i + 1));
        assert_eq!((r.protocol.as_str(), r.transport.as_str()), (protocol, transport), "{r:?}");
        let closed = r.closed_ms.unwrap_or_else(|| panic!("{} has closed: {r:?}", r.id));
        assert!(0.0 <= r.opened_ms && r.opened_ms <= closed, "{r:?}");
    }
    let down: u64 = records.iter().flat_map(|r| &r.paths).map(|p| p.bytes_down.unwrap()).sum();
    assert!(down >= body_bytes, "the connections carried {down} bytes down, less than the bodies' {body_bytes}: {records:?}");
}

pub fn urls(origin: &str, resources: &[Resource]) -> Vec<String> {
    resources.iter().map(|r| format!("{origin}{}", r.path)).collect()
}

pub fn total(resources: &[Resource]) -> u64 {
    resources.iter().map(|r| r.bytes as u64).sum()
}
