//! The simulator (issue 22): the emulated browser's model and its HTTP/3 client, the replay
//! servers and tquic itself, joined by the link emulator's model of each path, all in virtual
//! time on one thread. Nothing here models the browser, the servers or QUIC: it only carries their
//! datagrams and moves the clock from one event to the next.

pub mod cli;
pub mod datagram;
pub mod paths;
pub mod simulation;
pub mod virtual_clock;
pub mod wire;
pub mod world;
