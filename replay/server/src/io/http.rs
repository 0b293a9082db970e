//! HTTP/1.1 and HTTP/2 over TCP or MPTCP, with or without TLS: accepts an origin's connections,
//! hands each request to the replay service and each response to the connection's scheduler.

use super::body::ChannelBody;
use super::driver::{self, NewStream};
use super::{congestion, sockets, tcp_stats};
use crate::service::{ConnectionLog, PathLog, RequestHead, Service};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, watch};

/// What every connection of one origin shares, whoever accepted it.
pub struct Site {
    pub service: Arc<Service>,
    pub origin: usize,
    pub tls: Option<Arc<rustls::ServerConfig>>,
    pub mptcp: bool,
    pub stop: watch::Receiver<bool>,
}

/// A connection as its acceptor knows it.
pub struct Accepted<S> {
    pub stream: S,
    pub peer: String,
    /// (local, remote) when the connection has one path (TCP; not MPTCP, which may add subflows).
    pub path: Option<(String, String)>,
    /// The congestion controller it runs with, as its stack says.
    pub congestion: Option<String>,
    /// What each path carried, read once the connection has ended.
    pub stats: Box<dyn FnOnce() -> Vec<PathLog> + Send>,
}

/// Accepts an origin's connections on the kernel's TCP or MPTCP until the stop signal.
pub async fn serve(site: Site, listener: TcpListener) {
    let site = Arc::new(site);
    let mut stop = site.stop.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    tokio::spawn(serve_connection(site.clone(), kernel_connection(&site, stream)));
                }
            }
            _ = stop.changed() => return,
        }
    }
}

fn kernel_connection(site: &Site, stream: TcpStream) -> Accepted<TcpStream> {
    let peer = stream.peer_addr().map(|a| a.to_string()).unwrap_or_default();
    sockets::tune_accepted(&stream);
    let congestion = congestion::set_tcp(stream.as_raw_fd(), site.service.congestion());
    // A second descriptor keeps the socket readable for its statistics after hyper closes it.
    let stats_fd = unsafe { libc::dup(stream.as_raw_fd()) };
    let mptcp = site.mptcp;
    let stats = Box::new(move || {
        if stats_fd < 0 {
            return Vec::new();
        }
        let fd = unsafe { OwnedFd::from_raw_fd(stats_fd) };
        tcp_stats::path_logs(fd.as_raw_fd(), mptcp)
    });
    let path = if mptcp { None } else { one_path(&stream) };
    Accepted { stream, peer, path, congestion, stats }
}

struct Connection {
    service: Arc<Service>,
    origin: usize,
    requests: mpsc::UnboundedSender<NewStream>,
    next_stream: AtomicU64,
    served: AtomicU64,
}

/// Serves one connection to its end and logs it.
pub async fn serve_connection<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(site: Arc<Site>, accepted: Accepted<S>) {
    let Accepted { stream, peer, path, congestion, stats } = accepted;
    let service = site.service.clone();
    let id = service.next_connection_id();
    let opened_us = service.now_us();
    let origin_text = service.origins()[site.origin].origin.to_string();
    let conn = Arc::new(Connection {
        service: service.clone(),
        origin: site.origin,
        requests: driver::spawn(service.clone(), id, origin_text.clone(), path),
        next_stream: AtomicU64::new(0),
        served: AtomicU64::new(0),
    });
    let mut stop = site.stop.clone();
    // A connection still open when the servers stop (a simulation ends with its load) keeps
    // the protocol it negotiated in its log.
    let spoken = Arc::new(std::sync::OnceLock::new());
    // Biased: select!'s random order, seeded afresh by each process, made a simulated load
    // differ from run to run.
    let protocol = tokio::select! {
        biased;
        p = speak(&site, conn.clone(), stream, spoken.clone()) => p,
        _ = stop.changed() => spoken.get().copied().unwrap_or("closed at stop"),
    };
    service.log_connection(ConnectionLog {
        connection: id,
        origin: origin_text,
        protocol: protocol.to_string(),
        transport: if site.mptcp { "mptcp" } else { "tcp" }.to_string(),
        peer,
        opened_us,
        closed_us: service.now_us(),
        requests: conn.served.load(Ordering::Relaxed),
        paths: stats(),
        congestion,
    });
}

