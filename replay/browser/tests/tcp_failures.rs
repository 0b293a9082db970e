//! Failures the TCP transport must report clearly: a server whose certificate is not the
//! replay's, and a server that is not there.

mod tcp_common;

use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::{Event, Http1Mode, OriginAddress};
use tcp_common::*;

fn reasons(outcome: &Outcome, count: usize) -> Vec<String> {
    (0..count)
        .map(|id| match &outcome.events[&id][..] {
            [Event::Failed { reason, .. }] => reason.clone(),
            other => panic!("request {id} should fail at once: {other:?}"),
        })
        .collect()
}

#[test]
fn a_certificate_with_another_key_fails_every_request_naming_the_origin() {
    let origin = "https://bad-key.test:18443";
    let resources = resources(&SIZES[..3], 0.0);
    for (protocol, name, address) in [(TcpProtocol::Http1, "h1", "127.0.1.141"), (TcpProtocol::Http2, "h2", "127.0.1.142")] {
        let server = ReplayServer::start(&format!("bad-key-{name}"), origin, address, &resources, &["--protocol", name]);
        // Another well-formed digest: the last character before '=' carries 2 unused bits, which
        // must be zero ("B".repeat(43) is not valid base64), and the server's key is random.
        let zero = "A".repeat(43) + "=";
        let wrong = if server.spki_hash == zero { "A".repeat(42) + "E=" } else { zero };
        let config = config(server.origins.clone(), &wrong, Http1Mode::KeepAlive, 2);
        let outcome = fetch_all(config, protocol, &urls(origin, &resources), None);
        for reason in reasons(&outcome, resources.len()) {
            assert!(reason.contains("https://bad-key.test:18443"), "{reason}");
            assert!(reason.contains(&server.spki_hash) && reason.contains(&wrong), "{reason}");
        }
        assert!(!outcome.records.is_empty(), "the TCP connections that carried the failed handshakes are recorded");
    }
}

#[test]
fn a_refused_connection_names_the_origin_and_address() {
    let origins = vec![OriginAddress {
        origin: "https://nobody.test:18444".into(),
        host: "nobody.test".into(),
        address: "127.0.1.149:18444".parse().unwrap(),
        tls: true,
    }];
    let hash = "A".repeat(43) + "=";
    for protocol in [TcpProtocol::Http1, TcpProtocol::Http2] {
        let config = config(origins.clone(), &hash, Http1Mode::Pipelined, 2);
        let urls = vec!["https://nobody.test:18444/a".to_string(), "https://nobody.test:18444/b".to_string()];
        let outcome = fetch_all(config, protocol, &urls, None);
        for reason in reasons(&outcome, urls.len()) {
            assert!(reason.starts_with("cannot connect to https://nobody.test:18444 at 127.0.1.149:18444: "), "{reason}");
        }
        assert!(outcome.records.is_empty(), "{:?}", outcome.records);
    }
}

#[test]
fn a_hash_that_is_not_base64_sha256_is_refused_up_front() {
    let config = config(Vec::new(), "not-a-hash", Http1Mode::KeepAlive, 1);
    let (events, _) = std::sync::mpsc::channel();
    let error = pagepath_browser::io::tcp::TcpTransport::new(config, TcpProtocol::Http2, events).err().unwrap();
    assert!(error.contains("not-a-hash"), "{error}");
}
