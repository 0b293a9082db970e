//! When Chromium's renderer lets a page's request go: Blink's resource load scheduler
//! (`third_party/blink/renderer/platform/loader/fetch/resource_load_scheduler.cc`), checked over
//! emulated links (docs/emulated-browser.md, "Request scheduling"). It throttles every subresource
//! but those that could run long (fetch, XHR, event streams, media) and beacons. While the main
//! frame's parser has not reached `<body>` ("tight mode"), one of priority below High starts only
//! while fewer than two throttled requests of any priority are in flight
//! (`kTightLimitForRendererSideResourceScheduler`), or, if it is Medium, while fewer than two Medium
//! ones are (`tight_medium_limit_`). Measured:
//! - the many-images fixture page: 40 Low images wait while a style sheet and two head scripts
//!   load, go one at a time while one script is left, and all at once when the parser reaches the
//!   body;
//! - real-sneat at 5 Mbit/s, 50 ms, whose head script takes 2.8 s to arrive: six VeryHigh style
//!   sheets and the High head script in flight, the preload scanner's Medium images and body
//!   scripts went two at a time, each as another ended, and the Low ones when the parser got past
//!   the head script;
//! - gen-pagepath-3 at 25 Mbit/s 20 ms: two Low async scripts asked for first went at once (nothing
//!   else was in flight), and the Medium body scripts behind them went beside them.
//!
//! A `<link rel=preload>` is neither held nor counted (`RequestClass::unthrottled`).
//!
//! Waiting requests go highest priority first, in the order asked for within one priority (Blink
//! keeps them in a set so ordered): on gen-pagepath-26 the preload scanner asked for four Low async
//! scripts, then six Medium body scripts, and Chromium sent the Medium ones first, two at a time
//! (257-533 ms), and the Low ones from 720 ms and when the parser reached the body (910 ms).
//!
//! Blink keeps one scheduler per document: network.rs keeps one per frame, each in tight mode until
//! its own parser reaches its `<body>`.
//!
//! Once the body is reached nothing is held here (over HTTP/1.1 the client's connection pool still
//! limits what is sent). Requests of unknown priority are neither held nor counted: without it
//! there is no telling what Chromium did.

use super::browser::RequestId;
use super::request_gate::{GatedScheduler, RequestGate, Verdict};

/// Throttled requests in flight before one below High waits, in tight mode.
const TIGHT_LIMIT: usize = 2;
/// Medium requests in flight before another Medium one waits (unless the one above lets it go).
const TIGHT_MEDIUM_LIMIT: usize = 2;

/// Chrome's priorities as DevTools names them, highest first.
const PRIORITIES: [&str; 5] = ["VeryHigh", "High", "Medium", "Low", "VeryLow"];
const MEDIUM: u8 = 2;

/// What the schedulers need to know about a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RequestClass {
    /// Chrome's priority as DevTools names it, 0 VeryHigh .. 4 VeryLow; None when unknown.
    pub priority: Option<u8>,
    /// Blink's scheduler throttles it: not a fetch, XHR, event stream, media or beacon.
    pub throttled: bool,
    /// The URL's host and port, which Chromium's network stack counts requests by; None for a
    /// frame's document, which the browser process fetches outside either scheduler.
    pub host: Option<String>,
}

impl RequestClass {
    /// From the recorded priority and resource type (`Script`, `Image`, ...; CDP's names) and the URL's host.
    pub fn new(chrome_priority: Option<&str>, resource_type: &str, host: Option<&str>) -> RequestClass {
        let priority = chrome_priority.and_then(|p| PRIORITIES.iter().position(|&n| n == p)).map(|p| p as u8);
        let long_running = matches!(resource_type, "XHR" | "Fetch" | "EventSource" | "Media" | "Ping");
        RequestClass { priority, throttled: priority.is_some() && !long_running, host: host.map(str::to_owned) }
    }

    /// A frame's document: never held, never counted.
    pub fn navigation() -> RequestClass {
        RequestClass { priority: None, throttled: false, host: None }
    }

