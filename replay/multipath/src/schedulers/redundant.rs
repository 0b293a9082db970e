//! Redundant: every packet on every usable path (`PathChoice::Every`), so each byte arrives by
//! whichever path delivers it first. Not in the seeds; the usual baseline beside lowest-RTT
//! (MPTCP's "redundant" scheduler, tquic's `Redundant`).
//!
//! A decision sends one packet on the paths that can send at that instant. The lowest-RTT path
//! sets the pace: the scheduler sends whenever it can send, and waits while it cannot, so a
//! packet never goes out on slower paths alone and the transfer is never slower than on the
//! fastest path by itself. A slower path whose window is full at that instant misses that
//! packet's copy: a decision carries new bytes, never bytes already sent, so the catching up of
//! MPTCP's and tquic's redundant schedulers (each path resending, at its own pace, what it
//! missed) is the transport's to do, not something this interface can ask for. The other choice,
//! waiting until every path can send, puts every packet on every path but runs the connection at
//! the slowest path's rate (on tests/common's fast_and_slow, 200 KB would take 835 ms instead of
//! 176 ms), which no redundant scheduler in use does.

use crate::registry::Entry;
use crate::scheduler::{PathChoice, PathScheduler, Paired, TransportOrder};
use crate::snapshot::Context;

pub const ENTRY: Entry = Entry {
    name: "redundant",
    summary: "every packet on every usable path that can send, at the lowest-RTT path's pace (not in the seeds; the usual baseline)",
    build: |opts| {
        opts.check_all_read("redundant")?;
        Ok(Box::new(Paired { name: "redundant", paths: Redundant, streams: TransportOrder }))
    },
};

pub struct Redundant;

impl PathScheduler for Redundant {
    fn select_path(&mut self, cx: &Context) -> PathChoice {
        match cx.candidates().min_by_key(|p| (p.srtt, p.id)) {
            Some(fastest) if fastest.can_send => PathChoice::Every,
            _ => PathChoice::Wait,
        }
    }
}
