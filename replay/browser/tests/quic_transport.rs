//! QuicTransport against the real replay server (target/release/pagepath-server, built first with
//! `cargo build --release -p pagepath-server`) on loopback, serving a synthetic recording.

use pagepath_browser::core::Pool;
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::quic::{spki_hash, QuicTransport};
use pagepath_browser::io::transport::{ConnectionRecord, Event, Fetch, Http1Mode, OriginAddress, Transport, TransportConfig};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A connection pool for requests without credentials, of the main frame.
const ANONYMOUS: Pool = Pool { privacy_mode: true, partitioned: false };

const SERVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/pagepath-server");
const WAIT: Duration = Duration::from_secs(30);

/// A replay server on its own folder, stopped (SIGTERM) when dropped.
struct Replay {
    child: Child,
    dir: PathBuf,
    spki_hash: String,
}

impl Replay {
    /// Serves `resources` (URL, body size, processing delay in ms) from a synthetic recording.
    fn start(name: &str, resources: &[(&str, usize, u64)], first_address: &str, transport: &str, extra: &[&str]) -> Replay {
        let dir = std::env::temp_dir().join(format!("pagepath-quic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write_recording(&dir.join("rec"), resources);
        let mut args = vec![
            "serve",
            "rec",
            "--out",
            "out",
            "--protocol",
            "h3",
            "--transport",
            transport,
            "--first-address",
            first_address,
            "--no-qlog",
        ];
        args.extend_from_slice(extra);
        let mut child = Command::new(SERVER)
            .args(&args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("pagepath-server runs (build it first)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let ready: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("no ready line from pagepath-server ({e}): {line:?}"));
        let spki_hash = ready["spkiHash"].as_str().unwrap().to_string();
        Replay { child, dir, spki_hash }
    }

    fn config(&self, locals: &[&str], multipath: bool) -> TransportConfig {
        let map = read_origins(&self.dir.join("out/origins.json")).unwrap();
        TransportConfig {
            origins: map.origins,
            locals: locals.iter().map(|l| l.parse::<IpAddr>().unwrap()).collect(),
            spki_hash: self.spki_hash.clone(),
            multipath,
            http1: Http1Mode::KeepAlive,
            connections_per_origin: 1,
            scheduler: pagepath_tquic_scheduler::Choice::RoundRobin,
            started: Instant::now(),
        }
    }

    /// Stops the server and returns its streams.jsonl lines.
    fn stop(mut self) -> Vec<serde_json::Value> {
        // SAFETY: signals our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        assert!(self.child.wait().unwrap().success());
        let text = std::fs::read_to_string(self.dir.join("out/streams.jsonl")).unwrap();
        let _ = std::fs::remove_dir_all(&self.dir);
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        // SAFETY: signals our own child, if still running (a failed test).
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

/// archive.json and bodies/ as docs/formats/recording.md has them; bodies are `size` bytes of
/// one letter each.
fn write_recording(dir: &Path, resources: &[(&str, usize, u64)]) {
    std::fs::create_dir_all(dir.join("bodies")).unwrap();
    let archive: Vec<serde_json::Value> = resources
        .iter()
        .enumerate()
        .map(|(i, (url, size, delay_ms))| {
            let body = vec![b'A' + (i % 26) as u8; *size];
            let sha256: String = ring::digest::digest(&ring::digest::SHA256, &body).as_ref().iter().map(|b| format!("{b:02x}")).collect();
            std::fs::write(dir.join("bodies").join(&sha256), &body).unwrap();
            serde_json::json!({
                "id": format!("{}", 1000 + i), "url": url, "method": "GET", "requestHeaders": {},
                "resourceType": "Other", "priority": {"initial": "High", "final": "High"},
                "times": {"start": i, "response": i, "end": i, "wallTime": 0},
                "response": {"status": 200, "statusText": "OK", "headers": {"content-type": "application/octet-stream"},
                             "mimeType": "application/octet-stream", "protocol": "h2"},
                "fromCache": null, "sizes": {"encodedDataLength": size, "bodySize": size},
                "body": {"sha256": sha256, "size": size, "base64Encoded": true},
                "serverDelay": {"ms": delay_ms, "method": "ttfb-minus-handshake-rtt", "rttMs": null},
            })
        })
        .collect();
    std::fs::write(dir.join("archive.json"), serde_json::to_string(&archive).unwrap()).unwrap();
}

fn get(id: usize, url: &str, priority: Option<&str>) -> Fetch {
    Fetch { id, url: url.into(), method: "GET".into(), priority: priority.map(String::from), net_priority: None, pool: Pool::default() }
}

/// What came back for one request, checked as it arrived.
#[derive(Default, Debug)]
struct Outcome {
    status: Option<u16>,
    progress: Vec<u64>,
    done: Option<u64>,
    failed: Option<String>,
}

/// Takes events until every one of `ids` is done or failed; checks each request's events come in
/// order (headers, progress not decreasing, one end).
fn wait_for(rx: &Receiver<Event>, outcomes: &mut HashMap<usize, Outcome>, ids: &[usize]) {
    let deadline = Instant::now() + WAIT;
    let finished = |o: &HashMap<usize, Outcome>| ids.iter().all(|id| o.get(id).is_some_and(|o| o.done.is_some() || o.failed.is_some()));
    while !finished(outcomes) {
        let left = deadline.saturating_duration_since(Instant::now());
        let event = rx.recv_timeout(left).unwrap_or_else(|_| panic!("requests {ids:?} not finished in time: {outcomes:?}"));
        let (id, o) = match &event {
            Event::Headers { id, .. } | Event::Progress { id, .. } | Event::Done { id, .. } | Event::Failed { id, .. } => {
                (*id, outcomes.entry(*id).or_default())
            }
            Event::Http2Connection { origin, .. } => panic!("a QUIC connection said it speaks HTTP/2: {origin}"),
        };
        assert!(o.done.is_none() && o.failed.is_none(), "request {id}: {event:?} after its end");
        match event {
            Event::Headers { status, .. } => o.status = Some(status),
            Event::Progress { received, .. } => {
                assert!(o.status.is_some(), "request {id}: body before headers");
                assert!(o.progress.last().is_none_or(|&last| received >= last), "request {id}: progress went back to {received}");
                o.progress.push(received);
            }
            Event::Done { status, body_bytes, .. } => {
                assert_eq!(Some(status), o.status, "request {id}: Done's status is not the headers'");
                o.done = Some(body_bytes);
            }
            Event::Failed { reason, .. } => o.failed = Some(reason),
            Event::Http2Connection { .. } => unreachable!("refused above"),
        }
    }
}

fn down(record: &ConnectionRecord) -> u64 {
    record.paths.iter().map(|p| p.bytes_down.unwrap()).sum()
}

#[test]
fn quic_fetches_arrive_over_time_on_one_connection_per_origin() {
    let a = "https://a.test:24431";
    let resources = [
        (format!("{a}/index.html"), 20_000),
        (format!("{a}/big.bin"), 3_000_000),
        (format!("{a}/style.css"), 1_500),
        ("https://b.test:24431/image.png".to_string(), 200_000),
        ("http://c.test:24480/clear.txt".to_string(), 100),
    ];
    let refs: Vec<(&str, usize, u64)> = resources.iter().map(|(u, s)| (u.as_str(), *s, 5)).collect();
    let replay = Replay::start("time", &refs, "127.0.1.1", "quic", &["--model", "out-of-order", "--priority", "client"]);
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(replay.config(&[], false), tx).unwrap());
    let mut outcomes = HashMap::new();

    let issued = Instant::now();
    transport.fetch(get(0, &resources[0].0, None));
    assert!(issued.elapsed() < Duration::from_millis(50), "fetch() waited");
    wait_for(&rx, &mut outcomes, &[0]);
    transport.fetch(get(1, &resources[1].0, Some("u=5")));
    transport.fetch(get(2, &resources[2].0, Some("u=1")));
    transport.fetch(get(3, &resources[3].0, None));
    wait_for(&rx, &mut outcomes, &[2]);
    std::thread::sleep(Duration::from_millis(200));
    transport.fetch(get(4, &format!("{a}/missing"), None));
    transport.fetch(get(5, &resources[4].0, None));
    wait_for(&rx, &mut outcomes, &[1, 3, 4, 5]);
    let records = transport.finish();
    let streams = replay.stop();

    for (id, (_, size)) in resources.iter().enumerate().take(4) {
        let o = &outcomes[&id];
        assert_eq!((o.status, o.done), (Some(200), Some(*size as u64)), "request {id}: {o:?}");
        assert_eq!(o.progress.last(), Some(&(*size as u64)), "request {id}: last progress is not the body size");
    }
    assert!(outcomes[&1].progress.len() > 1, "a 3 MB body came in one read");
    assert_eq!(outcomes[&4].status, Some(404));
    let clear = outcomes[&5].failed.as_deref().expect("the http:// fetch failed");
    assert!(clear.contains("clear HTTP/1.1"), "{clear}");

    assert_eq!(records.len(), 2, "{records:?}");
    let (ra, rb) = (&records[0], &records[1]);
    assert_eq!((ra.id.as_str(), ra.origin.as_str(), rb.id.as_str()), ("quic-1", "https://a.test:24431", "quic-2"));
    for r in &records {
        assert_eq!((r.protocol.as_str(), r.transport.as_str()), ("h3", "quic"));
        assert!(r.closed_ms.is_some_and(|c| c >= r.opened_ms), "{r:?}");
        assert_eq!(r.paths.iter().map(|p| p.path).collect::<Vec<_>>(), vec![0]);
    }
    assert!(down(ra) >= 3_000_000 + 20_000 + 1_500, "{ra:?}");
    assert!(down(rb) >= 200_000, "{rb:?}");
    assert!(ra.paths[0].bytes_up.unwrap() > 0);

    // The priority header reached the server's scheduler.
    let urgency =
        |path: &str| streams.iter().find(|s| s["url"].as_str().unwrap().ends_with(path)).map(|s| s["priority"]["urgency"].as_u64());
    assert_eq!((urgency("/style.css"), urgency("/big.bin")), (Some(Some(1)), Some(Some(5))), "{streams:?}");
}

#[test]
fn quic_refuses_a_server_that_is_not_the_replay() {
    let url = "https://a.test:24432/x";
    let replay = Replay::start("pin", &[(url, 10, 0)], "127.0.1.11", "quic", &[]);
    // The hash the transport checks is the one of the certificate the replay wrote.
    let pem = std::fs::read_to_string(replay.dir.join("out/cert.pem")).unwrap();
    let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    use base64::Engine;
    let der = base64::engine::general_purpose::STANDARD.decode(b64).unwrap();
    assert_eq!(spki_hash(&der).unwrap(), replay.spki_hash);

    let mut config = replay.config(&["127.0.0.1"], false);
    // The hash of no key at all: a SHA-256 of zeros.
    config.spki_hash = format!("{}=", "A".repeat(43));
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(config, tx).unwrap());
    let mut outcomes = HashMap::new();
    transport.fetch(get(7, url, None));
    transport.fetch(get(8, url, None));
    wait_for(&rx, &mut outcomes, &[7, 8]);
    for id in [7, 8] {
        let reason = outcomes[&id].failed.clone().unwrap_or_else(|| panic!("request {id} was served: {:?}", outcomes[&id]));
        assert!(reason.contains("not the replay") && reason.contains(&replay.spki_hash), "{reason}");
    }
    // One connection for both, or two when the first had already failed before the second
    // request reached the transport (CI once had it so, on a loaded machine); neither served.
    let records = transport.finish();
    assert!((1..=2).contains(&records.len()), "{} connections", records.len());
}

#[test]
fn mpquic_carries_a_body_over_two_loopback_paths() {
    let url = "https://a.test:24433/big.bin";
    let size = 8_000_000;
    let replay = Replay::start("mp", &[(url, size, 0)], "127.0.1.21", "mpquic", &["--scheduler", "roundrobin"]);
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(replay.config(&["127.0.0.1", "127.0.0.2"], true), tx).unwrap());
    let mut outcomes = HashMap::new();
    transport.fetch(get(0, url, None));
    wait_for(&rx, &mut outcomes, &[0]);
    // A second request once the paths are up, so that both surely carry it.
    transport.fetch(get(1, url, None));
    wait_for(&rx, &mut outcomes, &[1]);
    let records = transport.finish();
    replay.stop();

    assert_eq!((outcomes[&0].done, outcomes[&1].done), (Some(size as u64), Some(size as u64)), "{outcomes:?}");
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.transport, "mpquic", "{r:?}");
    assert_eq!(r.paths.iter().map(|p| p.path).collect::<Vec<_>>(), vec![0, 1], "{r:?}");
    assert!(r.paths.iter().all(|p| p.bytes_down.unwrap() > 100_000), "a path carried (almost) nothing: {r:?}");
    assert!(down(r) >= 2 * size as u64, "{r:?}");
}

#[test]
fn quic_fails_what_a_closing_server_cuts_and_reconnects_afterwards() {
    let (fast, slow) = ("https://a.test:24434/fast", "https://a.test:24434/slow");
    let resources = [(fast, 1_000, 0), (slow, 1_000, 10_000)];
    let first = Replay::start("restart1", &resources, "127.0.1.31", "quic", &[]);
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(first.config(&[], false), tx).unwrap());
    let mut outcomes = HashMap::new();
    transport.fetch(get(0, fast, None));
    wait_for(&rx, &mut outcomes, &[0]);
    transport.fetch(get(1, slow, None));
    std::thread::sleep(Duration::from_millis(100));
    first.stop();
    wait_for(&rx, &mut outcomes, &[1]);
    let cut = outcomes[&1].failed.clone().unwrap_or_else(|| panic!("the cut request was served: {:?}", outcomes[&1]));
    assert!(cut.contains("the server closed it"), "{cut}");

    // Another replay there has another certificate: the new connection reaches it and refuses it.
    let second = Replay::start("restart2", &resources, "127.0.1.31", "quic", &[]);
    transport.fetch(get(2, fast, None));
    wait_for(&rx, &mut outcomes, &[2]);
    let refused = outcomes[&2].failed.clone().unwrap_or_else(|| panic!("the other replay was trusted: {:?}", outcomes[&2]));
    assert!(refused.contains("not the replay"), "{refused}");
    let records = transport.finish();
    second.stop();
    let ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["quic-1", "quic-2"]);
    assert!(records.iter().all(|r| r.closed_ms.is_some()));
}