    /// The same request, which the renderer's scheduler neither holds nor counts: a `<link
    /// rel=preload>`. On large-head.html (4 Mbit/s, 40 ms) Chromium sent a Low image the head
    /// preloads beside its style sheet and its deferred script, both in flight; the network
    /// stack's scheduler still sees its priority.
    pub fn unthrottled(self) -> RequestClass {
        RequestClass { throttled: false, ..self }
    }

    /// Below net::MEDIUM (DevTools' High): the network stack's scheduler may hold it back, and
    /// Blink's in tight mode if it throttles it.
    pub(crate) fn delayable(&self) -> bool {
        self.priority.is_some_and(|p| p >= MEDIUM)
    }

    fn medium(&self) -> bool {
        self.throttled && self.priority == Some(MEDIUM)
    }
}

pub(crate) struct ResourceScheduler {
    enabled: bool,
    body_reached: bool,
    gate: RequestGate,
}

impl ResourceScheduler {
    /// Off, every request starts the moment it is asked for (PCP's model).
    pub fn new(enabled: bool) -> ResourceScheduler {
        ResourceScheduler { enabled, body_reached: false, gate: RequestGate::default() }
    }

    /// The main frame's parser reached `<body>`; returns the requests that start now.
    pub fn reached_body(&mut self) -> Vec<RequestId> {
        self.body_reached = true;
        self.start_what_may()
    }
}

impl GatedScheduler for ResourceScheduler {
    fn gate(&mut self) -> &mut RequestGate {
        &mut self.gate
    }

