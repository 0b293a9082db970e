//! One origin's HTTP/3 server without its socket: tquic's endpoint and the origin's connections,
//! fed datagrams and driven by whoever owns the clock. The real server's thread (endpoint.rs)
//! drives it from a UDP socket on the wall clock; the simulator (replay/sim) from simulated links
//! in virtual time, so both serve with the same code.

use super::handler::{Connections, Handler};
use crate::service::Service;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tquic::{Config, Endpoint, PacketInfo, PacketSendHandler};

/// Rounds of writing and sending in one `send`, so that a connection with a wide-open window
/// cannot hold back the acknowledgements of others.
const SEND_ROUNDS: usize = 64;
const H3_NO_ERROR: u64 = 0x100;

pub struct QuicOrigin {
    service: Arc<Service>,
    origin: usize,
    endpoint: Endpoint,
    connections: Connections,
}

impl QuicOrigin {
    /// Serves origin `origin` of `service` with `config`; tquic's packets go out through `sender`.
    pub fn new(service: Arc<Service>, origin: usize, config: Config, sender: Rc<dyn PacketSendHandler>) -> QuicOrigin {
        let connections = Connections::default();
        let handler = Handler { service: service.clone(), origin, connections: connections.clone() };
        let endpoint = Endpoint::new(Box::new(config), true, Box::new(handler), sender);
        QuicOrigin { service, origin, endpoint, connections }
    }

    /// A datagram from `from` to `local` arrived at `at`. One tquic cannot use (garbage, a stale
    /// connection) is dropped, as a router would drop it.
    pub fn recv(&mut self, datagram: &mut [u8], from: SocketAddr, local: SocketAddr, at: Instant) {
        let _ = self.endpoint.recv(datagram, &PacketInfo { src: from, dst: local, time: at });
    }

    /// tquic's timers that are due at `now`.
    pub fn on_timeout(&mut self, now: Instant) {
        self.endpoint.on_timeout(now);
    }

    /// Lets tquic send, then every connection write what its schedule releases, and again until
    /// nothing more is written; true when it stopped with more to write.
    pub fn send(&mut self) -> bool {
        for _ in 0..SEND_ROUNDS {
            if let Err(e) = self.endpoint.process_connections() {
                eprintln!("pagepath-server: h3 {}: {e}", self.service.origins()[self.origin].origin);
            }
            let mut progressed = false;
            for (&index, c) in self.connections.borrow_mut().iter_mut() {
                if let Some(conn) = self.endpoint.conn_get_mut(index) {
                    progressed |= c.has_work() && c.drive(&self.service, conn);
                }
            }
            if !progressed {
                return false;
            }
        }
        true
    }

    /// Until tquic's next timer or the next response a schedule releases, whichever comes first;
    /// None when neither is pending.
    pub fn next_wait(&mut self) -> Option<Duration> {
        let mut wait = self.endpoint.timeout();
        let now_us = self.service.now_us();
        for (&index, c) in self.connections.borrow().iter() {
            if let Some(at_us) = self.endpoint.conn_get_mut(index).and_then(|conn| c.wake_at(conn)) {
                let due = Duration::from_micros(at_us.saturating_sub(now_us));
                wait = Some(wait.map_or(due, |w| w.min(due)));
            }
        }
        wait
    }

    /// Tells every peer the connection is over, then logs every connection.
    pub fn shut_down(&mut self) {
        let indexes: Vec<u64> = self.connections.borrow().keys().copied().collect();
        for index in indexes {
            if let Some(conn) = self.endpoint.conn_get_mut(index) {
                let _ = conn.close(true, H3_NO_ERROR, b"replay stopped");
            }
        }
        let _ = self.endpoint.process_connections();
        self.endpoint.close(true);
    }
}
