//! pagepath's schedulers behind tquic's hook, fed tquic's own snapshot types: the decisions that
//! reach tquic, without a network (tests/src/replay-mpquic-schedulers.test.ts runs them on one).

use std::time::{Duration, Instant};
use tquic::{ExternalDecision, PathSnapshot, StreamSnapshot};

fn path(path_id: usize, rtt_ms: u64, validated: bool) -> PathSnapshot {
    let srtt = Duration::from_millis(rtt_ms);
    PathSnapshot {
        path_id,
        local: format!("10.10.{path_id}.2:5000").parse().unwrap(),
        remote: "10.200.1.1:443".parse().unwrap(),
        srtt,
        rttvar: srtt / 4,
        min_rtt: srtt,
        cwnd: 12_000,
        bytes_in_flight: 0,
        pacing_rate: None,
        in_slow_start: true,
        ssthresh: None,
        lost_packets: 0,
        acked_bytes: 0,
        lost_bytes: 0,
        validated,
        active: true,
        can_send: true,
    }
}

fn stream(stream_id: u64, unsent: u64) -> StreamSnapshot {
    StreamSnapshot { stream_id, unsent, sent: 0, retransmit: 0, final_size: Some(unsent), urgency: 3, incremental: false }
}

fn decide(name: &str, paths: &[PathSnapshot], streams: &[StreamSnapshot]) -> ExternalDecision {
    let factory = pagepath_tquic_scheduler::factory(name, &[], &[]).unwrap();
    factory().select(Instant::now(), paths, streams)
}

#[test]
fn lowest_rtt_names_the_fast_path_and_tquics_first_stream() {
    let d = decide("lowest-rtt", &[path(0, 80, true), path(1, 20, true)], &[stream(0, 5000)]);
    assert_eq!(d, ExternalDecision { path: Some(1), redundant: false, stream: Some(0) });
}

#[test]
fn a_path_not_yet_validated_is_not_used() {
    let d = decide("lowest-rtt", &[path(0, 80, true), path(1, 20, false)], &[stream(0, 5000)]);
    assert_eq!(d.path, Some(0));
}

#[test]
fn a_backup_path_is_used_only_while_no_other_path_is_usable() {
    let backup = ["10.10.1.2".parse().unwrap()];
    let factory = pagepath_tquic_scheduler::factory("lowest-rtt", &[], &backup).unwrap();
    let mut plugged = factory();
    // the backup path is the faster one, and still left alone
    let d = plugged.select(Instant::now(), &[path(0, 80, true), path(1, 20, true)], &[stream(0, 5000)]);
    assert_eq!(d.path, Some(0));
    let d = plugged.select(Instant::now(), &[path(0, 80, false), path(1, 20, true)], &[stream(0, 5000)]);
    assert_eq!(d.path, Some(1), "with path 0 unusable the backup carries the data");
}

#[test]
fn control_frames_and_a_bare_fin_are_never_held_back() {
    // ECF waits for the fast path while it is busy, but with no stream bytes left there is
    // nothing to wait with: tquic still needs a path for its control frames and for the FIN
    let mut fast_busy = path(1, 20, true);
    fast_busy.can_send = false;
    fast_busy.bytes_in_flight = 12_000;
    let paths = [path(0, 200, true), fast_busy];
    let d = decide("ecf", &paths, &[]);
    assert_eq!(d.path, Some(0), "control frames go on a path that can send");
    let fin_only = StreamSnapshot { stream_id: 8, unsent: 0, sent: 900, retransmit: 0, final_size: Some(900), urgency: 3, incremental: false };
    let d = decide("ecf", &paths, &[fin_only]);
    assert_eq!((d.path, d.stream), (Some(0), Some(8)), "the FIN goes out");
}

#[test]
fn every_path_becomes_tquics_redundant_copy_from_the_fastest() {
    let d = decide("redundant", &[path(0, 80, true), path(1, 20, true)], &[stream(0, 5000)]);
    assert_eq!((d.path, d.redundant), (Some(1), true));
}

#[test]
fn srpt_ecf_names_the_shortest_stream() {
    let d = decide("srpt-ecf", &[path(0, 20, true)], &[stream(0, 600_000), stream(4, 20_000)]);
    assert_eq!(d.stream, Some(4));
}

#[test]
fn bad_names_and_options_are_refused_when_the_factory_is_made() {
    let e = pagepath_tquic_scheduler::factory("fastest", &[], &[]).err().unwrap();
    assert!(e.starts_with("no scheduler fastest; the schedulers are lowest-rtt, round-robin"), "{e}");
    let e = pagepath_tquic_scheduler::factory("lowest-rtt", &["beta=1".into()], &[]).err().unwrap();
    assert_eq!(e, "scheduler lowest-rtt takes no options, got beta");
}
