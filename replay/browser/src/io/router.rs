//! Sends each fetch to the transport that serves its origin: the run's protocol for https
//! origins, clear HTTP/1.1 for http origins (the replay serves those as recorded).

use super::quic::QuicTransport;
use super::tcp::{TcpProtocol, TcpTransport};
use super::transport::{ConnectionRecord, Events, Fetch, Transport, TransportConfig};
use crate::cli::Protocol;

pub struct Router {
    config: TransportConfig,
    protocol: Protocol,
    events: Events,
    secure: Option<Box<dyn Transport>>,
    clear: Option<Box<dyn Transport>>,
}

impl Router {
    pub fn new(config: TransportConfig, protocol: Protocol, events: Events) -> Router {
        Router { config, protocol, events, secure: None, clear: None }
    }

    /// Opens transports on first use, so a page without http origins starts no clear one.
    pub fn fetch(&mut self, fetch: Fetch, tls: bool) -> Result<(), String> {
        let slot = if tls { &mut self.secure } else { &mut self.clear };
        if slot.is_none() {
            let events = self.events.clone();
            let config = self.config.clone();
            // config.http1 is the run's HTTP/1.x mode, keep-alive when the run is not HTTP/1.x: what
            // an http origin gets.
            *slot = Some(match (tls, self.protocol) {
                (true, Protocol::H3) => Box::new(QuicTransport::new(config, events)?),
                (true, Protocol::H2) => Box::new(TcpTransport::new(config, TcpProtocol::Http2, events)?),
                _ => Box::new(TcpTransport::new(config, TcpProtocol::Http1, events)?),
            });
        }
        slot.as_mut().expect("opened above").fetch(fetch);
        Ok(())
    }

    pub fn finish(self) -> Vec<ConnectionRecord> {
        let mut records = Vec::new();
        for t in [self.secure, self.clear].into_iter().flatten() {
            records.extend(t.finish());
        }
        records
    }
}
