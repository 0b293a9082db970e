//! When Chromium lets a page's request go, as measured over emulated links
//! (docs/emulated-browser.md, "Request scheduling"). While the main frame's parser has not reached
//! `<body>` ("tight mode"):
//! - a delayable request (priority Medium or lower, scripts included) starts only while fewer than
//!   two delayable requests are in flight. On the realistic site real-sneat at 5 Mbit/s, 50 ms,
//!   whose head script takes 2.8 s to arrive, the preload scanner's Medium images and body scripts
//!   went two at a time, each as another ended, and the rest all at once when the parser got past
//!   the head script;
//! - a throttleable one (an image or other non-script resource of priority Low or VeryLow) also
//!   needs fewer than two requests in flight counting the important ones (High, VeryHigh) and the
//!   throttleable ones. On the many-images fixture page, 40 images wait while a style sheet and two
//!   head scripts load, go one at a time while one script is left, and all at once when the parser
//!   reaches the body; on the large-document page an image preloaded from the head goes at once
//!   beside one style sheet and a deferred script.
//!
//! Important requests start the moment they are asked for, and every request once the body is
//! reached (over HTTP/1.1 the client's connection pool still limits what is sent).
//!
//! Requests of unknown priority are not held back: without it there is no telling what Chromium did.

use super::browser::RequestId;
use super::request_gate::{GatedScheduler, RequestGate, Verdict};

/// How many counted requests may be in flight before a throttleable one waits, in tight mode.
const TIGHT_LIMIT: usize = 2;

/// What the scheduler needs to know about a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RequestClass {
    /// Chrome's priority as DevTools names it, 0 VeryHigh .. 4 VeryLow; None when unknown.
    pub priority: Option<u8>,
    pub script: bool,
    /// The URL's host and port, which Chromium's network stack counts requests by; None for a
    /// frame's document, which the browser process fetches outside either scheduler.
    pub host: Option<String>,
}

impl RequestClass {
    /// From the recorded priority and resource type (`Script`, `Image`, ...; CDP's names) and the URL's host.
    pub fn new(chrome_priority: Option<&str>, resource_type: &str, host: Option<&str>) -> RequestClass {
        let priority = chrome_priority.and_then(|p| ["VeryHigh", "High", "Medium", "Low", "VeryLow"].iter().position(|&n| n == p)).map(|p| p as u8);
        RequestClass { priority, script: resource_type == "Script", host: host.map(str::to_owned) }
    }

    /// A frame's document: never held, never counted.
    pub fn navigation() -> RequestClass {
        RequestClass { priority: None, script: false, host: None }
    }

    fn important(&self) -> bool {
        self.priority.is_some_and(|p| p <= 1)
    }

    /// Below net::MEDIUM (DevTools' High): both schedulers may hold it back.
    pub(crate) fn delayable(&self) -> bool {
        self.priority.is_some_and(|p| p >= 2)
    }

    fn throttleable(&self) -> bool {
        !self.script && self.priority.is_some_and(|p| p >= 3)
    }
}

pub(crate) struct ResourceScheduler {
    enabled: bool,
    body_reached: bool,
    /// Waiting in the order they were asked for: one that must wait holds back none behind it.
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
        let held = self.enabled && !self.body_reached;
        self.gate.start(|in_flight, class| {
            if !held || !class.delayable() {
                return Verdict::Start;
            }
            let count = |counted: fn(&RequestClass) -> bool| in_flight.values().filter(|c| counted(c)).count();
            let may = count(RequestClass::delayable) < TIGHT_LIMIT && (!class.throttleable() || count(|c| c.important() || c.throttleable()) < TIGHT_LIMIT);
            if may { Verdict::Start } else { Verdict::Wait }
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
    fn a_deferred_script_and_an_image_go_beside_one_style_sheet() {
        let mut s = ResourceScheduler::new(true);
        assert_eq!(s.ask(0, class("VeryHigh", "Stylesheet")), vec![0]);
        assert_eq!(s.ask(1, class("Low", "Script")), vec![1], "a deferred script goes at once");
        assert_eq!(s.ask(2, class("Low", "Image")), vec![2], "one style sheet in flight: an image may go beside it");
        assert!(s.ask(3, class("Low", "Image")).is_empty());
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
        assert!(s.ask(9, class("Medium", "Script")).is_empty(), "two delayable requests in flight");
        assert!(s.ask(10, class("Medium", "Script")).is_empty());
        assert!(s.ask(11, class("Low", "Script")).is_empty());
        assert!(s.finished(0).is_empty(), "a style sheet ending frees nothing");
        assert_eq!(s.finished(7), vec![9], "an image ending lets the next one go");
        assert_eq!(s.finished(8), vec![10]);
        assert_eq!(s.reached_body(), vec![11]);
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