    fn start_what_may(&mut self) -> Vec<RequestId> {
        let tight = self.enabled && !self.body_reached;
        self.gate.start(|in_flight, class| {
            if !tight || !class.throttled || !class.delayable() {
                return Verdict::Start;
            }
            let count = |counted: fn(&RequestClass) -> bool| in_flight.values().filter(|c| counted(c)).count();
            let may = count(|c| c.throttled) < TIGHT_LIMIT || (class.medium() && count(RequestClass::medium) < TIGHT_MEDIUM_LIMIT);
            // Blink looks only at the first waiting request: what sorts behind it has no larger allowance.
            if may { Verdict::Start } else { Verdict::Stop }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(priority: &str, resource_type: &str) -> RequestClass {
        RequestClass::new(Some(priority), resource_type, Some("host"))
    }

    #[test]
    fn images_wait_while_two_head_resources_load_then_go_one_at_a_time_then_all_at_once() {
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, class("VeryHigh", "Stylesheet")), vec![0]);
        assert_eq!(s.ask(1, class("High", "Script")), vec![1]);
        assert_eq!(s.ask(2, class("High", "Script")), vec![2]);
        let mut started = Vec::new();
        for id in 3..=8 {
            started.extend(s.ask(id, class("Low", "Image")));
        }
        assert!(started.is_empty(), "no image while three head resources are in flight");
        assert!(s.finished(0).is_empty(), "nor while two are");
        assert_eq!(s.finished(2), vec![3], "one image beside the last head script");
        assert_eq!(s.finished(3), vec![4]);
        assert_eq!(s.reached_body(), vec![5, 6, 7, 8], "the body: every image goes");
    }

    #[test]
    fn a_low_request_goes_while_fewer_than_two_throttled_requests_of_any_priority_are_in_flight() {
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, class("VeryHigh", "Stylesheet")), vec![0]);
        assert_eq!(s.ask(1, class("Low", "Script")), vec![1], "a deferred script goes beside one style sheet");
        assert!(s.ask(2, class("Low", "Image")).is_empty(), "the style sheet and the script count");
        assert_eq!(s.finished(0), vec![2]);
    }

    #[test]
    fn a_link_preload_is_neither_held_nor_counted() {
        // large-head.html: a style sheet, a deferred script, then an image the head preloads.
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, class("VeryHigh", "Stylesheet")), vec![0]);
        assert_eq!(s.ask(1, class("Low", "Script")), vec![1]);
        assert_eq!(s.ask(2, class("Low", "Image").unthrottled()), vec![2], "the preload goes beside them");
        assert!(s.ask(3, class("Low", "Image")).is_empty(), "an image the parser found waits");
        assert_eq!(s.finished(0), vec![3], "one throttled request left: the preload does not count");
    }

    #[test]
    fn fetches_and_xhrs_are_neither_held_nor_counted() {
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, class("VeryHigh", "Stylesheet")), vec![0]);
        assert_eq!(s.ask(1, class("Low", "Fetch")), vec![1], "a Low fetch goes at once");
        assert_eq!(s.ask(2, class("High", "XHR")), vec![2]);
        assert_eq!(s.ask(3, class("Low", "Image")), vec![3], "only the style sheet counts");
    }

    #[test]
    fn medium_images_and_body_scripts_go_two_at_a_time_whatever_else_is_in_flight() {
        // real-sneat: six style sheets and a head script in flight, the preload scanner's Medium
        // images and scripts and a Low script behind them.
        let mut s = ResourceScheduler::new(true);
        for id in 0..6 {
            assert_eq!(s.ask(id, class("VeryHigh", "Stylesheet")), vec![id]);
        }
        assert_eq!(s.ask(6, class("High", "Script")), vec![6]);
        assert_eq!(s.ask(7, class("Medium", "Image")), vec![7]);
        assert_eq!(s.ask(8, class("Medium", "Image")), vec![8]);
        assert!(s.ask(9, class("Medium", "Script")).is_empty(), "two Medium requests in flight");
        assert!(s.ask(10, class("Medium", "Script")).is_empty());
        assert!(s.ask(11, class("Low", "Script")).is_empty());
        assert!(s.finished(0).is_empty(), "a style sheet ending frees nothing");
        assert_eq!(s.finished(7), vec![9], "an image ending lets the next one go");
        assert_eq!(s.finished(8), vec![10]);
        assert_eq!(s.reached_body(), vec![11]);
    }

    #[test]
    fn medium_scripts_go_before_low_ones_asked_for_earlier() {
        // gen-pagepath-26: a Low async script asked for when nothing was in flight, style sheets
        // and head scripts, more Low async scripts, then Medium body scripts.
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, class("Low", "Script")), vec![0], "nothing in flight: it goes");
        assert_eq!(s.ask(1, class("VeryHigh", "Stylesheet")), vec![1]);
        assert_eq!(s.ask(2, class("High", "Script")), vec![2]);
        assert!(s.ask(3, class("Low", "Script")).is_empty());
        assert!(s.ask(4, class("Low", "Script")).is_empty());
        assert_eq!(s.ask(5, class("Medium", "Script")), vec![5], "Medium ones have two places of their own");
        assert_eq!(s.ask(6, class("Medium", "Script")), vec![6]);
        assert!(s.ask(7, class("Medium", "Script")).is_empty());
        assert_eq!(s.finished(5), vec![7], "the Medium script asked for last goes before the Low ones");
        assert!(s.finished(0).is_empty());
        assert!(s.finished(1).is_empty(), "four throttled requests were in flight, three are");
        assert!(s.finished(6).is_empty());
        assert_eq!(s.finished(7), vec![3], "one left in flight: the first Low script goes");
        assert_eq!(s.reached_body(), vec![4]);
    }

    #[test]
    fn a_document_still_arriving_does_not_hold_an_image_back() {
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, RequestClass::navigation()), vec![0]);
        assert_eq!(s.ask(1, class("VeryHigh", "Stylesheet")), vec![1]);
        assert_eq!(s.ask(2, class("Low", "Image")), vec![2]);
    }

    #[test]
    fn unknown_priorities_and_a_disabled_scheduler_hold_nothing() {
        let mut s = ResourceScheduler::new(true);
        s.ask(0, class("High", "Script"));
        s.ask(1, class("High", "Script"));
        assert_eq!(s.ask(2, RequestClass::new(None, "Image", Some("host"))), vec![2]);
        let mut off = ResourceScheduler::new(false);
        off.ask(0, class("High", "Script"));
        off.ask(1, class("High", "Script"));
        assert_eq!(off.ask(2, class("Low", "Image")), vec![2]);
    }
}
