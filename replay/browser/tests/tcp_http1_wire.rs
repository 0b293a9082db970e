//! HTTP/1.x on the wire, against a scripted server: requests really go out back to back when
//! pipelining, every body framing is read to its exact end (Content-Length, chunked, until
//! close, none for HEAD and 204), and requests a server closes on go to a new connection.

mod tcp_common;

use pagepath_browser::core::Pool;
use pagepath_browser::io::tcp::TcpProtocol;
use pagepath_browser::io::transport::{Event, Fetch, Http1Mode, OriginAddress};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;
use tcp_common::*;

fn origin(name: &str, address: &str) -> OriginAddress {
    let address: std::net::SocketAddr = address.parse().unwrap();
    OriginAddress { origin: format!("http://{name}:{}", address.port()), host: name.into(), address, tls: false }
}

/// Reads until `count` request heads are in (or the client goes quiet), returns them.
fn read_requests(stream: &mut TcpStream, count: usize) -> Vec<String> {
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    while String::from_utf8_lossy(&data).matches("\r\n\r\n").count() < count {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => data.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&data).split_terminator("\r\n\r\n").map(str::to_string).collect()
}

fn serve(address: &str, connections: usize, script: impl Fn(usize, &mut TcpStream) + Send + 'static) -> JoinHandle<()> {
    let listener = TcpListener::bind(address).unwrap();
    std::thread::spawn(move || {
        for n in 0..connections {
            let (mut stream, _) = listener.accept().unwrap();
            script(n, &mut stream);
        }
    })
}

fn fetch(id: usize, base: &str, path: &str, method: &str) -> Fetch {
    Fetch { id, url: format!("{base}{path}"), method: method.into(), priority: None, net_priority: None, pool: Pool::default() }
}

fn chunked(body: &[u8], piece: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, part) in body.chunks(piece).enumerate() {
        out.extend_from_slice(format!("{:x};n={i}\r\n", part.len()).as_bytes());
        out.extend_from_slice(part);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\nx-trailer: 1\r\n\r\n");
    out
}

#[test]
fn pipelined_requests_go_out_together_and_every_framing_ends_exactly() {
    let base = "http://wire-pipelined.test:18082";
    let server = serve("127.0.1.125:18082", 1, |_, stream| {
        // Nothing is answered until all five requests are in: only a pipelining client gets answers.
        let requests = read_requests(stream, 5);
        assert_eq!(requests.len(), 5, "{requests:?}");
        assert!(requests[0].starts_with("GET /length HTTP/1.1\r\n"), "{}", requests[0]);
        for needed in ["Host: wire-pipelined.test:18082", "User-Agent: pagepath-browser", "Accept-Encoding: identity"] {
            assert!(requests.iter().all(|r| r.contains(needed)), "{needed}: {requests:?}");
        }
        let mut out = b"HTTP/1.1 200 OK\r\nContent-Length: 70000\r\n\r\n".to_vec();
        out.extend(vec![b'a'; 70_000]);
        out.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        out.extend(chunked(&vec![b'b'; 50_001], 7_000));
        out.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
        out.extend_from_slice(b"HTTP/1.1 204 No Content\r\n\r\n");
        out.extend_from_slice(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
        out.extend(vec![b'c'; 123_457]);
        // Byte by byte at first, so heads and chunk lines arrive split across reads.
        for byte in &out[..300] {
            stream.write_all(&[*byte]).unwrap();
        }
        stream.write_all(&out[300..]).unwrap();
    });
    let fetches = vec![
        fetch(0, base, "/length", "GET"),
        fetch(1, base, "/chunked", "GET"),
        fetch(2, base, "/head", "HEAD"),
        fetch(3, base, "/none", "GET"),
        fetch(4, base, "/close", "GET"),
    ];
    let config = config(vec![origin("wire-pipelined.test", "127.0.1.125:18082")], &("A".repeat(43) + "="), Http1Mode::Pipelined, 1);
    let outcome = run_fetches(config, TcpProtocol::Http1, fetches);
    server.join().unwrap();
    assert_fetched(&outcome.events[&0], 70_000, "/length");
    assert_fetched(&outcome.events[&1], 50_001, "/chunked");
    assert_fetched(&outcome.events[&2], 0, "HEAD /head");
    assert!(matches!(outcome.events[&3][..], [Event::Headers { status: 204, .. }, Event::Done { status: 204, body_bytes: 0, .. }]), "{:?}", outcome.events[&3]);
    assert_fetched(&outcome.events[&4], 123_457, "/close");
    assert_eq!(outcome.records.len(), 1);
    assert_records(&outcome.records, "h1", "tcp", 70_000 + 50_001 + 123_457);
}

#[test]
fn requests_behind_a_closing_response_go_to_a_new_connection() {
    let base = "http://wire-closing.test:18083";
    let server = serve("127.0.1.126:18083", 3, |n, stream| {
        let requests = read_requests(stream, 3 - n);
        assert!(requests[0].starts_with(&format!("GET /r{n} ")), "connection {n} starts with /r{n}: {requests:?}");
        stream.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello").unwrap();
    });
    let fetches = (0..3).map(|i| fetch(i, base, &format!("/r{i}"), "GET")).collect();
    let config = config(vec![origin("wire-closing.test", "127.0.1.126:18083")], &("A".repeat(43) + "="), Http1Mode::Pipelined, 1);
    let outcome = run_fetches(config, TcpProtocol::Http1, fetches);
    server.join().unwrap();
    for id in 0..3 {
        assert_fetched(&outcome.events[&id], 5, &format!("/r{id}"));
    }
    assert_eq!(outcome.records.len(), 3, "{:?}", outcome.records);
}
