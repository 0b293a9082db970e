//! Requests that wait for a connection go highest priority first, in the order asked within one
//! priority (core/socket_pool.rs, io/tcp/h2_origin.rs), against the real replay server: three
//! High requests and then a VeryHigh one, asked for at once of an origin with no connection yet,
//! reach the server VeryHigh first.

mod tcp_common;

use pagepath_browser::core::Pool;
use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::{Fetch, Http1Mode};
use tcp_common::*;

/// The URLs' paths in the order the server took them: by stream over HTTP/2 (one connection), by
/// arrival over HTTP/1.1 (one connection, one request at a time).
fn served_order(name: &str, origin: &str, address: &str, protocol: TcpProtocol) -> (Vec<String>, Vec<String>) {
    let resources = resources(&SIZES[..4], 0.0);
    let server_protocol = if protocol == TcpProtocol::Http2 { "h2" } else { "h1" };
    let mut server = ReplayServer::start(name, origin, address, &resources, &["--protocol", server_protocol]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 1);
    let urls = urls(origin, &resources);
    // Chromium's High (1) for the first three, VeryHigh (0) for the last.
    let fetches = urls.iter().enumerate().map(|(id, url)| Fetch { id, url: url.clone(), method: "GET".into(), priority: None, net_priority: Some(if id == 3 { 0 } else { 1 }), pool: Pool::default() }).collect();
    let outcome = run_fetches(config, protocol, fetches);
    for (id, r) in resources.iter().enumerate() {
        assert_fetched(&outcome.events[&id], r.bytes as u64, &r.path);
    }
    let mut streams = server.stop();
    streams.sort_by_key(|s| (s["connection"].as_u64().unwrap(), s["times"]["arrivalUs"].as_u64().unwrap(), s["stream"].as_u64().unwrap()));
    let served = streams.iter().map(|s| s["url"].as_str().unwrap().to_string()).collect();
    let expected = [3, 0, 1, 2].iter().map(|&i| urls[i].clone()).collect();
    (served, expected)
}

#[test]
fn http2_sends_what_waited_for_its_handshake_highest_priority_first() {
    let (served, expected) = served_order("h2-waiting", "https://h2-waiting.test:18451", "127.0.1.176", TcpProtocol::Http2);
    assert_eq!(served, expected);
}

#[test]
fn http1_hands_its_connection_to_the_highest_priority_waiting_request() {
    let (served, expected) = served_order("h1-waiting", "https://h1-waiting.test:18452", "127.0.1.177", TcpProtocol::Http1);
    assert_eq!(served, expected);
}
