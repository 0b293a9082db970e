//! tquic's callbacks, passed on to the connection they concern.

use super::registry::Registry;
use std::cell::RefCell;
use std::rc::Rc;
use tquic::{Connection, TransportHandler};

pub struct Handler {
    pub registry: Rc<RefCell<Registry>>,
}

impl TransportHandler for Handler {
    fn on_conn_created(&mut self, _conn: &mut Connection) {}

    fn on_conn_established(&mut self, conn: &mut Connection) {
        self.registry.borrow_mut().on_established(conn);
    }

    fn on_conn_closed(&mut self, conn: &mut Connection) {
        self.registry.borrow_mut().on_closed(conn);
    }

    fn on_stream_created(&mut self, _conn: &mut Connection, _stream_id: u64) {}

    fn on_stream_readable(&mut self, conn: &mut Connection, _stream_id: u64) {
        self.registry.borrow_mut().on_readable(conn);
    }

    fn on_stream_writable(&mut self, conn: &mut Connection, stream_id: u64) {
        // tquic asks again if the write it allows blocks.
        let _ = conn.stream_want_write(stream_id, false);
        self.registry.borrow_mut().on_writable(conn, stream_id);
    }

    fn on_stream_closed(&mut self, _conn: &mut Connection, _stream_id: u64) {}

    fn on_new_token(&mut self, _conn: &mut Connection, _token: Vec<u8>) {}
}
