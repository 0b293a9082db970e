//! Tail loss probes on or off for the servers' TCP and MPTCP connections (seed 001 §6.4.5,
//! Algorithm 9, which compares page completion with and without them). Linux has them per network
//! namespace (`net.ipv4.tcp_early_retrans`: 3 probes and early retransmit, 0 neither), not per
//! socket, so the server sets the namespace it runs in, and only a namespace `pagepath net` made: turning
//! them off for the whole host is not a replay's business. QUIC's probe timeout is its only timer
//! recovery (RFC 9002 §6.2) and cannot be turned off.

use crate::config::Transport;

const KEY: &str = "/proc/sys/net/ipv4/tcp_early_retrans";
/// The kernel's default: tail loss probes and (delayed) early retransmit.
const ON: &str = "3";
const OFF: &str = "0";

pub fn parse(v: Option<String>, transport: Transport) -> Result<bool, String> {
    let on = match v.as_deref() {
        None | Some("on") => true,
        Some("off") => false,
        Some(other) => return Err(format!("--tail-loss-probes: \"{other}\" is neither on nor off")),
    };
    if !on && matches!(transport, Transport::Quic | Transport::Mpquic) {
        return Err("--tail-loss-probes off: QUIC's probe timeout is its only timer-based loss recovery (RFC 9002 §6.2); tquic cannot run without it. Use tcp or mptcp".into());
    }
    Ok(on)
}

/// Writes the setting into the server's own namespace, both ways, so that a namespace reused
/// across runs never keeps an earlier run's choice. On the host's namespace it only refuses
/// `off`.
pub fn apply(on: bool) -> Result<(), String> {
    if !in_own_namespace() {
        if on {
            return Ok(());
        }
        return Err("--tail-loss-probes off: the server is in the host's network namespace, and turning tail loss probes off there would change every TCP connection of the host; run it in a topology's server namespace (pagepath replay, or pagepath replay serve --net NAME)".into());
    }
    std::fs::write(KEY, if on { ON } else { OFF }).map_err(|e| format!("--tail-loss-probes: cannot write {KEY}: {e}"))
}

/// Whether this process runs in a namespace `pagepath net` made (named pp-*, bound under
/// /run/netns by `ip netns`), compared by inode as `ip netns identify` does.
fn in_own_namespace() -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(own) = std::fs::metadata("/proc/self/ns/net") else { return false };
    let Ok(named) = std::fs::read_dir("/run/netns") else { return false };
    named.flatten().any(|e| {
        e.file_name().to_string_lossy().starts_with("pp-")
            && e.metadata().is_ok_and(|m| m.ino() == own.ino() && m.dev() == own.dev())
    })
}
