//! The link model, free of I/O: packets in with a timestamp, packets out at the times the link
//! allows. Time is microseconds on a clock the caller owns (real in the forwarder, virtual in
//! tests), so every behaviour here is testable without sockets, as quinn-proto keeps QUIC's state.

pub mod config;
pub mod delay;
pub mod direction;
pub mod link;
pub mod log;
pub mod loss;
pub mod queue;
pub mod rng;
pub mod stats;
pub mod trace;

/// Microseconds on the caller's monotonic clock.
pub type Micros = u64;

/// Bytes one delivery opportunity carries, as Mahimahi counts them: a 1500-byte MTU plus the 4-byte
/// header its TUN devices add. A packet costs its IP length plus that header, so a full-size
/// packet uses exactly one opportunity, as in Mahimahi.
pub const OPPORTUNITY_BYTES: u64 = 1504;
pub const TUN_HEADER_BYTES: u64 = 4;
