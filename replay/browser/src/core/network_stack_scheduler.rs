//! The second gate a request passes in Chromium: the network service's resource scheduler, after the
//! renderer's (resource_scheduler.rs) has let it go. It holds back only delayable requests (DevTools
//! priority Medium, Low or VeryLow) to servers Chromium does not know to prioritise requests, and
//! lets them go highest priority first:
//! - at most 10 delayable requests of the page in flight;
//! - a delayable request waits while 6 requests of any priority to its host are in flight.
//!
//! Chromium knows a server prioritises when it has spoken HTTP/2 with it or an Alt-Svc named QUIC.
//! So HTTP/1.1 servers never count, and neither do the replay's HTTP/3 servers: Chromium reaches
//! them through `--origin-to-force-quic-on`, with no Alt-Svc. On real-admin-lte over HTTP/3 at
//! 100 Mbit/s 80 ms, the servers saw the page's body scripts on the CDN's host arrive one or two at
//! a time as its seven style sheets ended, and three images and two scripts on the static host only
//! when its 1.4 MB style sheet and four images were done; over HTTP/2 they came all at once.
//! The rules and limits are those of Chromium's `services/network/resource_scheduler`
//! (kMaxNumDelayableRequestsPerHostPerClient, max_delayable_requests); docs/emulated-browser.md.

use super::browser::RequestId;
use super::request_gate::{GatedScheduler, RequestGate, Verdict};

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
    /// Off when the servers prioritise (HTTP/2): every request goes at once.
    enabled: bool,
    gate: RequestGate,
}

impl NetworkStackScheduler {
    pub fn new(enabled: bool) -> NetworkStackScheduler {
        NetworkStackScheduler { enabled, gate: RequestGate::default() }
    }
}

impl GatedScheduler for NetworkStackScheduler {
    fn gate(&mut self) -> &mut RequestGate {
        &mut self.gate
    }

    fn start_what_may(&mut self) -> Vec<RequestId> {
        let enabled = self.enabled;
        self.gate.start(|in_flight, class| {
            if !enabled || !class.delayable() {
                Verdict::Start
            } else if in_flight.values().filter(|c| c.delayable()).count() >= MAX_DELAYABLE_IN_FLIGHT {
                Verdict::Stop
            } else if in_flight.values().filter(|c| c.host.is_some() && c.host == class.host).count() >= MAX_IN_FLIGHT_PER_HOST {
                Verdict::Wait
            } else {
                Verdict::Start
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::resource_scheduler::RequestClass;
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
    fn servers_that_prioritise_and_unknown_priorities_hold_nothing() {
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
