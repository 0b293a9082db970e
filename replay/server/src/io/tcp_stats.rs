//! Bytes per path of a TCP or MPTCP connection, from the kernel: TCP_INFO for TCP, and for MPTCP
//! the per-subflow tcp_info and addresses (MPTCP_TCPINFO, MPTCP_SUBFLOW_ADDRS in linux/mptcp.h).

use crate::service::PathLog;
use std::mem::size_of;
use std::net::{Ipv4Addr, SocketAddr};
use std::os::fd::RawFd;

const SOL_MPTCP: libc::c_int = 284;
const MPTCP_TCPINFO: libc::c_int = 2;
const MPTCP_SUBFLOW_ADDRS: libc::c_int = 3;
/// struct mptcp_subflow_data: size_subflow_data, num_subflows, size_kernel, size_user (u32 each).
const SUBFLOW_HEADER: usize = 16;
/// struct mptcp_subflow_addrs: two struct __kernel_sockaddr_storage.
const SUBFLOW_ADDRS: usize = 256;
const MAX_SUBFLOWS: usize = 8;

pub fn path_logs(fd: RawFd, mptcp: bool) -> Vec<PathLog> {
    if mptcp {
        if let Some(paths) = subflow_logs(fd) {
            return paths;
        }
    }
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = size_of::<libc::tcp_info>() as libc::socklen_t;
    let rc = unsafe { libc::getsockopt(fd, libc::SOL_TCP, libc::TCP_INFO, (&mut info as *mut libc::tcp_info).cast(), &mut len) };
    if rc != 0 {
        return Vec::new();
    }
    vec![path_log(&info, name(fd, libc::getsockname), name(fd, libc::getpeername))]
}

fn path_log(info: &libc::tcp_info, local: Option<SocketAddr>, remote: Option<SocketAddr>) -> PathLog {
    let text = |a: Option<SocketAddr>| a.map(|a| a.to_string()).unwrap_or_default();
    PathLog {
        local: text(local),
        remote: text(remote),
        bytes_sent: info.tcpi_bytes_sent,
        bytes_received: info.tcpi_bytes_received,
        packets_sent: info.tcpi_segs_out as u64,
        packets_lost: info.tcpi_total_retrans as u64,
        rtt_us: Some(info.tcpi_rtt as u64),
    }
}

fn subflow_logs(fd: RawFd) -> Option<Vec<PathLog>> {
    let infos = subflow_query(fd, MPTCP_TCPINFO, size_of::<libc::tcp_info>())?;
    let addrs = subflow_query(fd, MPTCP_SUBFLOW_ADDRS, SUBFLOW_ADDRS)?;
    let logs = infos
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
            let n = raw.len().min(size_of::<libc::tcp_info>());
            unsafe { std::ptr::copy_nonoverlapping(raw.as_ptr(), (&mut info as *mut libc::tcp_info).cast::<u8>(), n) };
            let (local, remote) = addrs.get(i).map(|a| (sockaddr_v4(&a[..128]), sockaddr_v4(&a[128..]))).unwrap_or((None, None));
            path_log(&info, local, remote)
        })
        .collect();
    Some(logs)
}

/// One MPTCP subflow query: returns each subflow's record, as long as the kernel filled it.
fn subflow_query(fd: RawFd, option: libc::c_int, record: usize) -> Option<Vec<Vec<u8>>> {
    let mut buf = vec![0u8; SUBFLOW_HEADER + MAX_SUBFLOWS * record];
    buf[0..4].copy_from_slice(&(SUBFLOW_HEADER as u32).to_ne_bytes());
    buf[12..16].copy_from_slice(&(record as u32).to_ne_bytes());
    let mut len = buf.len() as libc::socklen_t;
    let rc = unsafe { libc::getsockopt(fd, SOL_MPTCP, option, buf.as_mut_ptr().cast(), &mut len) };
    if rc != 0 {
        return None;
    }
    let word = |at: usize| u32::from_ne_bytes(buf[at..at + 4].try_into().unwrap()) as usize;
    let (count, stride) = (word(4).min(MAX_SUBFLOWS), word(12).min(record));
    let records = (0..count)
        .map(|i| SUBFLOW_HEADER + i * stride)
        .filter(|&at| at + stride <= len as usize)
        .map(|at| buf[at..at + stride].to_vec())
        .collect();
    Some(records)
}

fn sockaddr_v4(raw: &[u8]) -> Option<SocketAddr> {
    let family = u16::from_ne_bytes([raw[0], raw[1]]);
    (family == libc::AF_INET as u16).then(|| {
        let port = u16::from_be_bytes([raw[2], raw[3]]);
        SocketAddr::from((Ipv4Addr::new(raw[4], raw[5], raw[6], raw[7]), port))
    })
}

type NameCall = unsafe extern "C" fn(libc::c_int, *mut libc::sockaddr, *mut libc::socklen_t) -> libc::c_int;

fn name(fd: RawFd, call: NameCall) -> Option<SocketAddr> {
    let mut raw = [0u8; 128];
    let mut len = raw.len() as libc::socklen_t;
    let rc = unsafe { call(fd, raw.as_mut_ptr().cast(), &mut len) };
    if rc != 0 {
        return None;
    }
    sockaddr_v4(&raw)
}