#[test]
fn quic_requests_without_credentials_get_a_connection_of_their_own() {
    let a = "https://privacy.test:24433";
    let urls = [format!("{a}/style.css"), format!("{a}/font.woff2"), format!("{a}/app.js"), format!("{a}/api.json")];
    let refs: Vec<(&str, usize, u64)> = urls.iter().map(|u| (u.as_str(), 5_000, 0)).collect();
    let replay = Replay::start("privacy", &refs, "127.0.1.12", "quic", &[]);
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(replay.config(&[], false), tx).unwrap());
    for (id, url) in urls.iter().enumerate() {
        transport.fetch(Fetch { pool: Pool { privacy_mode: id % 2 == 1, ..Pool::default() }, ..get(id, url, None) });
    }
    let mut outcomes = HashMap::new();
    wait_for(&rx, &mut outcomes, &[0, 1, 2, 3]);
    for id in 0..4 {
        assert_eq!(outcomes[&id].done, Some(5_000), "{}: {:?}", urls[id], outcomes[&id]);
    }
    let records = transport.finish();
    assert_eq!(records.len(), 2, "one connection per privacy mode: {records:?}");
}

#[test]
fn quic_sends_what_waited_for_its_handshake_highest_priority_first() {
    // Three High requests and then a VeryHigh one, all before the handshake: the VeryHigh one gets
    // the first stream, as Chromium's new connection took a style sheet before the scripts named
    // before it (core/socket_pool.rs).
    let a = "https://waiting.test:24436";
    let urls = [format!("{a}/a.js"), format!("{a}/b.js"), format!("{a}/c.js"), format!("{a}/style.css")];
    let refs: Vec<(&str, usize, u64)> = urls.iter().map(|u| (u.as_str(), 5_000, 0)).collect();
    let replay = Replay::start("waiting", &refs, "127.0.1.14", "quic", &[]);
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(replay.config(&[], false), tx).unwrap());
    for (id, url) in urls.iter().enumerate() {
        transport.fetch(Fetch { net_priority: Some(if id == 3 { 0 } else { 1 }), ..get(id, url, None) });
    }
    let mut outcomes = HashMap::new();
    wait_for(&rx, &mut outcomes, &[0, 1, 2, 3]);
    transport.finish();
    let mut streams = replay.stop();
    streams.sort_by_key(|s| s["stream"].as_u64().unwrap());
    let served: Vec<&str> = streams.iter().map(|s| s["url"].as_str().unwrap()).collect();
    assert_eq!(served, [&urls[3], &urls[0], &urls[1], &urls[2]]);
}

