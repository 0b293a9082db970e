//! The HTTP-aware Stream Scheduler of seed 001 (Salameh thesis) §6.4.1: each packet of a resource
//! goes on the highest-RTT path that can still deliver it before the resource would complete on
//! its best path, so a small resource stays on the fast path and a large one is split, and the
//! slow path never carries a resource's tail (Algorithm 6). With lookahead (Algorithm 7, §6.4.1.1)
//! a path on which the first resource would arrive too late sends a later resource instead, whose
//! deadline includes the resources before it. Completion times come from the window, RTT and slow
//! start (Algorithm 8, §6.4.1.2). Preemption (§6.4.2) lets a more critical resource overtake one
//! already started.
//!
//! Options: `lookahead=on|off` (default on), `preemption=on|off` (default off), `out-of-order=on`.
//!
//! Choices the seed leaves open, or that differ on QUIC:
//! - The transmit buffer is the streams in priority order: the graph's critical-path priority
//!   (lower first; the thesis's "omniscient critical path analysis" of §6.3), then RFC 9218 urgency,
//!   then the transport's order. The thesis applies this prioritisation to the socket buffer with
//!   or without preemption (§6.4.2); what preemption changes is the front: without it, the resource
//!   the scheduler started from the front of the buffer stays there until it is sent in full, even
//!   if a more critical one arrives; with it, the more critical one goes first. A resource started
//!   on the slow path by lookahead does not become the front: the thesis moves only that segment
//!   forward (§6.4.1.1).
//! - "Size(resource)" is the bytes not yet sent, as Algorithm 6's "remaining unsent bytes of the
//!   resource at the front" says, for every resource of the lookahead.
//! - α is the minimum over the usable paths whether or not their window has room now (line 4);
//!   viable paths are those that can send now (line 2). Ties in RTT go to the lower path id.
//! - Algorithm 8's window W = min(cwnd, rwnd) is the congestion window: the snapshot has no
//!   receive window. Its use of ssThresh in place of a cwnd inflated by New Reno's fast
//!   retransmit is not needed: QUIC's recovery (RFC 9002) does not inflate the window.
//! - Slow start is the controller's own `in_slow_start`; outside it the estimate is Algorithm 8's
//!   congestion-avoidance branch at once. In slow start without a known ssthresh the footnote caps
//!   it at 10^6 × RTT, read with the RTT in seconds and the product in bytes: the window of a path
//!   of 10^6 B/s (8 Mbit/s), the only reading of the product that is a window.
//! - Out-of-order delivery (§6.4.3) is what QUIC does already: each stream reaches the application
//!   as it arrives (the thesis built "QUIC-lite" to get this on MPTCP). No decision here depends on
//!   it, so `out-of-order=on` is accepted and changes nothing, and `out-of-order=off` is refused
//!   rather than silently ignored: in-order delivery across streams cannot be had on QUIC.
//! - Retransmissions on the other subflow (§6.4.1.3) are the transport's, not a packet decision.

use std::time::Duration;

use crate::options::Options;
use crate::registry::Entry;
use crate::scheduler::{Decision, Event, Scheduler};
use crate::snapshot::{Context, PathSnapshot, StreamId, StreamSnapshot};

pub const ENTRY: Entry = Entry {
    name: "stream-scheduler",
    summary: "seed 001 §6.4.1's HTTP-aware Stream Scheduler: each packet on the highest-RTT path that delivers before the resource would complete on its best path, looking ahead to later resources (Algorithms 6-8); options lookahead, preemption, out-of-order",
    build: |opts| Ok(Box::new(HttpStreamScheduler::from_options(opts)?)),
};

pub struct HttpStreamScheduler {
    pub lookahead: bool,
    pub preemption: bool,
    /// The resource started from the front of the buffer, which keeps the front without preemption.
    front: Option<StreamId>,
    /// The resource last offered from the front; it becomes `front` once a packet of it is sent.
    offered_front: Option<StreamId>,
}

impl HttpStreamScheduler {
    pub fn new(lookahead: bool, preemption: bool) -> HttpStreamScheduler {
        HttpStreamScheduler { lookahead, preemption, front: None, offered_front: None }
    }

