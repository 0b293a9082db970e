//! HTTP/2 to one origin: one connection, each request a stream on it as soon as it is asked for.
//! A new connection is opened only once the previous one has ended.

use super::connect::connect;
use super::h2_stream;
use super::request::{Ask, Origin, Request};
use super::shared::Shared;
use super::TcpProtocol;
use crate::core::RequestId;
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
    /// That request, which DevTools shows the handshake on; None when a preconnect opened it.
    opener: Option<RequestId>,
    ended: Arc<AtomicBool>,
    /// Names the connection in failures.
    name: String,
}

pub(super) async fn run(shared: Arc<Shared>, origin: Arc<Origin>, mut requests: UnboundedReceiver<Ask>) {
    let mut session: Option<Session> = None;
    while let Some(ask) = requests.recv().await {
        if !session.as_ref().is_none_or(|s| s.ended.load(Ordering::Acquire)) {
            take(&shared, &origin, session.as_mut(), ask).await;
            continue;
        }
        let opened = open(&shared, &origin).await;
        // Whatever was asked for while connecting waited for this connection: it goes highest
        // priority first, in the order asked within one priority, as Chromium's requests waiting
        // for an HTTP/2 session do (real-gentelella: the static host's style sheet went on
        // stream 1 before the three module scripts the document names before it).
        let opener = match &ask {
            Ask::Fetch(r) => Some(r.id),
            Ask::Preconnect(_) => None,
        };
        let mut waiting: Vec<Ask> = std::iter::once(ask).chain(std::iter::from_fn(|| requests.try_recv().ok())).collect();
        waiting.sort_by_key(|a| match a {
            Ask::Fetch(r) => r.net_priority,
            Ask::Preconnect(_) => u8::MAX,
        });
        match opened {
            Ok(mut s) => {
                s.opener = opener;
                session = Some(s);
                for ask in waiting {
                    take(&shared, &origin, session.as_mut(), ask).await;
                }
            }
            Err(reason) => {
                for ask in waiting {
                    if let Ask::Fetch(r) = ask {
                        shared.fail(r.id, &reason);
                    }
                }
                session = None;
            }
        }
    }
}

/// Sends a fetch on the open session; the request that opened it shows its handshake.
async fn take(shared: &Arc<Shared>, origin: &Origin, session: Option<&mut Session>, ask: Ask) {
    let Some(session) = session else { return };
    // A preconnect finds the session open (it opened it or a request did); one connection
    // carries every request, and routes.rs opens the others asked for.
    let Ask::Fetch(request) = ask else { return };
    if let Err(reason) = send(shared, origin, session, &request).await {
        shared.fail(request.id, &reason);
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
    Ok(Session { send, handshake, opener: None, ended, name })
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
    let handshake = if session.opener == Some(request.id) { session.handshake.take() } else { None };
    let sent = h2_stream::Sent { at: tquic::clock::now(), handshake };
    shared.spawn(h2_stream::receive(shared.clone(), session.name.clone(), request.id, sent, response));
    Ok(())
}
