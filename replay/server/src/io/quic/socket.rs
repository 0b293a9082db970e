//! The origin's UDP socket as tquic sees it: packets out through `PacketSendHandler`, packets in
//! with a bounded wait so the loop can honour timers and the stop flag.

use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};
use std::os::fd::AsRawFd;
use std::time::Duration;
use tquic::{PacketInfo, PacketSendHandler};

/// Bursts of a fast emulated link must not overflow the kernel's default few hundred KB.
const SOCKET_BUFFER: usize = 8 * 1024 * 1024;

pub(super) struct Socket {
    udp: UdpSocket,
    local: SocketAddr,
}

impl Socket {
    pub(super) fn new(udp: UdpSocket) -> Result<Socket, String> {
        let local = udp.local_addr().map_err(|e| format!("the UDP socket has no local address: {e}"))?;
        udp.set_nonblocking(true).map_err(|e| format!("UDP socket {local}: cannot make it non-blocking: {e}"))?;
        let sock = socket2::SockRef::from(&udp);
        // The kernel caps these at net.core.[rw]mem_max; a smaller buffer only costs throughput.
        let _ = sock.set_recv_buffer_size(SOCKET_BUFFER);
        let _ = sock.set_send_buffer_size(SOCKET_BUFFER);
        Ok(Socket { udp, local })
    }

    pub(super) fn local(&self) -> SocketAddr {
        self.local
    }

    /// Waits up to `timeout` for a datagram; true when one is there to read.
    pub(super) fn wait_readable(&self, timeout: Duration) -> bool {
        let mut fd = libc::pollfd { fd: self.udp.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
        // SAFETY: one valid pollfd and a valid timespec, both outliving the call.
        let n = unsafe { libc::ppoll(&mut fd, 1, &ts, std::ptr::null()) };
        n > 0 && fd.revents & libc::POLLIN != 0
    }

    /// The next datagram if one is queued, with its sender.
    pub(super) fn recv(&self, buf: &mut [u8]) -> Option<(usize, SocketAddr)> {
        loop {
            match self.udp.recv_from(buf) {
                Ok(v) => return Some(v),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return None,
            }
        }
    }
}

impl PacketSendHandler for Socket {
    fn on_packets_send(&self, pkts: &[(Vec<u8>, PacketInfo)]) -> tquic::Result<usize> {
        for (sent, (pkt, info)) in pkts.iter().enumerate() {
            match self.udp.send_to(pkt, info.dst) {
                Ok(_) => {}
                // tquic keeps the rest and offers them again on the next round.
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(sent),
                // Anything else (no route to a vanished peer path, say) is a lost packet; QUIC's
                // loss recovery handles it, while an error here would stall every connection.
                Err(_) => {}
            }
        }
        Ok(pkts.len())
    }
}
