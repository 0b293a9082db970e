//! The HTTP/3 client without its sockets: one tquic endpoint for every origin, the connections
//! on it and their fetches, fed datagrams and driven by whoever owns the clock. The transport's
//! thread (worker.rs) drives it from UDP sockets on the wall clock; the simulator (replay/sim)
//! from simulated links in virtual time, so both load pages with the same code.

use super::connection::OriginConnection;
use super::handler::Handler;
use super::pin::Pin;
use super::registry::Registry;
use crate::io::origins::find_origin;
use crate::core::{Pool, RequestId};
use crate::io::transport::{ConnectionRecord, Event, Events, Fetch, OriginAddress, TransportConfig};
use pagepath_server::io::quic::config::transport_config;
use std::cell::RefCell;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tquic::{clock, Config, Endpoint, PacketInfo, PacketSendHandler};

const H3_NO_ERROR: u64 = 0x100;

pub struct QuicClient {
    config: TransportConfig,
    events: Events,
    /// The bound local addresses, path 0 first: the first opens every connection.
    locals: Vec<SocketAddr>,
    endpoint: Endpoint,
    registry: Rc<RefCell<Registry>>,
}

impl QuicClient {
    /// A client whose packets leave from `locals` through `sender`, reporting on `events`; it
    /// accepts only the certificate hashing to `config.spki_hash`.
    pub fn new(config: TransportConfig, events: Events, locals: Vec<SocketAddr>, sender: Rc<dyn PacketSendHandler>) -> Result<QuicClient, String> {
        let pin = Rc::new(Pin::new(&config.spki_hash)?);
        let quic = quic_config(&config, &pin)?;
        let registry = Rc::new(RefCell::new(Registry::new(locals.clone(), pin)));
        let handler = Handler { registry: registry.clone() };
        let endpoint = Endpoint::new(Box::new(quic), false, Box::new(handler), sender);
        Ok(QuicClient { config, events, locals, endpoint, registry })
    }

    /// The local addresses its packets leave from, path 0 first.
    pub fn locals(&self) -> &[SocketAddr] {
        &self.locals
    }

    /// Queues `fetch` on its origin's connection, opening one if there is none.
    pub fn fetch(&mut self, fetch: Fetch) {
        let origin = match find_origin(&self.config.origins, &fetch.url) {
            Some(o) if o.tls => o.clone(),
            Some(o) => {
                return self.fail(fetch.id, &fetch.url, format!("{} is served as clear HTTP/1.1, which cannot go over HTTP/3 (QUIC needs TLS)", o.origin))
            }
            None => return self.fail(fetch.id, &fetch.url, "its origin is not one of the replay's origins".into()),
        };
        let (id, url, pool) = (fetch.id, fetch.url.clone(), fetch.pool);
        if let Err(reason) = self.queue_on(origin, pool, Some(fetch)) {
            self.fail(id, &url, reason);
        }
    }

    /// Opens a connection to `origin` (`scheme://host[:port]`) unless one is usable; an origin
    /// the replay does not serve over HTTP/3 is ignored, as is a connection that cannot open (the
    /// requests that follow will say why).
    pub fn preconnect(&mut self, origin: &str, pool: Pool) {
        if let Some(o) = find_origin(&self.config.origins, &format!("{origin}/")).filter(|o| o.tls).cloned() {
            let _ = self.queue_on(o, pool, None);
        }
    }

    /// Queues `fetch`, if any, on the origin's usable connection in `pool`, opening one if there is
    /// none.
    fn queue_on(&mut self, origin: OriginAddress, pool: Pool, fetch: Option<Fetch>) -> Result<(), String> {
        if let Some(c) = self.registry.borrow_mut().current_to(&origin.origin, pool) {
            let usable =
                self.endpoint.conn_get_mut(c.index).is_some_and(|conn| !(conn.is_closed() || conn.is_closing() || conn.is_draining()));
            if usable {
                if let Some(fetch) = fetch {
                    c.queue(fetch);
                }
                return Ok(());
            }
            c.retired = true;
        }
        let local = self.locals[0];
        // tquic calls the handler from connect, so the registry is not borrowed here.
        let index = self
            .endpoint
            .connect(local, origin.address, Some(&origin.host), None, None, None)
            .map_err(|e| format!("cannot open a QUIC connection to {} at {} from {local}: {e}", origin.origin, origin.address))?;
        let mut c = OriginConnection::new(index, origin, pool, self.events.clone());
        if let Some(fetch) = fetch {
            c.queue(fetch);
        }
        self.registry.borrow_mut().conns.push(c);
        Ok(())
    }

