//! What the transfer tests share: a one-origin recording and a one-path topology.

use pagepath_browser::core::Pool;
use pagepath_browser::io::driver::Network;
use pagepath_browser::io::origins::read_origins;
use pagepath_browser::io::transport::{Event, Fetch, Http1Mode, TransportConfig};
use pagepath_link::topology::{parse_topology, ParseContext, Topology};
use pagepath_server::config::{parse_serve, ServeConfig};
use serde_json::json;
use std::net::IpAddr;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A recording of one origin serving `sizes`-byte bodies at /0, /1, ..., without server delay.
pub fn write_recording(dir: &Path, sizes: &[usize]) {
    std::fs::create_dir_all(dir.join("bodies")).unwrap();
    let archive: Vec<serde_json::Value> = sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| {
            let body = vec![b'a' + i as u8; size];
            let sha256: String = ring::digest::digest(&ring::digest::SHA256, &body).as_ref().iter().map(|b| format!("{b:02x}")).collect();
            std::fs::write(dir.join("bodies").join(&sha256), &body).unwrap();
            json!({
                "id": format!("{}", 1000 + i), "url": format!("https://sim.test/{i}"), "method": "GET", "requestHeaders": {},
                "resourceType": "Other", "priority": {"initial": "High", "final": "High"},
                "times": {"start": i, "response": i, "end": i, "wallTime": 0},
                "response": {"status": 200, "statusText": "OK", "headers": {"content-type": "application/octet-stream"},
                             "mimeType": "application/octet-stream", "protocol": "h3"},
                "fromCache": null, "sizes": {"encodedDataLength": size, "bodySize": size},
                "body": {"sha256": sha256, "size": size, "base64Encoded": true},
                "serverDelay": {"ms": 0, "method": "ttfb-minus-handshake-rtt", "rttMs": null},
            })
        })
        .collect();
    std::fs::write(dir.join("archive.json"), serde_json::to_string(&archive).unwrap()).unwrap();
}

#[allow(dead_code)] // each test binary uses its own topologies
/// One path of `rate_mbit` and `rtt_ms` each way with `loss` and a drop-tail queue of
/// `queue_packets`.
pub fn one_path(dir: &Path, rate_mbit: f64, rtt_ms: f64, loss: f64, queue_packets: u64, seed: u64) -> Topology {
    let direction = json!({"delayMs": rtt_ms / 2.0, "rateMbit": rate_mbit, "queue": {"type": "droptail", "packets": queue_packets}, "loss": loss});
    let topology = json!({"schemaVersion": 1, "paths": [{"name": "p0", "uplink": direction, "downlink": direction}]});
    let ctx = ParseContext { source: "test".into(), base_dir: dir.to_path_buf(), fallback_seed: seed, seed_override: Some(seed) };
    parse_topology(&topology.to_string(), &ctx).unwrap()
}

/// The replay servers' configuration for the recording in `dir/rec`, speaking `protocol`, their
/// files in `dir/out`.
pub fn serve_config(dir: &Path, protocol: &str) -> ServeConfig {
    let (rec, out) = (dir.join("rec"), dir.join("out"));
    let args: Vec<String> = [rec.to_str().unwrap(), "--out", out.to_str().unwrap(), "--protocol", protocol, "--first-address", "10.200.1.1", "--no-qlog"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    parse_serve(&args).unwrap()
}

/// The client's transports' configuration for the servers serve_config made: one connection an
/// origin, from `local`, time 0 at `started`.
pub fn client_config(dir: &Path, local: IpAddr, started: Instant) -> TransportConfig {
    let names = read_origins(&dir.join("out").join("origins.json")).unwrap();
    TransportConfig {
        origins: names.origins,
        locals: vec![local],
        spki_hash: names.spki_hash,
        multipath: false,
        http1: Http1Mode::KeepAlive,
        connections_per_origin: 1,
        scheduler: pagepath_tquic_scheduler::Choice::RoundRobin,
        started,
    }
}

/// Asks for every body of the recording (ids 0, 1, ...) at `started`, and returns when each
/// completed, in ms after `started`; each must bring its whole body, and all within a minute of
/// virtual time.
#[allow(dead_code)]
pub fn fetch_all<N: Network>(net: &mut N, rx: &Receiver<Event>, started: Instant, sizes: &[usize]) -> Vec<f64> {
    fetch_all_timed(net, rx, started, sizes).into_iter().map(|(_, done)| done).collect()
}

/// As fetch_all, with when each request went out beside when it was done (ms from `started`):
/// what a response took, without the connection's handshake (or its backup attempt) before it.
#[allow(dead_code)]
pub fn fetch_all_timed<N: Network>(net: &mut N, rx: &Receiver<Event>, started: Instant, sizes: &[usize]) -> Vec<(f64, f64)> {
    for i in 0..sizes.len() {
        let fetch = Fetch { id: i, url: format!("https://sim.test/{i}"), method: "GET".into(), priority: None, net_priority: None, pool: Pool::default() };
        net.fetch(fetch, true).unwrap();
    }
    let ms = |at: Instant| (at - started).as_secs_f64() * 1000.0;
    let mut timed = vec![(f64::NAN, f64::NAN); sizes.len()];
    let mut left = sizes.len();
    let until = started + Duration::from_secs(60);
    let mut quiet = 0;
    while left > 0 {
        let events = net.wait(until, rx).expect("the transports run");
        quiet = if events.is_empty() { quiet + 1 } else { 0 };
        assert!(quiet < 100, "nothing came back within a minute of virtual time");
        for e in events {
            match e {
                Event::Headers { id, sent: Some(sent), .. } => timed[id].0 = ms(sent),
                Event::Done { id, body_bytes, at, .. } => {
                    assert_eq!(body_bytes, sizes[id] as u64, "the whole body of /{id}");
                    timed[id].1 = ms(at);
                    left -= 1;
                }
                Event::Failed { reason, .. } => panic!("a fetch failed: {reason}"),
                _ => {}
            }
        }
    }
    timed
}

#[allow(dead_code)]
/// Paths of (`rate_mbit`, `rtt_ms`, backup) each, lossless, with drop-tail queues of 1,000
/// packets.
pub fn paths(dir: &Path, each: &[(f64, f64, bool)], seed: u64) -> Topology {
    lossy_paths(dir, each, seed, 0.0)
}

/// `paths`, each downlink dropping a share `loss` of its packets at random.
#[allow(dead_code)]
pub fn lossy_paths(dir: &Path, each: &[(f64, f64, bool)], seed: u64, loss: f64) -> Topology {
    let paths: Vec<serde_json::Value> = each
        .iter()
        .enumerate()
        .map(|(i, &(rate_mbit, rtt_ms, backup))| {
            let up = json!({"delayMs": rtt_ms / 2.0, "rateMbit": rate_mbit, "queue": {"type": "droptail", "packets": 1000}});
            let down = json!({"delayMs": rtt_ms / 2.0, "rateMbit": rate_mbit, "queue": {"type": "droptail", "packets": 1000}, "loss": loss});
            json!({"name": format!("p{i}"), "uplink": up, "downlink": down, "backup": backup})
        })
        .collect();
    let topology = json!({"schemaVersion": 1, "paths": paths});
    let ctx = ParseContext { source: "test".into(), base_dir: dir.to_path_buf(), fallback_seed: seed, seed_override: Some(seed) };
    parse_topology(&topology.to_string(), &ctx).unwrap()
}
