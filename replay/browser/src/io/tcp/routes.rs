//! Sends each fetch to its origin's task, starting the task the first time the origin is asked
//! for: HTTP/2 for https origins when the transport speaks it, HTTP/1.x otherwise. An origin has a
//! task for each of its connection pools (core/connection_pool.rs: privacy mode, network
//! partition), each with connections of its own, as Chromium keys its pools.

use super::request::{Ask, Origin, Request};
use super::shared::Shared;
use super::{h1_pool, h2_origin, TcpProtocol};
use crate::core::Pool;
use crate::io::transport::{Fetch, OriginAddress};
use pagepath_server::core::archive::Origin as ServerOrigin;
use std::sync::Arc;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};

struct Route {
    server: ServerOrigin,
    origin: Arc<Origin>,
    /// The task of each pool, by `Pool::index`.
    queues: [Option<UnboundedSender<Ask>>; Pool::COUNT],
}

pub(super) struct Routes {
    shared: Arc<Shared>,
    protocol: TcpProtocol,
    routes: Vec<Route>,
}

impl Routes {
    pub fn new(shared: Arc<Shared>, protocol: TcpProtocol, origins: &[OriginAddress]) -> Result<Routes, String> {
        let routes = origins
            .iter()
            .map(|address| {
                let (server, origin) = Origin::new(address.clone())?;
                Ok(Route { server, origin: Arc::new(origin), queues: Default::default() })
            })
            .collect::<Result<_, String>>()?;
        Ok(Routes { shared, protocol, routes })
    }

    pub fn fetch(&mut self, fetch: Fetch) {
        let Some((server, target)) = ServerOrigin::parse_url(&fetch.url) else {
            self.shared.fail(fetch.id, &format!("cannot fetch {}: not an http:// or https:// URL", fetch.url));
            return;
        };
        let Some(route) = self.routes.iter_mut().find(|r| r.server == server) else {
            self.shared.fail(fetch.id, &format!("cannot fetch {}: no replay server serves {server}", fetch.url));
            return;
        };
        let queue = route.queues[fetch.pool.index()].get_or_insert_with(|| start(&self.shared, &route.origin, self.protocol));
        let net_priority = fetch.waiting_rank();
        let request = Request { id: fetch.id, method: fetch.method, target, priority: fetch.priority, net_priority, sent: None, handshake: None };
        if let Err(unsent) = queue.send(Ask::Fetch(request)) {
            if let Ask::Fetch(request) = unsent.0 {
                self.shared.fail(request.id, &format!("cannot fetch {}: the transport is finishing", fetch.url));
            }
        }
    }

    /// Opens connections to `origin` (`scheme://host[:port]`) until `sockets` are there; an origin
    /// no replay server serves is ignored, as a browser's preconnect to a host that does not
    /// answer costs the page nothing.
    pub fn preconnect(&mut self, origin: &str, pool: Pool, sockets: usize) {
        let Some((server, _)) = ServerOrigin::parse_url(&format!("{origin}/")) else { return };
        let Some(route) = self.routes.iter_mut().find(|r| r.server == server) else { return };
        let queue = route.queues[pool.index()].get_or_insert_with(|| start(&self.shared, &route.origin, self.protocol));
        let _ = queue.send(Ask::Preconnect(sockets));
        // HTTP/2's task keeps one connection, opened in line with its requests: the others a
        // navigation asks for open beside it and stay idle, as Chromium's do.
        if !uses_http2(&route.origin, self.protocol) {
            return;
        }
        for _ in 1..sockets {
            self.shared.spawn(h2_origin::idle_spare(self.shared.clone(), route.origin.clone()));
        }
    }
}

fn uses_http2(origin: &Origin, protocol: TcpProtocol) -> bool {
    origin.address.tls && protocol == TcpProtocol::Http2
}

fn start(shared: &Arc<Shared>, origin: &Arc<Origin>, protocol: TcpProtocol) -> UnboundedSender<Ask> {
    let (queue, requests) = unbounded_channel();
    if uses_http2(origin, protocol) {
        shared.spawn(h2_origin::run(shared.clone(), origin.clone(), requests));
    } else {
        shared.spawn(h1_pool::run(shared.clone(), origin.clone(), requests));
    }
    queue
}
