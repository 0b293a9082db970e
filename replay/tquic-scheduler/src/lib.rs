//! pagepath's multipath schedulers (`pagepath-multipath`) driving tquic's multipath QUIC, through
//! the public hook pagepath's patch adds to tquic 1.6.0 (`tquic::ExternalScheduler`,
//! replay/patches/). tquic knows nothing of pagepath and pagepath-multipath nothing of tquic:
//! this crate translates between the two, one scheduler per connection.

mod carried;
mod choice;
mod plugged;
mod snapshots;

use pagepath_multipath::Options;
pub use pagepath_multipath::SCHEDULERS;
use std::net::IpAddr;
use std::sync::Arc;
use tquic::ExternalSchedulerFactory;

pub use choice::{all_names, choose, Choice, DEFAULT, TQUIC_SCHEDULERS};
pub use carried::PathCarried;
pub use plugged::Plugged;
pub use snapshots::StreamFacts;

/// A factory for `tquic::Config::set_external_scheduler` making the scheduler registered as
/// `name` with `options`, with the paths from or to an address in `backup` kept as backups; the
/// name and the options are checked here, once, so that a bad one is a usage error rather than a
/// failed connection.
pub fn factory(name: &str, options: &[String], backup: &[IpAddr]) -> Result<ExternalSchedulerFactory, String> {
    let parse = || Options::parse(options.iter().map(String::as_str));
    pagepath_multipath::build(name, &parse()?)?;
    let name = name.to_string();
    let options = options.to_vec();
    let backup = backup.to_vec();
    Ok(Arc::new(move || {
        let opts = Options::parse(options.iter().map(String::as_str)).expect("options checked when the factory was made");
        let scheduler = pagepath_multipath::build(&name, &opts).expect("scheduler checked when the factory was made");
        Box::new(Plugged::new(scheduler, backup.clone()))
    }))
}
