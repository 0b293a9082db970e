//! Transfers in virtual time against hand-worked expectations: the replay server's HTTP/3 and the
//! browser's QUIC client (both tquic) over the link model, as `pagepath simulate` joins them.

mod common;

use common::{client_config, fetch_all, one_path, serve_config, write_recording};
use pagepath_browser::io::driver::Network;
use pagepath_browser::io::quic::QuicClient;
use pagepath_server::io::quic::config::server_config;
use pagepath_server::io::quic::QuicOrigin;
use pagepath_server::run::prepare;
use pagepath_sim::paths::Paths;
use pagepath_sim::virtual_clock::VirtualClock;
use pagepath_sim::wire::Outbox;
use pagepath_sim::world::World;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::mpsc::channel;

struct Transfer {
    /// When each fetch completed, ms of virtual time after it was asked for at 0.
    done_ms: Vec<f64>,
    /// Wire bytes the path delivered down.
    bytes_down: u64,
}

/// Fetches every body of a one-origin recording at time 0 over one path of `rate_mbit`, `rtt_ms`
/// and `loss`, with a queue of `queue_packets`.
fn transfer(name: &str, sizes: &[usize], rate_mbit: f64, rtt_ms: f64, loss: f64, queue_packets: u64, seed: u64) -> Transfer {
    let dir: PathBuf = std::env::temp_dir().join(format!("pagepath-sim-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_recording(&dir.join("rec"), sizes);
    let clock = VirtualClock::start();
    let topology = one_path(&dir, rate_mbit, rtt_ms, loss, queue_packets, seed);
    let replay = prepare(&serve_config(&dir, "h3")).unwrap();
    let outbox = Outbox::default();
    let server = &replay.servers[0];
    let config = server_config(&replay.service, None).unwrap();
    let servers = vec![(SocketAddr::new(server.address, server.port), QuicOrigin::new(replay.service.clone(), 0, config, Rc::new(outbox.clone())))];
    let (tx, rx) = channel();
    let config = client_config(&dir, "10.10.0.2".parse().unwrap(), clock.now());
    let started = config.started;
    let local: SocketAddr = "10.10.0.2:40000".parse().unwrap();
    let client = QuicClient::new(config, tx, vec![local], Rc::new(outbox.clone())).unwrap();
    let mut world = World::new(clock, Paths::new(&topology, vec!["10.10.0.2".parse().unwrap()]).unwrap(), client, servers, outbox);
    let mut net = &mut world;
    let done_ms = fetch_all(&mut net, &rx, started, sizes);
    net.finish();
    let bytes_down = world.paths.delivered()[0].down;
    let _ = std::fs::remove_dir_all(&dir);
    Transfer { done_ms, bytes_down }
}

#[test]
fn a_100_kb_response_takes_the_slow_start_rounds_worked_out_by_hand() {
    // 100 ms RTT, a link fast enough that only round trips count. The handshake takes one round
    // trip, the request half of one more; then tquic's initial window of 10 packets of 1,200 bytes
    // sends 12 KB, doubling each round trip: 12, 24, 48, 96 KB, so 100 KB takes four rounds of
    // data and reaches the client half a round trip after the fourth leaves: 1 + 0.5 + 3 + 0.5 =
    // 5 round trips, 500 ms. A 10 KB response fits the first round: 2 round trips.
    let big = transfer("slow-start", &[100_000], 1000.0, 100.0, 0.0, 1000, 1);
    assert!((480.0..530.0).contains(&big.done_ms[0]), "100 KB took {:.1} ms, not the 500 ms of five round trips", big.done_ms[0]);
    let small = transfer("one-round", &[10_000], 1000.0, 100.0, 0.0, 1000, 1);
    assert!((195.0..215.0).contains(&small.done_ms[0]), "10 KB took {:.1} ms, not the 200 ms of two round trips", small.done_ms[0]);
}

#[test]
fn a_bulk_transfer_runs_at_the_links_rate() {
    // 2 MB at 10 Mbit/s: 1.6 s of data on the wire, of which QUIC's and IP's headers add about
    // 3% (1,228-byte IP packets for 1,200-byte datagrams of ~1,170 bytes of data).
    let t = transfer("bulk", &[2_000_000], 10.0, 20.0, 0.0, 100, 1);
    let wire_s = t.bytes_down as f64 * 8.0 / 10e6;
    assert!((2_000_000..2_200_000).contains(&t.bytes_down), "{} wire bytes down for a 2 MB body", t.bytes_down);
    let took_s = t.done_ms[0] / 1000.0;
    assert!(took_s > wire_s && took_s < wire_s * 1.15 + 0.1, "2 MB took {took_s:.3} s over a link that carries its {} wire bytes in {wire_s:.3} s", t.bytes_down);
}

#[test]
fn the_same_seed_gives_the_same_transfer_and_losses_are_recovered() {
    // A window-limited transfer (1 MB at 100 Mbit/s, 100 ms RTT: a bandwidth-delay product of 1.25
    // MB) on a queue too deep to overflow, so that the losses are the link's 2% alone: each one
    // cuts the window that slow start would have doubled, and the transfer takes longer.
    let sizes = [1_000_000, 50_000, 5_000];
    let a = transfer("seed-a", &sizes, 100.0, 100.0, 0.02, 2000, 7);
    let b = transfer("seed-b", &sizes, 100.0, 100.0, 0.02, 2000, 7);
    // One seed, one outcome, up to the handshake: each run's certificate signs with ECDSA, whose
    // DER signature is 70-72 bytes at random, so a packet of the server's first flight may differ
    // by a byte or two (docs/simulator.md).
    for (x, y) in a.done_ms.iter().zip(&b.done_ms) {
        assert!((x - y).abs() <= x * 0.005, "one seed, one outcome: {:?} against {:?}", a.done_ms, b.done_ms);
    }
    assert!(a.bytes_down.abs_diff(b.bytes_down) <= 4, "{} against {} bytes down", a.bytes_down, b.bytes_down);
    let lossless = transfer("seed-c", &sizes, 100.0, 100.0, 0.0, 2000, 7);
    assert!(a.done_ms[0] > lossless.done_ms[0], "2% loss ({:.0} ms) must cost time against none ({:.0} ms)", a.done_ms[0], lossless.done_ms[0]);
}
