//! Lowest-RTT first (seed 004 §2.1.2, seed 000 §2.4.2): the usable path with the smallest smoothed
//! RTT that has room in its window; the next one when that one is full. Never waits.

use crate::registry::Entry;
use crate::scheduler::{PathChoice, PathScheduler, Paired, TransportOrder};
use crate::snapshot::Context;

pub const ENTRY: Entry = Entry {
    name: "lowest-rtt",
    summary: "the usable path with the lowest smoothed RTT that can send (seed 004 §2.1.2)",
    build: |opts| {
        opts.check_all_read("lowest-rtt")?;
        Ok(Box::new(Paired { name: "lowest-rtt", paths: LowestRtt, streams: TransportOrder }))
    },
};

pub struct LowestRtt;

impl PathScheduler for LowestRtt {
    fn select_path(&mut self, cx: &Context) -> PathChoice {
        cx.candidates().filter(|p| p.can_send).min_by_key(|p| (p.srtt, p.id)).map_or(PathChoice::Wait, |p| PathChoice::One(p.id))
    }
}
