//! The queue both of Chromium's request schedulers keep (resource_scheduler.rs in the renderer,
//! network_stack_scheduler.rs in the network service): requests waiting to start, highest priority
//! first and in the order asked for within one (both keep an ordered set so sorted), and those in
//! flight, which the scheduler's rule counts.

use super::browser::RequestId;
use super::resource_scheduler::RequestClass;
use std::collections::BTreeMap;

/// What a scheduler's rule says of a waiting request.
pub(crate) enum Verdict {
    Start,
    /// It waits; later ones may still start.
    Wait,
    /// It waits, and so does everything behind it.
    Stop,
}

#[derive(Default)]
pub(crate) struct RequestGate {
    in_flight: BTreeMap<RequestId, RequestClass>,
    waiting: Vec<(RequestId, RequestClass)>,
}

impl RequestGate {
    pub fn queue(&mut self, id: RequestId, class: RequestClass) {
        self.waiting.push((id, class));
    }

    /// A request is over (done or failed).
    pub fn finished(&mut self, id: RequestId) {
        self.in_flight.remove(&id);
    }

    /// A request's class changed (its priority was raised): it counts, and waits, as its new class.
    pub fn reclassify(&mut self, id: RequestId, class: RequestClass) {
        if let Some(c) = self.in_flight.get_mut(&id) {
            *c = class.clone();
        }
        if let Some((_, c)) = self.waiting.iter_mut().find(|(w, _)| *w == id) {
            *c = class;
        }
    }

    /// Starts, in order, each waiting request `rule` lets go, given what is in flight by then.
    pub fn start(&mut self, rule: impl Fn(&BTreeMap<RequestId, RequestClass>, &RequestClass) -> Verdict) -> Vec<RequestId> {
        // Stable, and a raised priority moves its request up. Unknown priorities sort first: no
        // rule holds them.
        self.waiting.sort_by_key(|(_, c)| c.priority.unwrap_or(0));
        let mut started = Vec::new();
        let mut i = 0;
        while i < self.waiting.len() {
            match rule(&self.in_flight, &self.waiting[i].1) {
                Verdict::Start => {
                    let (id, class) = self.waiting.remove(i);
                    self.in_flight.insert(id, class);
                    started.push(id);
                }
                Verdict::Wait => i += 1,
                Verdict::Stop => break,
            }
        }
        started
    }

    /// Starts the waiting request `id` if `rule` lets it go; the others wait on.
    pub fn start_only(&mut self, id: RequestId, rule: impl Fn(&BTreeMap<RequestId, RequestClass>, &RequestClass) -> Verdict) -> Vec<RequestId> {
        let Some(i) = self.waiting.iter().position(|(w, _)| *w == id) else { return Vec::new() };
        if !matches!(rule(&self.in_flight, &self.waiting[i].1), Verdict::Start) {
            return Vec::new();
        }
        let (id, class) = self.waiting.remove(i);
        self.in_flight.insert(id, class);
        vec![id]
    }
}

/// A scheduler over a RequestGate: requests are asked for and finish; each time, its rule starts
/// what it may.
pub(crate) trait GatedScheduler {
    fn gate(&mut self) -> &mut RequestGate;

    /// Starts what the rule lets go now.
    fn start_what_may(&mut self) -> Vec<RequestId>;

    /// A request is asked for; returns the requests that start now, in order.
    fn ask(&mut self, id: RequestId, class: RequestClass) -> Vec<RequestId> {
        self.gate().queue(id, class);
        self.start_what_may()
    }

    /// A request's priority was raised; returns the requests that start now.
    fn raised(&mut self, id: RequestId, class: RequestClass) -> Vec<RequestId> {
        self.gate().reclassify(id, class);
        self.start_what_may()
    }

    /// A request is over (done or failed); returns the requests that start now.
    fn finished(&mut self, id: RequestId) -> Vec<RequestId> {
        self.gate().finished(id);
        self.start_what_may()
    }
}