    pub fn from_options(opts: &Options) -> Result<HttpStreamScheduler, String> {
        let lookahead = on_off(opts, "lookahead", true)?;
        let preemption = on_off(opts, "preemption", false)?;
        match opts.text("out-of-order").as_deref() {
            None | Some("on" | "true" | "1") => {}
            Some("off" | "false" | "0") => {
                return Err("scheduler option out-of-order=off: QUIC delivers each stream to the application as it arrives, so in-order delivery across streams cannot be had on this transport; out-of-order takes only on".into())
            }
            Some(v) => return Err(format!("scheduler option out-of-order={v}: expected on")),
        }
        opts.check_all_read("stream-scheduler")?;
        Ok(HttpStreamScheduler::new(lookahead, preemption))
    }

    /// The transmit buffer: resources with bytes to send, the first to be served first.
    fn buffer<'a>(&self, cx: &Context<'a>) -> Vec<&'a StreamSnapshot> {
        let mut order: Vec<&StreamSnapshot> = cx.streams.iter().filter(|s| s.remaining > 0).collect();
        order.sort_by_key(|s| (s.critical_priority.unwrap_or(u32::MAX), s.urgency));
        if !self.preemption {
            if let Some(i) = self.front.and_then(|f| order.iter().position(|s| s.id == f)) {
                let started = order.remove(i);
                order.insert(0, started);
            }
        }
        order
    }
}

fn on_off(opts: &Options, key: &str, default: bool) -> Result<bool, String> {
    match opts.text(key).as_deref() {
        None => Ok(default),
        Some("on" | "true" | "1") => Ok(true),
        Some("off" | "false" | "0") => Ok(false),
        Some(v) => Err(format!("scheduler option {key}={v}: expected on or off")),
    }
}

impl Scheduler for HttpStreamScheduler {
    fn name(&self) -> &'static str {
        "stream-scheduler"
    }

    /// Algorithm 7 (Algorithm 6 when lookahead is off: the first resource only).
    fn decide(&mut self, cx: &Context) -> Decision {
        if self.front.is_some_and(|f| !cx.streams.iter().any(|s| s.id == f && s.remaining > 0)) {
            self.front = None;
        }
        let paths: Vec<&PathSnapshot> = cx.candidates().collect();
        let buffer = self.buffer(cx);
        let looked_at = if self.lookahead { buffer.len() } else { buffer.len().min(1) };
        let mut bytes = 0;
        for (i, resource) in buffer.iter().take(looked_at).enumerate() {
            bytes += resource.remaining;
            let Some(alpha) = paths.iter().map(|p| estimate_completion(bytes, p)).min() else {
                return Decision::WAIT;
            };
            let viable = paths.iter().filter(|p| p.can_send && p.one_way() <= alpha);
            if let Some(path) = viable.max_by(|a, b| a.srtt.cmp(&b.srtt).then(b.id.cmp(&a.id))) {
                self.offered_front = (i == 0).then_some(resource.id);
                return Decision::on(path.id, Some(resource.id));
            }
        }
        Decision::WAIT
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        match *event {
            Event::Sent { stream: Some(s), .. } if self.offered_front == Some(s) => self.front = Some(s),
            Event::StreamFinished { stream } if self.front == Some(stream) => self.front = None,
            _ => {}
        }
    }
}

/// Algorithm 8: when `size` bytes sent from now on `path` would all have arrived, from its
/// smoothed RTT, congestion window and slow start (the window grows by half each RTT there, the
/// thesis's delayed-ACK slow start).
pub fn estimate_completion(size: u64, path: &PathSnapshot) -> Duration {
    let rtt = path.srtt.as_secs_f64();
    // at least one byte, so that slow start's growth terminates
    let mut w = path.cwnd.max(1) as f64;
    let ss_thresh = match (path.in_slow_start, path.ssthresh) {
        (false, _) => 0.0,
        (true, Some(s)) => s as f64,
        (true, None) => 1e6 * rtt,
    };
    let mut total = rtt / 2.0;
    let mut remaining = size as f64;
    while remaining > 0.0 {
        if w < ss_thresh {
            if remaining >= w {
                total += rtt;
            } else {
                total += remaining / (w / rtt);
            }
            remaining -= w;
            w += w / 2.0;
        } else {
            total += remaining / (w / rtt);
            remaining = 0.0;
        }
    }
    Duration::try_from_secs_f64(total).unwrap_or(Duration::MAX)
}
