//! `tcp`: one bulk TCP or MPTCP connection, measuring what the receiver gets per time window.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::os::fd::AsRawFd;

use serde::Serialize;

use crate::args::{self, Spec};
use crate::clock;
use crate::deadline::{self, Deadline};
use crate::failure::{io_context, Failure};
use crate::mptcp;
use crate::sock;
use crate::tcp_limits::{sender_limits, SenderLimits};
use crate::windows::Windows;

const SPEC: Spec = Spec {
    valued: &[
        "--listen",
        "--connect",
        "--send",
        "--window-ms",
        "--timeout",
        "--cc",
    ],
    switches: &["--recv", "--mptcp"],
};

const BUFFER_BYTES: usize = 64 * 1024;

#[derive(Debug, PartialEq)]
pub enum Endpoint {
    Listen(SocketAddr),
    Connect(SocketAddr),
}

#[derive(Debug, PartialEq)]
pub struct Options {
    pub endpoint: Endpoint,
    /// Some(seconds) to send for that long, None to receive.
    pub send_seconds: Option<f64>,
    pub mptcp: bool,
    /// Congestion control for this connection (TCP_CONGESTION), e.g. "cubic"; the namespace's
    /// default when None. Set per socket because a non-initial namespace may only default to
    /// the algorithms the host allows.
    pub cc: Option<String>,
    pub window_ms: u64,
    pub timeout_s: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    role: &'static str,
    mptcp: bool,
    bytes: u64,
    seconds: f64,
    mbps: f64,
    window_ms: u64,
    windows: Vec<u64>,
    subflows: Option<u32>,
    fallback: Option<bool>,
    /// The sender's: what held it back, read when it stopped writing (TCP only).
    limits: Option<SenderLimits>,
}

pub fn parse(argv: &[String]) -> Result<Options, Failure> {
    let args = args::parse(argv, &SPEC)?;
    let endpoint = match args.exactly_one(&["--listen", "--connect"])? {
        "--listen" => Endpoint::Listen(args.required_addr("--listen")?),
        _ => Endpoint::Connect(args.required_addr("--connect")?),
    };
    let send_seconds = match args.exactly_one(&["--send", "--recv"])? {
        "--send" => args.positive("--send")?,
        _ => None,
    };
    let timeout_s = args.positive_or("--timeout", 30.0)?;
    if let Some(seconds) = send_seconds.filter(|s| *s >= timeout_s) {
        return Err(Failure::Usage(format!(
            "--timeout: must be longer than --send ({seconds} s), found {timeout_s}"
        )));
    }
    Ok(Options {
        endpoint,
        send_seconds,
        mptcp: args.has("--mptcp"),
        cc: args.text("--cc").map(str::to_string),
        window_ms: args.integer_or("--window-ms", 100, 1, 3_600_000)?,
        timeout_s,
    })
}

pub fn run(opts: &Options) -> Result<Report, Failure> {
    let deadline = Deadline::after(opts.timeout_s);
    let kind = if opts.mptcp { "MPTCP" } else { "TCP" };
    // The listener stays open for the whole transfer: MPTCP's extra subflows arrive as new
    // connections (MP_JOIN) on the same port, and a closed listener would reset them.
    let (_listener, mut stream) = match opts.endpoint {
        Endpoint::Listen(addr) => {
            let listener =
                sock::listen(&addr, opts.mptcp).map_err(io_context(format!("--listen {addr}")))?;
            eprintln!("netprobe tcp: {kind} listening on {addr}");
            let stream = sock::accept(&listener, deadline.at_ns()).map_err(|e| {
                if deadline::timed_out(&e) {
                    deadline.expired(&format!("waiting for a connection on {addr}"))
                } else {
                    io_context(format!("accepting on {addr}"))(e)
                }
            })?;
            (Some(listener), stream)
        }
        Endpoint::Connect(addr) => {
            let stream = sock::connect(&addr, opts.mptcp, deadline.at_ns()).map_err(|e| {
                if deadline::timed_out(&e) {
                    deadline.expired(&format!("connecting to {addr}"))
                } else {
                    io_context(format!("connecting to {addr} (retried for up to 5 s)"))(e)
                }
            })?;
            (None, stream)
        }
    };
    if let Some(cc) = &opts.cc {
        sock::set_congestion_control(stream.as_raw_fd(), cc).map_err(io_context(format!("--cc {cc}")))?;
    }
    eprintln!("netprobe tcp: {kind} connection established");
    let (role, bytes, seconds, windows, limits) = match opts.send_seconds {
        Some(duration) => {
            let (bytes, seconds, limits) = send(&mut stream, duration, &deadline)?;
            ("send", bytes, seconds, Vec::new(), limits)
        }
        None => {
            let (bytes, seconds, windows) = receive(&mut stream, opts.window_ms, &deadline)?;
            ("recv", bytes, seconds, windows, None)
        }
    };
    // Read just before close, when the path manager has done all it will for this connection.
    let status = if opts.mptcp {
        mptcp::status(stream.as_raw_fd())
            .map_err(|e| eprintln!("netprobe tcp: cannot read MPTCP_INFO: {e}"))
            .ok()
    } else {
        None
    };
    Ok(Report {
        role,
        mptcp: opts.mptcp,
        bytes,
        seconds,
        mbps: if seconds > 0.0 {
            bytes as f64 * 8.0 / seconds / 1e6
        } else {
            0.0
        },
        window_ms: opts.window_ms,
        windows,
        subflows: status.map(|s| s.subflows),
        fallback: status.map(|s| s.fallback),
        limits: if opts.mptcp { None } else { limits },
    })
}

