//! When each datagram reached the socket, as the kernel stamped it (SO_TIMESTAMPNS), on the
//! monotonic clock the senders stamp with (clock.rs). The time the receive loop reads a datagram
//! adds the receiver's own scheduling delay: on a 2-core machine with the emulator and a sender
//! busy, the reader waits its turn for milliseconds, which a one-way delay must not count.

use std::io::{self, IoSliceMut};
use std::os::fd::AsRawFd;
use std::net::UdpSocket;

use nix::sys::socket::{recvmsg, setsockopt, sockopt, ControlMessageOwned, MsgFlags};
use nix::sys::time::TimeSpec;

use crate::clock;

/// Ample for the kernel's work item (net_enable_timestamp schedules it) to have run.
const STAMPING_ON: std::time::Duration = std::time::Duration::from_millis(20);

/// A datagram read from the socket: its length, when the kernel took it in and when it was read
/// (both on the monotonic clock, in ns).
pub struct Received {
    pub len: usize,
    pub arrived_ns: u64,
    pub read_ns: u64,
}

pub struct StampedSocket<'a> {
    socket: &'a UdpSocket,
    /// CLOCK_REALTIME − CLOCK_MONOTONIC, in ns: the kernel stamps on the real-time clock.
    realtime_ahead_ns: i128,
    control: Vec<u8>,
}

impl<'a> StampedSocket<'a> {
    pub fn new(socket: &'a UdpSocket) -> io::Result<StampedSocket<'a>> {
        setsockopt(socket, sockopt::ReceiveTimestampns, &true).map_err(io::Error::from)?;
        // The first socket to ask turns stamping on in a kernel work item, a moment later; until
        // then a datagram is stamped when it is read, which is what this is here to avoid.
        std::thread::sleep(STAMPING_ON);
        Ok(StampedSocket { socket, realtime_ahead_ns: realtime_ahead_ns(), control: nix::cmsg_space!(TimeSpec) })
    }

    /// The next datagram into `buf`; one without a stamp (none should come) counts as arrived when read.
    pub fn recv(&mut self, buf: &mut [u8]) -> io::Result<Received> {
        let mut iov = [IoSliceMut::new(buf)];
        let msg = recvmsg::<()>(self.socket.as_raw_fd(), &mut iov, Some(&mut self.control), MsgFlags::empty()).map_err(io::Error::from)?;
        let read_ns = clock::now_ns();
        let stamp = msg.cmsgs().map_err(io::Error::from)?.find_map(|c| match c {
            ControlMessageOwned::ScmTimestampns(t) => Some(t),
            _ => None,
        });
        let arrived_ns = stamp.map_or(read_ns, |t| {
            let realtime = i128::from(t.tv_sec()) * 1_000_000_000 + i128::from(t.tv_nsec());
            // Never after the read: a clock step between the two readings must not reorder them.
            ((realtime - self.realtime_ahead_ns).max(0) as u64).min(read_ns)
        });
        Ok(Received { len: msg.bytes, arrived_ns, read_ns })
    }
}

/// The real-time clock's lead over the monotonic one, from the tightest of a few bracketing reads.
fn realtime_ahead_ns() -> i128 {
    (0..7)
        .map(|_| {
            let before = clock::now_ns();
            let realtime = i128::from(clock::realtime_ns());
            let after = clock::now_ns();
            (after - before, realtime - i128::from(before + (after - before) / 2))
        })
        .min_by_key(|(width, _)| *width)
        .map_or(0, |(_, ahead)| ahead)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_datagram_is_stamped_when_it_arrived_not_when_it_was_read() {
        let rx = UdpSocket::bind("127.0.0.1:0").unwrap();
        let tx = UdpSocket::bind("127.0.0.1:0").unwrap();
        let mut stamped = StampedSocket::new(&rx).unwrap();
        let sent = clock::now_ns();
        tx.send_to(b"hello", rx.local_addr().unwrap()).unwrap();
        // The reader is late by 50 ms; the stamp must not be.
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut buf = [0u8; 64];
        let r = stamped.recv(&mut buf).unwrap();
        assert_eq!(r.len, 5);
        assert!(r.arrived_ns >= sent.saturating_sub(1_000_000), "stamped {} ns before the send", sent - r.arrived_ns);
        assert!(r.arrived_ns - sent < 10_000_000, "stamped {} ms after the send", (r.arrived_ns - sent) / 1_000_000);
        assert!(r.read_ns - r.arrived_ns >= 50_000_000, "read {} ms after the stamp", (r.read_ns - r.arrived_ns) / 1_000_000);
    }
}
