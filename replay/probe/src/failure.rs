//! Why a subcommand failed, which decides the exit status: scripts that drive the probe need to
//! tell a mistake in their own command line (2) from a network or system failure (1).

use std::fmt;
use std::io;

#[derive(Debug, PartialEq)]
pub enum Failure {
    /// The command line is wrong; the message names the argument and what is wrong with it.
    Usage(String),
    /// The run itself failed (socket error, timeout, nothing received).
    Run(String),
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Run(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(message) | Failure::Run(message) => f.write_str(message),
        }
    }
}

/// Wraps an I/O error with what we were doing, for `map_err`.
pub fn io_context(what: impl fmt::Display) -> impl FnOnce(io::Error) -> Failure {
    move |err| Failure::Run(format!("{what}: {err}"))
}
