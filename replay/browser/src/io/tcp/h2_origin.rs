//! HTTP/2 to one origin: one connection, each request a stream on it as soon as it is asked for.
//! A new connection is opened only once the previous one has ended.

use super::connect::connect;
use super::h2_stream;
use super::request::{Ask, Origin, Request};
use super::shared::Shared;
use super::TcpProtocol;
use crate::io::transport::Handshake;
use bytes::Bytes;
use h2::client::SendRequest;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedReceiver;

/// Flow control must never be what limits a page: 16 MiB per stream and per connection.
const WINDOW: u32 = 16 << 20;

struct Session {
    send: SendRequest<Bytes>,
    /// Until the request that opened the connection has gone out on it.
    handshake: Option<Handshake>,
    ended: Arc<AtomicBool>,
    /// Names the connection in failures.
    name: String,
}

pub(super) async fn run(shared: Arc<Shared>, origin: Arc<Origin>, mut requests: UnboundedReceiver<Ask>) {
    let mut session: Option<Session> = None;
    while let Some(ask) = requests.recv().await {
        if session.as_ref().is_none_or(|s| s.ended.load(Ordering::Acquire)) {
            match open(&shared, &origin).await {
                Ok(s) => session = Some(s),
                Err(reason) => {
                    // Whatever was asked for while connecting waited for this connection.
                    for asked in std::iter::once(ask).chain(std::iter::from_fn(|| requests.try_recv().ok())) {
                        if let Ask::Fetch(r) = asked {
                            shared.fail(r.id, &reason);
                        }
                    }
                    session = None;
                    continue;
                }
            }
        }
        let Ask::Fetch(request) = ask else {
            // One connection carries every request; routes.rs opens the others asked for.
            // Opened ahead: no request shows its handshake, as in Chromium's phases.
            if let Some(s) = session.as_mut() {
                s.handshake = None;
            }
            continue;
        };
        let session = session.as_mut().expect("a session was opened above");
        if let Err(reason) = send(&shared, &origin, session, &request).await {
            shared.fail(request.id, &reason);
        }
    }
}

/// A connection opened beside the origin's one and never used: TCP and TLS, then nothing until
/// the transport closes, as a preconnected socket Chromium finds no use for (its server sends the
/// TLS handshake alone).
pub(super) async fn idle_spare(shared: Arc<Shared>, origin: Arc<Origin>) {
    if let Ok(connected) = connect(&shared, &origin, TcpProtocol::Http2).await {
        let _held = (connected.stream, connected.record);
        std::future::pending::<()>().await;
    }
}

async fn open(shared: &Arc<Shared>, origin: &Origin) -> Result<Session, String> {
    let connected = connect(shared, origin, TcpProtocol::Http2).await?;
    let handshake = Some(connected.handshake);
    let name = format!("{} (connection {})", origin.named, connected.record.id());
    if connected.protocol != "h2" {
        return Err(format!("{name}: the server did not agree to HTTP/2 in ALPN"));
    }
    let (send, connection) = h2::client::Builder::new()
        .initial_window_size(WINDOW)
        .initial_connection_window_size(WINDOW)
        .handshake::<_, Bytes>(connected.stream)
        .await
        .map_err(|e| format!("{name}: the HTTP/2 handshake failed: {e}"))?;
    let ended = Arc::new(AtomicBool::new(false));
    let record = connected.record;
    let flag = ended.clone();
    shared.spawn(async move {
        // Drives the connection; its errors reach every open stream, which report them.
        let _ = connection.await;
        flag.store(true, Ordering::Release);
        drop(record);
    });
    Ok(Session { send, handshake, ended, name })
}

async fn send(shared: &Arc<Shared>, origin: &Origin, session: &mut Session, request: &Request) -> Result<(), String> {
    let mut head = http::Request::builder()
        .method(request.method.as_str())
        .uri(format!("{}{}", origin.base, request.target))
        .header("user-agent", "pagepath-browser")
        .header("accept-encoding", "identity");
    if let Some(priority) = &request.priority {
        head = head.header("priority", priority.as_str());
    }
    let head = head.body(()).map_err(|e| format!("{}: cannot make an HTTP/2 request of {} {}: {e}", origin.named, request.method, request.target))?;
    std::future::poll_fn(|cx| session.send.poll_ready(cx)).await.map_err(|e| format!("{}: {e}", session.name))?;
    let (response, _) = session.send.send_request(head, true).map_err(|e| format!("{}: {e}", session.name))?;
    let sent = h2_stream::Sent { at: tquic::clock::now(), handshake: session.handshake.take() };
    shared.spawn(h2_stream::receive(shared.clone(), session.name.clone(), request.id, sent, response));
    Ok(())
}
