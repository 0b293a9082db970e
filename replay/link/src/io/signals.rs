//! SIGINT and SIGTERM set a flag instead of killing the process, so the emulator can take down
//! what it created (namespaces, processes) before it exits. SIGUSR1 asks for the counters now:
//! a run reads them the moment its load ends instead of waiting for the next periodic write.
//! SIGUSR2 says a reconfiguration request is waiting (`pagepath net reconfigure`).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The signal that asked the process to stop; 0 until one did.
static STOP: AtomicI32 = AtomicI32::new(0);
static FLUSH: AtomicBool = AtomicBool::new(false);
static RECONFIGURE: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(sig: libc::c_int) {
    if sig == libc::SIGUSR1 {
        FLUSH.store(true, Ordering::SeqCst);
    } else if sig == libc::SIGUSR2 {
        RECONFIGURE.store(true, Ordering::SeqCst);
    } else {
        STOP.store(sig, Ordering::SeqCst);
    }
}

pub fn install() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGUSR1, libc::SIGUSR2] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe { libc::signal(sig, on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t) };
    }
}

pub fn stopping() -> bool {
    STOP.load(Ordering::SeqCst) != 0
}

/// The exit code a shell gives a process ended by the signal that stopped this one: 128 + its
/// number (130 for Ctrl-C, 143 for SIGTERM).
pub fn stop_exit_code() -> i32 {
    128 + STOP.load(Ordering::SeqCst)
}

pub fn request_stop() {
    STOP.store(libc::SIGTERM, Ordering::SeqCst);
}

/// True once after each SIGUSR1.
pub fn take_flush() -> bool {
    FLUSH.swap(false, Ordering::SeqCst)
}

/// True once after each SIGUSR2.
pub fn take_reconfigure() -> bool {
    RECONFIGURE.swap(false, Ordering::SeqCst)
}
