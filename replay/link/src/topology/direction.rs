//! One direction of a path: {"delayMs", "rateMbit" | "trace", "once", "loss", "queue", "jitterMs"}.

use std::path::Path;

use serde_json::Value;

use super::fields::{kind, number, Obj};
use super::queue::parse_queue;
use crate::core::config::{Capacity, DirectionConfig, Jitter, LossModel, QueueConfig};
use crate::core::rng::Rng;
use crate::core::trace::{mean_bits_per_second, parse_trace};

const FIELDS: &[&str] = &["delayMs", "rateMbit", "trace", "once", "loss", "queue", "jitterMs"];
const MAX_DELAY_MS: f64 = 10_000.0;
const MAX_TRACE_BYTES: u64 = 200 << 20;

/// The one-way delay in µs: a number, or {"uniform": [lo, hi]} drawn once per run from the
/// topology's seed (the thesis's per-run RTT jitter, seed 001 §3.7.7.4).
pub fn read_delay(d: &Obj, rng: &mut Rng) -> Result<u64, String> {
    let at = d.place("delayMs");
    let ms = match d.get("delayMs") {
        None => 0.0,
        Some(Value::Object(m)) => {
            let range = m.get("uniform").and_then(Value::as_array).filter(|a| a.len() == 2 && m.len() == 1)
                .ok_or_else(|| format!("{at}: must be a number or {{\"uniform\": [low, high]}}"))?;
            let lo = number(&range[0], &format!("{at}.uniform[0]"), 0.0, MAX_DELAY_MS, " ms")?;
            let hi = number(&range[1], &format!("{at}.uniform[1]"), lo, MAX_DELAY_MS, " ms")?;
            lo + (hi - lo) * rng.next_f64()
        }
        Some(v) => number(v, &at, 0.0, MAX_DELAY_MS, " ms")?,
    };
    Ok((ms * 1000.0).round() as u64)
}

/// `rtt` is the path's propagation RTT in µs (both directions' delays), for BDP queue limits.
pub fn parse_direction(d: &Obj, delay: u64, rtt: u64, seed: u64, base: &Path) -> Result<(DirectionConfig, String), String> {
    d.only(FIELDS)?;
    let (capacity, mut text) = capacity(d, base)?;
    let bits = match &capacity {
        Capacity::Unlimited => None,
        Capacity::Constant { bits_per_second } => Some(*bits_per_second as f64),
        Capacity::Trace { opportunities_ms, .. } => Some(mean_bits_per_second(opportunities_ms)),
    };
    let bdp_bytes = bits.filter(|_| rtt > 0).map(|b| b * rtt as f64 / 8e6);
    let queue = match d.get("queue") {
        None => QueueConfig::Infinite,
        Some(v) => parse_queue(&Obj::of(v, &d.place("queue"))?, bdp_bytes)?,
    };
    if !matches!(queue, QueueConfig::Infinite) && matches!(capacity, Capacity::Unlimited) {
        return Err(format!("{}: a queue limit needs a rate or a trace (without one, nothing ever queues)", d.place("queue")));
    }
    let jitter = match d.num("jitterMs", 0.0, MAX_DELAY_MS, " ms")? {
        None | Some(0.0) => Jitter::None,
        Some(ms) => Jitter::PerPacket { max: (ms * 1000.0).round() as u64 },
    };
    let loss = loss(d)?;
    text.push_str(&format!(", delay {} ms", delay as f64 / 1000.0));
    Ok((DirectionConfig { capacity, delay, jitter, loss, queue, seed }, text))
}

fn capacity(d: &Obj, base: &Path) -> Result<(Capacity, String), String> {
    let rate = d.num("rateMbit", 0.001, 100_000.0, " Mbit/s")?;
    let trace = d.string("trace")?;
    let once = d.boolean("once")?;
    match (rate, trace) {
        (Some(_), Some(_)) => Err(format!("{}: give rateMbit or trace, not both", d.at)),
        (Some(r), None) => {
            if once.is_some() {
                return Err(format!("{}: only a trace link can run once", d.place("once")));
            }
            Ok((Capacity::Constant { bits_per_second: (r * 1e6).round() as u64 }, format!("{r} Mbit/s")))
        }
        (None, Some(file)) => {
            let path = base.join(file);
            let at = d.place("trace");
            let size = std::fs::metadata(&path).map_err(|e| format!("{at}: cannot read {}: {e}", path.display()))?.len();
            if size > MAX_TRACE_BYTES {
                return Err(format!("{at}: {} is {size} bytes; traces over {MAX_TRACE_BYTES} bytes are refused", path.display()));
            }
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{at}: cannot read {}: {e}", path.display()))?;
            let opportunities_ms = parse_trace(&text).map_err(|e| format!("{at}: {}: {e}", path.display()))?;
            let once = once.unwrap_or(false);
            Ok((Capacity::Trace { opportunities_ms, once }, format!("trace {file}{}", if once { " (once)" } else { "" })))
        }
        (None, None) => {
            if once.is_some() {
                return Err(format!("{}: only a trace link can run once", d.place("once")));
            }
            Ok((Capacity::Unlimited, "unlimited rate".into()))
        }
    }
}

/// A number is an independent loss rate; an object names the model.
fn loss(d: &Obj) -> Result<LossModel, String> {
    let at = d.place("loss");
    let Some(v) = d.get("loss") else { return Ok(LossModel::None) };
    if v.is_number() {
        let p = number(v, &at, 0.0, 1.0, " (a probability)")?;
        return Ok(if p == 0.0 { LossModel::None } else { LossModel::Bernoulli { p } });
    }
    let o = Obj::of(v, &at)?;
    match o.string("model")? {
        Some("bernoulli") => {
            o.only(&["model", "rate"])?;
            let p = o.num("rate", 0.0, 1.0, " (a probability)")?.ok_or_else(|| format!("{}: missing", o.place("rate")))?;
            Ok(LossModel::Bernoulli { p })
        }
        Some("gilbert-elliott") => {
            o.only(&["model", "p", "r", "lossGood", "lossBad"])?;
            let p = o.num("p", 0.0, 1.0, " (good-to-bad probability)")?.ok_or_else(|| format!("{}: missing", o.place("p")))?;
            let r = o.num("r", 0.0, 1.0, " (bad-to-good probability)")?.ok_or_else(|| format!("{}: missing", o.place("r")))?;
            if p > 0.0 && r == 0.0 {
                return Err(format!("{}: r = 0 with p > 0 never leaves the bad state", o.place("r")));
            }
            let loss_good = o.num("lossGood", 0.0, 1.0, "")?.unwrap_or(0.0);
            let loss_bad = o.num("lossBad", 0.0, 1.0, "")?.unwrap_or(1.0);
            Ok(LossModel::GilbertElliott { p, r, loss_good, loss_bad })
        }
        Some(other) => Err(format!("{}: unknown loss model \"{other}\" (known: bernoulli, gilbert-elliott)", o.place("model"))),
        None => Err(format!("{at}: must be a probability or an object with a model, got {}", kind(v))),
    }
}
