//! Virtual time from the TCP world's executor (pagepath-runtime's VirtualExecutor), shown to
//! tquic's clock, and through it to the browser's driver and the replay servers, which read
//! tquic's clock, for as long as a RuntimeClock lives on this thread. VirtualClock moves the
//! QUIC world's (virtual_clock.rs).

/// Sets this thread's tquic clock to its virtual executor's until dropped.
pub struct RuntimeClock;

impl RuntimeClock {
    pub fn set() -> RuntimeClock {
        tquic::clock::set_source(Some(pagepath_runtime::now));
        RuntimeClock
    }
}

impl Drop for RuntimeClock {
    fn drop(&mut self) {
        tquic::clock::set_source(None);
    }
}
