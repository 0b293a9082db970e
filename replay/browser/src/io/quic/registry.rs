//! Every connection the transport opened, in open order, as both the worker loop and tquic's
//! callbacks (handler.rs) reach them.

use super::close_reason::why_closed;
use super::connection::OriginConnection;
use super::pin::Pin;
use crate::core::Pool;
use crate::io::transport::ConnectionRecord;
use std::net::SocketAddr;
use std::time::Instant;
use tquic::Connection;

pub struct Registry {
    pub conns: Vec<OriginConnection>,
    /// The bound local addresses: the first opens every connection, the others add paths.
    locals: Vec<SocketAddr>,
    pin: std::rc::Rc<Pin>,
    /// The transport is closing everything: ends are expected, not failures.
    pub finishing: bool,
}

impl Registry {
    pub fn new(locals: Vec<SocketAddr>, pin: std::rc::Rc<Pin>) -> Registry {
        Registry { conns: Vec::new(), locals, pin, finishing: false }
    }

    /// The connection that takes new fetches to `origin` in `pool`, if there is one.
    pub fn current_to(&mut self, origin: &str, pool: Pool) -> Option<&mut OriginConnection> {
        self.conns.iter_mut().find(|c| c.live() && !c.retired && c.origin.origin == origin && c.pool == pool)
    }

    fn of(&mut self, conn: &Connection) -> Option<&mut OriginConnection> {
        let index = conn.index()?;
        self.conns.iter_mut().find(|c| c.live() && c.index == index)
    }

    pub fn on_established(&mut self, conn: &mut Connection) {
        let extra = self.locals[1..].to_vec();
        if let Some(c) = self.of(conn) {
            c.on_established(conn, &extra);
        }
    }

    pub fn on_readable(&mut self, conn: &mut Connection) {
        if let Some(c) = self.of(conn) {
            c.on_readable(conn);
        }
    }

    pub fn on_writable(&mut self, conn: &mut Connection, stream: u64) {
        if let Some(c) = self.of(conn) {
            c.on_writable(conn, stream);
        }
    }

    pub fn on_closed(&mut self, conn: &mut Connection) {
        let (locals, pin, finishing) = (self.locals.clone(), self.pin.clone(), self.finishing);
        if let Some(c) = self.of(conn) {
            let reason = (!finishing).then(|| why_closed(conn, &c.origin, &pin));
            c.on_closed(conn, &locals, reason.as_deref());
        }
    }

    pub fn records(&self, started: Instant) -> Vec<ConnectionRecord> {
        self.conns.iter().enumerate().map(|(i, c)| c.record(i + 1, started)).collect()
    }
}
