//! `pagepath-server schedulers`: the multipath QUIC schedulers `--scheduler` takes, as JSON, so
//! that pagepath's TypeScript side offers exactly the registry's names and leaves checking a
//! name and its options to the code that will run them.

use pagepath_link::cli::args::Args;
use pagepath_tquic_scheduler::{choose, DEFAULT, SCHEDULERS, TQUIC_SCHEDULERS};
use serde_json::{json, Map, Value};

pub const USAGE: &str = "\
usage: pagepath-server schedulers [--scheduler NAME [--scheduler-opt KEY=VALUE]...]

Without --scheduler: prints {\"default\", \"schedulers\": [{\"name\", \"family\", \"summary\"}]}, the
multipath QUIC schedulers serve's --scheduler takes (family pagepath: replay/multipath's
registry; tquic: tquic's own). With it: checks the name and its options as serve would and
prints {\"name\", \"options\": {KEY: VALUE}}, or the error, exiting 2.
";

pub fn schedulers(argv: &[String]) -> Result<i32, String> {
    let mut a = Args::new(argv);
    let name = a.value("--scheduler")?;
    let mut options = Vec::new();
    while let Some(v) = a.value("--scheduler-opt")? {
        options.push(v);
    }
    if let Some(extra) = a.rest()?.first() {
        return Err(format!("schedulers: unexpected argument \"{extra}\"\n{USAGE}"));
    }
    let out = match name {
        None if options.is_empty() => catalogue(),
        None => return Err("--scheduler-opt needs --scheduler NAME".into()),
        Some(name) => {
            let choice = choose(Some(&name), &options)?;
            let pairs: Map<String, Value> = choice.option_pairs().into_iter().map(|(k, v)| (k, Value::String(v))).collect();
            json!({ "name": choice.name(), "options": pairs })
        }
    };
    println!("{out}");
    Ok(0)
}

fn catalogue() -> Value {
    let pagepath = SCHEDULERS.iter().map(|e| json!({ "name": e.name, "family": "pagepath", "summary": e.summary }));
    let tquic = TQUIC_SCHEDULERS.iter().map(|(name, summary)| json!({ "name": name, "family": "tquic", "summary": summary }));
    json!({ "default": DEFAULT, "schedulers": pagepath.chain(tquic).collect::<Vec<_>>() })
}
