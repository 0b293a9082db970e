//! TCP in virtual time (issue 22): smoltcp's TCP, one stack per host, over the paths as the link
//! emulator models them, carrying the emulated browser's and the replay servers' own HTTP/1.x and
//! HTTP/2 code (rustls, h2, hyper) on a virtual-time executor (pagepath-runtime) whose clock
//! moves from one event to the next. Nothing here is a model of TCP: smoltcp is a real, sans-IO stack, patched
//! only so that its initial window and RTO floor can be Linux's (replay/patches/smoltcp-*).

pub mod buffers;
pub mod counts;
pub mod fabric;
pub mod handshake_crypto;
pub mod host;
pub mod key_schedule;
pub mod profile;
pub mod record_protection;
pub mod stream;
pub mod tls_crypto;
pub mod world;
