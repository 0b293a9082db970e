//! The simulator (issue 22): the emulated browser's model and its HTTP/1.x, HTTP/2 and HTTP/3
//! clients, the replay servers, tquic itself and smoltcp's TCP (with MPTCP over it), joined by the link emulator's
//! model of each path, all in virtual time on one thread. Nothing here models the browser, the
//! servers, QUIC or TCP: it only carries their packets and moves the clock from one event to the
//! next.

pub mod cli;
pub mod datagram;
pub mod fetch_load;
pub mod kept;
pub mod messages;
pub mod mptcp;
pub mod paths;
pub mod quic_load;
pub mod runtime_clock;
pub mod simulation;
pub mod tcp;
pub mod virtual_clock;
pub mod wire;
pub mod world;
