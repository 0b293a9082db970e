//! A TUN device: IP packets the namespace routes out of it are read here, and packets written
//! here arrive in the namespace as if received on it. The device lives while the fd is open, so
//! a crashed emulator leaves no interfaces behind.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;

const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;

pub struct Tun {
    file: File,
}

impl Tun {
    /// Creates the device in the calling thread's network namespace.
    pub fn create(name: &str) -> Result<Tun, String> {
        let file = OpenOptions::new().read(true).write(true).custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open("/dev/net/tun").map_err(|e| format!("/dev/net/tun: {e} (TUN devices need root and the tun module)"))?;
        let mut ifreq = [0u8; 40];
        ifreq[..name.len()].copy_from_slice(name.as_bytes());
        ifreq[16..18].copy_from_slice(&(IFF_TUN | IFF_NO_PI).to_ne_bytes());
        // SAFETY: TUNSETIFF reads and writes a struct ifreq, which is 40 bytes on Linux.
        if unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF, ifreq.as_mut_ptr()) } < 0 {
            return Err(format!("creating TUN device {name}: {}", io::Error::last_os_error()));
        }
        Ok(Tun { file })
    }

    pub fn fd(&self) -> i32 {
        self.file.as_raw_fd()
    }

    /// One packet, or WouldBlock when none is waiting.
    pub fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        // SAFETY: reads at most buf.len() bytes into buf.
        let n = unsafe { libc::read(self.fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 { Err(io::Error::last_os_error()) } else { Ok(n as usize) }
    }

    pub fn write(&self, packet: &[u8]) -> io::Result<()> {
        // SAFETY: writes packet.len() bytes from packet.
        let n = unsafe { libc::write(self.fd(), packet.as_ptr().cast(), packet.len()) };
        if n < 0 { Err(io::Error::last_os_error()) } else { Ok(()) }
    }
}
