//! Brings a topology up (namespaces, TUN pairs, addresses, routes, MPTCP endpoints, forwarding
//! threads), keeps its stats file fresh while it runs, and takes it all down.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::clock::{now_us, unix_ms};
use super::forwarder::{forward, run_in_real_time, Report, Swap};
use super::netns::{self, ip};
use super::state::{self, namespaces, PathState, State};
use super::tun::Tun;
use crate::core::direction::Direction;
use super::log_file::create_log;
use crate::topology::{client_addr, server_link_addr, PathSpec, Topology, SERVER_ADDR};

pub struct Running {
    pub name: String,
    threads: Vec<JoinHandle<()>>,
    reports: Vec<(String, [Arc<Mutex<Report>>; 2])>,
    /// Per path, (uplink, downlink): where a reconfiguration hands each thread its new model.
    swaps: Vec<[Arc<Swap>; 2]>,
}

/// Creates everything; on failure removes what it made and returns why.
/// `realtime`: the forwarding threads ask for real-time priority (io/forwarder.rs).
pub fn bring_up(name: &str, topo: &Topology, command_line: &str, realtime: bool) -> Result<Running, String> {
    let (c, s) = namespaces(name);
    let result = (|| {
        netns::create(&c)?;
        netns::create(&s)?;
        for ns in [&c, &s] {
            netns::sysctl(ns, "net.ipv6.conf.all.disable_ipv6", "1")?;
            netns::sysctl(ns, "net.ipv4.conf.all.rp_filter", "0")?;
            netns::sysctl(ns, "net.ipv4.conf.default.rp_filter", "0")?;
        }
        ip(&["-n", &s, "addr", "add", &format!("{SERVER_ADDR}/32"), "dev", "lo"])?;
        let mut running = Running { name: name.into(), threads: Vec::new(), reports: Vec::new(), swaps: Vec::new() };
        for (i, path) in topo.paths.iter().enumerate() {
            start_path(&mut running, i, path, &c, &s, command_line, realtime)?;
        }
        if topo.mptcp {
            mptcp(topo, &c, &s)?;
        }
        Ok(running)
    })();
    if result.is_err() {
        // Threads already started hold TUN devices; the stop flag ends them.
        super::signals::request_stop();
        state::remove_namespaces(name);
    }
    result
}

fn start_path(running: &mut Running, i: usize, path: &PathSpec, c: &str, s: &str, command_line: &str, realtime: bool) -> Result<(), String> {
    let (cdev, sdev) = tun_names(i);
    let client = { let _in = netns::enter(c)?; Arc::new(Tun::create(&cdev)?) };
    let server = { let _in = netns::enter(s)?; Arc::new(Tun::create(&sdev)?) };
    for (ns, dev, addr) in [(c, &cdev, client_addr(i)), (s, &sdev, server_link_addr(i))] {
        ip(&["-n", ns, "addr", "add", &format!("{addr}/24"), "dev", dev])?;
        ip(&["-n", ns, "link", "set", dev, "mtu", "1500", "txqueuelen", "10000", "up"])?;
    }
    // Each client address leaves by its own path, so an MPTCP subflow bound to it takes that path.
    let table = (100 + i).to_string();
    ip(&["-n", c, "rule", "add", "from", &client_addr(i), "table", &table])?;
    ip(&["-n", c, "route", "add", "default", "dev", &cdev, "table", &table])?;
    if i == 0 {
        ip(&["-n", c, "route", "add", "default", "dev", &cdev])?;
    }
    let start = now_us();
    let reports = [Arc::new(Mutex::new(Report::default())), Arc::new(Mutex::new(Report::default()))];
    let swaps = [Arc::new(Swap::default()), Arc::new(Swap::default())];
    let directions = [(&path.uplink, &path.uplink_log, "uplink", &client, &server), (&path.downlink, &path.downlink_log, "downlink", &server, &client)];
    for (d, (cfg, log, label, from, to)) in directions.into_iter().enumerate() {
        let text = if d == 0 { &path.uplink_text } else { &path.downlink_text };
        let log = log.as_deref().map(|file| create_log(file, &format!("{} {label}", path.name), text, &cfg.queue, command_line, unix_ms())).transpose()?;
        let link = Direction::new(cfg, start, log);
        let (from, to, report, swap) = (from.clone(), to.clone(), reports[d].clone(), swaps[d].clone());
        let (priority_tx, priority) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name(format!("{label}{i}"))
            .spawn(move || {
                let got = realtime && run_in_real_time();
                let _ = priority_tx.send(got);
                forward(link, from, to, report, swap, got)
            })
            .map_err(|e| e.to_string())?;
        // Known before the first counters are written, which say whether it was granted.
        reports[d].lock().unwrap().realtime = priority.recv().unwrap_or(false);
        running.threads.push(thread);
    }
    running.reports.push((path.name.clone(), reports));
    running.swaps.push(swaps);
    Ok(())
}

