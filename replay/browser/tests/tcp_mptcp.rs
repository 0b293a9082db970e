//! MPTCP: the transport opens MPTCP sockets and reports what the kernel really used.

mod tcp_common;

use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::Http1Mode;
use tcp_common::*;

#[test]
fn http2_over_mptcp_is_recorded_as_mptcp_with_its_bytes() {
    let origin = "https://mptcp.test:18445";
    // Server delays keep the connection open for several of the sampler's readings.
    let resources = resources(&SIZES, 50.0);
    let server = ReplayServer::start("mptcp", origin, "127.0.1.151", &resources, &["--protocol", "h2", "--transport", "mptcp"]);
    let mut config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 6);
    config.multipath = true;
    let outcome = fetch_all(config, TcpProtocol::Http2, &urls(origin, &resources), None);
    for (id, r) in resources.iter().enumerate() {
        assert_fetched(&outcome.events[&id], r.bytes as u64, &r.path);
    }
    assert_eq!(outcome.records.len(), 1);
    // Subflows can close before the connection does, taking their counters (MPTCP_TCPINFO) with
    // them: what was read last is a lower bound. The replay tests hold MPTCP bytes to the link
    // emulator's counters instead.
    assert_records(&outcome.records, "h2", "mptcp", 1);
}

#[test]
fn an_mptcp_socket_to_a_plain_tcp_server_is_recorded_as_tcp() {
    let origin = "https://mptcp-fallback.test:18445";
    let resources = resources(&SIZES[..3], 0.0);
    let server = ReplayServer::start("mptcp-fallback", origin, "127.0.1.152", &resources, &["--protocol", "h1"]);
    let mut config = config(server.origins.clone(), &server.spki_hash, Http1Mode::KeepAlive, 1);
    config.multipath = true;
    let outcome = fetch_all(config, TcpProtocol::Http1, &urls(origin, &resources), None);
    for (id, r) in resources.iter().enumerate() {
        assert_fetched(&outcome.events[&id], r.bytes as u64, &r.path);
    }
    assert_records(&outcome.records, "h1", "tcp", total(&resources));
}

#[test]
fn http10_over_mptcp_reads_each_connections_bytes_before_it_closes() {
    let origin = "https://mptcp-per-request.test:18445";
    let resources = resources(&SIZES[..5], 0.0);
    let server = ReplayServer::start("mptcp-per-request", origin, "127.0.1.153", &resources, &["--protocol", "h1", "--transport", "mptcp"]);
    let mut config = config(server.origins.clone(), &server.spki_hash, Http1Mode::PerRequest, 2);
    config.multipath = true;
    let outcome = fetch_all(config, TcpProtocol::Http1, &urls(origin, &resources), None);
    assert_eq!(outcome.records.len(), resources.len());
    assert_records(&outcome.records, "h1", "mptcp", total(&resources));
    for r in &outcome.records {
        assert!(r.paths.iter().any(|p| p.bytes_down.unwrap() > 0), "{r:?}");
    }
}
