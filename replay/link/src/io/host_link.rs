//! A shell's way out to the host, as Mahimahi's shells have: programs in the shell reach a server
//! on the host at `MAHIMAHI_BASE` through the emulated links. A veth pair joins the shell's server
//! namespace to the host; the server namespace routes between it and the links, so the client's
//! packets to the host take the same delay, rate, loss and queue as its packets to 10.200.0.1.
//!
//! Each shell takes a /29 of 10.201.0.0/16 for itself (host end, server-namespace end, client
//! source): the host routes replies by the client's address, so two shells must not share it.
//! The veth's host end is named after the block, and the kernel refuses a second device of the
//! same name, so two shells starting at once never take the same block. The pair is deleted from
//! inside the server namespace, which only its own shell (or the cleanup after it crashed) has;
//! the host's address and routes on it go with it.

use std::net::Ipv4Addr;
use std::process::Command;

use super::netns::{ip, sysctl};

pub struct HostLink {
    /// The host's address on the link: `MAHIMAHI_BASE`.
    pub host_addr: String,
}

const BLOCKS: u32 = 8192;
const PEER: &str = "pphost";

/// Connects the host to the shell whose namespaces are `c` (client) and `s` (server), whose
/// path 0 runs from `client_dev` to `server_dev`.
pub fn connect(c: &str, s: &str, client_dev: &str, server_dev: &str) -> Result<HostLink, String> {
    let routed = host_routes()?;
    for k in 0..BLOCKS {
        let [host, gateway, client] = [1, 2, 3].map(|i| addr(k, i));
        if (0..8).any(|i| routed.iter().any(|&(net, mask)| u32::from(addr_of(k, i)) & mask == net)) {
            continue;
        }
        let dev = format!("pp-host{k}");
        match ip(&["link", "add", &dev, "type", "veth", "peer", "name", PEER, "netns", s]) {
            Err(e) if e.contains("File exists") => continue,
            Err(e) => return Err(e),
            Ok(()) => {}
        }
        // The host end gets no IPv6 link-local address: nothing but the shell's IPv4 uses it.
        let _ = std::fs::write(format!("/proc/sys/net/ipv6/conf/{dev}/disable_ipv6"), "1");
        ip(&["addr", "add", &host, "peer", &gateway, "dev", &dev])?;
        ip(&["link", "set", &dev, "up"])?;
        ip(&["route", "add", &format!("{client}/32"), "via", &gateway, "dev", &dev])?;

        ip(&["-n", s, "addr", "add", &gateway, "peer", &host, "dev", PEER])?;
        ip(&["-n", s, "link", "set", PEER, "up"])?;
        ip(&["-n", s, "route", "add", &format!("{client}/32"), "dev", server_dev])?;
        sysctl(s, "net.ipv4.ip_forward", "1")?;
        // Strict reverse-path filtering on the namespace's end drops anything the host would
        // forward in from elsewhere (only the host's own address routes back that way), so the
        // shell is reachable from the host alone, never from the host's network.
        sysctl(s, &format!("net.ipv4.conf.{PEER}.rp_filter"), "1")?;

        ip(&["-n", c, "addr", "add", &format!("{client}/32"), "dev", client_dev])?;
        ip(&["-n", c, "route", "add", &format!("{host}/32"), "dev", client_dev, "src", &client])?;
        return Ok(HostLink { host_addr: host });
    }
    Err("no free /29 in 10.201.0.0/16 for the shell's host link (every block is in use by the host or other shells)".into())
}

/// Deletes the host link of the shell whose server namespace is `s`, if it has one. The kernel
/// would remove it with the namespace, but only later, in the background; deleting it here means
/// the host has no trace of the shell once it has ended.
pub fn remove(s: &str) {
    if super::netns::exists(s) {
        let _ = ip(&["-n", s, "link", "del", PEER]);
    }
}

fn addr_of(block: u32, i: u32) -> Ipv4Addr {
    Ipv4Addr::from((10 << 24) | (201 << 16) | (block << 3) | i)
}

fn addr(block: u32, i: u32) -> String {
    addr_of(block, i).to_string()
}

/// The prefixes the host already routes somewhere other than a default route (its own addresses
/// and networks, other shells' links), as (network, mask): a block inside one is skipped, so a
/// shell never takes over traffic to a machine on the host's network.
fn host_routes() -> Result<Vec<(u32, u32)>, String> {
    let out = Command::new("ip").args(["-o", "-4", "route", "show", "table", "all"]).output().map_err(|e| format!("running ip: {e} (is iproute2 installed?)"))?;
    Ok(String::from_utf8_lossy(&out.stdout).lines().filter_map(|line| {
        // A route's prefix is its first word, or its second after a type ("local", "unreachable").
        let prefix = line.split_whitespace().take(2).find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
        let (net, len) = prefix.split_once('/').unwrap_or((prefix, "32"));
        let (net, len): (Ipv4Addr, u32) = (net.parse().ok()?, len.parse().ok()?);
        let mask = if len == 0 { 0 } else { u32::MAX << (32 - len.min(32)) };
        Some((u32::from(net) & mask, mask))
    }).collect())
}
