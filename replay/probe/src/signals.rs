//! SIGTERM and SIGINT as a request to finish: the echo server runs until a test harness kills it,
//! and it should still print its report and exit 0 rather than die mid-line.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn request_stop(_signal: libc::c_int) {
    STOP.store(true, Ordering::Relaxed);
}

/// Installs the handlers without SA_RESTART, so a blocking receive returns EINTR at once.
pub fn stop_on_termination() -> io::Result<()> {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: a zeroed sigaction with an async-signal-safe handler (one atomic store) and an
        // empty mask is valid.
        let ret = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = request_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if ret < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}
