//! A page mixing http and https origins through the router, as the driver runs it: every
//! connection of the run has an id of its own (run-result.md), whichever scheme it served.

mod tcp_common;

use pagepath_browser::core::Pool;
use pagepath_browser::cli::Protocol;
use pagepath_browser::io::router::Router;
use pagepath_browser::io::transport::{ConnectionRecord, Event, Fetch, Http1Mode};
use std::collections::HashSet;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};
use tcp_common::*;

const CLEAR: &str = "http://mixed-clear.test:18083";
const SECURE: &str = "https://mixed-secure.test:18443";

/// Fetches every resource of both origins at once through a router speaking `protocol`; the
/// connection records it reports, after checking every fetch ended 200 with its whole body.
fn records_of_mixed_page(protocol: Protocol, first_address: &str) -> Vec<ConnectionRecord> {
    let clear = resources(&SIZES[..3], 0.0);
    let secure = resources(&SIZES[..3], 0.0);
    let sites: [(&str, &[Resource]); 2] = [(CLEAR, &clear), (SECURE, &secure)];
    let (http1, served) = match protocol {
        Protocol::Http1(mode) => (mode, "h1"),
        _ => (Http1Mode::KeepAlive, "h2"),
    };
    let server = ReplayServer::start_sites(&format!("mixed-{first_address}"), &sites, first_address, &["--protocol", served]);
    let (events, received) = channel();
    let mut router = Router::new(config(server.origins.clone(), &server.spki_hash, http1, 6), protocol, events);
    let wanted: Vec<(String, bool, u64)> = sites
        .iter()
        .flat_map(|&(origin, rs)| rs.iter().map(move |r| (format!("{origin}{}", r.path), origin.starts_with("https:"), r.bytes as u64)))
        .collect();
    for (id, (url, tls, _)) in wanted.iter().enumerate() {
        router.fetch(Fetch { id, url: url.clone(), method: "GET".into(), priority: None, net_priority: None, pool: Pool::default() }, *tls).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut ended = 0;
    while ended < wanted.len() {
        match received.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("every fetch ends within 60 s") {
            Event::Done { id, status, body_bytes, .. } => {
                assert_eq!((status, body_bytes), (200, wanted[id].2), "{}", wanted[id].0);
                ended += 1;
            }
            Event::Failed { id, reason, .. } => panic!("{} failed: {reason}", wanted[id].0),
            _ => {}
        }
    }
    router.finish()
}

fn assert_ids_unique_and_bytes_per_origin(records: &[ConnectionRecord], secure_protocol: &str) {
    let ids: HashSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids.len(), records.len(), "connection ids are unique in the run: {records:?}");
    let body = total(&resources(&SIZES[..3], 0.0));
    for (origin, protocol) in [(CLEAR, "h1"), (SECURE, secure_protocol)] {
        let of: Vec<&ConnectionRecord> = records.iter().filter(|r| r.origin == origin).collect();
        assert!(!of.is_empty() && of.iter().all(|r| r.protocol == protocol), "{origin} over {protocol}: {records:?}");
        let down: u64 = of.iter().flat_map(|r| &r.paths).map(|p| p.bytes_down.unwrap()).sum();
        assert!(down >= body, "{origin}'s connections carried {down} bytes down, less than its bodies' {body}: {records:?}");
    }
}

#[test]
fn http2_run_with_an_http_origin_numbers_every_connection_once() {
    let records = records_of_mixed_page(Protocol::H2, "127.0.1.161");
    assert_ids_unique_and_bytes_per_origin(&records, "h2");
}

#[test]
fn http1_run_with_an_http_origin_numbers_every_connection_once() {
    let records = records_of_mixed_page(Protocol::Http1(Http1Mode::KeepAlive), "127.0.1.163");
    assert_ids_unique_and_bytes_per_origin(&records, "h1");
}
