//! Where the TCP transport's connections come from: the kernel's sockets (TCP or MPTCP), or any
//! other byte stream that counts what it carried per path, such as the simulator's TCP in virtual
//! time (replay/sim). Everything above a dialer (TLS, HTTP/1.x, HTTP/2) is the same for both.

use super::paths::{path_bytes, runs_mptcp};
use crate::io::transport::PathBytes;
use socket2::{Domain, Protocol, Socket, Type};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpSocket;

pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// What one connection carried so far, as its stack counts it.
pub trait Counts: Send + Sync {
    /// Whether the connection runs MPTCP, and its bytes per path of `locals` (path 0 first).
    fn read(&self, locals: &[IpAddr]) -> (bool, Vec<PathBytes>);
}

pub struct Dialed {
    pub stream: Box<dyn Io>,
    pub counts: Arc<dyn Counts>,
}

pub type Dialing = Pin<Box<dyn Future<Output = Result<Dialed, String>> + Send>>;

pub trait Dialer: Send + Sync {
    /// Connects to `to`, from `from` when given; Err says why not, without naming the origin.
    fn dial(&self, from: Option<IpAddr>, to: SocketAddr) -> Dialing;
}

/// The kernel's TCP, or MPTCP when `multipath`, with TCP_NODELAY as Chromium sets it.
pub struct KernelDialer {
    pub multipath: bool,
}

impl Dialer for KernelDialer {
    fn dial(&self, from: Option<IpAddr>, to: SocketAddr) -> Dialing {
        let socket = socket(self.multipath, from, to);
        Box::pin(async move {
            let stream = TcpSocket::from_std_stream(socket?.into()).connect(to).await.map_err(|e| e.to_string())?;
            // A second descriptor keeps the statistics readable whoever closes the first.
            let fd = stream.as_fd().try_clone_to_owned().map_err(|e| format!("cannot duplicate the socket: {e}"))?;
            Ok(Dialed { stream: Box::new(stream), counts: Arc::new(KernelCounts(fd)) })
        })
    }
}

fn socket(mptcp: bool, from: Option<IpAddr>, to: SocketAddr) -> Result<Socket, String> {
    let protocol = if mptcp { Protocol::MPTCP } else { Protocol::TCP };
    let socket = Socket::new(Domain::for_address(to), Type::STREAM, Some(protocol)).map_err(|e| {
        let hint = if mptcp { " (is MPTCP enabled: sysctl net.mptcp.enabled=1?)" } else { "" };
        format!("cannot open a{} socket: {e}{hint}", if mptcp { "n MPTCP" } else { " TCP" })
    })?;
    if let Some(local) = from {
        socket.bind(&SocketAddr::new(local, 0).into()).map_err(|e| format!("cannot bind to the local address {local}: {e}"))?;
    }
    socket.set_nodelay(true).map_err(|e| format!("cannot set TCP_NODELAY: {e}"))?;
    socket.set_nonblocking(true).map_err(|e| format!("cannot make the socket non-blocking: {e}"))?;
    Ok(socket)
}

struct KernelCounts(OwnedFd);

impl Counts for KernelCounts {
    fn read(&self, locals: &[IpAddr]) -> (bool, Vec<PathBytes>) {
        // Asked each time: an MPTCP connection can fall back to TCP after its handshake.
        let mptcp = runs_mptcp(self.0.as_raw_fd());
        (mptcp, path_bytes(self.0.as_raw_fd(), mptcp, locals))
    }
}
