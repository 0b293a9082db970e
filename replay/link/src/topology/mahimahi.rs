//! Mahimahi's shell arguments, so its users' scripts keep working: a chain of
//! `[mm-]delay MS`, `[mm-]link [OPTIONS] UPLINK_TRACE DOWNLINK_TRACE [OPTIONS]` and
//! `[mm-]loss uplink|downlink RATE`, then an optional `--` and the command. As with nested
//! Mahimahi shells, delays add up and losses compound.

use serde_json::{json, Map, Value};

use super::{topology_from_value, ParseContext, Topology};

pub struct Shell {
    pub topology: Topology,
    /// The command to run in the client namespace; empty means an interactive shell.
    pub command: Vec<String>,
}

#[derive(Default)]
struct Chain {
    delay_ms: f64,
    loss: [f64; 2],
    link: Option<Link>,
}

#[derive(Default)]
struct Link {
    traces: [String; 2],
    once: bool,
    logs: [Option<String>; 2],
    queues: [Option<String>; 2],
    queue_args: [Option<String>; 2],
}

const DIRS: [&str; 2] = ["uplink", "downlink"];

pub fn parse_shell(args: &[String], ctx: &ParseContext) -> Result<Shell, String> {
    let mut chain = Chain::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].strip_prefix("mm-").unwrap_or(&args[i]);
        match word {
            "--" => {
                i += 1;
                break;
            }
            "delay" => {
                let ms = value(args, i + 1, "delay", "a one-way delay in ms")?;
                chain.delay_ms += number(ms, "delay", 0.0, 10_000.0)?;
                i += 2;
            }
            "loss" => {
                let dir = value(args, i + 1, "loss", "uplink or downlink")?;
                let d = DIRS.iter().position(|x| *x == dir).ok_or_else(|| format!("loss: direction must be uplink or downlink, got \"{dir}\""))?;
                let rate = number(value(args, i + 2, "loss", "a loss rate between 0 and 1")?, "loss", 0.0, 1.0)?;
                chain.loss[d] = 1.0 - (1.0 - chain.loss[d]) * (1.0 - rate);
                i += 3;
            }
            "link" => {
                if chain.link.is_some() {
                    return Err("link: given twice; one link shell per path".into());
                }
                let (link, next) = parse_link(args, i + 1)?;
                chain.link = Some(link);
                i = next;
            }
            _ => break,
        }
    }
    let topology = topology_from_value(&to_json(&chain), ctx).map_err(|e| format!("Mahimahi arguments: {e}"))?;
    let mut topology = topology;
    if let Some(link) = &chain.link {
        let path = &mut topology.paths[0];
        path.uplink_log = link.logs[0].as_ref().map(|f| ctx.base_dir.join(f));
        path.downlink_log = link.logs[1].as_ref().map(|f| ctx.base_dir.join(f));
    }
    Ok(Shell { topology, command: args[i..].to_vec() })
}

fn parse_link(args: &[String], mut i: usize) -> Result<(Link, usize), String> {
    let mut link = Link::default();
    let mut traces = Vec::new();
    while i < args.len() {
        let a = &args[i];
        if let Some(opt) = a.strip_prefix("--").filter(|o| !o.is_empty()) {
            let (name, inline) = match opt.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (opt, None),
            };
            let mut take = || -> Result<String, String> {
                if let Some(v) = inline.clone() { return Ok(v) }
                i += 1;
                args.get(i).cloned().ok_or_else(|| format!("link: --{name} needs a value"))
            };
            match name {
                "once" => link.once = true,
                "uplink-log" => link.logs[0] = Some(take()?),
                "downlink-log" => link.logs[1] = Some(take()?),
                "uplink-queue" => link.queues[0] = Some(take()?),
                "downlink-queue" => link.queues[1] = Some(take()?),
                "uplink-queue-args" => link.queue_args[0] = Some(take()?),
                "downlink-queue-args" => link.queue_args[1] = Some(take()?),
                n if n.starts_with("meter-") => return Err(format!("link: --{n}: live meters are not supported; log with --uplink-log/--downlink-log and draw with `pagepath net plot`")),
                n => return Err(format!("link: unknown option --{n}")),
            }
            i += 1;
        } else if traces.len() < 2 {
            traces.push(a.clone());
            i += 1;
        } else {
            break;
        }
    }
    if traces.len() < 2 {
        return Err("link: needs an uplink trace and a downlink trace".into());
    }
    link.traces = [traces[0].clone(), traces[1].clone()];
    Ok((link, i))
}

fn to_json(chain: &Chain) -> Value {
    let directions: Vec<Value> = (0..2).map(|d| {
        let mut o = Map::new();
        o.insert("delayMs".into(), json!(chain.delay_ms));
        if chain.loss[d] > 0.0 {
            o.insert("loss".into(), json!(chain.loss[d]));
        }
        if let Some(link) = &chain.link {
            o.insert("trace".into(), json!(link.traces[d]));
            if link.once {
                o.insert("once".into(), json!(true));
            }
            if let Some(q) = &link.queues[d] {
                o.insert("queue".into(), queue_json(q, link.queue_args[d].as_deref()));
            }
        }
        Value::Object(o)
    }).collect();
    json!({ "schemaVersion": 1, "paths": [{ "name": "link", "uplink": directions[0], "downlink": directions[1] }] })
}

/// Mahimahi's "NAME=NUMBER, NAME2=NUMBER2"; its names map onto the topology format's fields and
/// anything unknown is passed through, so the topology reader names it.
fn queue_json(kind: &str, args: Option<&str>) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), json!(kind));
    for pair in args.unwrap_or("").split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = match name.trim() {
            "target" => "targetMs",
            "interval" => "intervalMs",
            other => other,
        };
        let v = v.trim();
        o.insert(key.to_string(), v.parse::<f64>().map(|x| json!(x)).unwrap_or(json!(v)));
    }
    Value::Object(o)
}

fn value<'a>(args: &'a [String], i: usize, shell: &str, what: &str) -> Result<&'a str, String> {
    args.get(i).map(String::as_str).ok_or_else(|| format!("{shell}: missing {what}"))
}

fn number(text: &str, shell: &str, min: f64, max: f64) -> Result<f64, String> {
    let x: f64 = text.parse().map_err(|_| format!("{shell}: \"{text}\" is not a number"))?;
    if !(min..=max).contains(&x) {
        return Err(format!("{shell}: {x} is out of range; must be between {min} and {max}"));
    }
    Ok(x)
}
