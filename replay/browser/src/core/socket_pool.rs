//! One origin's HTTP/1.1 keep-alive connections as Chromium's socket pool hands them out (a
//! `ClientSocketPool` group): a request that finds no idle connection starts a connection, up to
//! the limit, but is not bound to it: whichever connection is free first, a new one or one whose
//! response just ended, takes the request that has waited longest ("socket late binding", in
//! Chromium since 2012). A connection that comes up with nothing left to send stays idle for the
//! next request.
//!
//! Measured on real-ckeditor4 over HTTP/1.1 at 1 Mbit/s 100 ms (accuracy/slow-real, run 1): four
//! style sheets asked for within 8 ms, with two of the CDN host's connections idle, went two on
//! those and two on the same connections as those responses ended, 125-130 ms later, before a new
//! connection (two round trips, 200 ms) could have come up; two new connections then carried the
//! next two requests. The emulated browser, binding each request to the connection it opened, had
//! its two sheets wait out the handshakes, and its next two requests opened two more connections
//! (ten in all against Chromium's eight).
//!
//! Waiting requests go highest priority first, the longest waiting first within one priority, as
//! Chromium's pool keeps them in a priority queue; the HTTP/2 and QUIC connections take the requests
//! that waited for their handshake in the same order (io/tcp/h2_origin.rs, io/quic/connection.rs).

use std::collections::VecDeque;

/// What the pool asks its connections to do.
#[derive(Debug, PartialEq, Eq)]
pub enum SocketAction<R> {
    /// Start connection `socket`; it reports `ready` once it can send, or `failed`.
    Open { socket: u64 },
    /// Write `request` on `socket`, which is up and idle.
    Send { socket: u64, request: R },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Connecting,
    Idle,
    Busy,
}

pub struct SocketPool<R> {
    limit: usize,
    /// Requests no connection has taken yet with their priority (0 highest), in the order they go.
    waiting: VecDeque<(u8, R)>,
    sockets: Vec<(u64, State)>,
    next: u64,
}

impl<R> SocketPool<R> {
    /// A pool of at most `limit` connections (at least one).
    pub fn new(limit: usize) -> Self {
        SocketPool { limit: limit.max(1), waiting: VecDeque::new(), sockets: Vec::new(), next: 0 }
    }

    /// `priority`: 0 highest (Chromium's VeryHigh) .. 4.
    pub fn request(&mut self, request: R, priority: u8) -> Vec<SocketAction<R>> {
        let at = self.waiting.iter().position(|&(p, _)| p > priority).unwrap_or(self.waiting.len());
        self.waiting.insert(at, (priority, request));
        self.dispatch()
    }

    /// Connections opened ahead of the requests until `sockets` are open or opening, within the
    /// limit (`<link rel=preconnect>`: 1; a navigation: 2, core/navigation_preconnect.rs).
    pub fn preconnect(&mut self, sockets: usize) -> Vec<SocketAction<R>> {
        let mut actions = Vec::new();
        while self.sockets.len() < sockets.min(self.limit) {
            actions.push(self.open());
        }
        actions
    }

    /// `socket` finished its handshake.
    pub fn ready(&mut self, socket: u64) -> Vec<SocketAction<R>> {
        self.set(socket, State::Idle);
        self.dispatch()
    }

    /// The response on `socket` ended and the connection may be used again.
    pub fn answered(&mut self, socket: u64) -> Vec<SocketAction<R>> {
        self.set(socket, State::Idle);
        self.dispatch()
    }

    /// `socket` is gone; `unanswered` were written on it and got no byte back, so they go first
    /// again.
    pub fn closed(&mut self, socket: u64, unanswered: Vec<R>) -> Vec<SocketAction<R>> {
        self.sockets.retain(|&(id, _)| id != socket);
        for request in unanswered.into_iter().rev() {
            self.waiting.push_front((0, request));
        }
        self.dispatch()
    }

    /// `socket` could not be set up: the request that has waited longest fails with it, as
    /// Chromium fails the request a connect job was started for (and the pool does not try again
    /// for ever); the rest may start other connections.
    pub fn failed(&mut self, socket: u64) -> (Option<R>, Vec<SocketAction<R>>) {
        self.sockets.retain(|&(id, _)| id != socket);
        let failed = self.waiting.pop_front().map(|(_, r)| r);
        (failed, self.dispatch())
    }

    fn set(&mut self, socket: u64, state: State) {
        if let Some(s) = self.sockets.iter_mut().find(|(id, _)| *id == socket) {
            s.1 = state;
        }
    }

    fn open(&mut self) -> SocketAction<R> {
        self.next += 1;
        self.sockets.push((self.next, State::Connecting));
        SocketAction::Open { socket: self.next }
    }

    fn dispatch(&mut self) -> Vec<SocketAction<R>> {
        let mut actions = Vec::new();
        while !self.waiting.is_empty() {
            if let Some(s) = self.sockets.iter_mut().find(|(_, state)| *state == State::Idle) {
                s.1 = State::Busy;
                actions.push(SocketAction::Send { socket: s.0, request: self.waiting.pop_front().expect("a request waits").1 });
                continue;
            }
            // One connection under way for each waiting request, as far as the limit allows.
            let connecting = self.sockets.iter().filter(|(_, state)| *state == State::Connecting).count();
            if self.waiting.len() > connecting && self.sockets.len() < self.limit {
                actions.push(self.open());
                continue;
            }
            break;
        }
        actions
    }
}

