//! What held a TCP sender back, from the kernel's TCP_INFO (Linux 4.10+, "tcp: add busy/rwnd/
//! sndbuf limited times"): a bulk transfer short of its link's rate was limited by the link
//! (congestion window), by the receiver's window, or by its own send buffer, and only the first
//! says anything about the link.

use serde::Serialize;
use std::mem::size_of;
use std::os::fd::RawFd;

#[derive(Serialize, Debug, Clone, Copy)]
#[serde(rename_all = "camelCase")]
pub struct SenderLimits {
    /// Time with data in flight, µs.
    pub busy_us: u64,
    /// Of it, time the receiver's advertised window was full.
    pub rwnd_limited_us: u64,
    /// Of it, time the socket's send buffer held no more to send.
    pub sndbuf_limited_us: u64,
    pub srtt_us: u32,
    pub min_rtt_us: u32,
    /// Congestion window, segments.
    pub cwnd: u32,
    pub retransmitted_segments: u32,
}

/// None when the kernel does not answer (not a TCP socket).
pub fn sender_limits(fd: RawFd) -> Option<SenderLimits> {
    // SAFETY: tcp_info is plain data; the kernel fills at most `len` bytes of it.
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = size_of::<libc::tcp_info>() as libc::socklen_t;
    let rc = unsafe { libc::getsockopt(fd, libc::SOL_TCP, libc::TCP_INFO, (&mut info as *mut libc::tcp_info).cast(), &mut len) };
    (rc == 0).then_some(SenderLimits {
        busy_us: info.tcpi_busy_time,
        rwnd_limited_us: info.tcpi_rwnd_limited,
        sndbuf_limited_us: info.tcpi_sndbuf_limited,
        srtt_us: info.tcpi_rtt,
        min_rtt_us: info.tcpi_min_rtt,
        cwnd: info.tcpi_snd_cwnd,
        retransmitted_segments: info.tcpi_total_retrans,
    })
}
