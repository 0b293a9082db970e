//! `pagepath net status [NAME] [--json]`: what is up, with per-path counters.

use serde_json::{json, Value};

use super::args::Args;
use crate::io::state;

pub fn run(argv: &[String]) -> Result<i32, String> {
    let mut a = Args::new(argv);
    let as_json = a.flag("--json");
    let rest = a.rest()?;
    let names = match rest.as_slice() {
        [] => state::list(),
        [n] => vec![n.clone()],
        _ => return Err("status: give at most one topology name".into()),
    };
    let mut all = Vec::new();
    for name in &names {
        let s = state::read(name).ok_or_else(|| format!("status: no topology named \"{name}\""))?;
        let stats: Value = std::fs::read_to_string(state::file(name, ".stats.json")).ok()
            .and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
        all.push(json!({ "state": s, "alive": state::alive(s.pid), "stats": stats }));
    }
    if as_json {
        println!("{}", serde_json::to_string_pretty(&all).unwrap());
        return Ok(0);
    }
    if all.is_empty() {
        println!("no topologies are up");
    }
    for t in &all {
        print_one(t);
    }
    Ok(0)
}

fn print_one(t: &Value) {
    let s = &t["state"];
    let alive = if t["alive"].as_bool() == Some(true) { s["phase"].as_str().unwrap_or("?") } else { "dead (cleaned at the next start)" };
    let host = s["hostAddr"].as_str().map(|h| format!(", host {h}")).unwrap_or_default();
    println!("{}: {alive}, pid {}, seed {}, namespaces {} / {}, server {}{host}", s["name"].as_str().unwrap_or(""), s["pid"], s["seed"],
        s["clientNs"].as_str().unwrap_or(""), s["serverNs"].as_str().unwrap_or(""), s["serverAddr"].as_str().unwrap_or(""));
    for (i, p) in s["paths"].as_array().into_iter().flatten().enumerate() {
        println!("  {} {}: uplink {}; downlink {}", p["name"].as_str().unwrap_or(""), p["clientAddr"].as_str().unwrap_or(""),
            p["uplink"].as_str().unwrap_or(""), p["downlink"].as_str().unwrap_or(""));
        for dir in ["uplink", "downlink"] {
            let d = &t["stats"]["paths"][i][dir];
            if d.is_object() {
                println!("    {dir}: {} packets / {} bytes delivered, {} lost, {} dropped by the queue, max queue {} packets",
                    d["deliveredPackets"], d["deliveredBytes"], d["lostPackets"], d["droppedPackets"], d["maxQueuePackets"]);
            }
        }
    }
}
