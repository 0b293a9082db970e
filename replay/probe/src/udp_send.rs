//! `udp-send`: a constant-rate UDP stream whose datagrams carry their sequence number and send
//! time, for udp-recv to measure loss, reordering and one-way delay.

use std::net::SocketAddr;
use std::time::Duration;

use serde::Serialize;

use crate::args::{self, Spec};
use crate::clock;
use crate::failure::{io_context, Failure};
use crate::header::{Header, FLAG_END, HEADER_BYTES};
use crate::sock;

const SPEC: Spec = Spec {
    valued: &["--connect", "--rate-mbit", "--size", "--seconds", "--count"],
    switches: &["--no-catch-up"],
};

/// IPv4 + UDP header bytes. The rate counts them, as udp-recv's windows and a link's capacity do,
/// so `--rate-mbit 50` offers 50 Mbit/s to the link.
pub const WIRE_OVERHEAD: u64 = 28;
const MAX_PAYLOAD: u64 = 65_507;
const END_MARKERS: u64 = 5;
const END_MARKER_GAP: Duration = Duration::from_millis(10);

#[derive(Debug, PartialEq)]
pub enum Stop {
    After(f64),
    Count(u64),
}

#[derive(Debug, PartialEq)]
pub struct Options {
    pub connect: SocketAddr,
    pub rate_mbit: f64,
    pub size: u64,
    pub stop: Stop,
    /// After a late wake-up, send on from then instead of sending the missed datagrams at once:
    /// a burst would queue in the link, and a delay probe would then measure its own queue.
    pub no_catch_up: bool,
}

#[derive(Serialize)]
pub struct Report {
    sent: u64,
    /// Payload bytes of the data packets.
    bytes: u64,
    seconds: f64,
}

pub fn parse(argv: &[String]) -> Result<Options, Failure> {
    let args = args::parse(argv, &SPEC)?;
    let stop = match args.exactly_one(&["--seconds", "--count"])? {
        "--seconds" => Stop::After(args::required(
            args.positive("--seconds")?,
            "--seconds",
            "S",
        )?),
        _ => Stop::Count(args::required(
            args.integer("--count", 1, u64::MAX)?,
            "--count",
            "N",
        )?),
    };
    Ok(Options {
        connect: args.required_addr("--connect")?,
        rate_mbit: args::required(args.positive("--rate-mbit")?, "--rate-mbit", "R (Mbit/s)")?,
        size: args::required(
            args.integer("--size", HEADER_BYTES as u64, MAX_PAYLOAD)?,
            "--size",
            "BYTES (UDP payload)",
        )?,
        stop,
        no_catch_up: args.has("--no-catch-up"),
    })
}

pub fn run(opts: &Options) -> Result<Report, Failure> {
    let socket = sock::udp_client(&opts.connect)
        .map_err(io_context(format!("--connect {}", opts.connect)))?;
    let interval_ns = (opts.size + WIRE_OVERHEAD) as f64 * 8.0 / (opts.rate_mbit * 1e6) * 1e9;
    let (total, stop_ns) = match opts.stop {
        Stop::Count(n) => (n, u64::MAX),
        Stop::After(seconds) => (0, (seconds * 1e9) as u64),
    };
    eprintln!(
        "netprobe udp-send: {}-byte datagrams to {} at {} Mbit/s",
        opts.size, opts.connect, opts.rate_mbit
    );
    let mut datagram = vec![0u8; opts.size as usize];
    let start = clock::now_ns();
    let mut sent = 0u64;
    let mut last_ns = start;
    let mut pacer = Pacer::new(start, interval_ns, !opts.no_catch_up);
    loop {
        let due = pacer.due(sent);
        if (total > 0 && sent >= total) || due - start >= stop_ns {
            break;
        }
        clock::sleep_until(due);
        last_ns = clock::now_ns();
        pacer.woke(sent, due, last_ns);
        Header {
            seq: sent,
            sent_ns: last_ns,
            total,
            flags: 0,
        }
        .write(&mut datagram);
        sock::send_datagram(&socket, &datagram)
            .map_err(io_context(format!("sending to {}", opts.connect)))?;
        sent += 1;
    }
    // The markers announce the real count, so the receiver can count lost packets at the tail of
    // a duration-based stream too. Several, because any one of them may be lost.
    for i in 0..END_MARKERS {
        if i > 0 {
            std::thread::sleep(END_MARKER_GAP);
        }
        Header {
            seq: sent,
            sent_ns: clock::now_ns(),
            total: sent,
            flags: FLAG_END,
        }
        .write(&mut datagram);
        sock::send_datagram(&socket, &datagram)
            .map_err(io_context(format!("sending to {}", opts.connect)))?;
    }
    Ok(Report {
        sent,
        bytes: sent * opts.size,
        seconds: clock::seconds_between(start, last_ns),
    })
}

/// When each datagram is due. Each one's time comes from its index, so a late wake-up is caught up
/// on rather than pushing every later datagram back; or, without catching up, the schedule starts
/// again from the late datagram.
struct Pacer {
    origin_ns: u64,
    origin_index: u64,
    interval_ns: f64,
    catch_up: bool,
}

impl Pacer {
    fn new(start_ns: u64, interval_ns: f64, catch_up: bool) -> Pacer {
        Pacer { origin_ns: start_ns, origin_index: 0, interval_ns, catch_up }
    }

    fn due(&self, index: u64) -> u64 {
        self.origin_ns + ((index - self.origin_index) as f64 * self.interval_ns) as u64
    }

    /// Datagram `index`, due at `due_ns`, is being sent at `now_ns`.
    fn woke(&mut self, index: u64, due_ns: u64, now_ns: u64) {
        if !self.catch_up && now_ns > due_ns + self.interval_ns as u64 {
            self.origin_ns = now_ns;
            self.origin_index = index;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_wake_up_is_caught_up_on_or_moves_the_schedule() {
        let mut catching = Pacer::new(0, 100.0, true);
        catching.woke(0, 0, 1_000);
        assert_eq!((1..4).map(|i| catching.due(i)).collect::<Vec<_>>(), [100, 200, 300], "due at once: a burst");
        let mut steady = Pacer::new(0, 100.0, false);
        steady.woke(0, 0, 1_000);
        assert_eq!((1..4).map(|i| steady.due(i)).collect::<Vec<_>>(), [1_100, 1_200, 1_300], "spaced from the late one");
        let mut slightly = Pacer::new(0, 100.0, false);
        slightly.woke(0, 0, 50);
        assert_eq!(slightly.due(1), 100, "lateness within an interval keeps the schedule");
    }

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_and_checks_size() {
        let opts = parse(&words(
            "--connect 127.0.0.1:6000 --rate-mbit 50 --size 1200 --count 10",
        ))
        .unwrap();
        assert_eq!(
            (opts.rate_mbit, opts.size, opts.stop),
            (50.0, 1200, Stop::Count(10))
        );
        let err = parse(&words(
            "--connect 127.0.0.1:6000 --rate-mbit 50 --size 10 --seconds 1",
        ))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--size: expected an integer from 28 to 65507, found '10'"
        );
    }
}
