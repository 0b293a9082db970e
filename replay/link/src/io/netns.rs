//! Network namespaces through iproute2 (`ip netns`), and entering one from a thread.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::process::Command;

pub fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("running ip: {e} (is iproute2 installed?)"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!("ip {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()))
}

pub fn exists(ns: &str) -> bool {
    std::path::Path::new("/run/netns").join(ns).exists()
}

pub fn create(ns: &str) -> Result<(), String> {
    ip(&["netns", "add", ns])?;
    ip(&["-n", ns, "link", "set", "lo", "up"])
}

/// Deletes the namespace after killing what still runs in it: a process left inside would keep
/// the namespace alive after `ip netns del`.
pub fn delete(ns: &str) {
    if !exists(ns) {
        return;
    }
    for signal in [libc::SIGTERM, libc::SIGKILL] {
        let pids = pids(ns);
        if pids.is_empty() {
            break;
        }
        for pid in &pids {
            // SAFETY: kill has no memory effects.
            unsafe { libc::kill(*pid, signal) };
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let _ = ip(&["netns", "del", ns]);
}

pub fn pids(ns: &str) -> Vec<i32> {
    let own = std::process::id() as i32;
    Command::new("ip").args(["netns", "pids", ns]).output().map(|o| {
        String::from_utf8_lossy(&o.stdout).split_whitespace().filter_map(|p| p.parse().ok()).filter(|p| *p != own).collect()
    }).unwrap_or_default()
}

pub fn sysctl(ns: &str, key: &str, value: &str) -> Result<(), String> {
    ip(&["netns", "exec", ns, "sysctl", "-qw", &format!("{key}={value}")])
}

/// Moves the calling thread into `ns` until the guard drops.
pub struct Entered {
    home: File,
}

pub fn enter(ns: &str) -> Result<Entered, String> {
    let home = File::open("/proc/thread-self/ns/net").map_err(|e| format!("opening this thread's namespace: {e}"))?;
    let target = File::open(format!("/run/netns/{ns}")).map_err(|e| format!("namespace {ns}: {e}"))?;
    setns(&target, ns)?;
    Ok(Entered { home })
}

impl Drop for Entered {
    fn drop(&mut self) {
        let _ = setns(&self.home, "the original namespace");
    }
}

fn setns(f: &File, what: &str) -> Result<(), String> {
    // SAFETY: setns only changes this thread's namespace.
    if unsafe { libc::setns(f.as_raw_fd(), libc::CLONE_NEWNET) } < 0 {
        return Err(format!("entering {what}: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}