/// Writes for `duration` seconds, then half-closes and waits for the receiver's EOF so that the
/// connection (and its MPTCP state) is still whole when we read it.
fn send(stream: &mut TcpStream, duration: f64, deadline: &Deadline) -> Result<(u64, f64, Option<SenderLimits>), Failure> {
    let buf = vec![0u8; BUFFER_BYTES];
    let start = clock::now_ns();
    let stop = start + (duration * 1e9) as u64;
    let mut bytes = 0u64;
    let mut now = start;
    while now < stop {
        const DOING: &str = "sending";
        stream
            .set_write_timeout(Some(deadline.left(DOING)?))
            .map_err(io_context("setting a write timeout"))?;
        match stream.write(&buf) {
            Ok(n) => bytes += n as u64,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if deadline::timed_out(&e) => return Err(deadline.expired(DOING)),
            Err(e) => return Err(io_context(DOING)(e)),
        }
        now = clock::now_ns();
    }
    // Before the close, whose drain would count as time not limited by the application.
    let limits = sender_limits(stream.as_raw_fd());
    stream
        .shutdown(Shutdown::Write)
        .map_err(io_context("shutting down the write side"))?;
    let seconds = clock::seconds_between(start, now);
    let mut sink = [0u8; 4096];
    loop {
        const DOING: &str = "waiting for the receiver to close";
        stream
            .set_read_timeout(Some(deadline.left(DOING)?))
            .map_err(io_context("setting a read timeout"))?;
        match stream.read(&mut sink) {
            Ok(0) => return Ok((bytes, seconds, limits)),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if deadline::timed_out(&e) => return Err(deadline.expired(DOING)),
            Err(e) => return Err(io_context(DOING)(e)),
        }
    }
}

/// Reads until EOF; the duration runs from the first byte to the last, so connection setup and
/// the wait for the sender are not counted against the link.
fn receive(
    stream: &mut TcpStream,
    window_ms: u64,
    deadline: &Deadline,
) -> Result<(u64, f64, Vec<u64>), Failure> {
    const DOING: &str = "receiving (no EOF from the sender)";
    let mut buf = vec![0u8; BUFFER_BYTES];
    let mut windows = Windows::new(window_ms);
    let mut bytes = 0u64;
    let mut span: Option<(u64, u64)> = None;
    loop {
        stream
            .set_read_timeout(Some(deadline.left(DOING)?))
            .map_err(io_context("setting a read timeout"))?;
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let now = clock::now_ns();
                span = Some((span.map_or(now, |(first, _)| first), now));
                windows.add(now, n as u64);
                bytes += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if deadline::timed_out(&e) => return Err(deadline.expired(DOING)),
            Err(e) => return Err(io_context("receiving")(e)),
        }
    }
    let seconds = span.map_or(0.0, |(first, last)| clock::seconds_between(first, last));
    Ok((bytes, seconds, windows.into_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_a_sender_and_rejects_conflicts() {
        let opts = parse(&words("--connect 127.0.0.1:5999 --send 1.5 --mptcp")).unwrap();
        assert_eq!(
            opts.endpoint,
            Endpoint::Connect("127.0.0.1:5999".parse().unwrap())
        );
        assert_eq!(
            (
                opts.send_seconds,
                opts.mptcp,
                opts.window_ms,
                opts.timeout_s
            ),
            (Some(1.5), true, 100, 30.0)
        );
        let usage = |s: &str| parse(&words(s)).err().unwrap().to_string();
        assert_eq!(usage("--recv"), "one of --listen, --connect is required");
        assert_eq!(
            usage("--listen 127.0.0.1:1 --send 1 --recv"),
            "--send and --recv cannot be combined"
        );
        assert!(usage("--listen 127.0.0.1:1 --send 40")
            .starts_with("--timeout: must be longer than --send"));
    }
}
