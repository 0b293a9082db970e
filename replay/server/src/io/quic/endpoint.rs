//! The origin's thread: datagrams from its UDP socket into its QuicOrigin, tquic's timers and the
//! schedules' timers on the wall clock, until the service stops.

use super::origin::QuicOrigin;
use super::socket::Socket;
use crate::service::Service;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tquic::Config;

/// The longest the loop sleeps, which bounds how late it notices the service stopping.
const WAIT_MAX: Duration = Duration::from_millis(100);
const DATAGRAM_MAX: usize = 65_535;
/// Datagrams taken in one go, so that a flood of them cannot hold back sending.
const RECV_BATCH: usize = 256;

pub(super) fn run(service: Arc<Service>, origin: usize, socket: Socket, config: Config) {
    let socket = Rc::new(socket);
    let mut server = QuicOrigin::new(service.clone(), origin, config, socket.clone());
    let mut buf = vec![0u8; DATAGRAM_MAX];
    while !service.stopping() {
        let more = server.send();
        let wait = if more { Duration::ZERO } else { server.next_wait().unwrap_or(WAIT_MAX).min(WAIT_MAX) };
        if socket.wait_readable(wait) {
            for _ in 0..RECV_BATCH {
                let Some((len, from)) = socket.recv(&mut buf) else { break };
                server.recv(&mut buf[..len], from, socket.local(), Instant::now());
            }
        }
        server.on_timeout(Instant::now());
    }
    server.shut_down();
}
