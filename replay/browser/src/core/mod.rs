//! The emulated browser's model, without I/O: the graph's activities run as their parents finish
//! (Algorithm 3), computations on one main thread with per-frame queues and events and timers
//! first (Algorithms 4 and 5), fetches handed out as requests, a preloader and a session cache.
//! Time is virtual: milliseconds since the run started, given by the caller.

mod browser;
mod connection_pool;
mod dispatch_latency;
mod font_display;
mod graph;
mod graph_nodes;
mod json;
mod lcp_candidates;
mod navigation_preconnect;
mod network;
mod priority;
mod ready;
mod report;
mod network_stack_scheduler;
mod request_gate;
mod request_start_spacing;
mod resource_scheduler;
mod scheduler;
mod socket_pool;
mod walk;

pub use browser::{Browser, Completion, Metrics, NodeTiming, Options, Outcome, PriorityScheme, Request, RequestId};
pub use connection_pool::Pool;
pub use graph::{parse_graph, Graph, Preconnect};
pub use lcp_candidates::LcpElement;
pub use socket_pool::{SocketAction, SocketPool};

/// Virtual time, ms since the run's start (the main document's request).
pub type Ms = f64;
