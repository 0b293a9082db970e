//! `pagepath net reconfigure NAME [TOPOLOGY.json | link flags] [--seed S]`: new links for a
//! running topology, as if it had been taken down and brought up again with them, without
//! rebuilding namespaces and devices. A sweep keeps one topology per worker this way between runs.
//!
//! "As if brought up afresh" means: every direction's model is built anew from the new settings
//! and seed (so its loss, jitter and queue draws start where a fresh topology's would, and a trace
//! starts at its beginning), its counters start at zero, packets the old model still held are
//! dropped, and the kernel's per-destination TCP metrics (cached RTT and ssthresh, which a fresh
//! namespace lacks) are flushed in both namespaces. The paths, their backup flags, MPTCP and link
//! logs must stay as they were, and no process may still run in the topology.
//!
//! The verb writes its request to `<state>/<name>.reconfigure.json`, signals the emulator
//! (SIGUSR2) and waits for `<name>.reconfigured.json` to answer its request id.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::args::Args;
use super::require_root;
use crate::io::serve::{self, Running};
use crate::io::{netns, state};
use crate::topology::Topology;

#[derive(Serialize, Deserialize)]
struct Request {
    id: u64,
    /// The verb's arguments after NAME, read by the emulator as `up` reads its own.
    args: Vec<String>,
    cwd: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Answer {
    id: u64,
    error: Option<String>,
}

pub fn run(argv: &[String]) -> Result<i32, String> {
    let Some((name, args)) = argv.split_first() else {
        return Err(format!("reconfigure: give a topology name and its new links\n{}", super::USAGE));
    };
    if args.iter().any(|a| a == "--name" || a.starts_with("--name=") || a == "--log-dir" || a == "--foreground") {
        return Err("reconfigure: --name, --log-dir and --foreground belong to up".into());
    }
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    // Checked here first, so that bad arguments are refused before the emulator is disturbed.
    super::up::read_in(&mut Args::new(args), &cwd)?;
    require_root()?;
    let Some(s) = state::read(name).filter(|s| s.phase == "up" && state::alive(s.pid)) else {
        return Err(format!("reconfigure: no topology named \"{name}\" is up (see `pagepath net status`)"));
    };
    let id = super::fresh_seed();
    let request = Request { id, args: args.to_vec(), cwd };
    let file = state::file(name, ".reconfigure.json");
    std::fs::write(&file, serde_json::to_string(&request).unwrap()).map_err(|e| format!("{}: {e}", file.display()))?;
    // SAFETY: kill has no memory effects.
    unsafe { libc::kill(s.pid as i32, libc::SIGUSR2) };
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = std::fs::read_to_string(state::file(name, ".reconfigured.json")).ok().and_then(|t| serde_json::from_str::<Answer>(&t).ok());
        match answer {
            Some(Answer { id: a, error: None }) if a == id => {
                println!("reconfigure: {name} (see `pagepath net status {name}`)");
                return Ok(0);
            }
            Some(Answer { id: a, error: Some(e) }) if a == id => return Err(format!("reconfigure {name}: {e}")),
            _ if !state::alive(s.pid) => return Err(format!("reconfigure {name}: the emulator (pid {}) exited", s.pid)),
            _ if Instant::now() > deadline => return Err(format!("reconfigure {name}: the emulator (pid {}) did not answer within 10 s", s.pid)),
            _ => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}

/// The emulator's side: reads the waiting request, applies it if it can, rewrites the counters
/// (`flushes` as the stats file has it) and answers.
pub fn answer(name: &str, running: &Running, shape: &Topology, flushes: u64) {
    let Ok(text) = std::fs::read_to_string(state::file(name, ".reconfigure.json")) else { return };
    let Ok(request) = serde_json::from_str::<Request>(&text) else { return };
    let error = apply(name, running, shape, &request).err();
    running.write_stats(flushes);
    let answer = serde_json::to_string(&Answer { id: request.id, error }).unwrap();
    let tmp = state::file(name, ".reconfigured.json.tmp");
    if std::fs::write(&tmp, answer).is_ok() {
        let _ = std::fs::rename(&tmp, state::file(name, ".reconfigured.json"));
    }
}

fn apply(name: &str, running: &Running, shape: &Topology, request: &Request) -> Result<(), String> {
    let (_, topo) = super::up::read_in(&mut Args::new(&request.args), &request.cwd)?;
    same_shape(shape, &topo)?;
    let (c, s) = state::namespaces(name);
    for ns in [&c, &s] {
        let left = netns::pids(ns);
        if !left.is_empty() {
            return Err(format!("processes still run in {ns} ({left:?}); stop them first"));
        }
    }
    running.replace_links(&topo)?;
    for ns in [&c, &s] {
        netns::ip(&["-n", ns, "tcp_metrics", "flush", "all"])?;
    }
    state::write(&serve::state_of(name, &topo))
}

/// What a reconfiguration cannot change: those are made when the topology comes up.
fn same_shape(now: &Topology, next: &Topology) -> Result<(), String> {
    if now.paths.len() != next.paths.len() {
        return Err(format!("the topology has {} paths, the new links {}; take it down and bring it up again", now.paths.len(), next.paths.len()));
    }
    if now.mptcp != next.mptcp {
        return Err("MPTCP endpoints are set when a topology comes up; take it down and bring it up again".into());
    }
    for (i, (a, b)) in now.paths.iter().zip(&next.paths).enumerate() {
        if a.backup != b.backup {
            return Err(format!("path {i}'s backup flag is set when a topology comes up; take it down and bring it up again"));
        }
        if a.uplink_log.is_some() || a.downlink_log.is_some() {
            return Err("a topology brought up with --log-dir keeps its logs; take it down and bring it up again".into());
        }
    }
    Ok(())
}
