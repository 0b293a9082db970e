//! Chromium's backup attempt (io/tcp/connect.rs): a connection whose TCP and TLS handshakes are not
//! done 250 ms after it began gets a second attempt beside it, and the first done is used. Here the
//! first connection to the origin is accepted and never answered, as a TLS handshake whose packets
//! are lost, and later ones are relayed to the real replay server.

mod tcp_common;

use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::{Event, Http1Mode};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};
use tcp_common::*;

/// Listens on `at`; holds the first connection silent, relays the others to `to`.
fn stall_first_connection(at: &str, to: SocketAddr) -> SocketAddr {
    let listener = TcpListener::bind(at).unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for (n, client) in listener.incoming().enumerate() {
            let Ok(client) = client else { return };
            if n == 0 {
                held.push(client);
                continue;
            }
            let server = TcpStream::connect(to).unwrap();
            for (mut from, mut into) in [(client.try_clone().unwrap(), server.try_clone().unwrap()), (server, client)] {
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from, &mut into);
                    let _ = into.shutdown(std::net::Shutdown::Write);
                });
            }
        }
    });
    address
}

#[test]
fn a_stalled_handshake_gets_a_second_attempt_after_250_ms() {
    let origin = "https://stalled.test:18453";
    let resources = resources(&SIZES[..1], 0.0);
    for (protocol, name, address, relay) in [(TcpProtocol::Http1, "h1", "127.0.1.178", "127.0.1.179:0"), (TcpProtocol::Http2, "h2", "127.0.1.180", "127.0.1.181:0")] {
        let server = ReplayServer::start(&format!("stalled-{name}"), origin, address, &resources, &["--protocol", name]);
        let mut origins = server.origins.clone();
        origins[0].address = stall_first_connection(relay, origins[0].address);
        let asked = Instant::now();
        let outcome = fetch_all(config(origins, &server.spki_hash, Http1Mode::KeepAlive, 6), protocol, &urls(origin, &resources), None);
        assert_fetched(&outcome.events[&0], resources[0].bytes as u64, name);
        let Some(Event::Headers { handshake: Some(handshake), .. }) = outcome.events[&0].first() else { panic!("{name}: the request shows the handshake of the attempt it used: {:?}", outcome.events[&0]) };
        let waited = handshake.started.duration_since(asked);
        assert!(waited >= Duration::from_millis(250) && waited < Duration::from_millis(400), "{name}: the attempt used began {waited:?} after the request");
        // The stalled attempt, dropped during its handshake, is not among the load's connections.
        assert_eq!(outcome.records.len(), 1, "{name}: the connection used: {:?}", outcome.records);
    }
}
