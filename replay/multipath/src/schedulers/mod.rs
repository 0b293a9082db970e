//! One file per scheduler, named after it, citing the section of the seed it implements.
pub mod lowest_rtt;
pub mod kernel_default;
pub mod round_robin;
pub mod redundant;
pub mod ecf;
pub mod blest;
pub mod ecf_paths;
pub mod srpt;
pub mod srpt_ecf;
pub mod stream_rounds;
pub mod sa_ecf;
pub mod sa_ecf_ported;
pub mod sa_ecf_adapted;
pub mod stream_scheduler;
pub mod fair;
pub mod hbes;
