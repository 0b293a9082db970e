//! tquic's callbacks: connections and streams come and go here. Responses are written by the
//! endpoint loop, which also wakes for the schedules' timers.

use super::connection::QuicConnection;
use crate::service::Service;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::BufWriter;
use std::rc::Rc;
use std::sync::Arc;
use tquic::{Connection, TransportHandler};

/// The origin's connections by tquic's connection index, shared with the endpoint loop.
pub(super) type Connections = Rc<RefCell<HashMap<u64, QuicConnection>>>;

pub(super) struct Handler {
    pub(super) service: Arc<Service>,
    pub(super) origin: usize,
    pub(super) connections: Connections,
}

fn index(conn: &Connection) -> u64 {
    conn.index().expect("tquic indexes every connection it reports")
}

impl Handler {
    fn with<F: FnOnce(&mut QuicConnection)>(&self, index: u64, f: F) {
        if let Some(c) = self.connections.borrow_mut().get_mut(&index) {
            f(c);
        }
    }

    /// One qlog file per connection, named after the connection's id in the logs.
    fn start_qlog(&self, conn: &mut Connection, id: u64) {
        let Some(dir) = self.service.qlog_dir() else { return };
        let path = dir.join(format!("connection-{id}.sqlog"));
        match File::create(&path) {
            Ok(file) => conn.set_qlog(Box::new(BufWriter::new(file)), format!("pagepath h3 {id}"), format!("connection {id}")),
            // A missing qlog must not refuse the connection; the replay's results do not need it.
            Err(e) => eprintln!("pagepath-server: {}: cannot create the qlog: {e}", path.display()),
        }
    }
}

impl TransportHandler for Handler {
    fn on_conn_created(&mut self, conn: &mut Connection) {
        let index = index(conn);
        let c = QuicConnection::new(&self.service, self.origin, conn);
        self.start_qlog(conn, c.id());
        self.connections.borrow_mut().insert(index, c);
    }

    fn on_conn_established(&mut self, conn: &mut Connection) {
        self.with(index(conn), |c| c.on_established(conn));
    }

    fn on_conn_closed(&mut self, conn: &mut Connection) {
        let closed = self.connections.borrow_mut().remove(&index(conn));
        if let Some(c) = closed {
            c.close(&self.service, conn);
        }
    }

    fn on_stream_created(&mut self, _conn: &mut Connection, _stream_id: u64) {}

    fn on_stream_readable(&mut self, conn: &mut Connection, _stream_id: u64) {
        self.with(index(conn), |c| c.on_readable(&self.service, conn));
    }

    fn on_stream_writable(&mut self, conn: &mut Connection, stream_id: u64) {
        // The endpoint loop writes after every round; tquic re-arms this when a write blocks.
        let _ = conn.stream_want_write(stream_id, false);
    }

    fn on_stream_closed(&mut self, conn: &mut Connection, stream_id: u64) {
        self.with(index(conn), |c| c.on_stream_closed(&self.service, conn, stream_id));
    }

    fn on_new_token(&mut self, _conn: &mut Connection, _token: Vec<u8>) {}
}
