//! SRPT with lowest-RTT (seed 000 §4.7, the baseline of Figs 4.11-4.12): the stream with the
//! fewest bytes left goes first (shortest remaining processing time), on the lowest-RTT path that
//! can send. It isolates what SRPT-ECF adds in path allocation: the same order of messages, without
//! ECF's choice of which path helps which message.
//!
//! Choices the seed leaves open: a stream of unknown size counts as infinite (last), as SRPT-ECF
//! takes it; ties go to the stream ready first, then the lower id.

use crate::registry::Entry;
use crate::scheduler::{Paired, StreamScheduler};
use crate::schedulers::lowest_rtt::LowestRtt;
use crate::snapshot::{Context, PathId, StreamId};

pub const ENTRY: Entry = Entry {
    name: "srpt",
    summary: "the stream with the fewest bytes left first, on the lowest-RTT path that can send (seed 000 §4.7's baseline)",
    build: |opts| {
        opts.check_all_read("srpt")?;
        Ok(Box::new(Paired { name: "srpt", paths: LowestRtt, streams: ShortestRemaining }))
    },
};

pub struct ShortestRemaining;

impl StreamScheduler for ShortestRemaining {
    fn select_stream(&mut self, cx: &Context, _path: PathId) -> Option<StreamId> {
        cx.streams
            .iter()
            .filter(|s| s.remaining > 0)
            .min_by_key(|s| (s.total.map_or(u64::MAX, |_| s.remaining), s.ready_at, s.id))
            .map(|s| s.id)
    }
}
