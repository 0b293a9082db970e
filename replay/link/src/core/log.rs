//! mm-link's log format, so Mahimahi's mm-throughput-graph and mm-delay-graph read our logs.
//! Times are whole milliseconds since the direction started.

use super::config::{Capacity, Limit, QueueConfig};
use std::io::{self, Write};

/// What the header's lines say; the I/O layer knows the names and paths.
pub struct LogHeader<'a> {
    /// "uplink" or "downlink", or the path and direction.
    pub link_name: &'a str,
    /// Mahimahi puts the trace file here; see `describe_capacity`.
    pub capacity: &'a str,
    pub log_path: &'a str,
    pub command_line: &'a str,
    /// See `describe_queue`.
    pub queue: &'a str,
    /// Unix time in ms of the direction's start.
    pub init_timestamp_ms: u64,
}

/// A log being written. The link cannot stop for a write error, so the first one is kept, later
/// writes are skipped, and `finish` reports it.
pub struct LinkLog {
    out: Box<dyn Write + Send>,
    error: Option<io::Error>,
}

impl LinkLog {
    pub fn new(out: Box<dyn Write + Send>, header: &LogHeader) -> LinkLog {
        let mut log = LinkLog { out, error: None };
        let h = header;
        log.line(format_args!(
            "# mahimahi mm-link ({}) [{}] > {}",
            h.link_name, h.capacity, h.log_path
        ));
        log.line(format_args!("# command line: {}", h.command_line));
        log.line(format_args!("# queue: {}", h.queue));
        log.line(format_args!("# init timestamp: {}", h.init_timestamp_ms));
        log.line(format_args!("# base timestamp: 0"));
        log
    }

    fn line(&mut self, args: std::fmt::Arguments) {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{args}") {
                self.error = Some(e);
            }
        }
    }

    pub fn arrival(&mut self, ms: u64, wire: u64) {
        self.line(format_args!("{ms} + {wire}"));
    }

    pub fn departure(&mut self, ms: u64, wire: u64, queue_delay_ms: u64) {
        self.line(format_args!("{ms} - {wire} {queue_delay_ms}"));
    }

    pub fn opportunity(&mut self, ms: u64) {
        self.line(format_args!("{ms} # {}", super::OPPORTUNITY_BYTES));
    }

    pub fn drops(&mut self, ms: u64, packets: u64, bytes: u64) {
        self.line(format_args!("{ms} d {packets} {bytes}"));
    }

    /// Flushes, and reports the first error any write met.
    pub fn finish(&mut self) -> io::Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

/// Rounds away float noise such as 0.66 * 150 = 99.00000000000001.
fn number(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn limit(limit: Limit) -> String {
    match limit {
        Limit::Packets(n) => format!("packets={n}"),
        Limit::Bytes(n) => format!("bytes={n}"),
    }
}

/// The header's description of a queue, in Mahimahi's style; CoDel times in ms as mm-link takes.
pub fn describe_queue(queue: &QueueConfig) -> String {
    match *queue {
        QueueConfig::Infinite => "infinite".into(),
        QueueConfig::DropTail(l) => format!("droptail [{}]", limit(l)),
        QueueConfig::DropHead(l) => format!("drophead [{}]", limit(l)),
        QueueConfig::Red {
            limit: l,
            min_th,
            max_th,
            max_p,
            weight,
            gentle,
        } => format!(
            "red [{}, min_th={}, max_th={}, max_p={}, weight={}, gentle={gentle}]",
            limit(l),
            number(min_th),
            number(max_th),
            number(max_p),
            number(weight)
        ),
        QueueConfig::Codel {
            limit: l,
            target,
            interval,
        } => format!(
            "codel [{}, target={}, interval={}]",
            limit(l),
            target as f64 / 1000.0,
            interval as f64 / 1000.0
        ),
    }
}

/// The header's description of a capacity, where Mahimahi names the trace file.
pub fn describe_capacity(capacity: &Capacity) -> String {
    match capacity {
        Capacity::Unlimited => "unlimited".into(),
        Capacity::Constant { bits_per_second } => {
            format!("constant {} Mbit/s", *bits_per_second as f64 / 1e6)
        }
        Capacity::Trace {
            opportunities_ms,
            once,
        } => format!(
            "trace, {} opportunities over {} ms, {}",
            opportunities_ms.len(),
            opportunities_ms.last().copied().unwrap_or(0),
            if *once { "once" } else { "repeating" }
        ),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer whose bytes the test can still read after handing it to the log.
    #[derive(Clone, Default)]
    pub struct Shared(pub Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        pub fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn header() -> LogHeader<'static> {
        LogHeader {
            link_name: "uplink",
            capacity: "trace, 2 opportunities over 4 ms, repeating",
            log_path: "/tmp/up.log",
            command_line: "pagepath-net --uplink-log /tmp/up.log",
            queue: "droptail [packets=2]",
            init_timestamp_ms: 1_700_000_000_000,
        }
    }

    #[test]
    fn writes_mahimahi_header_and_event_lines() {
        let shared = Shared::default();
        let mut log = LinkLog::new(Box::new(shared.clone()), &header());
        log.arrival(0, 1504);
        log.drops(0, 1, 100);
        log.opportunity(2);
        log.departure(2, 1504, 2);
        log.finish().unwrap();
        assert_eq!(
            shared.text(),
            "# mahimahi mm-link (uplink) [trace, 2 opportunities over 4 ms, repeating] > /tmp/up.log\n\
             # command line: pagepath-net --uplink-log /tmp/up.log\n\
             # queue: droptail [packets=2]\n\
             # init timestamp: 1700000000000\n\
             # base timestamp: 0\n\
             0 + 1504\n0 d 1 100\n2 # 1504\n2 - 1504 2\n"
        );
    }

    #[test]
    fn the_first_write_error_is_reported_at_finish() {
        let mut log = LinkLog::new(Box::new(Broken), &header());
        log.arrival(0, 100);
        assert_eq!(log.finish().unwrap_err().to_string(), "disk full");
    }

    #[test]
    fn describes_queues_and_capacities() {
        assert_eq!(describe_queue(&QueueConfig::Infinite), "infinite");
        assert_eq!(
            describe_queue(&QueueConfig::DropTail(Limit::Packets(100))),
            "droptail [packets=100]"
        );
        assert_eq!(
            describe_queue(&QueueConfig::DropHead(Limit::Bytes(3000))),
            "drophead [bytes=3000]"
        );
        let codel = QueueConfig::Codel {
            limit: Limit::Packets(1000),
            target: 5000,
            interval: 100_000,
        };
        assert_eq!(
            describe_queue(&codel),
            "codel [packets=1000, target=5, interval=100]"
        );
        assert_eq!(
            describe_queue(&crate::core::queue::red_thesis(Limit::Packets(150))),
            "red [packets=150, min_th=99, max_th=120, max_p=0.1, weight=1, gentle=true]"
        );
        assert_eq!(describe_capacity(&Capacity::Unlimited), "unlimited");
        assert_eq!(
            describe_capacity(&Capacity::Constant {
                bits_per_second: 12_500_000
            }),
            "constant 12.5 Mbit/s"
        );
        let once = Capacity::Trace {
            opportunities_ms: vec![0, 3, 9],
            once: true,
        };
        assert_eq!(
            describe_capacity(&once),
            "trace, 3 opportunities over 9 ms, once"
        );
    }
}
