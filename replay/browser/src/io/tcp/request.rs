//! What travels from the routes to an origin's connections: a request or a preconnect, and the
//! origin it is for.

use crate::core::RequestId;
use crate::io::transport::{Handshake, OriginAddress};
use std::time::Instant;
use pagepath_server::core::archive::Origin as ServerOrigin;

/// What an origin's task is asked to do.
pub(super) enum Ask {
    Fetch(Request),
    /// Open connections now, until this many are open or opening, for the requests to come
    /// (`<link rel=preconnect>`: 1; a navigation: 2).
    Preconnect(usize),
}

pub(super) struct Request {
    pub id: RequestId,
    pub method: String,
    /// Path and query, as on the request line.
    pub target: String,
    pub priority: Option<String>,
    /// Chromium's priority (transport.rs, `Fetch::net_priority`), Low when unknown: the order in
    /// which requests waiting for a connection take one.
    pub net_priority: u8,
    /// Set by the connection that writes it: for the request's phases (run-result.md).
    pub sent: Option<Instant>,
    pub handshake: Option<Handshake>,
}

impl Request {
    /// HEAD responses have no body, whatever their headers say.
    pub fn is_head(&self) -> bool {
        self.method.eq_ignore_ascii_case("HEAD")
    }
}

pub(super) struct Origin {
    pub address: OriginAddress,
    /// `scheme://host[:port]` as URLs on it begin (the port only when not the default).
    pub base: String,
    /// `host[:port]`: the Host header and HTTP/2's :authority.
    pub authority: String,
    /// `scheme://host:port`, always with the port: how messages name the origin.
    pub named: String,
}

impl Origin {
    pub fn new(address: OriginAddress) -> Result<(ServerOrigin, Origin), String> {
        let (parsed, _) = ServerOrigin::parse_url(&address.origin)
            .ok_or_else(|| format!("the transport configuration's origin {:?} is not an http:// or https:// origin", address.origin))?;
        let base = parsed.to_string();
        let authority = parsed.authority();
        let named = format!("{}://{}:{}", parsed.scheme, parsed.host, parsed.port);
        Ok((parsed, Origin { address, base, authority, named }))
    }
}
