//! HTTP/1.x and HTTP/2 over TCP or MPTCP for the emulated browser (seed 001 Table 4.1): HTTP/1.0
//! (a connection per request), HTTP/1.1 keep-alive and pipelined on up to k connections per
//! origin, and HTTP/2 on one connection per origin. The connections run on a tokio runtime of
//! their own, so fetch() never waits for the network, or on the simulator's virtual executor.

mod connect;
pub mod dialer;
mod h1_body;
mod h1_connection;
mod h1_pool;
mod h1_response;
mod h2_origin;
mod h2_stream;
pub mod hybrid_key_share;
mod paths;
mod records;
mod request;
mod routes;
mod shared;
pub mod tls;

use crate::core::Pool;
use crate::io::transport::{ConnectionRecord, Events, Fetch, Transport, TransportConfig};
use dialer::{Dialer, KernelDialer};
pub use pagepath_runtime::Spawner;
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
    /// The transport's own runtime; None on another's (the simulator's).
    runtime: Option<tokio::runtime::Runtime>,
    shared: Arc<Shared>,
    routes: Routes,
}

/// Where a transport runs when it does not run on its own runtime over the kernel's sockets.
pub struct Hosted {
    /// Where its tasks run: the simulator's virtual executor.
    pub spawner: Spawner,
    pub dialer: Box<dyn Dialer>,
    /// Told of every event the transport sends.
    pub on_event: Arc<tokio::sync::Notify>,
    /// TLS settings in place of the browser's own (tls::client_configs).
    pub tls: Option<tls::TlsConfigs>,
}

impl TcpTransport {
    /// Over the kernel's TCP (or MPTCP), on a runtime of its own.
    pub fn new(config: TransportConfig, protocol: TcpProtocol, events: Events) -> Result<TcpTransport, String> {
        // One worker: the machine is small, and one thread keeps the order requests go out in.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("pagepath-tcp")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the TCP transport's runtime: {e}"))?;
        let dialer = Box::new(KernelDialer { multipath: config.multipath });
        let mut transport = Self::make(config, protocol, events, Spawner::Tokio(runtime.handle().clone()), dialer, None, None)?;
        transport.runtime = Some(runtime);
        Ok(transport)
    }

    /// On `hosted`'s runtime and dialer; close() ends it there.
    pub fn hosted(config: TransportConfig, protocol: TcpProtocol, events: Events, hosted: Hosted) -> Result<TcpTransport, String> {
        Self::make(config, protocol, events, hosted.spawner, hosted.dialer, Some(hosted.on_event), hosted.tls)
    }

    fn make(
        config: TransportConfig,
        protocol: TcpProtocol,
        events: Events,
        spawner: Spawner,
        dialer: Box<dyn Dialer>,
        on_event: Option<Arc<tokio::sync::Notify>>,
        tls: Option<tls::TlsConfigs>,
    ) -> Result<TcpTransport, String> {
        let tls = match tls {
            Some(tls) => tls,
            None => tls::client_configs(&config.spki_hash)?,
        };
        // Only the kernel's counts go with their connections (records.rs); a hosted transport's stay.
        let records = Arc::new(Registry::new(config.started, config.locals.clone(), on_event.is_none()));
        let origins = config.origins.clone();
        let shared = Arc::new(Shared { config, events, tls, records, tasks: TaskTracker::new(), stop: CancellationToken::new(), spawner, dialer, on_event });
        let routes = Routes::new(shared.clone(), protocol, &origins)?;
        Ok(TcpTransport { runtime: None, shared, routes })
    }

    /// Stops every task, which closes its connections, and reports them all once they have
    /// closed (or FINISH_WAIT has passed); to be awaited on the transport's runtime.
    pub async fn close(self) -> Vec<ConnectionRecord> {
        let TcpTransport { shared, routes, .. } = self;
        drop(routes);
        shared.stop.cancel();
        shared.tasks.close();
        let _ = pagepath_runtime::timeout(FINISH_WAIT, shared.tasks.wait()).await;
        shared.records.snapshot()
    }
}

impl Transport for TcpTransport {
    fn fetch(&mut self, fetch: Fetch) {
        self.routes.fetch(fetch);
    }

    fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize) {
        self.routes.preconnect(origin, pool, sockets);
    }

    fn finish(mut self: Box<Self>) -> Vec<ConnectionRecord> {
        let runtime = self.runtime.take().expect("finish() is for a transport on its own runtime; a hosted one is closed with close()");
        let records = runtime.block_on(self.close());
        runtime.shutdown_background();
        records
    }
}
