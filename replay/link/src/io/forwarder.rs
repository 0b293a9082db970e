//! One thread per path and direction: packets read from the sending side's TUN go through the
//! link model and are written to the receiving side's TUN when the model releases them.

use std::io::ErrorKind;
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
}

/// Longest sleep, so a stop request and the stats are never older than this.
const MAX_WAIT_US: u64 = 50_000;
const READ_BURST: usize = 256;
const REPORT_EVERY_US: u64 = 200_000;

pub fn forward(mut link: Direction, from: Arc<Tun>, to: Arc<Tun>, report: Arc<Mutex<Report>>) {
    // The kernel's default 50 µs timer slack would add that much to every wake-up.
    // SAFETY: prctl with PR_SET_TIMERSLACK only changes this thread's timer slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong) };
    let mut buf = vec![0u8; 65_536];
    let mut lateness = Lateness::default();
    let mut io_errors = 0;
    let mut reported = 0;
    while !stopping() {
        let now = now_us();
        // arrive() runs the link up to `now` first, so no arrival takes a past opportunity.
        link.advance(now);
        for _ in 0..READ_BURST {
            match from.read(&mut buf) {
                Ok(n) => link.arrive(now, buf[..n].to_vec()),
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
        }
        if t - reported >= REPORT_EVERY_US {
            *report.lock().unwrap() = Report { stats: link.stats().clone(), lateness: lateness.summary(), io_errors };
            reported = t;
        }
        let after = now_us();
        let wait = match link.next_event() {
            Some(at) if at <= after => continue,
            Some(at) => (at - after).min(MAX_WAIT_US),
            None => MAX_WAIT_US,
        };
        wait_readable(from.fd(), wait);
    }
    if link.finish_log().is_err() {
        io_errors += 1;
    }
    *report.lock().unwrap() = Report { stats: link.stats().clone(), lateness: lateness.summary(), io_errors };
}

fn wait_readable(fd: i32, us: u64) {
    let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    let ts = libc::timespec { tv_sec: (us / 1_000_000) as libc::time_t, tv_nsec: ((us % 1_000_000) * 1000) as libc::c_long };
    // SAFETY: ppoll reads one pollfd and the timeout; no signal mask is changed.
    unsafe { libc::ppoll(&mut pfd, 1, &ts, std::ptr::null()) };
}
