//! The origin's thread: datagrams in, tquic's timers and the schedules' timers, responses out,
//! until the service stops.

use super::handler::{Connections, Handler};
use super::socket::Socket;
use crate::service::Service;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tquic::{Config, Endpoint, PacketInfo};

/// The longest the loop sleeps, which bounds how late it notices the service stopping.
const WAIT_MAX: Duration = Duration::from_millis(100);
const DATAGRAM_MAX: usize = 65_535;
/// Datagrams taken in one go, so that a flood of them cannot hold back sending.
const RECV_BATCH: usize = 256;
/// Rounds of writing and sending before the loop reads the socket again, so that a connection
/// with a wide-open window cannot hold back the acknowledgements of others.
const SEND_ROUNDS: usize = 64;
const H3_NO_ERROR: u64 = 0x100;

pub(super) fn run(service: Arc<Service>, origin: usize, socket: Socket, config: Config) {
    let socket = Rc::new(socket);
    let connections = Connections::default();
    let handler = Handler { service: service.clone(), origin, connections: connections.clone() };
    let mut endpoint = Endpoint::new(Box::new(config), true, Box::new(handler), socket.clone());
    let mut buf = vec![0u8; DATAGRAM_MAX];
    while !service.stopping() {
        let more = send(&mut endpoint, &connections, &service, origin);
        let wait = if more { Duration::ZERO } else { next_wait(&mut endpoint, &connections, &service) };
        if socket.wait_readable(wait) {
            for _ in 0..RECV_BATCH {
                let Some((len, from)) = socket.recv(&mut buf) else { break };
                let info = PacketInfo { src: from, dst: socket.local(), time: Instant::now() };
                // A datagram tquic cannot use (garbage, a stale connection) is dropped, as a
                // router would drop it.
                let _ = endpoint.recv(&mut buf[..len], &info);
            }
        }
        endpoint.on_timeout(Instant::now());
    }
    shut_down(&mut endpoint, &connections);
}

/// Lets tquic send, then every connection write what its schedule releases, and again until
/// nothing more is written; true when it stopped with more to write.
fn send(endpoint: &mut Endpoint, connections: &Connections, service: &Service, origin: usize) -> bool {
    for _ in 0..SEND_ROUNDS {
        if let Err(e) = endpoint.process_connections() {
            eprintln!("pagepath-server: h3 {}: {e}", service.origins()[origin].origin);
        }
        let mut progressed = false;
        for (&index, c) in connections.borrow_mut().iter_mut() {
            if let Some(conn) = endpoint.conn_get_mut(index) {
                progressed |= c.has_work() && c.drive(service, conn);
            }
        }
        if !progressed {
            return false;
        }
    }
    true
}

/// Until tquic's next timer or the next response a schedule releases, whichever comes first.
fn next_wait(endpoint: &mut Endpoint, connections: &Connections, service: &Service) -> Duration {
    let mut wait = endpoint.timeout().unwrap_or(WAIT_MAX).min(WAIT_MAX);
    let now_us = service.now_us();
    for (&index, c) in connections.borrow().iter() {
        if let Some(at_us) = endpoint.conn_get_mut(index).and_then(|conn| c.wake_at(conn)) {
            wait = wait.min(Duration::from_micros(at_us.saturating_sub(now_us)));
        }
    }
    wait
}

/// Tells every peer the connection is over, then logs every connection.
fn shut_down(endpoint: &mut Endpoint, connections: &Connections) {
    let indexes: Vec<u64> = connections.borrow().keys().copied().collect();
    for index in indexes {
        if let Some(conn) = endpoint.conn_get_mut(index) {
            let _ = conn.close(true, H3_NO_ERROR, b"replay stopped");
        }
    }
    let _ = endpoint.process_connections();
    endpoint.close(true);
}
