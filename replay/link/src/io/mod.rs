//! The edges: TUN devices, network namespaces, the forwarding threads and the state folder. All
//! decisions about packets live in `core`; this only moves bytes and keeps time.

pub mod clock;
pub mod forwarder;
pub mod host_link;
pub mod lateness;
pub mod log_file;
pub mod netns;
pub mod serve;
pub mod signals;
pub mod state;
pub mod tun;