/// Path `i`'s TUN devices: (client side, server side), each in its own namespace.
pub fn tun_names(i: usize) -> (String, String) {
    (format!("ppc{i}"), format!("pps{i}"))
}

/// One subflow per extra path, opened by the client from that path's address (Linux's in-kernel
/// path manager); a backup path carries data only when no other path can.
fn mptcp(topo: &Topology, c: &str, s: &str) -> Result<(), String> {
    let n = topo.paths.len().to_string();
    for ns in [c, s] {
        ip(&["-n", ns, "mptcp", "limits", "set", "subflows", &n, "add_addr_accepted", &n])?;
    }
    for (i, path) in topo.paths.iter().enumerate() {
        let addr = client_addr(i);
        let dev = tun_names(i).0;
        let mut args = vec!["-n", c, "mptcp", "endpoint", "add", addr.as_str(), "dev", dev.as_str()];
        if i > 0 { args.push("subflow"); }
        if path.backup { args.push("backup"); }
        if i > 0 || path.backup { ip(&args)?; }
    }
    Ok(())
}

pub fn state_of(name: &str, topo: &Topology) -> State {
    let (client_ns, server_ns) = namespaces(name);
    let paths = topo.paths.iter().enumerate().map(|(i, p)| PathState {
        name: p.name.clone(), client_addr: client_addr(i), server_link_addr: server_link_addr(i), backup: p.backup,
        uplink: p.uplink_text.clone(), downlink: p.downlink_text.clone(),
        uplink_log: p.uplink_log.as_ref().map(|f| f.display().to_string()), downlink_log: p.downlink_log.as_ref().map(|f| f.display().to_string()),
    }).collect();
    State { name: name.into(), pid: std::process::id(), phase: "up".into(), error: None, seed: topo.seed, client_ns, server_ns,
        server_addr: SERVER_ADDR.into(), host_addr: None, mptcp: topo.mptcp, paths, started_unix_ms: unix_ms() }
}

impl Running {
    /// Writes the counters; `flushes` counts the writes asked for by SIGUSR1, so that the asker
    /// knows when the file holds its answer.
    pub fn write_stats(&self, flushes: u64) {
        let paths: Vec<serde_json::Value> = self.reports.iter().map(|(name, [up, down])| serde_json::json!({
            "name": name, "uplink": *up.lock().unwrap(), "downlink": *down.lock().unwrap(),
        })).collect();
        let body = serde_json::json!({ "name": self.name, "updatedUnixMs": unix_ms(), "flushes": flushes, "paths": paths });
        let tmp = state::file(&self.name, ".stats.json.tmp");
        if std::fs::write(&tmp, serde_json::to_string_pretty(&body).unwrap()).is_ok() {
            let _ = std::fs::rename(&tmp, state::file(&self.name, ".stats.json"));
        }
    }

    /// Gives every path and direction the links of `topo` (which has this topology's paths), each
    /// starting now with its counters at zero, and returns once every thread has taken its own.
    pub fn replace_links(&self, topo: &Topology) -> Result<(), String> {
        let start = now_us();
        for (path, swaps) in topo.paths.iter().zip(&self.swaps) {
            swaps[0].offer(Direction::new(&path.uplink, start, None));
            swaps[1].offer(Direction::new(&path.downlink, start, None));
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !self.swaps.iter().flatten().all(|s| s.taken()) {
            if std::time::Instant::now() > deadline {
                return Err("the forwarding threads did not take their new links within 5 s".into());
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        Ok(())
    }

    /// Waits for the forwarding threads (they stop on the stop flag), writes the final stats,
    /// flushes logs and removes the namespaces.
    pub fn tear_down(self, flushes: u64) {
        let Running { name, threads, reports, swaps } = self;
        for t in threads {
            let _ = t.join();
        }
        Running { name: name.clone(), threads: Vec::new(), reports, swaps }.write_stats(flushes);
        state::remove_namespaces(&name);
    }
}
