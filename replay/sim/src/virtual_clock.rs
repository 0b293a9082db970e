//! Virtual time: microseconds since the simulation began, shown to tquic (and through it to the
//! browser's driver and the replay servers, which read tquic's clock) as an Instant.

use std::time::{Duration, Instant};
use tquic::clock;

pub struct VirtualClock {
    base: Instant,
    now_us: u64,
}

impl VirtualClock {
    /// Starts this thread's virtual time at 0; everything made afterwards on the thread reads it.
    pub fn start() -> VirtualClock {
        let base = Instant::now();
        clock::set_virtual(Some(base));
        VirtualClock { base, now_us: 0 }
    }

    pub fn now_us(&self) -> u64 {
        self.now_us
    }

    pub fn now(&self) -> Instant {
        self.at(self.now_us)
    }

    pub fn at(&self, us: u64) -> Instant {
        self.base + Duration::from_micros(us)
    }

    /// Microseconds of `t` on this clock, rounded up so that a timer is never run early.
    pub fn us_of(&self, t: Instant) -> u64 {
        let d = t.saturating_duration_since(self.base);
        d.as_micros() as u64 + u64::from(!d.subsec_nanos().is_multiple_of(1000))
    }

    /// Moves time forward to `us` (never back).
    pub fn advance_to(&mut self, us: u64) {
        self.now_us = self.now_us.max(us);
        clock::set_virtual(Some(self.now()));
    }
}

impl Drop for VirtualClock {
    fn drop(&mut self) {
        clock::set_virtual(None);
    }
}
