//! The QUIC pieces pagepath's HTTP/3 clients share: pagepath-fetch (src/main.rs) and the emulated
//! browser's QUIC transport; and pagepath-fetch's command line, which the simulator takes too.

pub mod args;
pub mod config;
pub mod sockets;
