//! Queue descriptions: {"type": "droptail", "packets": 100}, {"type": "red", "bdp": 1.5}, ...

use super::fields::Obj;
use crate::core::config::{Limit, QueueConfig};
use crate::core::queue::red_thesis;

pub const QUEUE_TYPES: &[&str] = &["infinite", "droptail", "drophead", "red", "codel"];
const FIELDS: &[&str] = &["type", "packets", "bytes", "bdp", "targetMs", "intervalMs", "minTh", "maxTh", "maxP", "weight", "gentle"];
/// A BDP limit counts full-size packets of this many bytes.
const PACKET_BYTES: f64 = 1500.0;

/// `bdp_bytes` is the path's bandwidth-delay product in this direction (rate x propagation RTT),
/// None when the direction has no rate to multiply by.
pub fn parse_queue(q: &Obj, bdp_bytes: Option<f64>) -> Result<QueueConfig, String> {
    q.only(FIELDS)?;
    let kind = q.string("type")?.ok_or_else(|| format!("{}: missing (one of {})", q.place("type"), QUEUE_TYPES.join(", ")))?;
    if !QUEUE_TYPES.contains(&kind) {
        return Err(format!("{}: unknown queue type \"{kind}\" (known: {})", q.place("type"), QUEUE_TYPES.join(", ")));
    }
    for (key, types) in [("targetMs", "codel"), ("intervalMs", "codel"), ("minTh", "red"), ("maxTh", "red"), ("maxP", "red"), ("weight", "red"), ("gentle", "red")] {
        if q.get(key).is_some() && kind != types {
            return Err(format!("{}: only a {types} queue has this parameter", q.place(key)));
        }
    }
    if kind == "infinite" {
        if let Some(k) = ["packets", "bytes", "bdp"].iter().find(|k| q.get(k).is_some()) {
            return Err(format!("{}: an infinite queue has no limit", q.place(k)));
        }
        return Ok(QueueConfig::Infinite);
    }
    let limit = limit(q, bdp_bytes, kind)?;
    Ok(match kind {
        "droptail" => QueueConfig::DropTail(limit),
        "drophead" => QueueConfig::DropHead(limit),
        "codel" => QueueConfig::Codel {
            limit,
            target: (q.num("targetMs", 0.01, 10_000.0, " ms")?.unwrap_or(5.0) * 1000.0) as u64,
            interval: (q.num("intervalMs", 0.1, 100_000.0, " ms")?.unwrap_or(100.0) * 1000.0) as u64,
        },
        _ => red(q, limit)?,
    })
}

/// RED with the thesis's parameters (core's `red_thesis`, seed 001 Table 3.4) unless overridden;
/// minTh and maxTh are fractions of the limit (max_q).
fn red(q: &Obj, limit: Limit) -> Result<QueueConfig, String> {
    let QueueConfig::Red { min_th, max_th, max_p, weight, gentle, .. } = red_thesis(limit) else {
        unreachable!("red_thesis builds a RED queue")
    };
    let n = match limit {
        Limit::Packets(n) | Limit::Bytes(n) => n as f64,
    };
    let fraction = " (a fraction of the limit)";
    let min_th = q.num("minTh", 0.0, 1.0, fraction)?.map_or(min_th, |f| f * n);
    let max_th = q.num("maxTh", 0.0, 1.0, fraction)?.map_or(max_th, |f| f * n);
    if min_th >= max_th {
        return Err(format!("{}: minTh ({}) must be below maxTh ({})", q.at, min_th / n, max_th / n));
    }
    Ok(QueueConfig::Red {
        limit,
        min_th,
        max_th,
        max_p: q.num("maxP", 0.0, 1.0, "")?.unwrap_or(max_p),
        weight: q.num("weight", 0.000_001, 1.0, "")?.unwrap_or(weight),
        gentle: q.boolean("gentle")?.unwrap_or(gentle),
    })
}

fn limit(q: &Obj, bdp_bytes: Option<f64>, kind: &str) -> Result<Limit, String> {
    let given: Vec<&str> = ["packets", "bytes", "bdp"].into_iter().filter(|k| q.get(k).is_some()).collect();
    if given.len() > 1 {
        return Err(format!("{}: give one of packets, bytes or bdp, not {}", q.at, given.join(" and ")));
    }
    if let Some(p) = q.num("packets", 1.0, 1e6, " packets")? {
        return Ok(Limit::Packets(p as u64));
    }
    if let Some(b) = q.num("bytes", 1504.0, 1e9, " bytes")? {
        return Ok(Limit::Bytes(b as u64));
    }
    if let Some(m) = q.num("bdp", 0.01, 100.0, " times the BDP")? {
        let bdp = bdp_bytes.ok_or_else(|| format!("{}: a limit in BDPs needs a rate or trace and a delay on this path", q.place("bdp")))?;
        return Ok(Limit::Packets(((m * bdp / PACKET_BYTES).ceil() as u64).max(1)));
    }
    Err(format!("{}: a {kind} queue needs a limit: packets, bytes or bdp", q.at))
}
