//! tquic's callbacks, handed to the fetch that the main loop also watches.

use crate::fetch::Fetch;
use std::cell::RefCell;
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::rc::Rc;
use tquic::{Connection, TransportHandler};

pub struct Handler {
    pub fetch: Rc<RefCell<Fetch>>,
    pub qlog: Option<PathBuf>,
}

impl TransportHandler for Handler {
    fn on_conn_created(&mut self, conn: &mut Connection) {
        let Some(path) = &self.qlog else { return };
        match File::create(path) {
            Ok(file) => conn.set_qlog(Box::new(BufWriter::new(file)), "pagepath-fetch".into(), String::new()),
            // The fetch itself does not need its qlog.
            Err(e) => eprintln!("pagepath-fetch: {}: cannot create the qlog: {e}", path.display()),
        }
    }

    fn on_conn_established(&mut self, conn: &mut Connection) {
        self.fetch.borrow_mut().on_established(conn);
    }

    fn on_conn_closed(&mut self, conn: &mut Connection) {
        self.fetch.borrow_mut().on_closed(conn);
    }

    fn on_stream_created(&mut self, _conn: &mut Connection, _stream_id: u64) {}

    fn on_stream_readable(&mut self, conn: &mut Connection, _stream_id: u64) {
        self.fetch.borrow_mut().on_readable(conn);
    }

    fn on_stream_writable(&mut self, conn: &mut Connection, stream_id: u64) {
        // tquic asks again if the write below blocks.
        let _ = conn.stream_want_write(stream_id, false);
        self.fetch.borrow_mut().on_writable(conn, stream_id);
    }

    fn on_stream_closed(&mut self, _conn: &mut Connection, _stream_id: u64) {}

    fn on_new_token(&mut self, _conn: &mut Connection, _token: Vec<u8>) {}
}
