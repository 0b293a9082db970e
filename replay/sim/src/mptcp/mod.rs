//! MPTCP in virtual time (issue 22): each subflow a smoltcp TCP connection over its own path, the
//! connection's data stream split among them by pagepath's multipath schedulers (replay/multipath),
//! as the kernel's MPTCP splits it in the real replay. What RFC 8684 says in TCP options is said
//! in-band (frame.rs), in as many bytes.

pub mod connections;
pub mod coupled;
pub mod endpoint;
pub mod frame;
pub mod reassembly;
pub mod retransmission;
pub mod sending;
pub mod stream;
