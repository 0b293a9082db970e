//! pagepath's replay origin servers: a recording's archive served from one server per recorded
//! host, over HTTP/1.1, HTTP/2 and HTTP/3 on TCP, MPTCP, QUIC and multipath QUIC, with PCP's
//! server models and response prioritisation (seed 001 §3.7.6, §3.7.7.7).

pub mod config;
pub mod core;
pub mod io;
pub mod run;
pub mod schedulers_verb;
pub mod service;
pub mod transport_knobs_verb;
