//! Seed 004 Ch. 4-5's hierarchical fair stream scheduler: classes by urgency with weights.
mod common;

use common::*;
use pagepath_multipath::ideal_paths::{run, Message, Outcome};
use pagepath_multipath::schedulers::fair::{parse_weights, Fair};
use pagepath_multipath::schedulers::lowest_rtt::LowestRtt;
use pagepath_multipath::{build, Options, Paired, StreamId};

const NAME: &str = "fair";
const PACKET: u64 = 1_000;

fn message(id: u64, size: u64, urgency: u8) -> Message {
    Message { urgency, ..Message::new(id, size) }
}

/// Class 0 (weight 4) has a 3 MB stream, class 1 (weight 2) 0.5 MB, class 3 (weight 1) two of
/// 1 MB; over the two equal 10 Mbit/s paths.
fn transfer() -> [Message; 4] {
    [message(0, 3_000_000, 0), message(1, 500_000, 1), message(4, 1_000_000, 3), message(8, 1_000_000, 3)]
}

/// Bytes each stream sent in chunks[from..to].
fn sent(out: &Outcome, from: usize, to: usize, stream: u64) -> u64 {
    out.chunks[from..to].iter().filter(|c| c.stream == StreamId(stream)).map(|c| c.bytes).sum()
}

fn last_chunk(out: &Outcome, stream: u64) -> usize {
    out.chunks.iter().rposition(|c| c.stream == StreamId(stream)).unwrap()
}

/// How far apart D_i/w_i and D_j/w_j may be over a span where both classes stay backlogged (the
/// seed's Inequality 5.1, with our bound in place of HLS's α). Each class has sent what the root
/// handed it, w_c times the same sum of f_root over the rounds, less what it still holds: at most
/// one round's share w_c·f_root not yet sent and at most a packet of overdraft per stream. So the
/// normalised difference is within f_root + PACKET·(n_i/w_i + n_j/w_j); with the default quantum
/// and weights 4:2:1, f_root = ⌊65 536 / 7⌋ = 9 362 B and the bound 9 362 + 1 000·(1/4 + 2) B.
fn bound(quantum: f64, active_weight: f64, pairs: &[(f64, f64)]) -> f64 {
    let f_root = (quantum / active_weight).floor();
    f_root + pairs.iter().map(|(streams, weight)| PACKET as f64 * streams / weight).sum::<f64>()
}

// While every class is backlogged (until class 1's last byte), bytes per class go 4:2:1; after
// class 1 is idle its share goes to the others, which keep 4:1. Measured: 1 004 000, 500 000 and
// 242 000 B (normalised 251 000, 250 000, 242 000), then 1 996 000 and 506 000 B (499 000, 506 000).
#[test]
fn bytes_per_class_follow_the_weights_and_an_idle_class_share_is_redistributed() {
    let messages = transfer();
    let out = run_named(NAME, "weights=0:4/1:2/3:1", &equal(), &messages, PACKET);
    let class1_done = last_chunk(&out, 1) + 1;
    let class0_done = last_chunk(&out, 0) + 1;
    let phase = |from, to| [sent(&out, from, to, 0) as f64 / 4.0, sent(&out, from, to, 1) as f64 / 2.0, (sent(&out, from, to, 4) + sent(&out, from, to, 8)) as f64];

    let [a, b, c] = phase(0, class1_done);
    let limit = bound(65_536.0, 7.0, &[(1.0, 4.0), (2.0, 1.0)]);
    for (x, y) in [(a, b), (a, c), (b, c)] {
        assert!((x - y).abs() <= limit, "all backlogged: bytes per weight {a} {b} {c} differ by more than {limit}");
    }
    // the bound is tight enough to tell weights from equal shares (or strict priority)
    assert!(limit < a / 20.0, "{limit} against {a}");

    let [a2, b2, c2] = phase(class1_done, class0_done);
    assert_eq!(b2, 0.0);
    let limit = bound(65_536.0, 5.0, &[(1.0, 4.0), (2.0, 1.0)]);
    assert!((a2 - c2).abs() <= limit, "class 1 idle: bytes per weight {a2} {c2} differ by more than {limit}");

    // redistributed, not left idle: class 0's rate rises by (4/5) / (4/7) = 1.4 and the two paths
    // stay full (2.5 MB/s; a window of one BDP loses about 2% to the model's ack clock)
    let span = |from: usize, to: usize| (out.chunks[to - 1].sent - out.chunks[from].sent).as_secs_f64();
    let rate0 = |from, to| sent(&out, from, to, 0) as f64 / span(from, to);
    let rise = rate0(class1_done, class0_done) / rate0(0, class1_done);
    assert!((rise - 1.4).abs() < 0.05, "class 0's rate rose {rise} times");
    let total: u64 = out.chunks[class1_done..class0_done].iter().map(|c| c.bytes).sum();
    let utilisation = total as f64 / span(class1_done, class0_done) / 2_500_000.0;
    assert!(utilisation > 0.95, "the paths carried {utilisation} of their capacity with class 1 idle");
}

