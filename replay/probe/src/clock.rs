//! CLOCK_MONOTONIC in nanoseconds. Sender and receiver run in different network namespaces but
//! share this clock, so a timestamp written by one can be subtracted by the other to get a one-way
//! delay; std's Instant cannot be serialised into a packet.

pub fn now_ns() -> u64 {
    read_ns(libc::CLOCK_MONOTONIC)
}

/// CLOCK_REALTIME in nanoseconds: the clock the kernel's receive stamps are on (arrival_stamps.rs).
pub fn realtime_ns() -> u64 {
    read_ns(libc::CLOCK_REALTIME)
}

fn read_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid timespec and both clocks read here always exist on Linux.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Below this much time left we spin instead of sleeping: the kernel's timer slack (50 µs by
/// default) would otherwise make us late for packets only a few hundred µs apart.
const SPIN_NS: u64 = 100_000;

/// Blocks until now_ns() >= deadline. Sleeps to an absolute time so lateness in one wait does
/// not accumulate into the next.
pub fn sleep_until(deadline: u64) {
    loop {
        let now = now_ns();
        if now >= deadline {
            return;
        }
        if deadline - now <= SPIN_NS {
            std::hint::spin_loop();
            continue;
        }
        let wake = deadline - SPIN_NS;
        let ts = libc::timespec {
            tv_sec: (wake / 1_000_000_000) as libc::time_t,
            tv_nsec: (wake % 1_000_000_000) as libc::c_long,
        };
        // SAFETY: ts is valid; an early return (EINTR) is handled by looping.
        unsafe {
            libc::clock_nanosleep(
                libc::CLOCK_MONOTONIC,
                libc::TIMER_ABSTIME,
                &ts,
                std::ptr::null_mut(),
            )
        };
    }
}

pub fn seconds_between(start_ns: u64, end_ns: u64) -> f64 {
    end_ns.saturating_sub(start_ns) as f64 / 1e9
}
