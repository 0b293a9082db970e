//! The replay server's edges: sockets, TLS, HTTP front ends, QUIC, files.

pub mod addresses;
pub mod body;
pub mod certs;
pub mod congestion;
pub mod driver;
pub mod http;
pub mod load;
pub mod logs;
pub mod one_length_signatures;
pub mod origins_file;
pub mod quic;
pub mod sockets;
pub mod stream_paths;
pub mod tail_loss_probes;
pub mod tcp_stats;
pub mod tls;