    fn fail(&self, id: RequestId, url: &str, why: String) {
        let _ = self.events.send(Event::Failed { id, reason: format!("{url}: {why}"), at: clock::now() });
    }

    /// A datagram from `from` to `local` arrived at `at`. One tquic cannot use is dropped, as a
    /// router would drop it.
    pub fn recv(&mut self, datagram: &mut [u8], from: SocketAddr, local: SocketAddr, at: Instant) {
        let _ = self.endpoint.recv(datagram, &PacketInfo { src: from, dst: local, time: at });
    }

    pub fn on_timeout(&mut self, now: Instant) {
        self.endpoint.on_timeout(now);
    }

    /// When tquic next needs `on_timeout`, from now.
    pub fn timeout(&self) -> Option<Duration> {
        self.endpoint.timeout()
    }

    /// Sends what waits for the server's stream limit (or arrived since the handshake), then lets
    /// tquic send.
    pub fn send(&mut self) {
        {
            let mut registry = self.registry.borrow_mut();
            for c in registry.conns.iter_mut().filter(|c| c.live()) {
                if let Some(conn) = self.endpoint.conn_get_mut(c.index) {
                    c.send_queued(conn);
                }
            }
        }
        if let Err(e) = self.endpoint.process_connections() {
            eprintln!("pagepath-browser: HTTP/3 endpoint: {e}");
        }
    }

    /// Closes every connection with H3_NO_ERROR, tells the servers, and reports them all.
    pub fn finish(mut self) -> Vec<ConnectionRecord> {
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
        for c in registry.conns.iter_mut().filter(|c| c.live()) {
            match self.endpoint.conn_get_mut(c.index) {
                Some(conn) => c.on_closed(conn, &self.locals, None),
                None => c.closed = Some(clock::now()),
            }
        }
        registry.records(self.config.started)
    }
}

fn quic_config(config: &TransportConfig, pin: &Pin) -> Result<Config, String> {
    let mut quic = transport_config(pin.tls_config()?, config.multipath.then_some(&config.scheduler), &[])?;
    quic.set_ack_decimation(CHROMIUM_ACK_DECIMATION.0, CHROMIUM_ACK_DECIMATION.1, CHROMIUM_ACK_DECIMATION.2);
    quic.set_initial_rtt(CHROMIUM_INITIAL_RTT_MS);
    quic.set_send_udp_payload_size(CHROMIUM_MAX_PACKET_BYTES);
    quic.enable_dplpmtud(false);
    Ok(quic)
}

/// Chromium's QUIC client sends datagrams of at most 1,250 bytes (quiche's kDefaultMaxPacketSize)
/// and does not probe for a larger path MTU. tquic's client, once the handshake is done, sends a
/// 1,472-byte PING probe ahead of its first requests: 12 ms of a 1 Mbit/s uplink on every
/// connection, which Chromium's requests never wait behind (seen in both clients' captures of
/// real-sb-admin over HTTP/3 at 1 Mbit/s 100 ms). tquic still pads its Initials to 1,200 bytes, not
/// Chromium's 1,250: it keeps 1,200 until the server's transport parameters arrive.
const CHROMIUM_MAX_PACKET_BYTES: usize = 1250;

/// Chromium's QUIC acknowledges every second packet until packet 100, then every tenth or after a
/// quarter of the minimum RTT, whichever comes first (QuicReceivedPacketManager:
/// kMinReceivedBeforeAckDecimation, kMaxRetransmittablePacketsBeforeAck, kAckDecimationDelay).
/// The server's congestion control runs on those acknowledgements: with tquic's every-second-packet
/// acknowledgements a 1.6 MB script over a 25 Mbit/s, 20 ms link with a one-BDP buffer came in
/// 20% sooner than Chromium had it (docs/emulated-browser.md, *QUIC acknowledgements*).
const CHROMIUM_ACK_DECIMATION: (u64, u64, f64) = (100, 10, 0.25);

/// Chromium's QUIC assumes a 100 ms RTT until it has a sample (quiche's RttStats, kInitialRttMs),
/// so it probes a handshake that has not answered after 300 ms (three times that,
/// kPtoMultiplierWithoutRttSamples); tquic's default, RFC 9002's 333 ms, waits about a second.
/// Where the server's first flight is lost, the server's own timeout (tquic's, a second) decides
/// when it is sent again, whichever client asked (seen in the simulator's qlog of gen-pagepath-14).
const CHROMIUM_INITIAL_RTT_MS: u64 = 100;
