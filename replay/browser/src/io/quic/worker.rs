//! The transport's thread: one tquic client endpoint for every origin, fed fetches through a
//! channel and woken by a datagram on its wake socket, by packets, or by tquic's timers.

use super::connection::OriginConnection;
use super::handler::Handler;
use super::pin::Pin;
use super::registry::Registry;
use crate::io::origins::find_origin;
use crate::io::transport::{ConnectionRecord, Event, Events, Fetch, TransportConfig};
use pagepath_client::sockets::Sockets;
use pagepath_server::io::quic::config::transport_config;
use std::cell::RefCell;
use std::net::SocketAddr;
use std::os::fd::AsFd;
use std::os::unix::net::UnixDatagram;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};
use tquic::{Config, Endpoint, PacketInfo};

pub enum Command {
    Fetch(Fetch),
    Finish,
}

const DATAGRAM_MAX: usize = 65_535;
const H3_NO_ERROR: u64 = 0x100;
/// The longest sleep with no tquic timer pending; fetches and packets wake the loop earlier.
const WAIT_MAX: Duration = Duration::from_secs(60);

struct Worker {
    config: TransportConfig,
    events: Events,
    sockets: Rc<Sockets>,
    endpoint: Endpoint,
    registry: Rc<RefCell<Registry>>,
}

/// Runs the endpoint until told to finish (or until the transport is dropped), then closes every
/// connection and returns their records. `ready` says first whether the endpoint could start.
pub fn run(
    config: TransportConfig,
    events: Events,
    commands: Receiver<Command>,
    wake: UnixDatagram,
    ready: Sender<Result<(), String>>,
) -> Vec<ConnectionRecord> {
    let mut worker = match Worker::start(config, events) {
        Ok(worker) => worker,
        Err(e) => {
            let _ = ready.send(Err(e));
            return Vec::new();
        }
    };
    let _ = ready.send(Ok(()));
    let mut buf = vec![0u8; DATAGRAM_MAX];
    loop {
        loop {
            match commands.try_recv() {
                Ok(Command::Fetch(fetch)) => worker.start_fetch(fetch),
                Ok(Command::Finish) | Err(TryRecvError::Disconnected) => return worker.finish(),
                Err(TryRecvError::Empty) => break,
            }
        }
        worker.send_queued();
        if let Err(e) = worker.endpoint.process_connections() {
            eprintln!("pagepath-browser: HTTP/3 endpoint: {e}");
        }
        let wait = worker.endpoint.timeout().unwrap_or(WAIT_MAX).min(WAIT_MAX);
        for i in worker.sockets.wait_readable(wait, Some(wake.as_fd())) {
            while let Some((len, from, local)) = worker.sockets.recv(i, &mut buf) {
                let info = PacketInfo { src: from, dst: local, time: Instant::now() };
                // A datagram tquic cannot use is dropped, as a router would drop it.
                let _ = worker.endpoint.recv(&mut buf[..len], &info);
            }
        }
        while wake.recv(&mut buf).is_ok() {}
        worker.endpoint.on_timeout(Instant::now());
    }
}

impl Worker {
    fn start(config: TransportConfig, events: Events) -> Result<Worker, String> {
        let pin = Rc::new(Pin::new(&config.spki_hash)?);
        let quic = quic_config(&config, &pin)?;
        // Without multipath only the first local address is used.
        let locals = if config.multipath { &config.locals[..] } else { &config.locals[..config.locals.len().min(1)] };
        // Without local addresses the routing table picks one, towards the replay's servers (all
        // in one place); with no https origin nothing will connect and any address will do.
        let towards = config.origins.iter().find(|o| o.tls).map_or(SocketAddr::from(([127, 0, 0, 1], 443)), |o| o.address);
        let sockets = Rc::new(Sockets::bind(locals, towards)?);
        let registry = Rc::new(RefCell::new(Registry::new(sockets.locals(), pin)));
        let handler = Handler { registry: registry.clone() };
        let endpoint = Endpoint::new(Box::new(quic), false, Box::new(handler), sockets.clone());
        Ok(Worker { config, events, sockets, endpoint, registry })
    }

