//! SRPT-ECF (seed 000 §4.5, run online as in §4.6.1): stream scheduling and path allocation at
//! once.
//!
//! Stream scheduling: messages are ordered lexicographically by (application priority class,
//! isolated remaining completion time), the latter being "the optimal completion time given by
//! ECF" for the message's remaining size alone, or the time its bytes already in flight still
//! need to arrive if that is later: C_isolated(m_k) = max[C*_ECF(S_k), T_in-flight(m_k)] (Eq. 4.5).
//! T_in-flight comes from the last send of the message on each path plus that path's delay.
//!
//! Path allocation: message m_k is allocated with ECF on its effective size, everything ordered
//! before it plus itself, S_k^ECF = Σ_{i≤k} S_i. For each path that can send, the first message in
//! that order for which ECF finds the path useful gets the packet: the fast path takes the first
//! message, and a slow path that would only stretch a short message's tail takes a later message
//! (Fig 4.7: message 0 uses path 1 while message 1 has path 0) or nothing (then the scheduler
//! waits). The usefulness test is ECF's threshold in packet form (see `ecf_paths`).
//!
//! Choices where the seed leaves things open:
//! - The priority class is RFC 9218's urgency by default (what HTTP/3 clients send); with
//!   `priority=critical-path` it is the graph's critical-path priority, streams without one after
//!   those with one; `priority=none` orders by completion time alone.
//! - A stream whose total size is unknown is an infinite message (§4.8.4): last in its class, and
//!   every path is useful for it and for whatever comes after it; several of them take turns
//!   (the seed's round-robin among infinite messages), by least recently served.
//! - Ties (equal class and completion time) go to the stream ready first, then the lower id,
//!   which keeps the order stable.

use std::collections::BTreeMap;
use std::time::Duration;

use super::ecf_paths::{isolated_completion, EcfPaths};
use crate::registry::Entry;
use crate::scheduler::{Decision, Event, Scheduler};
use crate::snapshot::{Context, PathSnapshot, StreamId, StreamSnapshot};

pub const ENTRY: Entry = Entry {
    name: "srpt-ecf",
    summary: "streams by (priority, isolated ECF completion time), paths by ECF on the bytes ordered before plus the stream's own (seed 000 §4.5-4.6); priority=urgency|critical-path|none",
    build: |opts| {
        let priority = Priority::parse(opts.text("priority").as_deref())?;
        opts.check_all_read("srpt-ecf")?;
        Ok(Box::new(SrptEcf::new(priority)))
    },
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    Urgency,
    CriticalPath,
    None,
}

impl Priority {
    fn parse(text: Option<&str>) -> Result<Priority, String> {
        match text {
            None | Some("urgency") => Ok(Priority::Urgency),
            Some("critical-path") => Ok(Priority::CriticalPath),
            Some("none") => Ok(Priority::None),
            Some(v) => Err(format!("scheduler option priority={v}: expected urgency, critical-path or none")),
        }
    }

    fn class(self, s: &StreamSnapshot) -> u64 {
        match self {
            Priority::Urgency => s.urgency as u64,
            Priority::CriticalPath => s.critical_priority.map_or(u64::MAX, u64::from),
            Priority::None => 0,
        }
    }
}

pub struct SrptEcf {
    priority: Priority,
    paths: EcfPaths,
    /// Per stream: when its last byte sent so far is estimated to arrive.
    in_flight_until: BTreeMap<StreamId, Duration>,
    /// Per stream: the number of the last send it got (infinite messages take turns by it).
    last_served: BTreeMap<StreamId, u64>,
    sends: u64,
}

impl SrptEcf {
    pub fn new(priority: Priority) -> SrptEcf {
        SrptEcf { priority, paths: EcfPaths::default(), in_flight_until: BTreeMap::new(), last_served: BTreeMap::new(), sends: 0 }
    }

    /// The streams in SRPT order, each with its effective size for ECF (Σ_{i≤k} S_i).
    fn order<'a>(&self, cx: &Context<'a>) -> Vec<(&'a StreamSnapshot, f64)> {
        let mut keyed: Vec<(&StreamSnapshot, OrderKey)> = cx
            .streams
            .iter()
            .filter(|s| s.remaining > 0)
            .map(|s| {
                let size = size(s);
                let in_flight = self.in_flight_until.get(&s.id).map_or(0.0, |t| t.saturating_sub(cx.now).as_secs_f64());
                let isolated = isolated_completion(cx, size).max(in_flight);
                let turn = if size.is_finite() { 0 } else { self.last_served.get(&s.id).copied().unwrap_or(0) };
                (s, (self.priority.class(s), isolated, turn, s.ready_at, s.id))
            })
            .collect();
        keyed.sort_by(|(_, a), (_, b)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.3.cmp(&b.3)).then(a.4.cmp(&b.4)));
        let mut ahead = 0.0;
        keyed
            .into_iter()
            .map(|(s, _)| {
                ahead += size(s);
                (s, ahead)
            })
            .collect()
    }
}

/// (priority class, isolated completion in seconds, turn among infinite messages, ready at, id)
type OrderKey = (u64, f64, u64, Duration, StreamId);

/// A message's remaining size; infinite when its total is unknown (seed 000 §4.8.4).
fn size(s: &StreamSnapshot) -> f64 {
    if s.total.is_some() {
        s.remaining as f64
    } else {
        f64::INFINITY
    }
}

impl Scheduler for SrptEcf {
    fn name(&self) -> &'static str {
        "srpt-ecf"
    }

    fn decide(&mut self, cx: &Context) -> Decision {
        self.paths.observe(cx);
        let order = self.order(cx);
        let Some(&(first, _)) = order.first() else { return Decision::WAIT };
        // The first message's fastest path is always useful to it; asking that first also makes
        // the fast path take the head of the order when several paths are free.
        let head_path = self.paths.fastest(cx, self.paths.chunk(first.remaining));
        let full = self.paths.chunk(u64::MAX);
        let mut sendable: Vec<&PathSnapshot> = cx.candidates().filter(|p| p.can_send).collect();
        sendable.sort_by_key(|p| (self.paths.arrival(cx, p, full), p.id));
        for p in sendable {
            for (k, &(s, effective)) in order.iter().enumerate() {
                if (k == 0 && head_path == Some(p.id)) || self.paths.useful(cx, p, effective, self.paths.chunk(s.remaining)) {
                    return Decision::on(p.id, Some(s.id));
                }
            }
        }
        Decision::WAIT
    }

    fn on_event(&mut self, now: Duration, event: &Event) {
        let arrives = self.paths.on_event(now, event);
        match *event {
            Event::Sent { stream: Some(s), .. } => {
                self.sends += 1;
                self.last_served.insert(s, self.sends);
                if let Some(t) = arrives {
                    let until = self.in_flight_until.entry(s).or_default();
                    *until = (*until).max(t);
                }
            }
            Event::StreamFinished { stream } => {
                self.in_flight_until.remove(&stream);
                self.last_served.remove(&stream);
            }
            _ => {}
        }
    }
}
