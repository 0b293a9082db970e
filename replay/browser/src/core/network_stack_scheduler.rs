//! The second gate a request passes in Chromium: the network service's resource scheduler, after the
//! renderer's (resource_scheduler.rs) has let it go. It holds back only delayable requests (DevTools
//! priority Medium, Low or VeryLow) to servers Chromium does not know to prioritise requests, and
//! lets them go highest priority first:
//! - at most 10 delayable requests of the page in flight;
//! - a delayable request waits while 6 requests of any priority to its host are in flight.
//!
//! Chromium knows a server prioritises once it has spoken HTTP/2 with it (the connection pool
//! calls `HttpServerProperties::SetSupportsSpdy` as the session is created, right after TLS) or an
//! Alt-Svc named QUIC. A fresh profile, as every replay's, knows no server: a page's first
//! requests to an HTTP/2 host are held as an HTTP/1.1 host's would be, until the scheduler looks
//! again, which it does only when a request is asked for, raised or finished, not when a
//! connection comes up. On gen-pagepath-1 at 5 Mbit/s 50 ms, Chromium sent its CDN host six
//! requests before TLS was up and the other 30 images at 428 ms, as the first response ended.
//! HTTP/1.1 servers never become known, and neither do the replay's HTTP/3 servers: Chromium
//! reaches them through `--origin-to-force-quic-on`, with no Alt-Svc. On real-admin-lte over
//! HTTP/3 at 100 Mbit/s 80 ms, the servers saw the page's body scripts on the CDN's host arrive
//! one or two at a time as its seven style sheets ended, and three images and two scripts on the
//! static host only when its 1.4 MB style sheet and four images were done; over HTTP/2 they came
//! all at once. The rules and limits are those of Chromium's `services/network/resource_scheduler`
//! (kMaxNumDelayableRequestsPerHostPerClient, max_delayable_requests); docs/emulated-browser.md.
//! Chromium lowers the cap to 8, and counts each non-delayable request in flight as 3 delayable
//! ones, when its network quality estimator puts the connection at 3G or slower. In the replays it
//! never does: Chromium's net log of gen-pagepath-6 at 1 Mbit/s 100 ms, as at 25 Mbit/s 20 ms,
//! holds no `NETWORK_QUALITY_CHANGED` (the estimator is meant to leave out private addresses, and
//! every replay server has one), so the cap stays 10 at every condition.

use super::browser::RequestId;
use super::resource_scheduler::RequestClass;
use super::request_gate::{GatedScheduler, RequestGate, Verdict};
use std::collections::{BTreeMap, BTreeSet};

/// The host and port of a URL as the scheduler groups requests ("cdn.test:8443"), None without one.
pub(crate) fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    (!host.is_empty()).then_some(host)
}

const MAX_DELAYABLE_IN_FLIGHT: usize = 10;
const MAX_IN_FLIGHT_PER_HOST: usize = 6;

pub(crate) struct NetworkStackScheduler {
    /// Off, every request goes at once.
    enabled: bool,
    /// Hosts known to prioritise requests (`host_of`'s form): their requests are never delayable.
    prioritizing: BTreeSet<String>,
    gate: RequestGate,
}

impl NetworkStackScheduler {
    pub fn new(enabled: bool) -> NetworkStackScheduler {
        NetworkStackScheduler { enabled, prioritizing: BTreeSet::new(), gate: RequestGate::default() }
    }

    /// `host` spoke HTTP/2: its requests are no longer delayable. Nothing starts now; its held
    /// requests go as the next request finishes or is raised, as in Chromium.
    pub fn learn_prioritizes(&mut self, host: &str) {
        self.prioritizing.insert(host.to_owned());
    }
}

/// Chromium's `ShouldStartRequest` for one request, given what is in flight and the hosts known to
/// prioritise.
fn verdict(enabled: bool, prioritizing: &BTreeSet<String>, in_flight: &BTreeMap<RequestId, RequestClass>, class: &RequestClass) -> Verdict {
    // Chromium decides a request's delayability as it starts; counting it by what is known now
    // differs only for a request started before its host became known.
    let delayable = |c: &RequestClass| c.delayable() && c.host.as_ref().is_none_or(|h| !prioritizing.contains(h));
    if !enabled || !delayable(class) {
        Verdict::Start
    } else if in_flight.values().filter(|c| delayable(c)).count() >= MAX_DELAYABLE_IN_FLIGHT {
        Verdict::Stop
    } else if in_flight.values().filter(|c| c.host.is_some() && c.host == class.host).count() >= MAX_IN_FLIGHT_PER_HOST {
        Verdict::Wait
    } else {
        Verdict::Start
    }
}

