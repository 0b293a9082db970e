//! Sends each fetch to the transport that serves its origin: the run's protocol for https
//! origins, clear HTTP/1.1 for http origins (the replay serves those as recorded).
//!
//! A run has at most one transport of each kind, because each numbers its connections from 1
//! ("tcp-1", "quic-1") and ids must be unique in the run: the TCP transport serves http origins
//! itself (clear HTTP/1.1 whatever its protocol), so http and https origins over TCP share it, and
//! only an HTTP/3 run adds a second one, whose ids carry another prefix.

use super::quic::QuicTransport;
use super::tcp::{TcpProtocol, TcpTransport};
use super::transport::{ConnectionRecord, Events, Fetch, Transport, TransportConfig};
use crate::cli::Protocol;
use crate::core::Pool;

pub struct Router {
    config: TransportConfig,
    protocol: Protocol,
    events: Events,
    tcp: Option<TcpTransport>,
    quic: Option<QuicTransport>,
}

impl Router {
    pub fn new(config: TransportConfig, protocol: Protocol, events: Events) -> Router {
        Router { config, protocol, events, tcp: None, quic: None }
    }

    /// Opens transports on first use, so a page without http origins in an HTTP/3 run starts no
    /// TCP one.
    pub fn fetch(&mut self, fetch: Fetch, tls: bool) -> Result<(), String> {
        self.transport_for(tls)?.fetch(fetch);
        Ok(())
    }

    /// A `<link rel=preconnect>` to an https (`tls`) or http origin, on the transport its fetches
    /// would take.
    pub fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize, tls: bool) -> Result<(), String> {
        self.transport_for(tls)?.preconnect(origin, pool, sockets);
        Ok(())
    }

    fn transport_for(&mut self, tls: bool) -> Result<&mut dyn Transport, String> {
        let (config, events) = (&self.config, &self.events);
        if tls && self.protocol == Protocol::H3 {
            if self.quic.is_none() {
                self.quic = Some(QuicTransport::new(config.clone(), events.clone())?);
            }
            return Ok(self.quic.as_mut().expect("opened above"));
        }
        if self.tcp.is_none() {
            // config.http1 is the run's HTTP/1.x mode, keep-alive when the run is not HTTP/1.x: what
            // an http origin gets.
            let protocol = if self.protocol == Protocol::H2 { TcpProtocol::Http2 } else { TcpProtocol::Http1 };
            self.tcp = Some(TcpTransport::new(config.clone(), protocol, events.clone())?);
        }
        Ok(self.tcp.as_mut().expect("opened above"))
    }

    pub fn finish(self) -> Vec<ConnectionRecord> {
        let mut records = Vec::new();
        if let Some(t) = self.quic {
            records.extend(Box::new(t).finish());
        }
        if let Some(t) = self.tcp {
            records.extend(Box::new(t).finish());
        }
        records
    }
}
