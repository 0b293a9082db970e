//! HTTP/1.x to one origin (seed 001 Table 4.1), up to k connections: HTTP/1.0 opens one per
//! request and closes it after the response; keep-alive sends a request only to an idle
//! connection, the one free first whichever the request started (core/socket_pool.rs, Chromium's
//! late binding); pipelining sends each request at once to the least loaded one. HTTP/1.0's and
//! pipelining's requests that find no connection wait in one FIFO queue per origin.

use super::h1_connection::{self, Lane, Note};
use super::request::{Ask, Origin, Request};
use super::shared::Shared;
use crate::core::{SocketAction, SocketPool};
use crate::io::transport::Http1Mode;
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

struct Connection {
    lane: u64,
    requests: UnboundedSender<Request>,
    /// Requests sent to it and not yet answered.
    outstanding: usize,
}

struct Pool {
    shared: Arc<Shared>,
    origin: Arc<Origin>,
    mode: Http1Mode,
    limit: usize,
    waiting: VecDeque<Request>,
    connections: Vec<Connection>,
    next_lane: u64,
    notes: UnboundedSender<Note>,
    /// Keep-alive: which connection takes which request, and when to open one.
    late: Option<SocketPool<Request>>,
}

pub(super) async fn run(shared: Arc<Shared>, origin: Arc<Origin>, mut fetches: UnboundedReceiver<Ask>) {
    let (notes, mut noted) = unbounded_channel();
    let mode = shared.config.http1;
    let limit = shared.config.connections_per_origin.max(1);
    let late = (mode == Http1Mode::KeepAlive).then(|| SocketPool::new(limit));
    let mut pool = Pool { shared, origin, mode, limit, waiting: VecDeque::new(), connections: Vec::new(), next_lane: 0, notes, late };
    loop {
        // Biased: select!'s random order, seeded afresh by each process, made a simulated load
        // differ from run to run.
        tokio::select! {
            biased;
            fetch = fetches.recv() => match fetch {
                Some(Ask::Fetch(request)) => pool.fetch(request),
                Some(Ask::Preconnect(sockets)) => pool.preconnect(sockets),
                None => return,
            },
            Some(note) = noted.recv() => pool.note(note),
        }
        pool.dispatch();
    }
}

impl Pool {
    fn fetch(&mut self, request: Request) {
        match self.late.as_mut() {
            Some(late) => {
                let priority = request.net_priority;
                let actions = late.request(request, priority);
                self.act(actions, false);
            }
            None => self.waiting.push_back(request),
        }
    }

    fn note(&mut self, note: Note) {
        match note {
            Note::Ready { lane } => {
                if let Some(late) = self.late.as_mut() {
                    let actions = late.ready(lane);
                    self.act(actions, false);
                }
            }
            Note::Answered { lane } => {
                if let Some(late) = self.late.as_mut() {
                    let actions = late.answered(lane);
                    self.act(actions, false);
                } else if let Some(c) = self.connections.iter_mut().find(|c| c.lane == lane) {
                    c.outstanding = c.outstanding.saturating_sub(1);
                }
            }
            Note::ConnectFailed { lane, reason } => {
                self.connections.retain(|c| c.lane != lane);
                if let Some(late) = self.late.as_mut() {
                    let (failed, actions) = late.failed(lane);
                    if let Some(request) = failed {
                        self.shared.fail(request.id, &reason);
                    }
                    self.act(actions, false);
                }
            }
            Note::Closed { lane, unanswered } => {
                self.connections.retain(|c| c.lane != lane);
                if let Some(late) = self.late.as_mut() {
                    let actions = late.closed(lane, unanswered);
                    self.act(actions, false);
                    return;
                }
                // They were sent before anything queued now, so they go first again.
                for request in unanswered.into_iter().rev() {
                    self.waiting.push_front(request);
                }
            }
        }
    }

    /// Does what the keep-alive pool asks; `ahead`: its connections are opened by a preconnect.
    fn act(&mut self, actions: Vec<SocketAction<Request>>, ahead: bool) {
        let mut todo: VecDeque<SocketAction<Request>> = actions.into();
        while let Some(action) = todo.pop_front() {
            match action {
                SocketAction::Open { socket } => self.spawn(socket, false, ahead),
                SocketAction::Send { socket, request } => {
                    let sent = match self.connections.iter().position(|c| c.lane == socket) {
                        Some(i) => self.connections[i].requests.send(request).map_err(|unsent| unsent.0),
                        None => Err(request),
                    };
                    if let Err(request) = sent {
                        // The connection is closing (its Closed note is on the way): another takes the request.
                        self.connections.retain(|c| c.lane != socket);
                        let late = self.late.as_mut().expect("only the keep-alive pool acts");
                        todo.extend(late.closed(socket, vec![request]));
                    }
                }
            }
        }
    }

    /// Connections opened ahead of the requests until `sockets` are open or opening, as
    /// Chromium's preconnects ask for a number of sockets; pipelining opens one at most, and
    /// HTTP/1.0 opens a connection per request and has nothing to open ahead.
    fn preconnect(&mut self, sockets: usize) {
        if let Some(late) = self.late.as_mut() {
            let actions = late.preconnect(sockets);
            self.act(actions, true);
        } else if self.mode != Http1Mode::PerRequest && self.connections.is_empty() {
            self.open(false, true);
        }
    }

    /// Hands waiting requests to connections, opening connections up to the limit.
    fn dispatch(&mut self) {
        while let Some(request) = self.waiting.pop_front() {
            let Some(index) = self.choose() else {
                self.waiting.push_front(request);
                return;
            };
            let connection = &mut self.connections[index];
            match connection.requests.send(request) {
                Ok(()) => connection.outstanding += 1,
                Err(unsent) => {
                    // The connection is closing; its Closed note is on the way.
                    self.waiting.push_front(unsent.0);
                    self.connections.remove(index);
                }
            }
        }
    }

    /// The connection for the next request, opened if need be; None: it must wait.
    fn choose(&mut self) -> Option<usize> {
        let idle = self.connections.iter().position(|c| c.outstanding == 0);
        match self.mode {
            Http1Mode::PerRequest => (self.connections.len() < self.limit).then(|| self.open(true, false)),
            // Keep-alive's requests never wait here: its SocketPool places them.
            Http1Mode::KeepAlive => None,
            Http1Mode::Pipelined => idle.or_else(|| {
                if self.connections.len() < self.limit {
                    Some(self.open(false, false))
                } else {
                    (0..self.connections.len()).min_by_key(|&i| self.connections[i].outstanding)
                }
            }),
        }
    }

    /// `ahead`: opened by a preconnect, before any request.
    fn open(&mut self, one_request: bool, ahead: bool) -> usize {
        self.next_lane += 1;
        self.spawn(self.next_lane, one_request, ahead);
        self.connections.len() - 1
    }

    fn spawn(&mut self, id: u64, one_request: bool, ahead: bool) {
        let (requests, receiver) = unbounded_channel();
        let lane = Lane {
            shared: self.shared.clone(),
            origin: self.origin.clone(),
            lane: id,
            requests: receiver,
            pool: self.notes.clone(),
            one_request,
            ahead,
        };
        self.shared.spawn(h1_connection::run(lane));
        self.connections.push(Connection { lane: id, requests, outstanding: 0 });
    }
}
