//! What the kernel says about an MPTCP connection: how many subflows it used and whether it fell
//! back to plain TCP (the peer or a middlebox refused MPTCP). libc does not define these yet.

use std::io;
use std::os::fd::RawFd;

const SOL_MPTCP: libc::c_int = 284;
const MPTCP_INFO: libc::c_int = 1;
const MPTCP_INFO_FLAG_FALLBACK: u32 = 0x1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    /// Total subflows, the initial one included.
    pub subflows: u32,
    pub fallback: bool,
}

/// Parses the head of struct mptcp_info (linux/mptcp.h): six u8 counters, two bytes of
/// alignment padding, then u32 mptcpi_flags in host byte order.
fn parse_info(info: &[u8]) -> Option<Status> {
    let flags = u32::from_ne_bytes(info.get(8..12)?.try_into().ok()?);
    Some(Status {
        // mptcpi_subflows counts only the subflows added after the initial one.
        subflows: u32::from(info[0]) + 1,
        fallback: flags & MPTCP_INFO_FLAG_FALLBACK != 0,
    })
}

/// Reads MPTCP_INFO from an MPTCP socket. Once a connection has fallen back to TCP the kernel
/// passes SOL_MPTCP options to the lone TCP subflow, which rejects them (EOPNOTSUPP); that
/// rejection is itself the answer: one subflow, fallback.
pub fn status(fd: RawFd) -> io::Result<Status> {
    let mut buf = [0u8; 256];
    let mut len = buf.len() as libc::socklen_t;
    // SAFETY: buf is writable for len bytes and len is updated by the kernel.
    let ret = unsafe {
        libc::getsockopt(
            fd,
            SOL_MPTCP,
            MPTCP_INFO,
            buf.as_mut_ptr() as *mut libc::c_void,
            &mut len,
        )
    };
    if ret < 0 {
        let err = io::Error::last_os_error();
        return match err.raw_os_error() {
            Some(libc::ENOPROTOOPT | libc::EOPNOTSUPP) => Ok(Status {
                subflows: 1,
                fallback: true,
            }),
            _ => Err(err),
        };
    }
    let filled = (len as usize).min(buf.len());
    parse_info(&buf[..filled]).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("MPTCP_INFO returned only {filled} bytes"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_subflows_and_fallback_flag() {
        let mut info = [0u8; 12];
        info[0] = 1;
        info[8..12].copy_from_slice(&0x3u32.to_ne_bytes());
        assert_eq!(
            parse_info(&info),
            Some(Status {
                subflows: 2,
                fallback: true
            })
        );
        assert_eq!(parse_info(&info[..10]), None);
    }
}
