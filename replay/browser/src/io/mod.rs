//! The emulated browser's edges: real connections carrying the model's requests.

pub mod clock;
pub mod driver;
pub mod origins;
pub mod phases;
pub mod quic;
pub mod report;
pub mod router;
pub mod tcp;
pub mod transport;
