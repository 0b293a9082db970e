use std::path::PathBuf;

use super::mahimahi::parse_shell;
use super::{parse_topology, ParseContext};
use crate::core::config::{Capacity, Limit, LossModel, QueueConfig};

fn ctx(dir: &TempDir) -> ParseContext {
    ParseContext { source: "t.json".into(), base_dir: dir.0.clone(), fallback_seed: 9, seed_override: None }
}

/// A folder of the test's own, removed when dropped: when the test ends, passed or failed.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(label: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("pagepath-topology-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

#[test]
fn bdp_limits_use_the_rate_and_both_delays() {
    // 10 Mbit/s x 40 ms = 50,000 bytes; 1.5 BDP = 75,000 bytes = 50 packets of 1,500.
    let text = r#"{"schemaVersion":1,"paths":[{"uplink":{"delayMs":20,"rateMbit":10,"queue":{"type":"red","bdp":1.5}},"downlink":{"delayMs":20}}]}"#;
    let t = parse_topology(text, &ctx(&temp_dir("bdp"))).unwrap();
    let QueueConfig::Red { limit, min_th, max_th, max_p, .. } = t.paths[0].uplink.queue else { panic!("not RED") };
    assert_eq!(limit, Limit::Packets(50));
    assert_eq!((min_th, max_th, max_p), (0.66 * 50.0, 0.8 * 50.0, 0.1));
    assert_eq!(t.seed, 9, "no seed given: the caller's is used");
    assert!(!t.mptcp, "one path: no MPTCP by default");
}

#[test]
fn errors_name_the_file_and_field() {
    let e = parse_topology(r#"{"schemaVersion":1,"paths":[{"uplink":{"delayMs":-1}}]}"#, &ctx(&temp_dir("err"))).unwrap_err();
    assert_eq!(e, "t.json: paths[0].uplink.delayMs: -1 is out of range; must be between 0 and 10000 ms");
    let e = parse_topology(r#"{"schemaVersion":1,"paths":[{"uplink":{"delayms":5}}]}"#, &ctx(&temp_dir("err"))).unwrap_err();
    assert!(e.contains("paths[0].uplink.delayms: unknown field"), "{e}");
}

#[test]
fn mahimahi_shells_nest_as_they_do_in_mahimahi() {
    let dir = temp_dir("mm");
    std::fs::write(dir.0.join("up.tr"), "1\n2\n").unwrap();
    std::fs::write(dir.0.join("down.tr"), "5\n").unwrap();
    let args: Vec<String> = "mm-delay 10 delay 5 mm-link --uplink-queue=droptail --uplink-queue-args packets=30 up.tr down.tr --once loss uplink 0.1 loss uplink 0.1 -- echo hi"
        .split(' ').map(String::from).collect();
    let shell = parse_shell(&args, &ctx(&dir)).unwrap();
    let p = &shell.topology.paths[0];
    assert_eq!((p.uplink.delay, p.downlink.delay), (15_000, 15_000), "delays add up");
    assert_eq!(p.uplink.queue, QueueConfig::DropTail(Limit::Packets(30)));
    assert_eq!(p.downlink.queue, QueueConfig::Infinite, "Mahimahi's default queue");
    assert_eq!(p.downlink.capacity, Capacity::Trace { opportunities_ms: vec![5], once: true });
    let LossModel::Bernoulli { p: loss } = p.uplink.loss else { panic!("no loss") };
    assert!((loss - 0.19).abs() < 1e-12, "two 10% loss shells compound to 19%, got {loss}");
    assert_eq!(shell.command, vec!["echo", "hi"]);
}
