//! The multipath scheduler options of pagepath-fetch. Assertions on `{:?}` of the choice, so that
//! the same tests compile against any representation of it.

use super::parse;

fn args(v: &[&str]) -> Result<Option<super::Args>, String> {
    let base = ["--connect", "127.0.0.1:4433", "--host", "a.test", "/"];
    parse(base.iter().chain(v).map(|s| s.to_string()))
}

fn chosen(v: &[&str]) -> String {
    format!("{:?}", args(v).expect("parses").expect("not help").multipath)
}

#[test]
fn any_registry_scheduler_with_options() {
    let c = chosen(&["--multipath", "--scheduler", "ecf", "--scheduler-opt", "beta=1"]);
    assert!(c.contains("\"ecf\"") && c.contains("beta=1"), "{c}");
}

#[test]
fn multipath_defaults_to_lowest_rtt() {
    let c = chosen(&["--multipath"]);
    assert!(c.contains("lowest-rtt"), "{c}");
}

#[test]
fn tquic_schedulers_stay() {
    assert!(chosen(&["--multipath", "--scheduler", "roundrobin"]).contains("RoundRobin"));
    assert!(chosen(&["--multipath", "--scheduler", "minrtt"]).contains("MinRtt"));
}

#[test]
fn unknown_scheduler_lists_names() {
    let e = args(&["--multipath", "--scheduler", "fastest"]).err().expect("an error");
    assert!(e.contains("fastest") && e.contains("lowest-rtt") && e.contains("blest") && e.contains("roundrobin"), "{e}");
}

#[test]
fn bad_option_is_named() {
    let e = args(&["--multipath", "--scheduler", "blest", "--scheduler-opt", "windw=5"]).err().expect("an error");
    assert!(e.contains("--scheduler-opt") && e.contains("windw"), "{e}");
}

#[test]
fn scheduler_options_need_multipath() {
    let e = args(&["--scheduler-opt", "beta=1"]).err().expect("an error");
    assert!(e.contains("--scheduler-opt needs --multipath"), "{e}");
}