// Streams of one class are equal leaves: within a round each gets ⌊B_c / 2⌋, so they differ by at
// most one leaf's round quota plus a packet. Measured: 121 000 and 121 000 B, then 253 000 each.
#[test]
fn streams_within_a_class_share_equally() {
    let messages = transfer();
    let out = run_named(NAME, "weights=0:4/1:2/3:1", &equal(), &messages, PACKET);
    let class1_done = last_chunk(&out, 1) + 1;
    let class0_done = last_chunk(&out, 0) + 1;
    for (from, to, active_weight) in [(0, class1_done, 7.0_f64), (class1_done, class0_done, 5.0)] {
        let (x, y) = (sent(&out, from, to, 4), sent(&out, from, to, 8));
        let leaf_quota = (65_536.0 / active_weight / 2.0).floor();
        assert!((x as f64 - y as f64).abs() <= leaf_quota + PACKET as f64, "class 3's streams sent {x} and {y} B");
        assert!(x > 100_000 && y > 100_000);
    }
}

// A class with no stream at all takes no share: 4:1 from the start, not 4:1 with 2/7 unused.
#[test]
fn an_absent_class_takes_no_share() {
    let messages = [message(0, 2_000_000, 0), message(4, 1_000_000, 3)];
    let out = run_named(NAME, "weights=0:4/1:2/3:1", &equal(), &messages, PACKET);
    let done = last_chunk(&out, 0) + 1;
    let (a, c) = (sent(&out, 0, done, 0) as f64 / 4.0, sent(&out, 0, done, 4) as f64);
    assert!((a - c).abs() <= bound(65_536.0, 5.0, &[(1.0, 4.0), (1.0, 1.0)]), "bytes per weight {a} and {c}");
    assert_eq!(sent(&out, 0, done, 0), 2_000_000);
}

// The default weights are 8 - urgency; a smaller quantum makes rounds shorter and the bound tighter.
#[test]
fn default_weights_and_a_smaller_quantum() {
    let messages = [message(0, 1_000_000, 0), message(4, 1_000_000, 4)];
    let out = run_named(NAME, "quantum=12000", &equal(), &messages, PACKET);
    let done = last_chunk(&out, 0) + 1;
    let (a, c) = (sent(&out, 0, done, 0) as f64 / 8.0, sent(&out, 0, done, 4) as f64 / 4.0);
    assert!((a - c).abs() <= bound(12_000.0, 12.0, &[(1.0, 8.0), (1.0, 4.0)]), "bytes per weight {a} and {c}");
}

// Invariant 5.4, which the seed's scheduler panics on: balances and residuals add up to Q*.
#[test]
fn balances_and_residuals_always_add_up_to_the_quantum() {
    let mut s = Paired { name: "fair", paths: LowestRtt, streams: Fair::new(parse_weights(Some("0:4/1:2/3:1")).unwrap(), 65_536) };
    run(&equal(), &transfer(), PACKET, &mut s);
    assert_eq!(s.streams.total_balance(), 65_536);
}

#[test]
fn weights_take_pairs_or_eight_numbers_and_bad_ones_are_refused() {
    assert_eq!(parse_weights(Some("0:4/1:2/3:1")).unwrap(), [4, 2, 1, 1, 1, 1, 1, 1]);
    assert_eq!(parse_weights(Some("5:3:3:2:1:1:1:1")).unwrap(), [5, 3, 3, 2, 1, 1, 1, 1]);
    assert_eq!(parse_weights(None).unwrap(), [8, 7, 6, 5, 4, 3, 2, 1]);
    assert_eq!(parse_weights(Some("equal")).unwrap(), [1; 8]);
    assert_eq!(parse_weights(Some("0:1.5")).err().unwrap(), "scheduler option weights: 1.5 is not a whole number, which this scheduler needs (it counts whole shares)");
    for bad in ["0:4/8:1", "0:0", "0=4", "0:4,1:2"] {
        let e = parse_weights(Some(bad)).err().unwrap();
        assert!(e.starts_with(&format!("scheduler option weights={bad}: expected urgency:weight pairs")), "{e}");
    }
    assert_eq!(parse_weights(Some("3:1/3:2")).err().unwrap(), "scheduler option weights=3:1/3:2: urgency 3 is given twice");
    let opts = |s: &str| Options::parse([s]).unwrap();
    assert!(build(NAME, &opts("paths=round-robin,quantum=30000,weights=equal")).is_ok());
    assert_eq!(build(NAME, &opts("paths=fastest")).err().unwrap(), "scheduler option paths=fastest: expected lowest-rtt or round-robin");
}
