//! Every scheduler by name. Adding one is a file in `schedulers/` with its `ENTRY`, and one line
//! in `SCHEDULERS` (docs/multipath-schedulers.md walks through it).

use crate::options::Options;
use crate::scheduler::Scheduler;
use crate::schedulers;

pub struct Entry {
    pub name: &'static str,
    /// One line for `--help` and the docs: what it does and the section it implements.
    pub summary: &'static str,
    pub build: fn(&Options) -> Result<Box<dyn Scheduler>, String>,
}

pub const SCHEDULERS: &[Entry] = &[
    schedulers::lowest_rtt::ENTRY,
    schedulers::round_robin::ENTRY,
    schedulers::redundant::ENTRY,
    schedulers::ecf::ENTRY,
    schedulers::blest::ENTRY,
    schedulers::srpt::ENTRY,
    schedulers::srpt_ecf::ENTRY,
    schedulers::sa_ecf::ENTRY,
    schedulers::sa_ecf_ported::ENTRY,
    schedulers::sa_ecf_adapted::ENTRY,
    schedulers::stream_scheduler::ENTRY,
    schedulers::fair::ENTRY,
    schedulers::hbes::ENTRY,
    schedulers::kernel_default::ENTRY,
];

/// The scheduler registered as `name`, built with `options`; an unknown name lists the known ones.
pub fn build(name: &str, options: &Options) -> Result<Box<dyn Scheduler>, String> {
    let entry = SCHEDULERS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| format!("no scheduler {name}; the schedulers are {}", names().join(", ")))?;
    (entry.build)(options)
}

pub fn names() -> Vec<&'static str> {
    SCHEDULERS.iter().map(|e| e.name).collect()
}