    /// Queues `fetch` on its origin's connection, opening one if there is none.
    fn start_fetch(&mut self, fetch: Fetch) {
        let origin = match find_origin(&self.config.origins, &fetch.url) {
            Some(o) if o.tls => o.clone(),
            Some(o) => {
                return self.fail(fetch, format!("{} is served as clear HTTP/1.1, which cannot go over HTTP/3 (QUIC needs TLS)", o.origin))
            }
            None => return self.fail(fetch, "its origin is not one of the replay's origins".into()),
        };
        let privacy_mode = fetch.privacy_mode;
        if let Some(c) = self.registry.borrow_mut().current_to(&origin.origin, privacy_mode) {
            let usable =
                self.endpoint.conn_get_mut(c.index).is_some_and(|conn| !(conn.is_closed() || conn.is_closing() || conn.is_draining()));
            if usable {
                c.queue(fetch);
                return;
            }
            c.retired = true;
        }
        let local = self.sockets.locals()[0];
        // tquic calls the handler from connect, so the registry is not borrowed here.
        match self.endpoint.connect(local, origin.address, Some(&origin.host), None, None, None) {
            Ok(index) => {
                let mut c = OriginConnection::new(index, origin, privacy_mode, self.events.clone());
                c.queue(fetch);
                self.registry.borrow_mut().conns.push(c);
            }
            Err(e) => {
                let reason = format!("cannot open a QUIC connection to {} at {} from {local}: {e}", origin.origin, origin.address);
                self.fail(fetch, reason);
            }
        }
    }

    fn fail(&self, fetch: Fetch, why: String) {
        let _ = self.events.send(Event::Failed { id: fetch.id, reason: format!("{}: {why}", fetch.url), at: Instant::now() });
    }

    /// Sends what waits for the server's stream limit (or arrived since the handshake).
    fn send_queued(&mut self) {
        let mut registry = self.registry.borrow_mut();
        for c in registry.conns.iter_mut().filter(|c| c.live()) {
            if let Some(conn) = self.endpoint.conn_get_mut(c.index) {
                c.send_queued(conn);
            }
        }
    }

    /// Closes every connection with H3_NO_ERROR, tells the servers, and reports them all.
    fn finish(mut self) -> Vec<ConnectionRecord> {
        let live: Vec<u64> = {
            let mut registry = self.registry.borrow_mut();
            registry.finishing = true;
            registry.conns.iter().filter(|c| c.live()).map(|c| c.index).collect()
        };
        for &index in &live {
            if let Some(conn) = self.endpoint.conn_get_mut(index) {
                let _ = conn.close(true, H3_NO_ERROR, b"");
            }
        }
        // Sends the CONNECTION_CLOSE frames; the connections stay readable while they drain.
        let _ = self.endpoint.process_connections();
        let mut registry = self.registry.borrow_mut();
        let locals = registry.locals().to_vec();
        for c in registry.conns.iter_mut().filter(|c| c.live()) {
            match self.endpoint.conn_get_mut(c.index) {
                Some(conn) => c.on_closed(conn, &locals, None),
                None => c.closed = Some(Instant::now()),
            }
        }
        registry.records(self.config.started)
    }
}

fn quic_config(config: &TransportConfig, pin: &Pin) -> Result<Config, String> {
    let mut quic = transport_config(pin.tls_config()?, config.multipath.then_some(&config.scheduler), &[])?;
    quic.set_ack_decimation(CHROMIUM_ACK_DECIMATION.0, CHROMIUM_ACK_DECIMATION.1, CHROMIUM_ACK_DECIMATION.2);
    Ok(quic)
}

/// Chromium's QUIC acknowledges every second packet until packet 100, then every tenth or after a
/// quarter of the minimum RTT, whichever comes first (QuicReceivedPacketManager:
/// kMinReceivedBeforeAckDecimation, kMaxRetransmittablePacketsBeforeAck, kAckDecimationDelay).
/// The server's congestion control runs on those acknowledgements: with tquic's every-second-packet
/// acknowledgements a 1.6 MB script over a 25 Mbit/s, 20 ms link with a one-BDP buffer came in
/// 20% sooner than Chromium had it (docs/emulated-browser.md, *QUIC acknowledgements*).
const CHROMIUM_ACK_DECIMATION: (u64, u64, f64) = (100, 10, 0.25);
