//! pagepath's link emulator: Mahimahi-style delay, loss, queues and trace-driven capacity in user
//! space, between network namespaces joined by TUN devices (this kernel has no netem).

pub mod cli;
pub mod core;
pub mod io;
pub mod plot;
pub mod topology;