#[test]
fn a_quic_fetch_takes_the_connection_a_preconnect_opened() {
    let origin = "https://preconnect.test:24435";
    let url = format!("{origin}/font.woff2");
    let replay = Replay::start("preconnect", &[(url.as_str(), 20_000, 0)], "127.0.1.13", "quic", &[]);
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(replay.config(&[], false), tx).unwrap());
    transport.preconnect("https://no-server.test", ANONYMOUS, 1);
    // A navigation's second connection is not opened over QUIC.
    transport.preconnect(origin, ANONYMOUS, 2);
    std::thread::sleep(Duration::from_millis(300));
    transport.fetch(Fetch { pool: ANONYMOUS, ..get(0, &url, None) });
    let mut outcomes = HashMap::new();
    wait_for(&rx, &mut outcomes, &[0]);
    assert_eq!(outcomes[&0].done, Some(20_000));
    let records = transport.finish();
    replay.stop();
    assert_eq!(records.len(), 1, "the preconnected connection only: {records:?}");
    assert!(records[0].opened_ms < 100.0, "opened at the preconnect, not at the fetch 300 ms later: {records:?}");
}

#[test]
fn an_unanswered_quic_handshake_is_probed_after_300_ms_as_chromium_does() {
    // A server that never answers: what reaches it is the client's Initial, then its probes.
    let silent = std::net::UdpSocket::bind("127.0.1.41:0").unwrap();
    silent.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    let address = silent.local_addr().unwrap();
    let origin = format!("https://a.test:{}", address.port());
    let config = TransportConfig {
        origins: vec![OriginAddress { origin: origin.clone(), host: "a.test".into(), address, tls: true }],
        locals: vec![],
        spki_hash: format!("{}=", "A".repeat(43)),
        multipath: false,
        http1: Http1Mode::KeepAlive,
        connections_per_origin: 1,
        scheduler: pagepath_tquic_scheduler::Choice::RoundRobin,
        started: Instant::now(),
    };
    let (tx, _rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(config, tx).unwrap());
    transport.fetch(get(0, &format!("{origin}/x"), None));
    let listening = Instant::now();
    let mut arrivals = Vec::new();
    let mut buf = [0u8; 2048];
    // The first flight is two datagrams (the ClientHello's two Initials), sent back to back.
    let probed = |a: &[Duration]| a.iter().any(|&t| t > a[0] + Duration::from_millis(50));
    while listening.elapsed() < Duration::from_millis(1500) && !(arrivals.len() > 1 && probed(&arrivals)) {
        if silent.recv_from(&mut buf).is_ok() {
            arrivals.push(listening.elapsed());
        }
    }
    transport.finish();
    let probe_at = arrivals.iter().find(|&&t| t > arrivals[0] + Duration::from_millis(50));
    let Some(&probe_at) = probe_at else { panic!("the Initials and one probe within 1.5 s: {arrivals:?}") };
    // Chromium's first probe timeout before any RTT sample is three times its 100 ms initial RTT;
    // RFC 9002's 333 ms initial RTT would make it about a second.
    let probe = probe_at - arrivals[0];
    assert!(probe >= Duration::from_millis(250) && probe <= Duration::from_millis(700), "first probe after {probe:?}");
}

