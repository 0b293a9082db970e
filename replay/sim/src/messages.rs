//! `pagepath-sim --messages`: messages alone over seed 000's idealised paths (§4.4.1, replay/
//! multipath's ideal_paths: each path a rate and a one-way delay, paced or with a fixed window, no
//! loss), each message released at its time, under each scheduler asked; when each completes. The
//! setting of seed 000's Figs 4.11-4.12, which scheduled a page's responses without the page's
//! dependencies; a page load with them is `pagepath simulate`'s.

use pagepath_multipath::ideal_paths::{run, Message, ModelPath};
use pagepath_multipath::{build, Options, PathId};
use serde_json::{json, Value};
use std::time::Duration;

pub const HELP: &str = "usage: pagepath-sim --messages < INPUT.json
INPUT: {\"paths\": [{\"rateMbit\": R, \"oneWayMs\": D, \"cwndBytes\": W or null}, ...],
        \"messages\": [{\"size\": BYTES, \"releaseMs\": T}, ...], \"packetBytes\": P,
        \"schedulers\": [NAME, ...]}
Prints {\"schedulers\": [{\"name\", \"completionMs\": [per message, from its release],
        \"bytesOnPath\": [per path]}, ...]}
";

pub fn messages(input: &str) -> Result<Value, String> {
    let v: Value = serde_json::from_str(input).map_err(|e| format!("the input is not JSON: {e}"))?;
    let list = |key: &str| v[key].as_array().ok_or_else(|| format!("{key}: a list is required"));
    let number = |x: &Value, key: &str, what: &str| x[key].as_f64().filter(|n| n.is_finite() && *n >= 0.0).ok_or_else(|| format!("{what}: {key} must be a number, at least 0"));
    let mut paths = Vec::new();
    for (i, p) in list("paths")?.iter().enumerate() {
        let what = format!("paths[{i}]");
        let rate = number(p, "rateMbit", &what)? * 1e6 / 8.0;
        if rate <= 0.0 {
            return Err(format!("{what}: rateMbit must be above 0"));
        }
        let cwnd = match &p["cwndBytes"] {
            Value::Null => None,
            w => Some(w.as_u64().filter(|w| *w > 0).ok_or_else(|| format!("{what}: cwndBytes must be a whole number above 0, or null"))?),
        };
        paths.push(ModelPath { one_way: Duration::from_secs_f64(number(p, "oneWayMs", &what)? / 1e3), rate, cwnd });
    }
    let mut messages = Vec::new();
    for (i, m) in list("messages")?.iter().enumerate() {
        let what = format!("messages[{i}]");
        let size = m["size"].as_u64().filter(|s| *s > 0).ok_or_else(|| format!("{what}: size must be a whole number of bytes above 0"))?;
        let release = Duration::from_secs_f64(number(m, "releaseMs", &what)? / 1e3);
        messages.push(Message { release, ..Message::new(i as u64, size) });
    }
    let packet = v["packetBytes"].as_u64().filter(|p| *p > 0).ok_or("packetBytes must be a whole number above 0")?;
    if paths.is_empty() || messages.is_empty() {
        return Err("at least one path and one message are required".into());
    }
    let mut results = Vec::new();
    for name in list("schedulers")? {
        let name = name.as_str().ok_or("schedulers: names are strings")?;
        let mut scheduler = build(name, &Options::default())?;
        let out = run(&paths, &messages, packet, scheduler.as_mut());
        let on_path: Vec<u64> = (0..paths.len()).map(|p| messages.iter().map(|m| out.bytes_on(PathId(p), m.id)).sum()).collect();
        results.push(json!({ "name": name, "completionMs": out.completion_ms(&messages), "bytesOnPath": on_path }));
    }
    Ok(json!({ "schedulers": results }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_message_on_one_path_takes_its_transmission_time_and_the_delay() {
        // 125,000 bytes at 10 Mbit/s is 100 ms, plus 20 ms one way.
        let input = r#"{"paths": [{"rateMbit": 10, "oneWayMs": 20, "cwndBytes": null}], "messages": [{"size": 125000, "releaseMs": 0}], "packetBytes": 1250, "schedulers": ["lowest-rtt", "srpt-ecf"]}"#;
        let out = messages(input).unwrap();
        for s in out["schedulers"].as_array().unwrap() {
            let done = s["completionMs"][0].as_f64().unwrap();
            assert!((done - 120.0).abs() < 1e-6, "{}: {done} ms", s["name"]);
            assert_eq!(s["bytesOnPath"][0], 125_000);
        }
    }

    #[test]
    fn bad_input_names_what_is_wrong() {
        assert!(messages("{").unwrap_err().contains("not JSON"));
        let no_rate = r#"{"paths": [{"oneWayMs": 20}], "messages": [{"size": 1, "releaseMs": 0}], "packetBytes": 1, "schedulers": []}"#;
        assert!(messages(no_rate).unwrap_err().contains("paths[0]: rateMbit"));
        let unknown = r#"{"paths": [{"rateMbit": 1, "oneWayMs": 20}], "messages": [{"size": 1, "releaseMs": 0}], "packetBytes": 1, "schedulers": ["fastest"]}"#;
        assert!(messages(unknown).unwrap_err().contains("no scheduler fastest"));
    }
}
