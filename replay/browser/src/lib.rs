//! PCP's emulated browser (seed 001 §3.7.2-3.7.5). `core` is the page model, a pure state machine
//! over virtual time; `io` drives it with real connections.

pub mod cli;
pub mod core;
pub mod io;
