//! The topology: client and server namespaces joined by one or more emulated paths, read from a
//! versioned JSON file (docs/formats/topology.md), from `pagepath net up` flags, or from Mahimahi
//! shell arguments. Everything here is pure: text in, a resolved topology or an error out.

mod direction;
mod fields;
mod json;
pub mod mahimahi;
mod queue;

use crate::core::config::DirectionConfig;

pub use json::{parse_topology, topology_from_value, ParseContext};

pub const SCHEMA_VERSION: u64 = 1;
pub const MAX_PATHS: usize = 8;

/// A topology ready to bring up: every value checked, every random per-run choice drawn.
#[derive(Clone, Debug)]
pub struct Topology {
    pub seed: u64,
    pub paths: Vec<PathSpec>,
    pub mptcp: bool,
}

#[derive(Clone, Debug)]
pub struct PathSpec {
    pub name: String,
    pub backup: bool,
    pub uplink: DirectionConfig,
    pub downlink: DirectionConfig,
    /// What the user wrote, for logs and status (trace file names, queue arguments).
    pub uplink_text: String,
    pub downlink_text: String,
    /// mm-link log files, when asked for.
    pub uplink_log: Option<std::path::PathBuf>,
    pub downlink_log: Option<std::path::PathBuf>,
}

/// Addresses are the same in every topology: each topology has namespaces of its own, so two
/// running at once never see each other's addresses.
pub fn client_addr(path: usize) -> String {
    format!("10.10.{path}.2")
}
pub fn server_link_addr(path: usize) -> String {
    format!("10.10.{path}.1")
}
/// Where servers listen in the server namespace (replay origins take more of 10.200.0.0/16).
pub const SERVER_ADDR: &str = "10.200.0.1";
pub const SERVER_NET: &str = "10.200.0.0/16";

#[cfg(test)]
mod tests;
