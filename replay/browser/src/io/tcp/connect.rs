//! Opening a connection to an origin: a stream from the transport's dialer, from path 0's local
//! address, then TLS with the replay's certificate when the origin is https.

use super::dialer::Io;
use super::records::RecordedConnection;
use super::request::Origin;
use super::shared::Shared;
use super::TcpProtocol;
use crate::io::transport::{Event, Handshake};
use rustls::pki_types::ServerName;
use std::time::Duration;
use tokio_rustls::TlsConnector;
use tquic::clock;

/// Chromium's backup attempt (its socket pools' connect retry interval, its stream pool's attempt
/// delay: 250 ms): an attempt, TCP's handshake and then TLS's, not done by then gets a second one
/// beside it, and the first done is used, so a lost SYN, SYN-ACK or TLS flight costs 250 ms, not
/// the kernel's retransmission timeouts. In Chromium's replays at 25 Mbit/s 20 ms no connect took
/// over 138 ms in 5,364, while requests queued 250 ms before theirs (gen-pagepath-2's social
/// script: queued 462-716 ms, connected 717-757); the model's connections without it took 1,022 ms
/// in 4.6% of 2,334. TLS is part of the attempt: in the replay servers' logs of the 2026-12-04 sweep
/// (16 realistic sites at 1 and 2 Mbit/s, HTTP/1.1 and HTTP/2) Chromium opened a second connection
/// 240-290 ms after one whose TLS handshake had stalled on a lost packet, and used the second,
/// leaving the first with its handshake bytes alone (real-sb-admin-2 at 1 Mbit/s 100 ms, every
/// run); the model, retrying TCP only, waited out the stalled handshake (3.2-3.5 s in two of three
/// runs) and painted 19% late.
const BACKUP_CONNECT_AFTER: Duration = Duration::from_millis(250);

pub(super) struct Connected {
    pub stream: Box<dyn Io>,
    /// Closes the connection's record when dropped: keep it as long as the stream.
    pub record: RecordedConnection,
    /// "h1" or "h2", as ALPN settled (clear connections speak HTTP/1.1).
    pub protocol: &'static str,
    pub handshake: Handshake,
}

/// `protocol` picks the ALPN offered to https origins; http origins get clear HTTP/1.1. A backup
/// attempt starts once BACKUP_CONNECT_AFTER has passed; an attempt that fails leaves the other to
/// finish, and the one not used is dropped (closed).
pub(super) async fn connect(shared: &Shared, origin: &Origin, protocol: TcpProtocol) -> Result<Connected, String> {
    let mut first = Box::pin(attempt(shared, origin, protocol));
    // Both waits are biased: select!'s random order, seeded afresh by each process, made a
    // simulated load differ from run to run.
    tokio::select! {
        biased;
        done = &mut first => return done,
        _ = pagepath_runtime::sleep(BACKUP_CONNECT_AFTER) => {}
    }
    let mut backup = Box::pin(attempt(shared, origin, protocol));
    tokio::select! {
        biased;
        done = &mut first => match done {
            Ok(connected) => Ok(connected),
            Err(_) => backup.await,
        },
        done = &mut backup => match done {
            Ok(connected) => Ok(connected),
            Err(_) => first.await,
        },
    }
}

/// One attempt: TCP from path 0's local address, then TLS. Its start is where the connect phase
/// of the request that uses it begins, as Chromium times the attempt used.
async fn attempt(shared: &Shared, origin: &Origin, protocol: TcpProtocol) -> Result<Connected, String> {
    let addr = origin.address.address;
    let opened = clock::now();
    let dialed = shared.dialer.dial(shared.config.locals.first().copied(), addr).await.map_err(|e| format!("cannot connect to {} at {addr}: {e}", origin.named))?;
    let offered = if origin.address.tls && protocol == TcpProtocol::Http2 { "h2" } else { "h1" };
    let tcp_done = clock::now();
    // Recorded once its handshakes are over, so that a backup attempt dropped during TLS, which
    // no request used, is not among the run's connections (DevTools does not show Chromium's).
    let record = || shared.records.add(&origin.address.origin, offered, opened, dialed.counts.clone());
    if !origin.address.tls {
        let handshake = Handshake { started: opened, tls_started: None, established: tcp_done };
        return Ok(Connected { record: record(), stream: dialed.stream, protocol: "h1", handshake });
    }
    let secured = tls(shared, origin, protocol, dialed.stream).await;
    let record = record();
    let (stream, negotiated) = secured.map_err(|e| format!("{e} (connection {})", record.id()))?;
    record.negotiated(negotiated);
    if negotiated == "h2" {
        shared.emit(Event::Http2Connection { origin: origin.address.origin.clone(), at: clock::now() });
    }
    let handshake = Handshake { started: opened, tls_started: Some(tcp_done), established: clock::now() };
    Ok(Connected { stream, record, protocol: negotiated, handshake })
}

async fn tls(shared: &Shared, origin: &Origin, protocol: TcpProtocol, stream: Box<dyn Io>) -> Result<(Box<dyn Io>, &'static str), String> {
    let config = match protocol {
        TcpProtocol::Http1 => shared.tls.http1.clone(),
        TcpProtocol::Http2 => shared.tls.http2.clone(),
    };
    let host = &origin.address.host;
    let name = ServerName::try_from(host.clone()).map_err(|e| format!("{}: {host:?} is not a server name TLS can carry: {e}", origin.named))?;
    let stream = TlsConnector::from(config)
        .connect(name, stream)
        .await
        .map_err(|e| format!("TLS handshake with {} at {} failed: {}", origin.named, origin.address.address, tls_reason(&e)))?;
    let negotiated = if stream.get_ref().1.alpn_protocol() == Some(b"h2") { "h2" } else { "h1" };
    Ok((Box::new(stream), negotiated))
}

fn tls_reason(e: &std::io::Error) -> String {
    match e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
        // The replay-key check's own sentence (tls.rs), without rustls's "unexpected error" prefix.
        Some(rustls::Error::General(why)) => why.clone(),
        _ => e.to_string(),
    }
}
