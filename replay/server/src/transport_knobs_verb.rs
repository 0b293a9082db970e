//! `pagepath-server transport-knobs`: checks `--congestion` and `--tail-loss-probes` for a
//! transport exactly as `serve` will, without serving, so that pagepath's TypeScript side refuses
//! a bad value before a run starts and never keeps its own copy of the kernel's or tquic's lists.

use crate::config::{parse_transport, Transport};
use crate::io::{congestion, tail_loss_probes};
use pagepath_link::cli::args::Args;
use serde_json::json;

pub const USAGE: &str = "\
usage: pagepath-server transport-knobs --transport tcp|mptcp|quic|mpquic [--congestion NAME] [--tail-loss-probes on|off]

Checks the values as serve would and prints {\"congestion\": NAME, \"tailLossProbes\": true|false|null}
(the defaults filled in; tailLossProbes null over QUIC, which has no such switch), or the error,
exiting 2.
";

pub fn transport_knobs(argv: &[String]) -> Result<i32, String> {
    let mut a = Args::new(argv);
    let transport = match a.value("--transport")? {
        Some(v) => parse_transport(&v)?,
        None => return Err(format!("transport-knobs needs --transport\n{USAGE}")),
    };
    let name = a.value("--congestion")?.unwrap_or_else(|| congestion::DEFAULT.into());
    congestion::check(&name, transport)?;
    let probes = tail_loss_probes::parse(a.value("--tail-loss-probes")?, transport)?;
    if let Some(extra) = a.rest()?.first() {
        return Err(format!("transport-knobs: unexpected argument \"{extra}\"\n{USAGE}"));
    }
    let over_tcp = matches!(transport, Transport::Tcp | Transport::Mptcp);
    println!("{}", json!({ "congestion": name, "tailLossProbes": if over_tcp { json!(probes) } else { json!(null) } }));
    Ok(0)
}
