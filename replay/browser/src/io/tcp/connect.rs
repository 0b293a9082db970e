//! Opening a connection to an origin: a stream from the transport's dialer, from path 0's local
//! address, then TLS with the replay's certificate when the origin is https.

use super::dialer::{Dialed, Io};
use super::records::RecordedConnection;
use super::request::Origin;
use super::shared::Shared;
use super::TcpProtocol;
use crate::io::transport::{Event, Handshake};
use rustls::pki_types::ServerName;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};
use tokio_rustls::TlsConnector;
use tquic::clock;

/// Chromium's backup connect job (its socket pools' connect retry interval, 250 ms): a TCP
/// connection not up by then gets a second attempt beside it, and the first to connect is used,
/// so a lost SYN or SYN-ACK costs 250 ms rather than the kernel's one-second retransmission
/// timeout. In Chromium's replays at 25 Mbit/s 20 ms no connect took over 138 ms in 5,364, while
/// requests queued 250 ms before theirs (gen-pagepath-2's social script: queued 462-716 ms,
/// connected 717-757); the model's connections without it took 1,022 ms in 4.6% of 2,334.
const BACKUP_CONNECT_AFTER: Duration = Duration::from_millis(250);

pub(super) struct Connected {
    pub stream: Box<dyn Io>,
    /// Closes the connection's record when dropped: keep it as long as the stream.
    pub record: RecordedConnection,
    /// "h1" or "h2", as ALPN settled (clear connections speak HTTP/1.1).
    pub protocol: &'static str,
    pub handshake: Handshake,
}

/// `protocol` picks the ALPN offered to https origins; http origins get clear HTTP/1.1.
pub(super) async fn connect(shared: &Shared, origin: &Origin, protocol: TcpProtocol) -> Result<Connected, String> {
    let addr = origin.address.address;
    let dialed = dial_with_backup(shared, shared.config.locals.first().copied(), addr).await;
    // The attempt used: its start is where the connect phase begins, as Chromium times it.
    let (dialed, opened) = dialed.map_err(|e| format!("cannot connect to {} at {addr}: {e}", origin.named))?;
    let offered = if origin.address.tls && protocol == TcpProtocol::Http2 { "h2" } else { "h1" };
    let tcp_done = clock::now();
    let record = shared.records.add(&origin.address.origin, offered, opened, dialed.counts);
    if !origin.address.tls {
        let handshake = Handshake { started: opened, tls_started: None, established: tcp_done };
        return Ok(Connected { stream: dialed.stream, record, protocol: "h1", handshake });
    }
    let (stream, negotiated) = tls(shared, origin, protocol, dialed.stream).await.map_err(|e| format!("{e} (connection {})", record.id()))?;
    record.negotiated(negotiated);
    if negotiated == "h2" {
        shared.emit(Event::Http2Connection { origin: origin.address.origin.clone(), at: clock::now() });
    }
    let handshake = Handshake { started: opened, tls_started: Some(tcp_done), established: clock::now() };
    Ok(Connected { stream, record, protocol: negotiated, handshake })
}

/// The dialer's connection to `to`, with a backup attempt once BACKUP_CONNECT_AFTER has passed, and
/// when the attempt used began; an attempt that fails leaves the other to finish, and the one not
/// used is dropped (closed).
pub(super) async fn dial_with_backup(shared: &Shared, from: Option<IpAddr>, to: SocketAddr) -> Result<(Dialed, Instant), String> {
    let first_at = clock::now();
    let mut first = shared.dialer.dial(from, to);
    // Both waits are biased: select!'s random order, seeded afresh by each process, made a
    // simulated load differ from run to run.
    tokio::select! {
        biased;
        dialed = &mut first => return dialed.map(|d| (d, first_at)),
        _ = pagepath_runtime::sleep(BACKUP_CONNECT_AFTER) => {}
    }
    let backup_at = clock::now();
    let mut backup = shared.dialer.dial(from, to);
    tokio::select! {
        biased;
        dialed = &mut first => match dialed {
            Ok(d) => Ok((d, first_at)),
            Err(_) => backup.await.map(|d| (d, backup_at)),
        },
        dialed = &mut backup => match dialed {
            Ok(d) => Ok((d, backup_at)),
            Err(_) => first.await.map(|d| (d, first_at)),
        },
    }
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
