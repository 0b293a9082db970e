//! `pagepath net` verbs. Each returns the process exit code; errors are printed by main.

pub mod args;
pub mod check;
pub mod down;
pub mod exec;
pub mod flags;
pub mod plot;
pub mod reconfigure;

pub mod shell;
pub mod status;
pub mod up;

pub const USAGE: &str = "usage: pagepath net <verb> ...
  up [TOPOLOGY.json] [--name N] [--seed S] [--log-dir D] [--foreground]
     [--paths N] [--rtt-ms T | --delay-ms D (one way)] [--rate-mbit R] [--uplink-rate-mbit R] [--downlink-rate-mbit R]
     [--uplink-trace F] [--downlink-trace F] [--once] [--queue TYPE[:ARG=V,...]] [--loss P]
     [--jitter-ms J] [--mptcp | --no-mptcp] [--backup PATH_INDEX] [--no-realtime]
     (--no-realtime: the forwarding threads at normal priority; by default they ask for
     real-time priority, so that packets leave when due on a busy machine)
  down NAME | --all
  reconfigure NAME [TOPOLOGY.json | link flags as for up] [--seed S]
     new links for a running topology (the same paths, backups and MPTCP), as if brought up afresh
  exec NAME client|server [--] COMMAND...
  status [NAME] [--json]
  check TOPOLOGY.json...   read each file as up would (traces too) and say what is wrong; no root
  ping NAME [--count N] [--interval-ms MS] [--size BYTES] [--json]   each path's round trip and loss, as ping (pagepath's CLI)
  shell [mm-]delay MS | [mm-]link [OPTIONS] UP DOWN | [mm-]loss uplink|downlink RATE ... [--] [COMMAND...]
  plot LOG [--out FILE.svg] [--bin-ms N] [--title T]
  check-root   exit 0 as root, else say why not (exit 2): what pagepath's verbs that run replays ask first
Queue types: infinite, droptail, drophead, red, codel; limits packets=N, bytes=N or bdp=X.
Needs root (network namespaces, TUN devices). Topology format: docs/formats/topology.md";

/// What main puts before an error it prints; a parent that relays a child's errors takes it off.
pub const ERROR_PREFIX: &str = "pagepath net: ";

/// Refuses to start anything without root, before touching the system.
pub fn require_root() -> Result<(), String> {
    // SAFETY: geteuid has no side effects.
    if unsafe { libc::geteuid() } != 0 {
        return Err("pagepath net needs root: it creates network namespaces and TUN devices (run it as root)".into());
    }
    Ok(())
}

/// A seed for a topology that names none, recorded in its state so the run can be repeated.
pub fn fresh_seed() -> u64 {
    let mut b = [0u8; 8];
    if std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut b)).is_err() {
        return crate::io::clock::now_us();
    }
    u64::from_le_bytes(b) >> 11
}
