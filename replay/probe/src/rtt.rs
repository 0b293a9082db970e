//! `rtt`: timestamped probes to an echo server at a fixed interval. A separate thread sends, so a
//! slow reply never delays the next probe.

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::args::{self, Spec};
use crate::clock;
use crate::deadline;
use crate::failure::{io_context, Failure};
use crate::header::{Header, HEADER_BYTES};
use crate::percentile::Distribution;
use crate::sock;

const SPEC: Spec = Spec {
    valued: &[
        "--connect",
        "--count",
        "--interval-ms",
        "--size",
        "--timeout-ms",
    ],
    switches: &[],
};

/// Longest a receive blocks before we look again at whether the sender has finished.
const POLL: Duration = Duration::from_millis(20);

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub connect: SocketAddr,
    pub count: u64,
    pub interval_ms: u64,
    pub size: u64,
    pub timeout_ms: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    sent: u64,
    received: u64,
    rtt_ms: Option<Distribution>,
    /// In probe order; lost probes have no sample.
    samples_ms: Vec<f64>,
}

pub fn parse(argv: &[String]) -> Result<Options, Failure> {
    let args = args::parse(argv, &SPEC)?;
    Ok(Options {
        connect: args.required_addr("--connect")?,
        count: args.integer_or("--count", 20, 1, 1_000_000)?,
        interval_ms: args.integer_or("--interval-ms", 50, 0, 3_600_000)?,
        size: args.integer_or("--size", 64, HEADER_BYTES as u64, 65_507)?,
        timeout_ms: args.integer_or("--timeout-ms", 2000, 0, 3_600_000)?,
    })
}

/// Sends the probes on schedule; returns how many went out.
fn send_probes(socket: &UdpSocket, opts: &Options) -> io::Result<u64> {
    let mut datagram = vec![0u8; opts.size as usize];
    let start = clock::now_ns();
    for seq in 0..opts.count {
        clock::sleep_until(start + seq * opts.interval_ms * 1_000_000);
        Header {
            seq,
            sent_ns: clock::now_ns(),
            total: opts.count,
            flags: 0,
        }
        .write(&mut datagram);
        sock::send_datagram(socket, &datagram)?;
    }
    Ok(opts.count)
}

pub fn run(opts: &Options) -> Result<Report, Failure> {
    let socket = sock::udp_client(&opts.connect)
        .map_err(io_context(format!("--connect {}", opts.connect)))?;
    let sender_socket = socket
        .try_clone()
        .map_err(io_context("cloning the UDP socket"))?;
    let finished_at = Arc::new(AtomicU64::new(0));
    let sender = {
        let finished_at = Arc::clone(&finished_at);
        let opts = *opts;
        std::thread::spawn(move || {
            let result = send_probes(&sender_socket, &opts);
            // Set even on failure: the receive loop's final wait counts from here.
            finished_at.store(clock::now_ns(), Ordering::Release);
            result
        })
    };
    let mut rtts: Vec<Option<f64>> = vec![None; opts.count as usize];
    let mut received = 0u64;
    let mut buf = vec![0u8; 65_536];
    let grace_ns = opts.timeout_ms * 1_000_000;
    while received < opts.count {
        let finished = finished_at.load(Ordering::Acquire);
        let wait = if finished == 0 {
            POLL
        } else {
            match (finished + grace_ns).saturating_sub(clock::now_ns()) {
                0 => break,
                left => Duration::from_nanos(left).min(POLL),
            }
        };
        socket
            .set_read_timeout(Some(wait))
            .map_err(io_context("setting a read timeout"))?;
        let n = match socket.recv(&mut buf) {
            Ok(n) => n,
            // ECONNREFUSED: the ICMP error for a probe that found no echo server; that probe is lost.
            Err(e) if deadline::wait_ended(&e) || e.kind() == io::ErrorKind::ConnectionRefused => {
                continue
            }
            Err(e) => return Err(io_context("receiving replies")(e)),
        };
        let now = clock::now_ns();
        let Some(reply) = Header::read(&buf[..n]) else {
            continue;
        };
        if let Some(slot @ None) = rtts.get_mut(reply.seq as usize) {
            *slot = Some(now.saturating_sub(reply.sent_ns) as f64 / 1e6);
            received += 1;
        }
    }
    let sent = sender
        .join()
        .map_err(|_| Failure::Run("the probe sender panicked".into()))?
        .map_err(io_context(format!("sending to {}", opts.connect)))?;
    let samples_ms: Vec<f64> = rtts.into_iter().flatten().collect();
    Ok(Report {
        sent,
        received,
        rtt_ms: Distribution::of(&samples_ms),
        samples_ms,
    })
}
