//! pagepath-sim's fetch mode: targets requested at once over HTTP/3 with pagepath-fetch's command
//! line, no page and no browser model.

mod common;

use common::write_recording;
use pagepath_sim::cli;
use pagepath_sim::kept::Kept;
use pagepath_sim::simulation::simulate;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A folder with the recording (/0: 100 kB, /1: 20 kB) and one path of 10 Mbit/s and 40 ms.
fn fixture(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pagepath-sim-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_recording(&dir.join("rec"), &[100_000, 20_000]);
    let direction = json!({"delayMs": 20, "rateMbit": 10, "queue": {"type": "droptail", "packets": 100}});
    let topology = json!({"schemaVersion": 1, "paths": [{"name": "p0", "uplink": direction, "downlink": direction}]});
    std::fs::write(dir.join("topology.json"), topology.to_string()).unwrap();
    dir
}

fn run(dir: &Path, protocol: &str, fetch: &str) -> Result<Value, String> {
    let words = format!(
        "--topology {t} --seed 3 serve {rec} --out {out} --protocol {protocol} --first-address 10.200.1.1 --no-qlog --delays zero -- fetch {fetch}",
        t = dir.join("topology.json").display(),
        rec = dir.join("rec").display(),
        out = dir.join("out").display(),
    );
    let items: Vec<String> = words.split_whitespace().map(String::from).collect();
    let args = cli::parse(&items)?.expect("not a request for help");
    let simulated = simulate(&args, &mut Kept::default())?;
    Ok(serde_json::from_str(&simulated.line).unwrap())
}

#[test]
fn fetches_every_target_at_once_after_one_handshake_and_no_faster_than_the_link() {
    let dir = fixture("ok");
    let line = run(&dir, "h3", "--connect 10.200.1.1:443 --host sim.test /0@u=3 /1@u=0").unwrap();
    assert_eq!(line["failed"], Value::Null, "{line}");
    assert_eq!(line["transport"], "quic");
    // QUIC's handshake is one round trip of 40 ms, plus the packets' serialisation at 10 Mbit/s.
    let handshake = line["handshakeUs"].as_u64().unwrap();
    assert!((40_000..50_000).contains(&handshake), "handshake {handshake} µs");
    let responses = line["responses"].as_array().unwrap();
    assert_eq!(responses.iter().map(|r| (r["target"].as_str().unwrap(), r["bytes"].as_u64().unwrap())).collect::<Vec<_>>(), [("/0", 100_000), ("/1", 20_000)]);
    for r in responses {
        assert_eq!(r["status"], 200);
        assert!(r["startUs"].as_u64().unwrap() >= handshake, "both requests wait for the handshake: {r}");
    }
    // All 120 kB cannot arrive sooner than a round trip plus 96 ms at 10 Mbit/s.
    let last = responses.iter().map(|r| r["endUs"].as_u64().unwrap()).max().unwrap();
    assert!(last >= handshake + 40_000 + 96_000, "last byte at {last} µs");
    let down = line["simulation"]["paths"][0]["bytesDown"].as_u64().unwrap();
    assert!(down > 120_000, "the path carried {down} bytes down");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn says_what_is_wrong_with_a_fetch_that_cannot_run() {
    let dir = fixture("bad");
    let wrong_host = run(&dir, "h3", "--connect 10.200.1.1:443 --host other.test /0").unwrap_err();
    assert!(wrong_host.contains("--connect 10.200.1.1:443 --host other.test"), "{wrong_host}");
    let over_tcp = run(&dir, "h2", "--connect 10.200.1.1:443 --host sim.test /0").unwrap_err();
    assert!(over_tcp.contains("HTTP/3 only"), "{over_tcp}");
    let qlog = run(&dir, "h3", &format!("--connect 10.200.1.1:443 --host sim.test --qlog {} /0", dir.display())).unwrap_err();
    assert!(qlog.contains("no qlog"), "{qlog}");
    let no_target = run(&dir, "h3", "--connect 10.200.1.1:443 --host sim.test").unwrap_err();
    assert!(no_target.contains("TARGET"), "{no_target}");
    let foreign = run(&dir, "h3", "--connect 10.200.1.1:443 --host sim.test --local 10.10.7.2 /0").unwrap_err();
    assert!(foreign.contains("fetch --local 10.10.7.2: not a client address of the topology (10.10.0.2)"), "{foreign}");
    std::fs::remove_dir_all(&dir).unwrap();
}
