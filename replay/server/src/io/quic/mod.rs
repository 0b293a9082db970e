//! HTTP/3 over QUIC and multipath QUIC, with tquic's sans-IO endpoint driven by one thread per
//! origin over that origin's UDP socket. Responses go out when the connection's schedule says so,
//! exactly as on TCP, so the protocols differ only in their transport.

mod budget;
mod carried_paths;
pub mod config;
mod connection;
mod endpoint;
mod handler;
mod origin;
pub mod paths;
mod request;
mod socket;
mod writer;

use crate::service::Service;
use std::net::UdpSocket;
use std::sync::Arc;
use std::thread::JoinHandle;

/// How a multipath connection spreads its packets over the validated paths: tquic's own
/// scheduler or one of pagepath's, as `--scheduler` names it.
pub use pagepath_tquic_scheduler::Choice as MultipathScheduler;
pub use origin::QuicOrigin;

/// Serves `origin` (an index into `service.origins()`) over HTTP/3 on `socket` until the service
/// stops. With `multipath`, peers that negotiate multipath QUIC may add paths; single-path peers
/// (browsers) are served as usual.
pub fn spawn_quic(
    service: Arc<Service>,
    origin: usize,
    socket: UdpSocket,
    multipath: Option<MultipathScheduler>,
) -> Result<JoinHandle<()>, String> {
    let Some(served) = service.origins().get(origin) else {
        return Err(format!("quic: origin index {origin} is out of range ({} origins)", service.origins().len()));
    };
    let name = format!("h3 {}", served.origin);
    let config = config::server_config(&service, multipath).map_err(|e| format!("{name}: {e}"))?;
    let socket = socket::Socket::new(socket).map_err(|e| format!("{name}: {e}"))?;
    // The endpoint holds Rc's and is made on its own thread; the certificate and the socket are
    // checked here so that a bad one fails the start, not the thread.
    std::thread::Builder::new()
        .name(name.clone())
        .spawn(move || endpoint::run(service, origin, socket, config))
        .map_err(|e| format!("{name}: cannot start a thread: {e}"))
}
