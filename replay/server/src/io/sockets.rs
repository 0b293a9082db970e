//! Listening sockets for each origin: TCP or MPTCP streams, UDP for QUIC. A port that is taken
//! or an address that is not on this host is reported with the origin it was meant for.

use socket2::{Domain, Protocol, SockAddr, Socket, Type};
use std::net::SocketAddr;
use std::os::fd::AsRawFd;

/// Unsent bytes the kernel may hold per connection. The response scheduler decides the order of
/// bytes on the wire only for what it has not yet handed to the kernel, so the kernel must not
/// soak up whole responses (nginx and H2O keep their HTTP/2 priorities the same way).
pub const NOTSENT_LOWAT: libc::c_int = 16 * 1024;

fn explain(origin: &str, addr: SocketAddr, what: &str, e: std::io::Error) -> String {
    let why = match e.raw_os_error() {
        Some(libc::EADDRINUSE) => "the port is already in use by another program".to_string(),
        Some(libc::EADDRNOTAVAIL) => "the address is not on this host (or namespace)".to_string(),
        Some(libc::EACCES) => "not allowed (ports below 1024 need root)".to_string(),
        _ => e.to_string(),
    };
    format!("{origin}: cannot {what} {addr}: {why}")
}

pub fn stream_listener(origin: &str, addr: SocketAddr, mptcp: bool) -> Result<std::net::TcpListener, String> {
    let protocol = if mptcp { Protocol::MPTCP } else { Protocol::TCP };
    let socket = Socket::new(Domain::IPV4, Type::STREAM, Some(protocol))
        .map_err(|e| explain(origin, addr, if mptcp { "open an MPTCP socket for" } else { "open a socket for" }, e))?;
    socket.set_reuse_address(true).map_err(|e| explain(origin, addr, "set SO_REUSEADDR on", e))?;
    socket.bind(&SockAddr::from(addr)).map_err(|e| explain(origin, addr, "listen on TCP", e))?;
    socket.listen(1024).map_err(|e| explain(origin, addr, "listen on TCP", e))?;
    socket.set_nonblocking(true).map_err(|e| explain(origin, addr, "configure", e))?;
    Ok(socket.into())
}

pub fn udp_socket(origin: &str, addr: SocketAddr) -> Result<std::net::UdpSocket, String> {
    let socket = Socket::new(Domain::IPV4, Type::DGRAM, Some(Protocol::UDP)).map_err(|e| explain(origin, addr, "open a UDP socket for", e))?;
    socket.bind(&SockAddr::from(addr)).map_err(|e| explain(origin, addr, "listen on UDP", e))?;
    // A page's worth of packets arrives in bursts; the default 208 KiB buffer drops some.
    let _ = socket.set_recv_buffer_size(8 << 20);
    let _ = socket.set_send_buffer_size(8 << 20);
    socket.set_nonblocking(true).map_err(|e| explain(origin, addr, "configure", e))?;
    Ok(socket.into())
}

pub fn tune_accepted(stream: &tokio::net::TcpStream) {
    let _ = stream.set_nodelay(true);
    let fd = stream.as_raw_fd();
    let value = NOTSENT_LOWAT;
    // MPTCP sockets on older kernels refuse the option; the order is then only approximate.
    unsafe {
        libc::setsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_NOTSENT_LOWAT,
            (&value as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
}