/// Whether a datagram holds a QUIC v1 Handshake packet, coalesced after an Initial or on its own
/// (RFC 9000 §17.2: long headers, the Initial's token and each packet's length let one step over
/// the packets without decrypting them).
fn carries_handshake(mut datagram: &[u8]) -> bool {
    fn varint(b: &[u8]) -> Option<(usize, usize)> {
        let len = 1usize << (b.first()? >> 6);
        let mut v = (b[0] & 0x3f) as usize;
        for &x in b.get(1..len)? {
            v = (v << 8) | x as usize;
        }
        Some((v, len))
    }
    while let Some(&first) = datagram.first() {
        if first & 0x80 == 0 {
            return false;
        }
        let kind = (first >> 4) & 0x03;
        if kind == 0x02 {
            return true;
        }
        let step = || -> Option<usize> {
            let mut at = 5;
            at += 1 + *datagram.get(at)? as usize;
            at += 1 + *datagram.get(at)? as usize;
            if kind == 0x00 {
                let (token, n) = varint(datagram.get(at..)?)?;
                at += n + token;
            }
            let (length, n) = varint(datagram.get(at..)?)?;
            Some(at + n + length)
        };
        let Some(next) = step() else { return false };
        datagram = datagram.get(next..).unwrap_or(&[]);
    }
    false
}

