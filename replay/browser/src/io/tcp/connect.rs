//! Opening a connection to an origin: a TCP or MPTCP socket bound to path 0's local address,
//! TCP_NODELAY, then TLS with the replay's certificate when the origin is https.

use super::records::RecordedConnection;
use super::request::Origin;
use super::shared::Shared;
use super::TcpProtocol;
use rustls::pki_types::ServerName;
use socket2::{Domain, Protocol, Socket, Type};
use std::net::SocketAddr;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::TlsConnector;

pub(super) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

pub(super) struct Connected {
    pub stream: Box<dyn Io>,
    /// Closes the connection's record when dropped: keep it as long as the stream.
    pub record: RecordedConnection,
    /// "h1" or "h2", as ALPN settled (clear connections speak HTTP/1.1).
    pub protocol: &'static str,
}

/// `protocol` picks the ALPN offered to https origins; http origins get clear HTTP/1.1.
pub(super) async fn connect(shared: &Shared, origin: &Origin, protocol: TcpProtocol) -> Result<Connected, String> {
    let opened = Instant::now();
    let addr = origin.address.address;
    let cannot = |e: String| format!("cannot connect to {} at {addr}: {e}", origin.named);
    let socket = socket(shared, addr).map_err(&cannot)?;
    let stream = TcpSocket::from_std_stream(socket.into()).connect(addr).await.map_err(|e| cannot(e.to_string()))?;
    let offered = if origin.address.tls && protocol == TcpProtocol::Http2 { "h2" } else { "h1" };
    let record = shared.records.add(&origin.address.origin, offered, opened, &stream)?;
    if !origin.address.tls {
        return Ok(Connected { stream: Box::new(stream), record, protocol: "h1" });
    }
    let (stream, negotiated) = tls(shared, origin, protocol, stream).await.map_err(|e| format!("{e} (connection {})", record.id()))?;
    record.negotiated(negotiated);
    Ok(Connected { stream, record, protocol: negotiated })
}

fn socket(shared: &Shared, addr: SocketAddr) -> Result<Socket, String> {
    let mptcp = shared.config.multipath;
    let protocol = if mptcp { Protocol::MPTCP } else { Protocol::TCP };
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(protocol)).map_err(|e| {
        let hint = if mptcp { " (is MPTCP enabled: sysctl net.mptcp.enabled=1?)" } else { "" };
        format!("cannot open a{} socket: {e}{hint}", if mptcp { "n MPTCP" } else { " TCP" })
    })?;
    if let Some(local) = shared.config.locals.first() {
        let from = SocketAddr::new(*local, 0);
        socket.bind(&from.into()).map_err(|e| format!("cannot bind to the local address {local}: {e}"))?;
    }
    socket.set_nodelay(true).map_err(|e| format!("cannot set TCP_NODELAY: {e}"))?;
    socket.set_nonblocking(true).map_err(|e| format!("cannot make the socket non-blocking: {e}"))?;
    Ok(socket)
}

async fn tls(shared: &Shared, origin: &Origin, protocol: TcpProtocol, stream: TcpStream) -> Result<(Box<dyn Io>, &'static str), String> {
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
