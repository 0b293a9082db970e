//! HTTP/3 over QUIC and multipath QUIC (tquic). One connection per https origin, opened by the
//! first fetch to it; all of them on one tquic endpoint run by the transport's own thread, which
//! fetches reach through a channel and a wake-up datagram, so that fetch() never waits.

mod client;
mod close_reason;
mod connection;
mod handler;
mod paths;
mod pin;
mod registry;
mod request;
mod spki;
mod worker;

pub use client::QuicClient;
pub use spki::spki_hash;

use crate::core::Pool;
use crate::io::transport::{ConnectionRecord, Events, Fetch, Transport, TransportConfig};
use std::os::unix::net::UnixDatagram;
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;
use worker::Command;

pub struct QuicTransport {
    commands: Sender<Command>,
    /// Writing a datagram here wakes the worker from its wait for packets.
    wake: UnixDatagram,
    worker: JoinHandle<Vec<ConnectionRecord>>,
}

impl QuicTransport {
    /// Starts the transport's thread and endpoint: UDP sockets on `config.locals` (all of them
    /// with `config.multipath`, else the first; the routing table's choice when empty) and the
    /// client TLS context that accepts only the certificate hashing to `config.spki_hash`.
    pub fn new(config: TransportConfig, events: Events) -> Result<QuicTransport, String> {
        let (wake, wake_rx) = UnixDatagram::pair().map_err(|e| format!("HTTP/3 transport: cannot make its wake-up socket pair: {e}"))?;
        for end in [&wake, &wake_rx] {
            end.set_nonblocking(true).map_err(|e| format!("HTTP/3 transport: cannot make its wake-up socket non-blocking: {e}"))?;
        }
        let (commands, commands_rx) = mpsc::channel();
        let (ready, ready_rx) = mpsc::channel();
        let worker = std::thread::Builder::new()
            .name("pagepath-h3".into())
            .spawn(move || worker::run(config, events, commands_rx, wake_rx, ready))
            .map_err(|e| format!("HTTP/3 transport: cannot start its thread: {e}"))?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(QuicTransport { commands, wake, worker }),
            Ok(Err(e)) => {
                let _ = worker.join();
                Err(format!("HTTP/3 transport: {e}"))
            }
            Err(_) => Err("HTTP/3 transport: its thread stopped while starting".into()),
        }
    }

    fn tell(&self, command: Command) {
        // A full wake-up queue already has the worker awake; a gone worker has nothing to wake.
        if self.commands.send(command).is_ok() {
            let _ = self.wake.send(&[0]);
        }
    }
}

impl Transport for QuicTransport {
    fn fetch(&mut self, fetch: Fetch) {
        self.tell(Command::Fetch(fetch));
    }

    /// Chromium opens no second QUIC connection for a navigation: one at most, whatever `sockets`.
    fn preconnect(&mut self, origin: &str, pool: Pool, _sockets: usize) {
        self.tell(Command::Preconnect { origin: origin.to_string(), pool });
    }

    fn finish(self: Box<Self>) -> Vec<ConnectionRecord> {
        self.tell(Command::Finish);
        self.worker.join().unwrap_or_else(|_| {
            eprintln!("pagepath-browser: the HTTP/3 transport's thread panicked; its connections go unreported");
            Vec::new()
        })
    }
}
