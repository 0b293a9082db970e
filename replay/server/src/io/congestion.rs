//! The congestion controller of the servers' connections, the same for every transport unless
//! asked otherwise: a namespace inherits the host's default (BBR on some hosts, CUBIC on most), so
//! a TCP replay would otherwise differ from a QUIC one in its controller as well as its protocol.
//! TCP and MPTCP take the kernel's controllers (TCP_CONGESTION on each accepted socket; MPTCP
//! hands it to every subflow); QUIC takes tquic's, one per path.

use crate::config::Transport;
use std::os::fd::RawFd;
use tquic::CongestionControlAlgorithm;

pub const DEFAULT: &str = "cubic";
const QUIC: [&str; 4] = ["cubic", "bbr", "bbr3", "copa"];
const KERNEL_LIST: &str = "/proc/sys/net/ipv4/tcp_available_congestion_control";

/// Checks `name` against what the transport's stack has, before anything listens.
pub fn check(name: &str, transport: Transport) -> Result<(), String> {
    match transport {
        Transport::Quic | Transport::Mpquic => {
            if QUIC.contains(&name) {
                return Ok(());
            }
            Err(format!("--congestion: tquic has no \"{name}\"; it has {}", QUIC.join(", ")))
        }
        Transport::Tcp | Transport::Mptcp => {
            let listed = std::fs::read_to_string(KERNEL_LIST).map_err(|e| format!("--congestion: cannot read {KERNEL_LIST}: {e}"))?;
            if listed.split_whitespace().any(|n| n == name) {
                return Ok(());
            }
            if ["lia", "olia"].contains(&name) {
                return Err(format!("--congestion {name}: the kernel's MPTCP couples no subflows; coupled congestion control runs in `pagepath simulate --transport mptcp` only"));
            }
            Err(format!("--congestion: this kernel has no \"{name}\"; {KERNEL_LIST} lists {}", listed.trim()))
        }
    }
}

pub fn quic_algorithm(name: &str) -> CongestionControlAlgorithm {
    match name {
        "bbr" => CongestionControlAlgorithm::Bbr,
        "bbr3" => CongestionControlAlgorithm::Bbr3,
        "copa" => CongestionControlAlgorithm::Copa,
        _ => CongestionControlAlgorithm::Cubic,
    }
}

/// Sets the controller of an accepted TCP or MPTCP socket and returns the one the kernel reports
/// afterwards, so the log says what ran rather than what was asked for.
pub fn set_tcp(fd: RawFd, name: &str) -> Option<String> {
    unsafe {
        libc::setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, name.as_ptr().cast(), name.len() as libc::socklen_t);
    }
    let mut buf = [0u8; 16];
    let mut len = buf.len() as libc::socklen_t;
    let rc = unsafe { libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, buf.as_mut_ptr().cast(), &mut len) };
    if rc != 0 {
        return None;
    }
    let got = &buf[..(len as usize).min(buf.len())];
    let end = got.iter().position(|&b| b == 0).unwrap_or(got.len());
    Some(String::from_utf8_lossy(&got[..end]).into_owned())
}
