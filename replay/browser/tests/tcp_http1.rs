//! HTTP/1.0, HTTP/1.1 keep-alive and pipelined HTTP/1.1 against the real replay server. (Its
//! HTTP/1.1 front end takes pipelined requests one at a time, so tcp_http1_wire.rs checks that
//! requests really go out back to back.)

mod tcp_common;

use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::Http1Mode;
use serde_json::Value;
use std::collections::BTreeMap;
use tcp_common::*;

/// streams.jsonl's lines by the server's connection id, in arrival order.
fn by_connection(streams: &[Value]) -> BTreeMap<u64, Vec<&Value>> {
    let mut map: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for s in streams {
        map.entry(s["connection"].as_u64().unwrap()).or_default().push(s);
    }
    for list in map.values_mut() {
        list.sort_by_key(|s| s["times"]["arrivalUs"].as_u64().unwrap());
    }
    map
}

fn check_bodies(outcome: &Outcome, resources: &[Resource]) {
    for (id, r) in resources.iter().enumerate() {
        assert_fetched(&outcome.events[&id], r.bytes as u64, &r.path);
    }
}

#[test]
fn keep_alive_sends_one_request_at_a_time_on_at_most_k_connections() {
    let origin = "https://h1-keepalive.test:18441";
    let resources = resources(&SIZES, 20.0);
    let mut server = ReplayServer::start("keepalive", origin, "127.0.1.121", &resources, &["--protocol", "h1", "--model", "parallel"]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 2);
    let outcome = fetch_all(config, TcpProtocol::Http1, &urls(origin, &resources), None);
    check_bodies(&outcome, &resources);
    assert_eq!(outcome.records.len(), 2, "{:?}", outcome.records);
    assert_records(&outcome.records, "h1", "tcp", total(&resources));
    assert!(outcome.http2.is_empty(), "HTTP/1.1 connections tell nothing of HTTP/2: {:?}", outcome.http2);
    let streams = server.stop();
    assert_eq!(streams.len(), resources.len());
    let connections = by_connection(&streams);
    assert_eq!(connections.len(), 2);
    for list in connections.values() {
        for pair in list.windows(2) {
            let (before, after) = (&pair[0]["times"], &pair[1]["times"]);
            assert!(after["arrivalUs"].as_u64() >= before["lastChunkUs"].as_u64(), "a request came before the previous response ended: {pair:?}");
        }
    }
}

#[test]
fn pipelining_spreads_requests_over_k_connections() {
    let origin = "https://h1-pipelined.test:18441";
    let resources = resources(&SIZES, 20.0);
    let mut server = ReplayServer::start("pipelined", origin, "127.0.1.122", &resources, &["--protocol", "h1", "--model", "parallel"]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::Pipelined, 2);
    let outcome = fetch_all(config, TcpProtocol::Http1, &urls(origin, &resources), None);
    check_bodies(&outcome, &resources);
    assert_eq!(outcome.records.len(), 2, "{:?}", outcome.records);
    assert_records(&outcome.records, "h1", "tcp", total(&resources));
    assert!(outcome.http2.is_empty(), "HTTP/1.1 connections tell nothing of HTTP/2: {:?}", outcome.http2);
    let streams = server.stop();
    let counts: Vec<usize> = by_connection(&streams).values().map(Vec::len).collect();
    assert_eq!(counts, vec![4, 4], "least loaded first: the requests alternate");
}

#[test]
fn http10_opens_a_connection_per_request_and_at_most_k_at_once() {
    let origin = "https://h1-per-request.test:18441";
    let resources = resources(&SIZES, 10.0);
    let mut server = ReplayServer::start("per-request", origin, "127.0.1.123", &resources, &["--protocol", "h1"]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::PerRequest, 3);
    let outcome = fetch_all(config, TcpProtocol::Http1, &urls(origin, &resources), None);
    check_bodies(&outcome, &resources);
    assert_eq!(outcome.records.len(), resources.len(), "{:?}", outcome.records);
    assert_records(&outcome.records, "h1", "tcp", total(&resources));
    for r in &outcome.records {
        let open_then = outcome.records.iter().filter(|o| o.opened_ms <= r.opened_ms && r.opened_ms < o.closed_ms.unwrap()).count();
        assert!(open_then <= 3, "{open_then} connections open when {} opened", r.id);
    }
    let streams = server.stop();
    assert_eq!(by_connection(&streams).len(), resources.len(), "one request per connection");
}

#[test]
fn http_origins_get_clear_http11_and_the_priority_header_reaches_the_server() {
    let origin = "http://h1-clear.test:18081";
    let resources = resources(&SIZES[..4], 0.0);
    let args = ["--protocol", "h2", "--model", "out-of-order", "--priority", "client"];
    let mut server = ReplayServer::start("clear", origin, "127.0.1.124", &resources, &args);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    let outcome = fetch_all(config, TcpProtocol::Http2, &urls(origin, &resources), Some("u=1, i"));
    check_bodies(&outcome, &resources);
    assert_records(&outcome.records, "h1", "tcp", total(&resources));
    assert!(outcome.http2.is_empty(), "a clear origin asked for HTTP/2 speaks HTTP/1.1: {:?}", outcome.http2);
    for s in server.stop() {
        assert_eq!((s["priority"]["urgency"].as_u64(), s["priority"]["incremental"].as_bool()), (Some(1), Some(true)), "{s}");
    }
}
