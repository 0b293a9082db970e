//! Virtual time from a tokio runtime whose clock is paused: shown to tquic's clock (and through it
//! to the browser's driver and the replay servers, which read tquic's clock) for as long as a
//! RuntimeClock lives on this thread. The TCP world's runtime moves it (tcp/world.rs), as
//! VirtualClock moves the QUIC world's (virtual_clock.rs).

use std::cell::RefCell;
use std::time::Instant;

thread_local! {
    static RUNTIME: RefCell<Option<tokio::runtime::Handle>> = const { RefCell::new(None) };
}

/// The calling thread's runtime's time, or the wall clock when it has none.
pub fn runtime_now() -> Instant {
    RUNTIME.with(|r| match r.borrow().as_ref() {
        Some(handle) => {
            let _inside = handle.enter();
            tokio::time::Instant::now().into_std()
        }
        None => Instant::now(),
    })
}

/// Sets this thread's tquic clock to `handle`'s runtime's until dropped.
pub struct RuntimeClock;

impl RuntimeClock {
    pub fn set(handle: tokio::runtime::Handle) -> RuntimeClock {
        RUNTIME.with(|r| *r.borrow_mut() = Some(handle));
        tquic::clock::set_source(Some(runtime_now));
        RuntimeClock
    }
}

impl Drop for RuntimeClock {
    fn drop(&mut self) {
        tquic::clock::set_source(None);
        RUNTIME.with(|r| *r.borrow_mut() = None);
    }
}
