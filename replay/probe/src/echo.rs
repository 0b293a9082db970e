//! `echo`: sends every datagram back to where it came from, for rtt to time.

use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

use serde::Serialize;

use crate::args::{self, Spec};
use crate::clock;
use crate::deadline;
use crate::failure::{io_context, Failure};
use crate::signals;

const SPEC: Spec = Spec {
    valued: &["--listen", "--seconds"],
    switches: &[],
};

/// Longest a receive blocks, which bounds how late we notice a signal that arrives just before
/// the receive starts (one arriving during it interrupts it at once).
const POLL: Duration = Duration::from_millis(200);

#[derive(Debug, PartialEq)]
pub struct Options {
    pub listen: SocketAddr,
    pub seconds: Option<f64>,
}

#[derive(Serialize)]
pub struct Report {
    echoed: u64,
}

pub fn parse(argv: &[String]) -> Result<Options, Failure> {
    let args = args::parse(argv, &SPEC)?;
    Ok(Options {
        listen: args.required_addr("--listen")?,
        seconds: args.positive("--seconds")?,
    })
}

pub fn run(opts: &Options) -> Result<Report, Failure> {
    signals::stop_on_termination().map_err(io_context("installing signal handlers"))?;
    let socket =
        UdpSocket::bind(opts.listen).map_err(io_context(format!("--listen {}", opts.listen)))?;
    eprintln!("netprobe echo: listening on {}", opts.listen);
    let deadline = opts.seconds.map(|s| clock::now_ns() + (s * 1e9) as u64);
    let mut buf = vec![0u8; 65_536];
    let mut echoed = 0u64;
    while !signals::stop_requested() {
        let wait = match deadline {
            Some(at) => match at.saturating_sub(clock::now_ns()) {
                0 => break,
                left => Duration::from_nanos(left).min(POLL),
            },
            None => POLL,
        };
        socket
            .set_read_timeout(Some(wait))
            .map_err(io_context("setting a read timeout"))?;
        match socket.recv_from(&mut buf) {
            Ok((n, peer)) => match socket.send_to(&buf[..n], peer) {
                Ok(_) => echoed += 1,
                // The client may be gone or the link may be full; an echo server carries on.
                Err(e) => eprintln!("netprobe echo: reply to {peer}: {e}"),
            },
            Err(e) if deadline::wait_ended(&e) => {}
            Err(e) => return Err(io_context("receiving")(e)),
        }
    }
    Ok(Report { echoed })
}
