//! Which multipath scheduler a tquic endpoint runs, as `--scheduler NAME --scheduler-opt KEY=VALUE`
//! name it: tquic's own two by their names, or any of pagepath's registry. The replay servers, the
//! emulated browser and pagepath-fetch read the option the same way through this one type.

use pagepath_multipath::{Options, SCHEDULERS};
use std::net::IpAddr;
use tquic::{Config, MultipathAlgorithm};

/// pagepath's lowest-RTT, not tquic's minrtt: it sends the same way, and through the hook the
/// bytes each path carries are counted.
pub const DEFAULT: &str = "lowest-rtt";

/// tquic's built-in schedulers, kept selectable by their tquic names.
pub const TQUIC_SCHEDULERS: &[(&str, &str)] = &[
    ("minrtt", "tquic's own: the path with the lowest smoothed RTT that has window to spare (no per-path byte counts)"),
    ("roundrobin", "tquic's own: the paths in turn (no per-path byte counts)"),
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    MinRtt,
    RoundRobin,
    /// One of pagepath's, plugged into tquic's external hook; the options as given.
    Pagepath { name: String, options: Vec<String> },
}

/// `name` (None: DEFAULT) with `options`, checked by building the scheduler once; errors name the
/// option at fault and, for an unknown name, list every name.
pub fn choose(name: Option<&str>, options: &[String]) -> Result<Choice, String> {
    let name = name.unwrap_or(DEFAULT);
    let builtin = match name {
        "minrtt" => Some(Choice::MinRtt),
        "roundrobin" => Some(Choice::RoundRobin),
        _ => None,
    };
    if let Some(b) = builtin {
        if let Some(o) = options.first() {
            return Err(format!("--scheduler-opt {o}: tquic's own schedulers (minrtt, roundrobin) take no options"));
        }
        return Ok(b);
    }
    if !SCHEDULERS.iter().any(|e| e.name == name) {
        return Err(format!("--scheduler: unknown scheduler \"{name}\"; choose one of {}", all_names().join(", ")));
    }
    let opts = parse_options(options)?;
    pagepath_multipath::build(name, &opts).map_err(|e| format!("--scheduler-opt: {e}"))?;
    Ok(Choice::Pagepath { name: name.to_string(), options: options.to_vec() })
}

/// Every name `choose` accepts: pagepath's registry, then tquic's own.
pub fn all_names() -> Vec<&'static str> {
    SCHEDULERS.iter().map(|e| e.name).chain(TQUIC_SCHEDULERS.iter().map(|(n, _)| *n)).collect()
}

fn parse_options(options: &[String]) -> Result<Options, String> {
    Options::parse(options.iter().map(String::as_str)).map_err(|e| format!("--scheduler-opt: {e}"))
}

impl Choice {
    pub fn name(&self) -> &str {
        match self {
            Choice::MinRtt => "minrtt",
            Choice::RoundRobin => "roundrobin",
            Choice::Pagepath { name, .. } => name,
        }
    }

    /// The options as key/value pairs (comma-joined ones split), as a run result records them.
    pub fn option_pairs(&self) -> Vec<(String, String)> {
        match self {
            Choice::Pagepath { options, .. } => {
                let parsed = parse_options(options).expect("options checked by choose");
                parsed.pairs().iter().map(|(k, v)| (k.clone(), v.clone())).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The tquic algorithm to enable multipath with; a pagepath scheduler overrides it by the hook.
    pub fn algorithm(&self) -> MultipathAlgorithm {
        match self {
            Choice::RoundRobin => MultipathAlgorithm::RoundRobin,
            Choice::MinRtt | Choice::Pagepath { .. } => MultipathAlgorithm::MinRtt,
        }
    }

    /// Plugs a pagepath scheduler into `config` (one with multipath enabled), with the paths from
    /// or to an address in `backup` kept as backups; tquic's own need nothing, and have no backups.
    pub fn install(&self, config: &mut Config, backup: &[IpAddr]) -> Result<(), String> {
        match self {
            Choice::Pagepath { name, options } => config.set_external_scheduler(Some(crate::factory(name, options, backup)?)),
            _ if !backup.is_empty() => return Err(format!("--scheduler {}: tquic's own schedulers ignore backup paths; choose one of pagepath's", self.name())),
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn no_name_is_lowest_rtt() {
        assert_eq!(choose(None, &[]).unwrap(), Choice::Pagepath { name: "lowest-rtt".into(), options: vec![] });
    }

    #[test]
    fn tquic_names_stay_and_take_no_options() {
        assert_eq!(choose(Some("minrtt"), &[]).unwrap(), Choice::MinRtt);
        assert_eq!(choose(Some("roundrobin"), &[]).unwrap(), Choice::RoundRobin);
        let e = choose(Some("minrtt"), &opts(&["beta=1"])).unwrap_err();
        assert!(e.contains("--scheduler-opt beta=1") && e.contains("take no options"), "{e}");
    }

    #[test]
    fn unknown_name_lists_every_name() {
        let e = choose(Some("fastest"), &[]).unwrap_err();
        assert!(e.contains("\"fastest\"") && e.contains("lowest-rtt") && e.contains("ecf") && e.contains("minrtt"), "{e}");
    }

    #[test]
    fn a_bad_option_is_named() {
        let e = choose(Some("ecf"), &opts(&["gamma=2"])).unwrap_err();
        assert!(e.starts_with("--scheduler-opt") && e.contains("gamma"), "{e}");
        let e = choose(Some("ecf"), &opts(&["beta"])).unwrap_err();
        assert!(e.contains("expected key=value"), "{e}");
    }

    #[test]
    fn options_split_into_pairs() {
        let c = choose(Some("ecf"), &opts(&["beta=1"])).unwrap();
        assert_eq!(c.option_pairs(), vec![("beta".to_string(), "1".to_string())]);
        assert_eq!(c.name(), "ecf");
    }
}
