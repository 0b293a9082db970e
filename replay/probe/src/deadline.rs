//! The end of a whole run, so a dead peer or a stalled link cannot hang a test, and the error
//! that says what we were doing when it passed.

use std::io;
use std::time::Duration;

use crate::clock;
use crate::failure::Failure;

pub struct Deadline {
    at_ns: u64,
    timeout_s: f64,
}

impl Deadline {
    pub fn after(timeout_s: f64) -> Deadline {
        Deadline {
            at_ns: clock::now_ns() + (timeout_s * 1e9) as u64,
            timeout_s,
        }
    }

    pub fn at_ns(&self) -> u64 {
        self.at_ns
    }

    pub fn expired(&self, doing: &str) -> Failure {
        Failure::Run(format!("timed out after {} s {doing}", self.timeout_s))
    }

    /// Time left, for a socket timeout; the failure once none is.
    pub fn left(&self, doing: &str) -> Result<Duration, Failure> {
        match self.at_ns.saturating_sub(clock::now_ns()) {
            0 => Err(self.expired(doing)),
            left => Ok(Duration::from_nanos(left)),
        }
    }
}

/// True for the errors a blocking call with a timeout returns when the timeout passes.
pub fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// A blocking receive that came back empty-handed because its timeout passed or a signal came;
/// the caller looks at the clock and its stop conditions, then waits again.
pub fn wait_ended(e: &io::Error) -> bool {
    timed_out(e) || e.kind() == io::ErrorKind::Interrupted
}
