//! The state folder: one file per running topology, claimed before anything is created, so a
//! crashed emulator's leftovers are found and removed at the next start, and two topologies
//! never take the same name.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::netns;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    pub name: String,
    pub pid: u32,
    /// "starting", "up" or "failed".
    pub phase: String,
    pub error: Option<String>,
    pub seed: u64,
    pub client_ns: String,
    pub server_ns: String,
    pub server_addr: String,
    /// A shell's only: the host's address on its host link (`MAHIMAHI_BASE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_addr: Option<String>,
    pub mptcp: bool,
    pub paths: Vec<PathState>,
    pub started_unix_ms: u64,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PathState {
    pub name: String,
    pub client_addr: String,
    pub server_link_addr: String,
    pub backup: bool,
    pub uplink: String,
    pub downlink: String,
    pub uplink_log: Option<String>,
    pub downlink_log: Option<String>,
}

pub fn dir() -> PathBuf {
    std::env::var_os("PAGEPATH_NET_STATE").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/run/pagepath/net"))
}

pub fn file(name: &str, suffix: &str) -> PathBuf {
    dir().join(format!("{name}{suffix}"))
}

pub fn namespaces(name: &str) -> (String, String) {
    (format!("pp-{name}-c"), format!("pp-{name}-s"))
}

pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty() && name.len() <= 20 && name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if ok { Ok(()) } else { Err(format!("--name: \"{name}\" must be 1-20 lowercase letters, digits or '-', starting with a letter or digit")) }
}

/// Takes the name for this process, removing a dead owner's leftovers first.
pub fn claim(name: &str, pid: u32) -> Result<(), String> {
    fs::create_dir_all(dir()).map_err(|e| format!("{}: {e}", dir().display()))?;
    if let Some(old) = read(name) {
        if alive(old.pid) {
            return Err(format!("a topology named \"{name}\" is already up (pid {}); take it down with `pagepath net down {name}` or choose another --name", old.pid));
        }
        clean(name);
    }
    let _ = fs::remove_file(file(name, ".stats.json"));
    let state = State { name: name.into(), pid, phase: "starting".into(), ..Default::default() };
    let mut f = OpenOptions::new().write(true).create_new(true).open(file(name, ".json"))
        .map_err(|e| format!("claiming {}: {e} (another `pagepath net` is starting it?)", file(name, ".json").display()))?;
    f.write_all(serde_json::to_string_pretty(&state).unwrap().as_bytes()).map_err(|e| e.to_string())
}

pub fn write(state: &State) -> Result<(), String> {
    let path = file(&state.name, ".json");
    let tmp = file(&state.name, ".json.tmp");
    fs::write(&tmp, serde_json::to_string_pretty(state).unwrap()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn read(name: &str) -> Option<State> {
    serde_json::from_str(&fs::read_to_string(file(name, ".json")).ok()?).ok()
}

pub fn list() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir()).into_iter().flatten().flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".json").map(str::to_string))
        .filter(|n| !n.contains('.'))
        .collect();
    names.sort();
    names
}

/// Whether `pid` is a live pagepath-net process (not a recycled pid).
pub fn alive(pid: u32) -> bool {
    fs::read(format!("/proc/{pid}/cmdline")).map(|c| String::from_utf8_lossy(&c).contains("pagepath-net")).unwrap_or(false)
}

/// Removes a topology's namespaces (and the processes in them) and its files. The last stats
/// stay until the name is used again, so they can be read after `down`.
pub fn clean(name: &str) {
    remove_namespaces(name);
    release(name);
}

/// Both namespaces of a topology, with whatever still runs in them, and a shell's host link.
pub fn remove_namespaces(name: &str) {
    let (c, s) = namespaces(name);
    netns::delete(&c);
    super::host_link::remove(&s);
    netns::delete(&s);
}

pub fn release(name: &str) {
    for suffix in [".json", ".json.tmp", ".start.log", ".reconfigure.json", ".reconfigured.json"] {
        let _ = fs::remove_file(file(name, suffix));
    }
}

/// Cleans up after every dead owner, and removes pagepath namespaces that no state file claims
/// (left by a crash between creating them and recording them). Returns what it removed.
pub fn sweep() -> Vec<String> {
    let mut removed = Vec::new();
    for name in &list() {
        if read(name).map(|s| !alive(s.pid)).unwrap_or(true) {
            clean(name);
            removed.push(name.clone());
        }
    }
    removed.extend(stale_stats());
    for entry in fs::read_dir("/run/netns").into_iter().flatten().flatten() {
        let ns = entry.file_name().to_string_lossy().to_string();
        let Some(name) = ns.strip_prefix("pp-").and_then(|n| n.strip_suffix("-c").or_else(|| n.strip_suffix("-s"))) else { continue };
        // Checked per namespace, not from an earlier listing: a topology claimed since is not an orphan.
        if !file(name, ".json").exists() {
            netns::delete(&ns);
            removed.push(ns);
        }
    }
    removed
}

/// How long a topology's last counters outlive it, for `pagepath net status` or a script to read
/// after `down`; without a bound they pile up, one file per topology ever brought up.
const STATS_KEPT_FOR: std::time::Duration = std::time::Duration::from_secs(3600);

/// Stats files of topologies that are not up and were last written over an hour ago.
fn stale_stats() -> Vec<String> {
    let mut removed = Vec::new();
    for entry in fs::read_dir(dir()).into_iter().flatten().flatten() {
        let file_name = entry.file_name().to_string_lossy().to_string();
        let Some(name) = file_name.strip_suffix(".stats.json") else { continue };
        if file(name, ".json").exists() { continue }
        let age = entry.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
        if age.is_some_and(|a| a > STATS_KEPT_FOR) && fs::remove_file(entry.path()).is_ok() {
            removed.push(file_name);
        }
    }
    removed
}
