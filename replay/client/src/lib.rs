//! The QUIC pieces pagepath's HTTP/3 clients share: pagepath-fetch (src/main.rs) and the emulated
//! browser's QUIC transport.

pub mod config;
pub mod sockets;
