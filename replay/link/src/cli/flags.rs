//! `pagepath net up` flags as a topology, for a quick link without writing a file: every path
//! gets the same settings.

use serde_json::{json, Map, Value};

use super::args::Args;

/// Reads the link flags; None when none was given (then a topology file is expected).
pub fn topology_from_flags(a: &mut Args) -> Result<Option<Value>, String> {
    let paths = a.number("--paths", 1.0, crate::topology::MAX_PATHS as f64)?;
    // --rtt-ms as replay and accuracy take it, each direction half; --delay-ms is one way.
    let delay = match (a.number("--delay-ms", f64::MIN, f64::MAX)?, a.number("--rtt-ms", f64::MIN, f64::MAX)?) {
        (Some(_), Some(_)) => return Err("--delay-ms and --rtt-ms: give one (--rtt-ms T is --delay-ms T/2 each way)".into()),
        (one_way, rtt) => one_way.or(rtt.map(|r| r / 2.0)),
    };
    let rate = a.number("--rate-mbit", f64::MIN, f64::MAX)?;
    let rates = [a.number("--uplink-rate-mbit", f64::MIN, f64::MAX)?, a.number("--downlink-rate-mbit", f64::MIN, f64::MAX)?];
    let traces = [a.value("--uplink-trace")?, a.value("--downlink-trace")?];
    let once = a.flag("--once");
    let queue = a.value("--queue")?;
    let loss = a.number("--loss", f64::MIN, f64::MAX)?;
    let jitter = a.number("--jitter-ms", f64::MIN, f64::MAX)?;
    let mptcp = match (a.flag("--mptcp"), a.flag("--no-mptcp")) {
        (true, true) => return Err("--mptcp and --no-mptcp: choose one".into()),
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    let backup = a.number("--backup", 0.0, crate::topology::MAX_PATHS as f64 - 1.0)?;
    let given = paths.is_some() || delay.is_some() || rate.is_some() || rates.iter().any(Option::is_some)
        || traces.iter().any(Option::is_some) || once || queue.is_some() || loss.is_some() || jitter.is_some() || mptcp.is_some() || backup.is_some();
    if !given {
        return Ok(None);
    }
    let queue = queue.map(|q| queue_spec(&q)).transpose()?;
    let direction = |d: usize| {
        let mut o = Map::new();
        if let Some(x) = delay { o.insert("delayMs".into(), json!(x)); }
        if let Some(x) = rates[d].or(rate) { o.insert("rateMbit".into(), json!(x)); }
        if let Some(t) = &traces[d] { o.insert("trace".into(), json!(t)); }
        if once { o.insert("once".into(), json!(true)); }
        if let Some(q) = &queue { o.insert("queue".into(), q.clone()); }
        if let Some(x) = loss { o.insert("loss".into(), json!(x)); }
        if let Some(x) = jitter { o.insert("jitterMs".into(), json!(x)); }
        Value::Object(o)
    };
    let n = paths.unwrap_or(1.0) as usize;
    let list: Vec<Value> = (0..n).map(|i| json!({
        "name": format!("path{i}"), "backup": backup == Some(i as f64), "uplink": direction(0), "downlink": direction(1),
    })).collect();
    let mut top = json!({ "schemaVersion": 1, "paths": list });
    if let Some(m) = mptcp { top["mptcp"] = json!(m); }
    Ok(Some(top))
}

/// "droptail:packets=100" or "red:bdp=1.5" or "codel:packets=1000,target=5,interval=100".
fn queue_spec(text: &str) -> Result<Value, String> {
    let (kind, args) = text.split_once(':').unwrap_or((text, ""));
    let mut o = Map::new();
    o.insert("type".into(), json!(kind));
    for pair in args.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').ok_or_else(|| format!("--queue: \"{pair}\" is not NAME=VALUE"))?;
        let key = match k { "target" => "targetMs", "interval" => "intervalMs", other => other };
        let v: f64 = v.parse().map_err(|_| format!("--queue: {k}=\"{v}\" is not a number"))?;
        o.insert(key.into(), json!(v));
    }
    Ok(Value::Object(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(s: &str) -> Result<Option<Value>, String> {
        let items: Vec<String> = s.split_whitespace().map(String::from).collect();
        topology_from_flags(&mut Args::new(&items))
    }

    #[test]
    fn rtt_is_split_between_the_directions_as_replay_takes_it() {
        let top = flags("--rtt-ms 40 --rate-mbit 10").unwrap().unwrap();
        assert_eq!(top["paths"][0]["uplink"]["delayMs"], json!(20.0));
        assert_eq!(top["paths"][0]["downlink"]["delayMs"], json!(20.0));
        let one_way = flags("--delay-ms 20 --rate-mbit 10").unwrap().unwrap();
        assert_eq!(one_way["paths"][0]["downlink"]["delayMs"], json!(20.0));
        assert!(flags("--rtt-ms 40 --delay-ms 20").unwrap_err().contains("give one"));
    }
}