#[cfg(test)]
mod tests {
    use super::{SocketAction::*, SocketPool};

    #[test]
    fn a_request_takes_the_connection_free_first_not_the_one_it_started() {
        let mut pool = SocketPool::new(6);
        assert_eq!(pool.request("doc", 2), vec![Open { socket: 1 }]);
        assert_eq!(pool.ready(1), vec![Send { socket: 1, request: "doc" }]);
        // Two requests while the document's connection is busy: one connection started for each.
        assert_eq!(pool.request("a", 2), vec![Open { socket: 2 }]);
        assert_eq!(pool.request("b", 2), vec![Open { socket: 3 }]);
        // The document's response ends before either is up: the longest waiting takes its connection.
        assert_eq!(pool.answered(1), vec![Send { socket: 1, request: "a" }]);
        assert_eq!(pool.ready(3), vec![Send { socket: 3, request: "b" }]);
        // The connection started for a comes up with nothing to send and waits for the next request.
        assert_eq!(pool.ready(2), vec![]);
        assert_eq!(pool.request("c", 2), vec![Send { socket: 2, request: "c" }]);
    }

    #[test]
    fn no_more_connections_than_the_limit_nor_than_requests_waiting() {
        let mut pool = SocketPool::new(2);
        assert_eq!(pool.request(1, 2), vec![Open { socket: 1 }]);
        assert_eq!(pool.request(2, 2), vec![Open { socket: 2 }]);
        assert_eq!(pool.request(3, 2), vec![]);
        assert_eq!(pool.ready(1), vec![Send { socket: 1, request: 1 }]);
        assert_eq!(pool.ready(2), vec![Send { socket: 2, request: 2 }]);
        assert_eq!(pool.answered(2), vec![Send { socket: 2, request: 3 }]);
        // A preconnect opens nothing where connections exist.
        assert_eq!(pool.preconnect(1), vec![]);
    }

    #[test]
    fn a_preconnected_connection_serves_the_first_request() {
        let mut pool = SocketPool::new(6);
        assert_eq!(pool.preconnect(1), vec![Open { socket: 1 }]);
        // The request finds a connection under way for it: it starts no other.
        assert_eq!(pool.request("doc", 2), vec![]);
        assert_eq!(pool.ready(1), vec![Send { socket: 1, request: "doc" }]);
    }

    #[test]
    fn a_navigation_opens_a_second_connection_that_takes_the_next_request_without_a_handshake() {
        let mut pool = SocketPool::new(6);
        assert_eq!(pool.request("doc", 2), vec![Open { socket: 1 }]);
        assert_eq!(pool.preconnect(2), vec![Open { socket: 2 }]);
        assert_eq!(pool.ready(1), vec![Send { socket: 1, request: "doc" }]);
        assert_eq!(pool.ready(2), vec![]);
        // The document's connection is busy: the style sheet goes on the spare at once.
        assert_eq!(pool.request("css", 2), vec![Send { socket: 2, request: "css" }]);
        // Within the limit, whatever is asked for.
        let mut one = SocketPool::<&str>::new(1);
        assert_eq!(one.preconnect(2), vec![Open { socket: 1 }]);
    }

    #[test]
    fn waiting_requests_go_highest_priority_first_then_longest_waiting() {
        let mut pool = SocketPool::new(1);
        assert_eq!(pool.request("doc", 0), vec![Open { socket: 1 }]);
        assert_eq!(pool.ready(1), vec![Send { socket: 1, request: "doc" }]);
        // Asked for in document order while the one connection is busy: scripts, then the style sheet.
        assert_eq!(pool.request("img", 3), vec![]);
        assert_eq!(pool.request("script-1", 1), vec![]);
        assert_eq!(pool.request("script-2", 1), vec![]);
        assert_eq!(pool.request("css", 0), vec![]);
        let mut order = Vec::new();
        for _ in 0..4 {
            for action in pool.answered(1) {
                if let Send { request, .. } = action {
                    order.push(request);
                }
            }
        }
        assert_eq!(order, vec!["css", "script-1", "script-2", "img"]);
    }

    #[test]
    fn unanswered_requests_of_a_closed_connection_go_first_and_a_failed_connect_fails_one_request() {
        let mut pool = SocketPool::new(1);
        assert_eq!(pool.request("a", 2), vec![Open { socket: 1 }]);
        assert_eq!(pool.request("b", 2), vec![]);
        assert_eq!(pool.ready(1), vec![Send { socket: 1, request: "a" }]);
        assert_eq!(pool.closed(1, vec!["a"]), vec![Open { socket: 2 }]);
        let (failed, actions) = pool.failed(2);
        assert_eq!(failed, Some("a"));
        assert_eq!(actions, vec![Open { socket: 3 }]);
        assert_eq!(pool.ready(3), vec![Send { socket: 3, request: "b" }]);
    }
}
