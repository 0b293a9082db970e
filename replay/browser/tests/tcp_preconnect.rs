//! `<link rel=preconnect>` against the real replay server: the connection opens before any request
//! and the first request to the origin, in the same credentials mode, goes over it without a
//! handshake of its own. A navigation's preconnect asks for two connections: both open, and over
//! HTTP/2 the second stays idle.

mod tcp_common;

use pagepath_browser::core::Pool;
use pagepath_browser::io::tcp::{TcpProtocol, TcpTransport};
use pagepath_browser::io::transport::{ConnectionRecord, Event, Fetch, Http1Mode, Transport};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};
use tcp_common::*;

/// A connection pool for requests without credentials, of the main frame.
const ANONYMOUS: Pool = Pool { privacy_mode: true, partitioned: false };

/// Preconnects `origin` (without credentials), waits `settle`, then fetches its one resource in
/// `privacy_mode`; the fetch's events, the connections, and how many said they speak HTTP/2 before
/// the fetch was made.
fn preconnect_then_fetch(name: &str, origin: &str, address: &str, protocol: TcpProtocol, privacy_mode: bool, sockets: usize) -> (Vec<Event>, Vec<ConnectionRecord>, usize) {
    let resources = resources(&SIZES[..1], 0.0);
    let server_protocol = if protocol == TcpProtocol::Http2 { "h2" } else { "h1" };
    let server = ReplayServer::start(name, origin, address, &resources, &["--protocol", server_protocol]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    let (events, received) = channel();
    let mut transport: Box<dyn Transport> = Box::new(TcpTransport::new(config, protocol, events).unwrap());
    transport.preconnect("https://no-server.test", ANONYMOUS, 1);
    transport.preconnect(origin, ANONYMOUS, sockets);
    // Loopback: the handshake is over well within this.
    std::thread::sleep(Duration::from_millis(300));
    let http2_ahead = received.try_iter().filter(|e| matches!(e, Event::Http2Connection { origin: o, .. } if o == origin)).count();
    let url = urls(origin, &resources).remove(0);
    transport.fetch(Fetch { id: 0, url, method: "GET".into(), priority: None, net_priority: None, pool: Pool { privacy_mode, ..Pool::default() } });
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut got = Vec::new();
    while !got.iter().any(|e| matches!(e, Event::Done { .. } | Event::Failed { .. })) {
        match received.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("the fetch ends within 20 s") {
            Event::Http2Connection { .. } => {}
            e => got.push(e),
        }
    }
    assert_fetched(&got, resources[0].bytes as u64, &resources[0].path);
    (got, transport.finish(), http2_ahead)
}

fn handshake_shown(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::Headers { handshake: Some(_), .. }))
}

#[test]
fn an_http2_request_takes_the_connection_opened_ahead_for_its_credentials_mode() {
    let origin = "https://h2-preconnect.test:18446";
    let (events, records, http2_ahead) = preconnect_then_fetch("h2-preconnect", origin, "127.0.1.171", TcpProtocol::Http2, true, 1);
    assert_eq!(records.len(), 1, "the preconnected connection only: {records:?}");
    assert_eq!(http2_ahead, 1, "the connection opened ahead told the browser its server speaks HTTP/2");
    assert!(records[0].opened_ms < 100.0, "opened at the preconnect, not at the fetch 300 ms later: {records:?}");
    assert!(!handshake_shown(&events), "a preconnected connection's handshake is no request's: {events:?}");
}

#[test]
fn a_request_with_credentials_does_not_take_an_anonymous_preconnect() {
    let origin = "https://h2-preconnect-cred.test:18447";
    let (events, records, _) = preconnect_then_fetch("h2-preconnect-cred", origin, "127.0.1.172", TcpProtocol::Http2, false, 1);
    assert_eq!(records.len(), 2, "one connection per privacy mode: {records:?}");
    assert!(handshake_shown(&events), "the credentialed request opened its own: {events:?}");
}

#[test]
fn an_http1_request_takes_the_connection_opened_ahead() {
    let origin = "https://h1-preconnect.test:18448";
    let (events, records, http2_ahead) = preconnect_then_fetch("h1-preconnect", origin, "127.0.1.173", TcpProtocol::Http1, true, 1);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(http2_ahead, 0);
    assert!(!handshake_shown(&events), "{events:?}");
}

#[test]
fn a_navigation_opens_two_connections_and_http2_leaves_the_second_idle() {
    for (name, origin, address, protocol) in [
        ("h1-preconnect-two", "https://h1-preconnect-two.test:18449", "127.0.1.174", TcpProtocol::Http1),
        ("h2-preconnect-two", "https://h2-preconnect-two.test:18450", "127.0.1.175", TcpProtocol::Http2),
    ] {
        let (events, records, _) = preconnect_then_fetch(name, origin, address, protocol, true, 2);
        assert_eq!(records.len(), 2, "{name}: both connections opened: {records:?}");
        assert!(records.iter().all(|r| r.opened_ms < 100.0), "{name}: both at the preconnect: {records:?}");
        assert!(!handshake_shown(&events), "{name}: the request found a connection open: {events:?}");
    }
}
