//! Why a connection ended, as a sentence for the fetches it takes down with it.

use super::pin::Pin;
use crate::io::transport::OriginAddress;
use tquic::error::ConnectionError;
use tquic::Connection;

pub fn why_closed(conn: &Connection, origin: &OriginAddress, pin: &Pin) -> String {
    let at = format!("the HTTP/3 connection to {} ({})", origin.origin, origin.address);
    let describe = |who: &str, e: &ConnectionError| {
        let layer = if e.is_app { "HTTP/3" } else { "QUIC" };
        let reason = String::from_utf8_lossy(&e.reason);
        format!("{at}: {who} closed it with {layer} error {:#x} {reason:?}", e.error_code)
    };
    if conn.is_handshake_timeout() {
        format!("{at}: the QUIC handshake timed out (no replay server answering there?)")
    } else if conn.is_idle_timeout() {
        format!("{at}: it went idle until its idle timeout")
    } else if conn.is_reset() {
        format!("{at}: the server reset it (stateless reset)")
    } else if let Some(e) = conn.peer_error() {
        describe("the server", e)
    } else if let Some(e) = conn.local_error() {
        match pin.refused() {
            // tquic closes a handshake that BoringSSL failed with QUIC code 0, not the TLS
            // alert; the pin knows what it refused.
            Some(why) if !e.is_app && !conn.is_established() => format!("{at}: the server is not the replay: {why}"),
            _ => describe("this client", e),
        }
    } else {
        format!("{at}: it closed")
    }
}
