//! The interface: a path scheduler and a stream scheduler as two separate axes (seed 000 §4.3
//! separates stream scheduling from path allocation; seed 004 pairs its stream schedulers with its
//! path schedulers), and the combined `Scheduler` a transport calls once per packet. A scheduler
//! that needs both axes at once (SRPT-ECF, SA-ECF, the thesis's Stream Scheduler) implements
//! `Scheduler` itself; one that decides one axis is paired with a default for the other.

use std::time::Duration;

use crate::snapshot::{Context, PathId, StreamId};

/// Where the next packet goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathChoice {
    One(PathId),
    /// The same packet on every path that can send (a redundant scheduler).
    Every,
    /// Send nothing now: waiting for a better path is expected to finish sooner.
    Wait,
}

/// One decision: the path, and the stream whose bytes fill the packet (None: the transport's own
/// order, RFC 9218's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub path: PathChoice,
    pub stream: Option<StreamId>,
}

impl Decision {
    pub const WAIT: Decision = Decision { path: PathChoice::Wait, stream: None };

    pub fn on(path: PathId, stream: Option<StreamId>) -> Decision {
        Decision { path: PathChoice::One(path), stream }
    }
}

/// What the transport tells a scheduler after the fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Sent { path: PathId, stream: Option<StreamId>, bytes: u64 },
    Acked { path: PathId, bytes: u64 },
    Lost { path: PathId, bytes: u64 },
    StreamFinished { stream: StreamId },
}

/// What a transport calls: once per packet it could send, and with each event.
pub trait Scheduler: Send {
    /// The registered name, as `--scheduler` takes it.
    fn name(&self) -> &'static str;
    fn decide(&mut self, cx: &Context) -> Decision;
    fn on_event(&mut self, _now: Duration, _event: &Event) {}
    /// Whether it chooses among the streams itself. A transport then lets it see every stream the
    /// application has data for (the replay server writes all its ready responses into the
    /// connection rather than a chunk ahead of the wire), as the seeds' senders hold the whole
    /// page; a path-only scheduler leaves the order to the application and the transport.
    fn orders_streams(&self) -> bool {
        true
    }
}

/// Which path the next packet takes.
pub trait PathScheduler: Send {
    fn select_path(&mut self, cx: &Context) -> PathChoice;
    fn on_event(&mut self, _now: Duration, _event: &Event) {}
}

/// Which stream fills a packet about to go on `path`; None sends nothing from any stream.
pub trait StreamScheduler: Send {
    fn select_stream(&mut self, cx: &Context, path: PathId) -> Option<StreamId>;
    fn on_event(&mut self, _now: Duration, _event: &Event) {}
    /// See `Scheduler::orders_streams`.
    fn orders_streams(&self) -> bool {
        true
    }
}

/// The transport's own stream order (the order of `Context::streams`): the default axis for a
/// scheduler that only picks paths.
#[derive(Default)]
pub struct TransportOrder;

impl StreamScheduler for TransportOrder {
    fn select_stream(&mut self, cx: &Context, _path: PathId) -> Option<StreamId> {
        cx.streams.iter().find(|s| s.remaining > 0).map(|s| s.id)
    }

    fn orders_streams(&self) -> bool {
        false
    }
}

/// A path scheduler and a stream scheduler as one `Scheduler`.
pub struct Paired<P, S> {
    pub name: &'static str,
    pub paths: P,
    pub streams: S,
}

impl<P: PathScheduler, S: StreamScheduler> Scheduler for Paired<P, S> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn decide(&mut self, cx: &Context) -> Decision {
        let path = self.paths.select_path(cx);
        let on = match path {
            PathChoice::One(p) => p,
            PathChoice::Every => match cx.candidates().find(|p| p.can_send) {
                Some(p) => p.id,
                None => return Decision::WAIT,
            },
            PathChoice::Wait => return Decision::WAIT,
        };
        match self.streams.select_stream(cx, on) {
            Some(stream) => Decision { path, stream: Some(stream) },
            None => Decision::WAIT,
        }
    }

    fn on_event(&mut self, now: Duration, event: &Event) {
        self.paths.on_event(now, event);
        self.streams.on_event(now, event);
    }

    fn orders_streams(&self) -> bool {
        self.streams.orders_streams()
    }
}
