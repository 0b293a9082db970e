//! pagepath's multipath schedulers behind one sans-IO interface. A transport (tquic in the replay
//! servers, a model in tests and benchmarks, the virtual-time simulator) hands a scheduler
//! snapshots of its paths and sendable streams and gets back the path for the next packet and the
//! stream that fills it. Nothing here reads a clock or touches a socket.

pub mod ideal_paths;
pub mod options;
pub mod registry;
pub mod scheduler;
pub mod schedulers;
pub mod snapshot;
pub mod urgency_weights;

pub use options::Options;
pub use registry::{build, names, Entry, SCHEDULERS};
pub use scheduler::{Decision, Event, PathChoice, PathScheduler, Paired, Scheduler, StreamScheduler, TransportOrder};
pub use snapshot::{Context, PathId, PathSnapshot, StreamId, StreamSnapshot};
