//! Round-robin over paths (seed 004 §2.1.1, seed 000 §2.4.2): "it simply spreads data over all
//! available paths, provided their congestion window is not yet filled up" (seed 000). The usable
//! paths take turns in id order; a path whose window is full (or whose pacer holds it) is skipped
//! and the turn goes to the next one that can send. Waits only when none can.
//!
//! Choices the seeds leave open: the turn advances when a packet is actually sent (the `Sent`
//! event), not when `decide` is asked, so a transport that asks and then sends nothing does not
//! skip a path's turn; every path has weight 1 (seed 004's weighted variant repeats paths in the
//! list, which no seed scheduler here needs).

use std::time::Duration;

use crate::registry::Entry;
use crate::scheduler::{Event, PathChoice, PathScheduler, Paired, TransportOrder};
use crate::snapshot::{Context, PathId};

pub const ENTRY: Entry = Entry {
    name: "round-robin",
    summary: "usable paths in turn, skipping those that cannot send (seed 004 §2.1.1, seed 000 §2.4.2)",
    build: |opts| {
        opts.check_all_read("round-robin")?;
        Ok(Box::new(Paired { name: "round-robin", paths: RoundRobin::default(), streams: TransportOrder }))
    },
};

#[derive(Default)]
pub struct RoundRobin {
    last: Option<PathId>,
}

impl PathScheduler for RoundRobin {
    fn select_path(&mut self, cx: &Context) -> PathChoice {
        let mut ready: Vec<PathId> = cx.candidates().filter(|p| p.can_send).map(|p| p.id).collect();
        ready.sort();
        // the first ready path after the last one used, wrapping round to the lowest id
        let after_last = ready.iter().find(|id| self.last.is_none_or(|last| **id > last));
        after_last.or(ready.first()).map_or(PathChoice::Wait, |id| PathChoice::One(*id))
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        if let Event::Sent { path, .. } = event {
            self.last = Some(*path);
        }
    }
}
