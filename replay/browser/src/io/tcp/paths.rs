//! What the kernel says about a connection: whether it really runs MPTCP, and the bytes each
//! path carried (the replay server's tcp_stats: TCP_INFO, or per-subflow MPTCP_TCPINFO and
//! MPTCP_SUBFLOW_ADDRS), per path of the configuration.

use crate::io::transport::PathBytes;
use pagepath_server::io::tcp_stats::path_logs;
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::RawFd;

const IPPROTO_MPTCP: libc::c_int = 262;
const SOL_MPTCP: libc::c_int = 284;
const MPTCP_INFO: libc::c_int = 1;

/// An MPTCP socket whose peer does not answer MPTCP falls back to plain TCP; SOL_MPTCP options
/// then fail, and a zero-length MPTCP_INFO query is the kernel's way to ask (linux/mptcp.h).
pub(super) fn runs_mptcp(fd: RawFd) -> bool {
    let mut protocol: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    let rc = unsafe { libc::getsockopt(fd, libc::SOL_SOCKET, libc::SO_PROTOCOL, (&mut protocol as *mut libc::c_int).cast(), &mut len) };
    if rc != 0 || protocol != IPPROTO_MPTCP {
        return false;
    }
    let mut zero: libc::socklen_t = 0;
    unsafe { libc::getsockopt(fd, SOL_MPTCP, MPTCP_INFO, std::ptr::null_mut(), &mut zero) == 0 }
}

/// Bytes up (sent, retransmissions included) and down per path, subflows on one path summed.
/// A subflow from an address outside `locals` (the kernel chose it) counts on path 0, the
/// default route's.
pub(super) fn path_bytes(fd: RawFd, mptcp: bool, locals: &[IpAddr]) -> Vec<PathBytes> {
    let mut by_path: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
    for log in path_logs(fd, mptcp) {
        let local_ip = log.local.parse::<SocketAddr>().ok().map(|a| a.ip());
        let path = local_ip.and_then(|ip| locals.iter().position(|l| *l == ip)).unwrap_or(0);
        let sums = by_path.entry(path).or_default();
        sums.0 += log.bytes_sent;
        sums.1 += log.bytes_received;
    }
    by_path
        .into_iter()
        .map(|(path, (up, down))| PathBytes { path, bytes_up: Some(up), bytes_down: Some(down) })
        .collect()
}
