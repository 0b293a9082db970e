//! One UDP socket per local address (one per path), as tquic sees them: packets out through
//! `PacketSendHandler` from the socket of their path, packets in from whichever socket has one.

use std::io::ErrorKind;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::os::fd::{AsRawFd, BorrowedFd};
use std::time::Duration;
use tquic::{PacketInfo, PacketSendHandler};

/// A page's worth of data arriving at link speed must not overflow the kernel's default buffer.
const SOCKET_BUFFER: usize = 8 * 1024 * 1024;

pub struct Sockets {
    sockets: Vec<(UdpSocket, SocketAddr)>,
}

impl Sockets {
    /// Binds one socket on each of `locals` (an ephemeral port each), or on the address the
    /// routing table picks for `remote` when there are none.
    pub fn bind(locals: &[IpAddr], remote: SocketAddr) -> Result<Sockets, String> {
        let locals = if locals.is_empty() { vec![route_source(remote)?] } else { locals.to_vec() };
        let mut sockets = Vec::new();
        for ip in locals {
            let udp = UdpSocket::bind((ip, 0)).map_err(|e| format!("cannot bind a UDP socket on {ip}: {e}"))?;
            let local = udp.local_addr().map_err(|e| format!("UDP socket on {ip}: {e}"))?;
            udp.set_nonblocking(true).map_err(|e| format!("UDP socket {local}: cannot make it non-blocking: {e}"))?;
            let sock = socket2::SockRef::from(&udp);
            // The kernel caps these at net.core.[rw]mem_max; a smaller buffer only costs throughput.
            let _ = sock.set_recv_buffer_size(SOCKET_BUFFER);
            let _ = sock.set_send_buffer_size(SOCKET_BUFFER);
            sockets.push((udp, local));
        }
        Ok(Sockets { sockets })
    }

    /// The bound local addresses, the first one opening the connection.
    pub fn locals(&self) -> Vec<SocketAddr> {
        self.sockets.iter().map(|(_, local)| *local).collect()
    }

    /// Waits up to `timeout` for datagrams, or until `wake` (a caller's own fd, e.g. one end of a
    /// socket pair that another thread writes to) is readable; the indexes of the sockets that
    /// have datagrams. The caller drains `wake` itself.
    pub fn wait_readable(&self, timeout: Duration, wake: Option<BorrowedFd>) -> Vec<usize> {
        let mut fds: Vec<libc::pollfd> =
            self.sockets.iter().map(|(udp, _)| libc::pollfd { fd: udp.as_raw_fd(), events: libc::POLLIN, revents: 0 }).collect();
        if let Some(fd) = wake {
            fds.push(libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        }
        let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
        // SAFETY: `fds` holds fds.len() valid pollfds and `ts` is valid; both outlive the call.
        let n = unsafe { libc::ppoll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, &ts, std::ptr::null()) };
        if n <= 0 {
            return Vec::new();
        }
        (0..self.sockets.len()).filter(|&i| fds[i].revents & libc::POLLIN != 0).collect()
    }

    /// The next datagram queued on socket `index`: its length, sender and receiving address.
    pub fn recv(&self, index: usize, buf: &mut [u8]) -> Option<(usize, SocketAddr, SocketAddr)> {
        let (udp, local) = &self.sockets[index];
        loop {
            match udp.recv_from(buf) {
                Ok((len, from)) => return Some((len, from, *local)),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return None,
            }
        }
    }
}

/// The source address the kernel would use towards `remote`; connecting a UDP socket sends
/// nothing.
fn route_source(remote: SocketAddr) -> Result<IpAddr, String> {
    let any: SocketAddr = if remote.is_ipv4() { ([0, 0, 0, 0], 0).into() } else { ([0u16; 8], 0).into() };
    let probe = UdpSocket::bind(any).map_err(|e| format!("cannot bind a UDP socket: {e}"))?;
    probe.connect(remote).map_err(|e| format!("no route to {remote}: {e}"))?;
    Ok(probe.local_addr().map_err(|e| format!("no route to {remote}: {e}"))?.ip())
}

impl PacketSendHandler for Sockets {
    fn on_packets_send(&self, pkts: &[(Vec<u8>, PacketInfo)]) -> tquic::Result<usize> {
        for (sent, (pkt, info)) in pkts.iter().enumerate() {
            // tquic sends each packet from its path's local address, which is one of ours.
            let Some((udp, _)) = self.sockets.iter().find(|(_, local)| *local == info.src) else { continue };
            match udp.send_to(pkt, info.dst) {
                Ok(_) => {}
                // tquic keeps the rest and offers them again on the next round.
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(sent),
                // Anything else is a lost packet, which QUIC recovers from; an error here would
                // stop every path.
                Err(_) => {}
            }
        }
        Ok(pkts.len())
    }
}