impl GatedScheduler for NetworkStackScheduler {
    fn gate(&mut self) -> &mut RequestGate {
        &mut self.gate
    }

    /// Every waiting request, highest priority first (`LoadAnyStartablePendingRequests`): as a
    /// request finishes or is raised.
    fn start_what_may(&mut self) -> Vec<RequestId> {
        let (enabled, prioritizing) = (self.enabled, &self.prioritizing);
        self.gate.start(|in_flight, class| verdict(enabled, prioritizing, in_flight, class))
    }

    /// Only the request asked for is weighed (`ScheduleRequest`): one that may go starts, even
    /// ahead of waiting ones, and the waiting ones wait on for a request to finish.
    fn ask(&mut self, id: RequestId, class: RequestClass) -> Vec<RequestId> {
        let (enabled, prioritizing) = (self.enabled, &self.prioritizing);
        self.gate.queue(id, class);
        self.gate.start_only(id, |in_flight, class| verdict(enabled, prioritizing, in_flight, class))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(priority: &str, resource_type: &str, host: &str) -> RequestClass {
        RequestClass::new(Some(priority), resource_type, Some(host))
    }

    #[test]
    fn a_delayable_request_waits_while_six_requests_to_its_host_are_in_flight() {
        let mut s = NetworkStackScheduler::new(true);
        for id in 0..6 {
            assert_eq!(s.ask(id, class("VeryHigh", "Stylesheet", "cdn")), vec![id], "style sheets are never held");
        }
        assert!(s.ask(6, class("Medium", "Script", "cdn")).is_empty(), "six in flight to cdn");
        assert_eq!(s.ask(7, class("Medium", "Image", "static")), vec![7], "another host's request goes");
        assert!(s.ask(8, class("Low", "Image", "cdn")).is_empty());
        assert_eq!(s.finished(0), vec![6], "one slot: the Medium script before the Low image");
        assert_eq!(s.finished(1), vec![8]);
    }

    #[test]
    fn at_most_ten_delayable_requests_are_in_flight() {
        let mut s = NetworkStackScheduler::new(true);
        let mut started = Vec::new();
        for id in 0..12 {
            started.extend(s.ask(id, class("Low", "Image", &format!("host{id}"))));
        }
        assert_eq!(started, (0..10).collect::<Vec<_>>());
        assert_eq!(s.ask(12, class("High", "Script", "host0")), vec![12], "a non-delayable request goes");
        assert_eq!(s.finished(3), vec![10]);
    }

    #[test]
    fn requests_are_grouped_by_host_and_port() {
        assert_eq!(host_of("https://cdn.test/a.js?x#y"), Some("cdn.test"));
        assert_eq!(host_of("https://u:p@cdn.test:8443?q"), Some("cdn.test:8443"));
        assert_eq!(host_of("data:text/plain,x"), None);
    }

    #[test]
    fn a_host_known_to_prioritise_has_its_held_requests_let_go_as_the_next_request_ends() {
        let mut s = NetworkStackScheduler::new(true);
        for id in 0..8 {
            s.ask(id, class("Low", "Image", "cdn"));
        }
        s.ask(8, class("Low", "Image", "static"));
        s.learn_prioritizes("cdn");
        assert_eq!(s.ask(9, class("Low", "Image", "static")), vec![9], "a request asked for is weighed alone");
        for id in 10..20 {
            assert_eq!(s.ask(id, class("Low", "Image", "cdn")), vec![id], "cdn's new requests are not delayable, and go ahead of its held ones");
        }
        assert_eq!(s.finished(8), vec![6, 7], "cdn's held images go as a request ends");
        let mut s = NetworkStackScheduler::new(true);
        for id in 0..8 {
            s.ask(id, class("Low", "Image", "cdn"));
        }
        s.learn_prioritizes("cdn");
        assert_eq!(s.finished(0), vec![6, 7], "both held images go as the first request ends, not one");
    }

    #[test]
    fn off_and_unknown_priorities_hold_nothing() {
        let mut off = NetworkStackScheduler::new(false);
        for id in 0..8 {
            assert_eq!(off.ask(id, class("Low", "Image", "cdn")), vec![id]);
        }
        let mut s = NetworkStackScheduler::new(true);
        for id in 0..6 {
            s.ask(id, class("VeryHigh", "Stylesheet", "cdn"));
        }
        assert_eq!(s.ask(6, RequestClass::new(None, "Image", Some("cdn"))), vec![6]);
    }
}
