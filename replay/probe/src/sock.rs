//! Socket plumbing std lacks. Stream sockets are opened through libc, because std cannot choose
//! the protocol and MPTCP needs IPPROTO_MPTCP at socket() time; once open they are handed to
//! std's TcpListener/TcpStream.

use std::io;
use std::mem;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

use crate::clock;

fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

fn sockaddr(addr: &SocketAddr) -> (libc::sockaddr_storage, libc::socklen_t) {
    // SAFETY: all-zero is a valid sockaddr_storage.
    let mut storage: libc::sockaddr_storage = unsafe { mem::zeroed() };
    let len = match addr {
        SocketAddr::V4(a) => {
            let sin = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: a.port().to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from(*a.ip()).to_be(),
                },
                sin_zero: [0; 8],
            };
            // SAFETY: sockaddr_storage is larger than and aligned for sockaddr_in.
            unsafe { (&mut storage as *mut _ as *mut libc::sockaddr_in).write(sin) };
            mem::size_of::<libc::sockaddr_in>()
        }
        SocketAddr::V6(a) => {
            let sin6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: a.port().to_be(),
                sin6_flowinfo: a.flowinfo(),
                sin6_addr: libc::in6_addr {
                    s6_addr: a.ip().octets(),
                },
                sin6_scope_id: a.scope_id(),
            };
            // SAFETY: as above, for sockaddr_in6.
            unsafe { (&mut storage as *mut _ as *mut libc::sockaddr_in6).write(sin6) };
            mem::size_of::<libc::sockaddr_in6>()
        }
    };
    (storage, len as libc::socklen_t)
}

fn stream_socket(addr: &SocketAddr, mptcp: bool) -> io::Result<OwnedFd> {
    let family = if addr.is_ipv4() {
        libc::AF_INET
    } else {
        libc::AF_INET6
    };
    let protocol = if mptcp { libc::IPPROTO_MPTCP } else { 0 };
    // SAFETY: plain socket(2) call; the result is checked before being owned.
    let fd =
        check(unsafe { libc::socket(family, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, protocol) })?;
    // SAFETY: fd is a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

pub fn set_int_option(
    fd: RawFd,
    level: libc::c_int,
    name: libc::c_int,
    value: libc::c_int,
) -> io::Result<()> {
    // SAFETY: value outlives the call and its size is passed.
    let ret = unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            &value as *const _ as *const libc::c_void,
            mem::size_of_val(&value) as _,
        )
    };
    check(ret).map(drop)
}

/// Waits until `fd` is ready for `events` or `deadline_ns` passes (Ok(false)).
fn wait_ready(fd: RawFd, events: libc::c_short, deadline_ns: u64) -> io::Result<bool> {
    loop {
        let left_ms = deadline_ns
            .saturating_sub(clock::now_ns())
            .div_ceil(1_000_000);
        if left_ms == 0 {
            return Ok(false);
        }
        let mut pfd = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        match check(unsafe { libc::poll(&mut pfd, 1, left_ms.min(i32::MAX as u64) as libc::c_int) })
        {
            Ok(0) => continue,
            Ok(_) => return Ok(true),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

pub fn listen(addr: &SocketAddr, mptcp: bool) -> io::Result<TcpListener> {
    let fd = stream_socket(addr, mptcp)?;
    // Lets a test rerun at once on the same port while the last run's connection is in TIME_WAIT.
    set_int_option(fd.as_raw_fd(), libc::SOL_SOCKET, libc::SO_REUSEADDR, 1)?;
    let (sa, len) = sockaddr(addr);
    // SAFETY: sa/len describe a valid address of the socket's family.
    check(unsafe {
        libc::bind(
            fd.as_raw_fd(),
            &sa as *const _ as *const libc::sockaddr,
            len,
        )
    })?;
    // SAFETY: plain listen(2) on our socket.
    check(unsafe { libc::listen(fd.as_raw_fd(), 8) })?;
    Ok(TcpListener::from(fd))
}

/// Accepts one connection, or fails with TimedOut at `deadline_ns`.
pub fn accept(listener: &TcpListener, deadline_ns: u64) -> io::Result<TcpStream> {
    if !wait_ready(listener.as_raw_fd(), libc::POLLIN, deadline_ns)? {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "no connection arrived",
        ));
    }
    listener.accept().map(|(stream, _)| stream)
}

/// How long `connect` keeps retrying while the peer is not listening yet: tests start both ends
/// at about the same time, and the receiver may need a moment to bind.
const RETRY_FOR_NS: u64 = 5_000_000_000;
const RETRY_EVERY: Duration = Duration::from_millis(50);

pub fn connect(addr: &SocketAddr, mptcp: bool, deadline_ns: u64) -> io::Result<TcpStream> {
    let retry_until = (clock::now_ns() + RETRY_FOR_NS).min(deadline_ns);
    loop {
        match connect_once(addr, mptcp, deadline_ns) {
            Err(e) if not_listening_yet(&e) && clock::now_ns() < retry_until => {
                std::thread::sleep(RETRY_EVERY)
            }
            result => return result,
        }
    }
}

fn not_listening_yet(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::ECONNREFUSED | libc::ENETUNREACH | libc::EHOSTUNREACH)
    )
}

/// Non-blocking connect so that a peer dropping our SYNs cannot hold us past the deadline.
fn connect_once(addr: &SocketAddr, mptcp: bool, deadline_ns: u64) -> io::Result<TcpStream> {
    let fd = stream_socket(addr, mptcp)?;
    let raw = fd.as_raw_fd();
    let stream = TcpStream::from(fd);
    stream.set_nonblocking(true)?;
    let (sa, len) = sockaddr(addr);
    // SAFETY: sa/len describe a valid address of the socket's family.
    let ret = unsafe { libc::connect(raw, &sa as *const _ as *const libc::sockaddr, len) };
    if ret < 0 {
        let err = io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::EINPROGRESS) {
            return Err(err);
        }
        if !wait_ready(raw, libc::POLLOUT, deadline_ns)? {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "connection not established",
            ));
        }
        if let Some(err) = stream.take_error()? {
            return Err(err);
        }
    }
    stream.set_nonblocking(false)?;
    Ok(stream)
}

/// A UDP socket connected to `peer`, on an ephemeral port of the address the route picks.
pub fn udp_client(peer: &SocketAddr) -> io::Result<UdpSocket> {
    let local: SocketAddr = match peer {
        SocketAddr::V4(_) => (Ipv4Addr::UNSPECIFIED, 0).into(),
        SocketAddr::V6(_) => (Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let socket = UdpSocket::bind(local)?;
    socket.connect(peer)?;
    Ok(socket)
}

/// Sends on a connected UDP socket, retrying the datagram when the kernel reports a transient
/// condition instead of sending it: a stale ICMP port-unreachable caused by an earlier datagram
/// (the peer was not up yet) or a full device queue.
pub fn send_datagram(socket: &UdpSocket, datagram: &[u8]) -> io::Result<()> {
    loop {
        match socket.send(datagram) {
            Ok(_) => return Ok(()),
            Err(e) if matches!(e.raw_os_error(), Some(libc::ECONNREFUSED | libc::EINTR)) => {}
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOBUFS | libc::EAGAIN)) => {
                std::thread::yield_now()
            }
            Err(e) => return Err(e),
        }
    }
}

pub fn set_congestion_control(fd: RawFd, name: &str) -> io::Result<()> {
    // SAFETY: setsockopt reads name.len() bytes from name.
    check(unsafe {
        libc::setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, name.as_ptr().cast(), name.len() as libc::socklen_t)
    })
    .map(|_| ())
}
