//! HTTP/2 against the real replay server: one connection per origin, every request a stream.

mod tcp_common;

use pagepath_browser::core::Pool;
use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::{Event, Http1Mode};
use tcp_common::*;

#[test]
fn every_request_is_a_stream_on_one_connection() {
    let origin = "https://h2-bodies.test:18442";
    let resources = resources(&SIZES, 50.0);
    let args = ["--protocol", "h2", "--model", "out-of-order", "--priority", "client"];
    let mut server = ReplayServer::start("h2", origin, "127.0.1.131", &resources, &args);
    let mut config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    config.locals = vec!["127.0.0.1".parse().unwrap()];
    let outcome = fetch_all(config, TcpProtocol::Http2, &urls(origin, &resources), Some("u=2"));
    for (id, r) in resources.iter().enumerate() {
        assert_fetched(&outcome.events[&id], r.bytes as u64, &r.path);
    }
    assert_eq!(outcome.records.len(), 1, "{:?}", outcome.records);
    assert_records(&outcome.records, "h2", "tcp", total(&resources));
    // Told once, as TLS ended: before the first response's headers.
    assert_eq!(outcome.http2.iter().map(|(o, _)| o.as_str()).collect::<Vec<_>>(), [origin]);
    let first_headers = outcome.events.values().flat_map(|e| e.first()).map(|e| if let Event::Headers { at, .. } = e { *at } else { panic!("{e:?}") }).min().unwrap();
    assert!(outcome.http2[0].1 < first_headers);
    let paths = &outcome.records[0].paths;
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0].path, 0);
    assert!(paths[0].bytes_up.unwrap() > 0);
    let streams = server.stop();
    assert_eq!(streams.len(), resources.len());
    let first_ready = streams.iter().map(|s| s["times"]["readyUs"].as_u64().unwrap()).min().unwrap();
    for s in &streams {
        assert_eq!(s["connection"], streams[0]["connection"]);
        assert_eq!(s["priority"]["urgency"].as_u64(), Some(2), "{s}");
        assert!(s["times"]["arrivalUs"].as_u64().unwrap() < first_ready, "every request arrives before the first response is ready: {s}");
    }
}

#[test]
fn a_url_of_no_served_origin_fails_at_once() {
    let origin = "https://h2-unknown.test:18442";
    let resources = resources(&SIZES[..1], 0.0);
    let server = ReplayServer::start("h2-unknown", origin, "127.0.1.132", &resources, &["--protocol", "h2"]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    let outcome = fetch_all(config, TcpProtocol::Http2, &["https://elsewhere.test/x".to_string()], None);
    let events = &outcome.events[&0];
    assert!(
        matches!(&events[..], [pagepath_browser::io::transport::Event::Failed { reason, .. }] if reason.contains("https://elsewhere.test")),
        "{events:?}"
    );
    assert!(outcome.records.is_empty());
}

#[test]
fn finish_cancels_what_is_in_flight_and_reports_the_connection() {
    let origin = "https://h2-finish.test:18442";
    let resources = resources(&SIZES[..2], 5_000.0);
    let server = ReplayServer::start("h2-finish", origin, "127.0.1.133", &resources, &["--protocol", "h2"]);
    let (events, received) = std::sync::mpsc::channel();
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    let mut transport = pagepath_browser::io::tcp::TcpTransport::new(config, TcpProtocol::Http2, events).unwrap();
    for (id, url) in urls(origin, &resources).into_iter().enumerate() {
        pagepath_browser::io::transport::Transport::fetch(&mut transport, pagepath_browser::io::transport::Fetch { id, url, method: "GET".into(), priority: None, net_priority: None, pool: Pool::default() });
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let asked = std::time::Instant::now();
    let records = pagepath_browser::io::transport::Transport::finish(Box::new(transport));
    assert!(asked.elapsed() < std::time::Duration::from_secs(1), "finish took {:?}", asked.elapsed());
    assert!(received.try_iter().all(|e| !matches!(e, pagepath_browser::io::transport::Event::Done { .. })), "nothing was done yet");
    assert_eq!(records.len(), 1, "{records:?}");
    assert_records(&records, "h2", "tcp", 0);
}

/// Fetches four resources of one origin over HTTP/2, the i-th in `pool(i)`; the connections opened.
fn connections_for_pools(name: &str, origin: &str, address: &str, pool: impl Fn(usize) -> Pool) -> Vec<pagepath_browser::io::transport::ConnectionRecord> {
    let resources = resources(&SIZES[..4], 0.0);
    let server = ReplayServer::start(name, origin, address, &resources, &["--protocol", "h2"]);
    let config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    let fetches = urls(origin, &resources)
        .into_iter()
        .enumerate()
        .map(|(id, url)| pagepath_browser::io::transport::Fetch { id, url, method: "GET".into(), priority: None, net_priority: None, pool: pool(id) })
        .collect();
    let outcome = run_fetches(config, TcpProtocol::Http2, fetches);
    for (id, r) in resources.iter().enumerate() {
        assert_fetched(&outcome.events[&id], r.bytes as u64, &r.path);
    }
    assert!(outcome.records.iter().all(|r| r.origin == origin && r.protocol == "h2"), "{:?}", outcome.records);
    outcome.records
}

#[test]
fn requests_without_credentials_get_a_connection_of_their_own() {
    // Chromium keys HTTP/2 sessions by privacy mode: a font or a cross-origin fetch() does not share
    // the connection the origin's style sheets and scripts came over.
    let records = connections_for_pools("h2-privacy", "https://h2-privacy.test:18444", "127.0.1.134", |id| Pool { privacy_mode: id % 2 == 1, ..Pool::default() });
    assert_eq!(records.len(), 2, "one connection per privacy mode: {records:?}");
}

#[test]
fn requests_of_a_cross_site_frame_get_connections_of_their_own() {
    // Chromium's network state partitioning: a cross-site iframe's requests to the origin never
    // share the page's connections, in either privacy mode.
    let records = connections_for_pools("h2-partition", "https://h2-partition.test:18445", "127.0.1.135", |id| Pool { privacy_mode: id % 2 == 1, partitioned: id >= 2 });
    assert_eq!(records.len(), 4, "one connection per pool: {records:?}");
}
