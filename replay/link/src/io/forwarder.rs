//! One thread per path and direction: packets read from the sending side's TUN go through the
//! link model and are written to the receiving side's TUN when the model releases them.

use std::io::ErrorKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::clock::now_us;
use super::lateness::{Lateness, LatenessSummary};
use super::signals::stopping;
use super::tun::Tun;
use crate::core::direction::Direction;
use crate::core::stats::Stats;

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    #[serde(flatten)]
    pub stats: Stats,
    /// Write time minus the release time the model gave: the emulator's own timing error.
    pub lateness: LatenessSummary,
    pub io_errors: u64,
    /// Whether the thread runs at real-time priority (see run_in_real_time).
    pub realtime: bool,
}

/// Longest sleep, so a stop request is seen within it.
const MAX_WAIT_US: u64 = 10_000;
/// Shortest sleep: a packet due sooner waits for the next wake-up, with those due by then. Under a
/// hypervisor, arming a timer for a few microseconds costs more than the wait: a forwarder that
/// slept until each packet of a 1 Gbit/s path was due (every 12 µs) spent three quarters of its
/// time arming timers (perf: in ppoll's schedule_hrtimeout), and two such paths at once carried
/// 687 and 714 Mbit/s on this 2-core machine; with 25 µs, 936 each, lateness p99 148 µs
/// (`pagepath bench net`). Mahimahi releases packets on a 1 ms grid.
const MIN_WAIT_US: u64 = 25;
const READ_BURST: usize = 256;
/// How often the lateness summary (a sort) is recomputed; the counters are published whenever
/// packets move, so a reading at the end of a run is exact.
const REPORT_EVERY_US: u64 = 200_000;

/// A new link model for a running forwarder (`pagepath net reconfigure`): the thread takes it at
/// its next turn, drops the old model with whatever it still held, and clears `pending`.
#[derive(Default)]
pub struct Swap {
    pending: AtomicBool,
    next: Mutex<Option<Direction>>,
}

impl Swap {
    pub fn offer(&self, link: Direction) {
        *self.next.lock().unwrap() = Some(link);
        self.pending.store(true, Ordering::SeqCst);
    }

    pub fn taken(&self) -> bool {
        !self.pending.load(Ordering::SeqCst)
    }
}

/// Real-time priority (SCHED_FIFO, below the kernel's interrupt threads) for this thread, so that
/// a packet is read and released when it is due, not when the scheduler next gives a busy core
/// to the emulator: under two busy loops on this 2-core machine, a half-rate UDP probe's extra
/// one-way delay at 1 Gbit/s fell from a p99 of 3.9 ms to 79 µs and the emulator's own lateness
/// from 3.0 ms to 52 µs. A forwarder sleeps whenever no packet is due, so it takes only the CPU its
/// packets need. False where the system refuses it (no CAP_SYS_NICE, a container's limit).
pub fn run_in_real_time() -> bool {
    let param = libc::sched_param { sched_priority: 10 };
    // SAFETY: changes only this thread's scheduling policy.
    unsafe { libc::pthread_setschedparam(libc::pthread_self(), libc::SCHED_FIFO, &param) == 0 }
}

/// `realtime`: whether this thread got real-time priority (run_in_real_time), for its reports.
pub fn forward(mut link: Direction, from: Arc<Tun>, to: Arc<Tun>, report: Arc<Mutex<Report>>, swap: Arc<Swap>, realtime: bool) {
    // The kernel's default 50 µs timer slack would add that much to every wake-up.
    // SAFETY: prctl with PR_SET_TIMERSLACK only changes this thread's timer slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong) };
    let mut buf = vec![0u8; 65_536];
    let mut lateness = Lateness::default();
    let mut io_errors = 0;
    let mut reported = 0;
    while !stopping() {
        if swap.pending.load(Ordering::SeqCst) {
            if let Some(next) = swap.next.lock().unwrap().take() {
                // A reconfigured topology has no link logs (reconfigure refuses them).
                let _ = link.finish_log();
                link = next;
                lateness = Lateness::default();
                io_errors = 0;
                *report.lock().unwrap() = Report { realtime, ..Report::default() };
            }
            swap.pending.store(false, Ordering::SeqCst);
        }
        let now = now_us();
        let mut moved = false;
        // arrive() runs the link up to `now` first, so no arrival takes a past opportunity.
        link.advance(now);
        for _ in 0..READ_BURST {
            match from.read(&mut buf) {
                Ok(n) => {
                    link.arrive(now, buf[..n].to_vec());
                    moved = true;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    io_errors += 1;
                    break;
                }
            }
        }
        let t = now_us();
        while let Some((packet, release)) = link.pop_ready(t) {
            if to.write(&packet).is_err() {
                io_errors += 1;
            }
            lateness.record(t.saturating_sub(release));
            moved = true;
        }
        if t - reported >= REPORT_EVERY_US {
            *report.lock().unwrap() = Report { stats: link.stats().clone(), lateness: lateness.summary(), io_errors, realtime };
            reported = t;
        } else if moved {
            report.lock().unwrap().stats = link.stats().clone();
        }
        let after = now_us();
        let wait = match link.next_event() {
            Some(at) if at <= after => continue,
            Some(at) => (at - after).clamp(MIN_WAIT_US, MAX_WAIT_US),
            None => MAX_WAIT_US,
        };
        wait_readable(from.fd(), wait);
    }
    if link.finish_log().is_err() {
        io_errors += 1;
    }
    *report.lock().unwrap() = Report { stats: link.stats().clone(), lateness: lateness.summary(), io_errors, realtime };
}

fn wait_readable(fd: i32, us: u64) {
    let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    let ts = libc::timespec { tv_sec: (us / 1_000_000) as libc::time_t, tv_nsec: ((us % 1_000_000) * 1000) as libc::c_long };
    // SAFETY: ppoll reads one pollfd and the timeout; no signal mask is changed.
    unsafe { libc::ppoll(&mut pfd, 1, &ts, std::ptr::null()) };
}