/// A TCP connection's (local, remote) addresses.
fn one_path(stream: &TcpStream) -> Option<(String, String)> {
    Some((stream.local_addr().ok()?.to_string(), stream.peer_addr().ok()?.to_string()))
}

/// Runs the connection to its end; returns the protocol it spoke, which goes into `spoken` as
/// soon as it is known.
async fn speak<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(o: &Site, conn: Arc<Connection>, stream: S, spoken: Arc<std::sync::OnceLock<&'static str>>) -> &'static str {
    let Some(tls) = &o.tls else {
        let _ = spoken.set("http/1.1");
        http1(conn, stream).await;
        return "http/1.1";
    };
    let Ok(stream) = tokio_rustls::TlsAcceptor::from(tls.clone()).accept(stream).await else {
        return "tls-failed";
    };
    if stream.get_ref().1.alpn_protocol() == Some(b"h2") {
        let _ = spoken.set("h2");
        http2(conn, stream, o.service.chunk_bytes()).await;
        "h2"
    } else {
        let _ = spoken.set("http/1.1");
        http1(conn, stream).await;
        "http/1.1"
    }
}

async fn http1<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(conn: Arc<Connection>, io: S) {
    let handler = hyper::service::service_fn(move |req| respond(&conn, req));
    let _ = hyper::server::conn::http1::Builder::new().keep_alive(true).serve_connection(TokioIo::new(io), handler).await;
}

async fn http2<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(conn: Arc<Connection>, io: S, chunk_bytes: u64) {
    let handler = hyper::service::service_fn(move |req| respond(&conn, req));
    // h2 pulls a body only while its send buffer is below this, which keeps the scheduler's order.
    let send_buffer = chunk_bytes.clamp(16 * 1024, 1 << 20) as usize;
    let _ = hyper::server::conn::http2::Builder::new(Spawning)
        .max_send_buf_size(send_buffer)
        .max_concurrent_streams(1000)
        .initial_stream_window_size(16 << 20)
        .initial_connection_window_size(32 << 20)
        .serve_connection(TokioIo::new(io), handler)
        .await;
}

/// The synchronous part runs as hyper accepts the request, so streams are numbered, and their
/// arrival times taken, in the order the client sent them; the future then waits for the
/// scheduler to release the response's headers.
fn respond(conn: &Connection, req: Request<Incoming>) -> impl std::future::Future<Output = Result<Response<ChannelBody>, Infallible>> {
    let method = req.method().as_str().to_string();
    let target = req.uri().path_and_query().map(|p| p.as_str()).unwrap_or("/").to_string();
    let priority = req.headers().get("priority").and_then(|v| v.to_str().ok()).map(str::to_string);
    let head = RequestHead { origin: conn.origin, method: &method, target: &target, priority_header: priority.as_deref() };
    let prepared = conn.service.prepare(&head);
    conn.served.fetch_add(1, Ordering::Relaxed);
    let mut response = Response::builder().status(prepared.status);
    for (name, value) in prepared.headers.iter() {
        // Recorded headers that HTTP/2 forbids or that are malformed cannot be replayed.
        if let (Ok(n), Ok(v)) = (http::HeaderName::from_bytes(name.as_bytes()), http::HeaderValue::from_str(value)) {
            response = response.header(n, v);
        }
    }
    let length = prepared.body.len() as u64;
    if !matches!(prepared.status, 204 | 304) && method != "HEAD" {
        response = response.header(http::header::CONTENT_LENGTH, length);
    }
    let (headers_go, released) = oneshot::channel();
    let (chunks, receiver) = mpsc::channel(1);
    let stream = conn.next_stream.fetch_add(1, Ordering::Relaxed);
    let response = response.body(ChannelBody { chunks: receiver, remaining: length });
    let _ = conn.requests.send(NewStream { stream, method, prepared, headers_go, chunks });
    async move {
        let _ = released.await;
        Ok(response.unwrap_or_else(|_| Response::builder().status(500).body(ChannelBody { chunks: mpsc::channel(1).1, remaining: 0 }).unwrap()))
    }
}

/// hyper's HTTP/2 streams run where the connection's tasks run: on tokio, or on the simulator's
/// virtual executor.
#[derive(Clone, Copy)]
struct Spawning;

impl<F: std::future::Future<Output = ()> + Send + 'static> hyper::rt::Executor<F> for Spawning {
    fn execute(&self, task: F) {
        pagepath_runtime::spawn(task);
    }
}
