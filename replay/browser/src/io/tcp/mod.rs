//! HTTP/1.x and HTTP/2 over TCP or MPTCP for the emulated browser (seed 001 Table 4.1): HTTP/1.0
//! (a connection per request), HTTP/1.1 keep-alive and pipelined on up to k connections per
//! origin, and HTTP/2 on one connection per origin. The connections run on a tokio runtime of
//! their own, so fetch() never waits for the network.

mod connect;
mod h1_body;
mod h1_connection;
mod h1_pool;
mod h1_response;
mod h2_origin;
mod h2_stream;
mod paths;
mod records;
mod request;
mod routes;
mod shared;
mod tls;

use crate::io::transport::{ConnectionRecord, Events, Fetch, Transport, TransportConfig};
use records::Registry;
use routes::Routes;
use shared::Shared;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// What https origins speak; `http://` origins always get clear HTTP/1.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpProtocol {
    /// HTTP/1.x in the configuration's Http1Mode (ALPN `http/1.1`).
    Http1,
    /// HTTP/2 (ALPN `h2`).
    Http2,
}

/// How long finish() waits for connections to close and report their bytes.
const FINISH_WAIT: Duration = Duration::from_secs(5);

pub struct TcpTransport {
    runtime: tokio::runtime::Runtime,
    shared: Arc<Shared>,
    routes: Routes,
}

impl TcpTransport {
    pub fn new(config: TransportConfig, protocol: TcpProtocol, events: Events) -> Result<TcpTransport, String> {
        let tls = tls::client_configs(&config.spki_hash)?;
        // One worker: the machine is small, and one thread keeps the order requests go out in.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("pagepath-tcp")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the TCP transport's runtime: {e}"))?;
        let records = Arc::new(Registry::new(config.started, config.locals.clone()));
        let origins = config.origins.clone();
        let shared = Arc::new(Shared {
            config,
            events,
            tls,
            records,
            tasks: TaskTracker::new(),
            stop: CancellationToken::new(),
            runtime: runtime.handle().clone(),
        });
        let routes = Routes::new(shared.clone(), protocol, &origins)?;
        Ok(TcpTransport { runtime, shared, routes })
    }
}

impl Transport for TcpTransport {
    fn fetch(&mut self, fetch: Fetch) {
        self.routes.fetch(fetch);
    }

    fn finish(self: Box<Self>) -> Vec<ConnectionRecord> {
        let TcpTransport { runtime, shared, routes } = *self;
        drop(routes);
        shared.stop.cancel();
        shared.tasks.close();
        // Every task ends at the stop signal, dropping its sockets; records are read as they drop.
        let _ = runtime.block_on(async { tokio::time::timeout(FINISH_WAIT, shared.tasks.wait()).await });
        let records = shared.records.snapshot();
        runtime.shutdown_background();
        records
    }
}
