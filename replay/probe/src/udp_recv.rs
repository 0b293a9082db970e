//! `udp-recv`: the sink for udp-send. Records each datagram's arrival and leaves the arithmetic
//! until the stream has ended, so the receive loop keeps up with fast links.

use std::net::{SocketAddr, UdpSocket};
use std::os::fd::AsRawFd;
use std::time::Duration;

use serde::Serialize;

use crate::args::{self, Spec};
use crate::arrival_stamps::StampedSocket;
use crate::clock;
use crate::deadline;
use crate::failure::{io_context, Failure};
use crate::header::Header;
use crate::loss::{Loss, SeqTracker};
use crate::percentile::Distribution;
use crate::sock;
use crate::udp_send::WIRE_OVERHEAD;
use crate::windows::Windows;

const SPEC: Spec = Spec {
    valued: &["--listen", "--window-ms", "--idle-timeout", "--timeout"],
    switches: &[],
};

/// Asked-for socket buffer, so a burst released by the emulated link is not dropped here and
/// counted as link loss. The kernel caps it at net.core.rmem_max.
const RECEIVE_BUFFER: libc::c_int = 8 << 20;

#[derive(Debug, PartialEq)]
pub struct Options {
    pub listen: SocketAddr,
    pub window_ms: u64,
    pub idle_timeout_s: f64,
    pub timeout_s: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    #[serde(flatten)]
    loss: Loss,
    window_ms: u64,
    windows: Vec<u64>,
    /// From the send to the kernel's taking the datagram in (arrival_stamps.rs).
    owd_us: Option<Distribution>,
    /// From the send to this receiver's reading it: the above plus the receiver's own delay.
    read_owd_us: Option<Distribution>,
}

pub fn parse(argv: &[String]) -> Result<Options, Failure> {
    let args = args::parse(argv, &SPEC)?;
    Ok(Options {
        listen: args.required_addr("--listen")?,
        window_ms: args.integer_or("--window-ms", 100, 1, 3_600_000)?,
        idle_timeout_s: args.positive_or("--idle-timeout", 3.0)?,
        timeout_s: args.positive_or("--timeout", 60.0)?,
    })
}

pub fn run(opts: &Options) -> Result<Report, Failure> {
    let socket =
        UdpSocket::bind(opts.listen).map_err(io_context(format!("--listen {}", opts.listen)))?;
    if let Err(e) = sock::set_int_option(
        socket.as_raw_fd(),
        libc::SOL_SOCKET,
        libc::SO_RCVBUF,
        RECEIVE_BUFFER,
    ) {
        eprintln!("netprobe udp-recv: cannot enlarge the receive buffer: {e}");
    }
    let mut stamped = StampedSocket::new(&socket).map_err(io_context("asking for receive timestamps"))?;
    eprintln!("netprobe udp-recv: listening on {}", opts.listen);
    let deadline = clock::now_ns() + (opts.timeout_s * 1e9) as u64;
    let idle_ns = (opts.idle_timeout_s * 1e9) as u64;
    let mut buf = vec![0u8; 65_536];
    let mut tracker = SeqTracker::default();
    let mut windows = Windows::new(opts.window_ms);
    let mut owd_us = Vec::new();
    let mut read_owd_us = Vec::new();
    let mut announced = 0u64;
    let mut last_arrival: Option<u64> = None;
    loop {
        let wait_until = last_arrival.map_or(deadline, |t| (t + idle_ns).min(deadline));
        let left = wait_until.saturating_sub(clock::now_ns());
        if left == 0 {
            break;
        }
        socket
            .set_read_timeout(Some(Duration::from_nanos(left)))
            .map_err(io_context("setting a read timeout"))?;
        let got = match stamped.recv(&mut buf) {
            Ok(got) => got,
            Err(e) if deadline::wait_ended(&e) => continue,
            Err(e) => return Err(io_context("receiving")(e)),
        };
        let Some(header) = Header::read(&buf[..got.len]) else {
            continue;
        };
        last_arrival = Some(got.read_ns);
        announced = announced.max(header.total);
        if header.is_end() {
            break;
        }
        windows.add(got.arrived_ns, got.len as u64 + WIRE_OVERHEAD);
        if tracker.record(header.seq) {
            owd_us.push((got.arrived_ns as i64 - header.sent_ns as i64) as f64 / 1e3);
            read_owd_us.push((got.read_ns as i64 - header.sent_ns as i64) as f64 / 1e3);
        }
    }
    if last_arrival.is_none() {
        return Err(Failure::Run(format!(
            "no datagrams arrived on {} within {} s",
            opts.listen, opts.timeout_s
        )));
    }
    Ok(Report {
        loss: tracker.loss(announced),
        window_ms: opts.window_ms,
        windows: windows.into_vec(),
        owd_us: Distribution::of(&owd_us),
        read_owd_us: Distribution::of(&read_owd_us),
    })
}
