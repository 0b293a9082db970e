//! pagepath-fetch: HTTP/3 requests over one QUIC or multipath QUIC connection, all at once, with
//! each response's timing and digest and each path's traffic as one JSON line. See args::HELP.

mod fetch;
mod handler;
mod report;

use pagepath_client::args::{self, Args};
use fetch::Fetch;
use handler::Handler;
use pagepath_client::config;
use pagepath_client::sockets::Sockets;
use report::Report;
use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;
use tquic::{Endpoint, PacketInfo};

const H3_NO_ERROR: u64 = 0x100;
const H3_REQUEST_CANCELLED: u64 = 0x10c;
const DATAGRAM_MAX: usize = 65_535;

fn main() -> ExitCode {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{}", args::HELP);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("pagepath-fetch: {e}\n(see pagepath-fetch --help)");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(report) => {
            println!("{}", serde_json::to_string(&report).expect("a report serialises"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pagepath-fetch: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(args: Args) -> Result<Report, String> {
    let sockets = Rc::new(Sockets::bind(&args.locals, args.connect)?);
    let locals = sockets.locals();
    let config = config::client_config(args.multipath.as_ref())?;
    let remote = args.connect;
    let authority = if remote.port() == 443 { args.host.clone() } else { format!("{}:{}", args.host, remote.port()) };
    let opened = Instant::now();
    let fetch = Rc::new(RefCell::new(Fetch::new(opened, authority, remote, locals[1..].to_vec(), args.targets)));
    let qlog = args.qlog.map(|dir| dir.join(format!("pagepath-fetch-{}.sqlog", std::process::id())));
    let handler = Handler { fetch: fetch.clone(), qlog };
    let mut endpoint = Endpoint::new(Box::new(config), false, Box::new(handler), sockets.clone());
    let index = endpoint
        .connect(locals[0], remote, Some(&args.host), None, None, None)
        .map_err(|e| format!("cannot open a connection to {remote}: {e}"))?;
    let deadline = opened + args.timeout;
    let mut buf = vec![0u8; DATAGRAM_MAX];
    loop {
        if let Err(e) = endpoint.process_connections() {
            return Err(format!("connection to {remote}: {e}"));
        }
        {
            let mut f = fetch.borrow_mut();
            if let Some(failure) = &f.failure {
                return Err(format!("connection to {remote}: {failure}"));
            }
            if f.finished() {
                break;
            }
            // Requests beyond the server's stream limit go as it raises the limit.
            if let Some(conn) = endpoint.conn_get_mut(index) {
                f.send_requests(conn);
            }
        }
        let now = Instant::now();
        if now >= deadline {
            close(&mut endpoint, index, H3_REQUEST_CANCELLED);
            return Err(timed_out(&fetch.borrow(), &args.timeout, remote));
        }
        let wait = endpoint.timeout().unwrap_or(deadline - now).min(deadline - now);
        for i in sockets.wait_readable(wait, None) {
            while let Some((len, from, local)) = sockets.recv(i, &mut buf) {
                let info = PacketInfo { src: from, dst: local, time: Instant::now() };
                // A datagram tquic cannot use is dropped, as a router would drop it.
                let _ = endpoint.recv(&mut buf[..len], &info);
            }
        }
        endpoint.on_timeout(Instant::now());
    }
    let f = fetch.borrow();
    let failed: Vec<String> =
        f.exchanges.iter().filter_map(|e| Some(format!("{}: {}", e.target.path, e.error.as_ref()?))).collect();
    if !failed.is_empty() {
        close(&mut endpoint, index, H3_REQUEST_CANCELLED);
        return Err(failed.join("; "));
    }
    let conn = endpoint.conn_get_mut(index).ok_or_else(|| format!("connection to {remote}: gone before it was read"))?;
    let report = Report {
        protocol: "h3",
        transport: if conn.is_multipath() { "mpquic" } else { "quic" },
        responses: f.exchanges.iter().map(report::response).collect(),
        paths: pagepath_server::io::quic::paths::path_logs(conn),
        handshake_us: f.handshake_us,
        cpu_us: report::cpu_us(),
    };
    drop(f);
    close(&mut endpoint, index, H3_NO_ERROR);
    Ok(report)
}

/// Tells the server at once rather than leave it to its idle timeout.
fn close(endpoint: &mut Endpoint, index: u64, code: u64) {
    if let Some(conn) = endpoint.conn_get_mut(index) {
        let _ = conn.close(true, code, b"");
        let _ = endpoint.process_connections();
    }
}

fn timed_out(f: &Fetch, timeout: &std::time::Duration, remote: std::net::SocketAddr) -> String {
    let after = format!("timed out after {} s", timeout.as_secs_f64());
    if f.handshake_us.is_none() {
        return format!("{after}: the QUIC handshake with {remote} did not complete");
    }
    let waiting: Vec<String> = f
        .exchanges
        .iter()
        .filter(|e| e.end_us.is_none() && e.error.is_none())
        .map(|e| match e.headers_us {
            None => format!("{} (no response headers)", e.target.path),
            Some(_) => format!("{} (headers and {} bytes of body)", e.target.path, e.bytes),
        })
        .collect();
    format!("{after} waiting for {}", waiting.join(", "))
}
