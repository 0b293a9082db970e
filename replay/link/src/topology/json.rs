//! The topology file, schema version 1 (docs/formats/topology.md).

use std::path::PathBuf;

use serde_json::Value;

use super::direction::{parse_direction, read_delay};
use super::fields::Obj;
use super::{PathSpec, Topology, MAX_PATHS, SCHEMA_VERSION};
use crate::core::rng::{Purpose, Rng};

pub struct ParseContext {
    /// Named in every error: the file, or "flags".
    pub source: String,
    /// Trace files are relative to this folder (the topology file's).
    pub base_dir: PathBuf,
    /// Used when neither the file nor a flag gives a seed; the caller draws it and records it.
    pub fallback_seed: u64,
    pub seed_override: Option<u64>,
}

pub fn parse_topology(text: &str, ctx: &ParseContext) -> Result<Topology, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{}: not valid JSON: {e}", ctx.source))?;
    topology_from_value(&v, ctx).map_err(|e| format!("{}: {e}", ctx.source))
}

pub fn topology_from_value(v: &Value, ctx: &ParseContext) -> Result<Topology, String> {
    let top = Obj::of(v, "")?;
    top.only(&["schemaVersion", "seed", "paths", "mptcp", "logDir", "description"])?;
    match top.get("schemaVersion").and_then(Value::as_u64) {
        Some(SCHEMA_VERSION) => {}
        Some(n) => return Err(format!("schemaVersion: {n} is not supported (this pagepath reads version {SCHEMA_VERSION})")),
        None => return Err(format!("schemaVersion: missing or not an integer (expected {SCHEMA_VERSION})")),
    }
    let seed = match (ctx.seed_override, top.get("seed")) {
        (Some(s), _) => s,
        (None, Some(s)) => s.as_u64().ok_or("seed: must be a non-negative integer")?,
        (None, None) => ctx.fallback_seed,
    };
    let paths = top.get("paths").and_then(Value::as_array).ok_or("paths: missing, or not an array of paths")?;
    if paths.is_empty() || paths.len() > MAX_PATHS {
        return Err(format!("paths: has {} paths; a topology has 1 to {MAX_PATHS}", paths.len()));
    }
    // Per-run delays draw from their own stream, so adding one does not shift the links' randomness.
    let mut delays = Rng::new(seed ^ 0x5eed_de1a_7000_0000, Purpose::Jitter);
    let mut specs = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let spec = path(&Obj::of(p, &format!("paths[{i}]"))?, i, seed, &mut delays, ctx)?;
        if specs.iter().any(|s: &PathSpec| s.name == spec.name) {
            return Err(format!("paths[{i}].name: \"{}\" names two paths", spec.name));
        }
        specs.push(spec);
    }
    let mptcp = top.boolean("mptcp")?.unwrap_or(specs.len() > 1);
    if specs.iter().all(|s| s.backup) {
        return Err("paths: every path is a backup; at least one must carry traffic".into());
    }
    if let Some(dir) = top.string("logDir")?.map(|d| ctx.base_dir.join(d)) {
        for s in &mut specs {
            s.uplink_log = Some(dir.join(format!("{}.uplink.log", s.name)));
            s.downlink_log = Some(dir.join(format!("{}.downlink.log", s.name)));
        }
    }
    Ok(Topology { seed, paths: specs, mptcp })
}

fn path(p: &Obj, i: usize, seed: u64, delays: &mut Rng, ctx: &ParseContext) -> Result<PathSpec, String> {
    p.only(&["name", "backup", "uplink", "downlink"])?;
    let name = p.string("name")?.map(str::to_string).unwrap_or(format!("path{i}"));
    if name.is_empty() || name.len() > 16 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(format!("{}: \"{name}\" must be 1-16 letters, digits, '-' or '_' (it names log files)", p.place("name")));
    }
    let empty = Value::Object(Default::default());
    let up = Obj::of(p.get("uplink").unwrap_or(&empty), &p.place("uplink"))?;
    let down = Obj::of(p.get("downlink").unwrap_or(&empty), &p.place("downlink"))?;
    let (up_delay, down_delay) = (read_delay(&up, delays)?, read_delay(&down, delays)?);
    let rtt = up_delay + down_delay;
    let direction_seed = |d: u64| seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(2 * i as u64 + d + 1));
    let (uplink, uplink_text) = parse_direction(&up, up_delay, rtt, direction_seed(0), &ctx.base_dir)?;
    let (downlink, downlink_text) = parse_direction(&down, down_delay, rtt, direction_seed(1), &ctx.base_dir)?;
    let backup = p.boolean("backup")?.unwrap_or(false);
    Ok(PathSpec { name, backup, uplink, downlink, uplink_text, downlink_text, uplink_log: None, downlink_log: None })
}
