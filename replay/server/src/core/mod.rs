//! The replay server's decisions, without I/O: what a recording serves, which response answers a
//! request, how long the server thinks, and in what order a connection's responses go out.

pub mod archive;
pub mod delay;
pub mod matcher;
pub mod priority;
pub mod schedule;

mod json;
mod rng;

#[cfg(test)]
mod tests;
