//! The origins' addresses on the loopback device of the server namespace. Addresses in
//! 127.0.0.0/8 are already local; others are added here and removed when the replay ends.

use std::net::Ipv4Addr;
use std::process::Command;

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

pub fn ensure_local(addresses: &[Ipv4Addr]) -> Result<AddedAddresses, String> {
    let mut guard = AddedAddresses { added: Vec::new() };
    let wanted: Vec<Ipv4Addr> = addresses.iter().copied().filter(|a| !a.is_loopback()).collect();
    if wanted.is_empty() {
        return Ok(guard);
    }
    let present = ip(&["-4", "-o", "addr", "show", "dev", "lo"])?;
    for a in wanted {
        if present.contains(&format!(" {a}/")) {
            continue;
        }
        ip(&["addr", "add", &format!("{a}/32"), "dev", "lo"])?;
        guard.added.push(a);
    }
    Ok(guard)
}

impl Drop for AddedAddresses {
    fn drop(&mut self) {
        for a in &self.added {
            let _ = ip(&["addr", "del", &format!("{a}/32"), "dev", "lo"]);
        }
    }
}
