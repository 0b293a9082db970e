//! The origins' addresses on the loopback device of the server namespace. Addresses in
//! 127.0.0.0/8 are already local; others are added here and removed when the replay ends.

use std::io::Write;
use std::net::Ipv4Addr;
use std::process::{Command, Stdio};

pub struct AddedAddresses {
    added: Vec<Ipv4Addr>,
}

fn ip(args: &[&str]) -> Result<String, String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("cannot run ip (iproute2): {e}"))?;
    if !out.status.success() {
        return Err(format!("ip {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// One `ip -batch` for all of `commands` (each an `ip` command line without "ip"): a page's
/// origins take one process to add, not one each (a few ms apiece, paid at every run's start and stop).
fn ip_batch(commands: &[String]) -> Result<(), String> {
    if commands.is_empty() {
        return Ok(());
    }
    let mut child = Command::new("ip")
        .args(["-batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run ip (iproute2): {e}"))?;
    let script = commands.join("\n") + "\n";
    let written = child.stdin.take().expect("piped").write_all(script.as_bytes());
    let out = child.wait_with_output().map_err(|e| format!("ip -batch: {e}"))?;
    if !out.status.success() || written.is_err() {
        return Err(format!("ip -batch ({}): {}", commands.join("; "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(())
}

pub fn ensure_local(addresses: &[Ipv4Addr]) -> Result<AddedAddresses, String> {
    let mut guard = AddedAddresses { added: Vec::new() };
    let wanted: Vec<Ipv4Addr> = addresses.iter().copied().filter(|a| !a.is_loopback()).collect();
    if wanted.is_empty() {
        return Ok(guard);
    }
    let present = ip(&["-4", "-o", "addr", "show", "dev", "lo"])?;
    let missing: Vec<Ipv4Addr> = wanted.into_iter().filter(|a| !present.contains(&format!(" {a}/"))).collect();
    ip_batch(&missing.iter().map(|a| format!("addr add {a}/32 dev lo")).collect::<Vec<_>>())?;
    guard.added = missing;
    Ok(guard)
}

impl Drop for AddedAddresses {
    fn drop(&mut self) {
        let _ = ip_batch(&self.added.iter().map(|a| format!("addr del {a}/32 dev lo")).collect::<Vec<_>>());
    }
}