#[test]
fn quic_datagrams_are_sized_as_chromiums_a_client_hello_in_two_initials_and_no_mtu_probe() {
    let url = "https://a.test:24436/index.html";
    let replay = Replay::start("sizes", &[(url, 300_000, 5)], "127.0.1.1", "quic", &[]);
    let mut config = replay.config(&[], false);
    // A relay between the two that notes each client datagram: its size, its first byte, and
    // whether the server's handshake had come yet.
    let server = config.origins[0].address;
    let relay = std::net::UdpSocket::bind("127.0.1.46:0").unwrap();
    relay.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    config.origins[0].address = relay.local_addr().unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let relaying = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let (mut client, mut answered, mut sent) = (None, false, Vec::new());
            let mut buf = [0u8; 65_536];
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let Ok((n, from)) = relay.recv_from(&mut buf) else { continue };
                if from == server {
                    // Not the server's acknowledgement of the first Initial, which may come before
                    // the second is relayed on a busy machine: its ServerHello, which comes with
                    // the Handshake packet holding its certificate.
                    answered |= carries_handshake(&buf[..n]);
                    if let Some(c) = client {
                        relay.send_to(&buf[..n], c).unwrap();
                    }
                } else {
                    client = Some(from);
                    sent.push((n, buf[0], answered));
                    relay.send_to(&buf[..n], server).unwrap();
                }
            }
            sent
        })
    };
    let (tx, rx) = channel();
    let mut transport: Box<dyn Transport> = Box::new(QuicTransport::new(config, tx).unwrap());
    let mut outcomes = HashMap::new();
    transport.fetch(get(0, url, None));
    wait_for(&rx, &mut outcomes, &[0]);
    transport.finish();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let sent = relaying.join().unwrap();
    replay.stop();

    assert_eq!(outcomes[&0].done, Some(300_000), "{outcomes:?}");
    // Long header, QUIC v1 Initial: 0b11 then packet type 00.
    let initial = |first: u8| first & 0xf0 == 0xc0;
    let first_flight: Vec<_> = sent.iter().take_while(|d| !d.2).collect();
    assert_eq!(first_flight.len(), 2, "a ClientHello offering a post-quantum key share takes two Initials, as Chromium's does: {sent:?}");
    assert!(first_flight.iter().all(|d| initial(d.1) && d.0 >= 1200), "{first_flight:?}");
    // Once the handshake is done, a datagram that fills a packet carries data; a GET carries none.
    let full_short: Vec<_> = sent.iter().filter(|d| d.1 & 0x80 == 0 && d.0 >= 1200).collect();
    assert!(full_short.is_empty(), "a path MTU probe, which Chromium does not send: {full_short:?} of {sent:?}");
    let largest = sent.iter().map(|d| d.0).max().unwrap();
    assert!(largest <= 1250, "a datagram of {largest} bytes: Chromium sends at most 1,250 and probes no larger path MTU: {sent:?}");
}
