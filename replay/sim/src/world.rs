//! Everything of one simulated page load on one thread: the client, the origin servers, the
//! paths between them and the virtual clock. Time moves from one event to the next (a packet
//! leaving a queue or arriving, a tquic timer, a response a server's schedule releases, a timer
//! of the browser's model), and at each the endpoints take what arrived, run their timers and
//! send, exactly as their real-time loops do.

use super::datagram::{addresses, payload};
use super::paths::Paths;
use super::virtual_clock::VirtualClock;
use super::wire::Outbox;
use pagepath_browser::core::Pool;
use pagepath_browser::io::driver::Network;
use pagepath_browser::io::quic::QuicClient;
use pagepath_browser::io::transport::{ConnectionRecord, Event, Fetch};
use pagepath_server::io::quic::QuicOrigin;
use std::net::SocketAddr;
use std::sync::mpsc::Receiver;
use std::time::Instant;

/// Rounds at one virtual instant before time is moved on by a microsecond: a timer that tquic
/// keeps reporting due without acting on it must not hold the simulation forever.
const ROUNDS_PER_INSTANT: u32 = 10_000;

pub struct World {
    pub clock: VirtualClock,
    pub paths: Paths,
    /// Taken when the run finishes.
    client: Option<QuicClient>,
    servers: Vec<(SocketAddr, QuicOrigin)>,
    outbox: Outbox,
    /// Something changed at this instant (a fetch, time moved) that a round must take in.
    dirty: bool,
    rounds_now: u32,
    /// A server stopped writing with more to write: another round is due at once.
    more_now: bool,
    /// Rounds run, for the simulation's own report.
    pub rounds: u64,
    /// The packets the paths delivered in a round, kept from round to round.
    arrivals: Vec<Vec<u8>>,
}

impl World {
    /// The client and the servers (by address) send their packets through `outbox`.
    pub fn new(clock: VirtualClock, paths: Paths, client: QuicClient, servers: Vec<(SocketAddr, QuicOrigin)>, outbox: Outbox) -> World {
        World { clock, paths, client: Some(client), servers, outbox, dirty: true, rounds_now: 0, more_now: false, rounds: 0, arrivals: Vec::new() }
    }

    /// One round at the current instant: arrivals, timers, sending, packets into their paths.
    fn round(&mut self) {
        self.rounds += 1;
        let (now_us, now) = (self.clock.now_us(), self.clock.now());
        let mut arrivals = std::mem::take(&mut self.arrivals);
        self.paths.arrived(now_us, &mut arrivals);
        for mut packet in arrivals.drain(..) {
            let Some((src, dst)) = addresses(&packet) else { continue };
            if let Some((_, server)) = self.servers.iter_mut().find(|(a, _)| *a == dst) {
                server.recv(payload(&mut packet), src, dst, now);
            } else if let Some(client) = self.client.as_mut().filter(|c| c.locals().contains(&dst)) {
                client.recv(payload(&mut packet), src, dst, now);
            }
        }
        self.arrivals = arrivals;
        if let Some(client) = self.client.as_mut() {
            client.on_timeout(now);
            client.send();
        }
        self.more_now = false;
        for (_, server) in &mut self.servers {
            server.on_timeout(now);
            // A server that stopped with more to write gets another round at this instant, after
            // the others have had theirs, as its real-time loop reads its socket between rounds.
            self.more_now |= server.send();
        }
        for packet in self.outbox.take() {
            self.paths.send(now_us, packet);
        }
    }

    /// The next instant anything is due, if anything is.
    fn next_us(&mut self) -> Option<u64> {
        if self.more_now {
            return Some(self.clock.now_us());
        }
        let now = self.clock.now();
        let after = |clock: &VirtualClock, d: std::time::Duration| clock.us_of(now + d);
        let mut next = self.paths.next_event();
        let mut consider = |t: Option<u64>| next = match (next, t) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(client) = &self.client {
            consider(client.timeout().map(|d| after(&self.clock, d)));
        }
        for (_, server) in &mut self.servers {
            let wait = server.next_wait();
            consider(wait.map(|d| after(&self.clock, d)));
        }
        next
    }

    fn move_to(&mut self, us: u64) {
        if us <= self.clock.now_us() {
            self.rounds_now += 1;
            if self.rounds_now < ROUNDS_PER_INSTANT {
                return;
            }
        }
        self.rounds_now = 0;
        self.clock.advance_to(us.max(self.clock.now_us() + 1));
    }
}

impl Network for &mut World {
    /// A clear-HTTP origin is the client's to refuse, as it is in a real HTTP/3 run's transport
    /// (simulation.rs refuses recordings with one before anything runs).
    fn fetch(&mut self, fetch: Fetch, _tls: bool) -> Result<(), String> {
        let Some(client) = self.client.as_mut() else { return Err("the simulated client has stopped".into()) };
        client.fetch(fetch);
        self.dirty = true;
        Ok(())
    }

    /// QUIC: one connection at most, whatever `sockets` asks (the client's preconnect).
    fn preconnect(&mut self, origin: &str, pool: Pool, _sockets: usize, _tls: bool) -> Result<(), String> {
        let Some(client) = self.client.as_mut() else { return Err("the simulated client has stopped".into()) };
        client.preconnect(origin, pool);
        self.dirty = true;
        Ok(())
    }

    fn wait(&mut self, until: Instant, events: &Receiver<Event>) -> Option<Vec<Event>> {
        let until_us = self.clock.us_of(until);
        loop {
            if self.dirty {
                self.dirty = false;
                self.round();
            }
            let got: Vec<Event> = events.try_iter().collect();
            if !got.is_empty() {
                return Some(got);
            }
            if self.clock.now_us() >= until_us {
                return Some(got);
            }
            match self.next_us() {
                Some(t) if t < until_us => self.move_to(t),
                _ => self.clock.advance_to(until_us),
            }
            self.dirty = true;
        }
    }

    fn finish(self) -> Vec<ConnectionRecord> {
        let records = self.client.take().map(QuicClient::finish).unwrap_or_default();
        for (_, server) in &mut self.servers {
            server.shut_down();
        }
        records
    }
}
