//! `pagepath net up`: validate, then run the emulator in the background (or the foreground with
//! --foreground) until `pagepath net down`, SIGINT or SIGTERM.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::args::Args;
use super::flags::topology_from_flags;
use super::{fresh_seed, require_root};
use crate::io::{serve, signals, state};
use crate::topology::{parse_topology, topology_from_value, ParseContext, Topology};

pub fn run(argv: &[String]) -> Result<i32, String> {
    let mut a = Args::new(argv);
    let foreground = a.flag("--foreground");
    let realtime = !a.flag("--no-realtime");
    let (name, topo) = read(&mut a)?;
    require_root()?;
    state::sweep();
    if foreground {
        return serve_foreground(&name, &topo, argv, realtime);
    }
    background(&name, argv)
}

/// The topology and its name from the arguments, fully checked; nothing is created.
pub fn read(a: &mut Args) -> Result<(String, Topology), String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    read_in(a, &cwd)
}

/// `read`, with relative files taken from `cwd`.
pub fn read_in(a: &mut Args, cwd: &Path) -> Result<(String, Topology), String> {
    let name = a.value("--name")?;
    let seed = a.value("--seed")?.map(|s| s.parse::<u64>().map_err(|_| format!("--seed: \"{s}\" is not a non-negative integer"))).transpose()?;
    let log_dir = a.value("--log-dir")?.map(PathBuf::from);
    let from_flags = topology_from_flags(a)?;
    let rest = a.rest()?;
    let ctx = |source: String, base: &Path| ParseContext { source, base_dir: base.to_path_buf(), fallback_seed: fresh_seed(), seed_override: seed };
    let mut topo = match (rest.as_slice(), from_flags) {
        ([], Some(v)) => topology_from_value(&v, &ctx("flags".into(), cwd)).map_err(|e| format!("flags: {e}"))?,
        ([file], None) => {
            let path = cwd.join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{file}: cannot read the topology: {e}"))?;
            parse_topology(&text, &ctx(file.clone(), path.parent().unwrap_or(cwd)))?
        }
        ([_], Some(_)) => return Err("give the link settings in the topology file or as flags, not both".into()),
        ([], None) => return Err(format!("give a topology file or link flags\n{}", super::USAGE)),
        (more, _) => return Err(format!("{}: one topology file at a time", more[1])),
    };
    if let Some(dir) = log_dir {
        for p in &mut topo.paths {
            p.uplink_log = Some(dir.join(format!("{}.uplink.log", p.name)));
            p.downlink_log = Some(dir.join(format!("{}.downlink.log", p.name)));
        }
    }
    let name = match name {
        Some(n) => { state::check_name(&n)?; n }
        None => (0..100).map(|i| format!("net{i}")).find(|n| state::read(n).is_none()).ok_or("no free topology name; give --name")?,
    };
    Ok((name, topo))
}

/// How often the counters are rewritten unasked.
const STATS_EVERY: Duration = Duration::from_millis(250);

pub fn serve_foreground(name: &str, topo: &Topology, argv: &[String], realtime: bool) -> Result<i32, String> {
    state::claim(name, std::process::id())?;
    signals::install();
    let running = match serve::bring_up(name, topo, &argv.join(" "), realtime) {
        Ok(r) => r,
        Err(e) => {
            state::release(name);
            return Err(e);
        }
    };
    // Counters exist before the topology says it is up, so a run can read them at once.
    let mut flushes = 0;
    running.write_stats(flushes);
    state::write(&serve::state_of(name, topo))?;
    println!("{}", summary(name, topo));
    let mut written = Instant::now();
    while !signals::stopping() {
        // Short naps: a stop or a request for the counters (SIGUSR1) is answered within them.
        std::thread::sleep(Duration::from_millis(2));
        if signals::take_reconfigure() {
            super::reconfigure::answer(name, &running, topo, flushes);
        }
        let asked = signals::take_flush();
        flushes += u64::from(asked);
        if asked || written.elapsed() >= STATS_EVERY {
            running.write_stats(flushes);
            written = Instant::now();
        }
    }
    running.tear_down(flushes);
    state::release(name);
    Ok(0)
}

/// Starts `up --foreground` in its own session and waits until it reports the topology up.
fn background(name: &str, argv: &[String]) -> Result<i32, String> {
    signals::install();
    std::fs::create_dir_all(state::dir()).map_err(|e| format!("{}: {e}", state::dir().display()))?;
    let log = state::file(name, ".start.log");
    let out = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut args = vec!["up".to_string(), "--foreground".into(), "--name".into(), name.into()];
    args.extend(without_name(argv));
    let mut child = unsafe {
        // SAFETY: setsid in the child before exec only detaches it from our terminal.
        Command::new(exe).args(&args).stdin(Stdio::null()).stdout(out.try_clone().map_err(|e| e.to_string())?).stderr(out)
            .pre_exec(|| { libc::setsid(); Ok(()) }).spawn().map_err(|e| format!("starting the emulator: {e}"))?
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if signals::stopping() {
            // Ctrl-C reaches this process, not the emulator in its own session: told to stop, it
            // takes down what it made so far, so an interrupted `up` leaves nothing running.
            // SAFETY: signals our own child, which has not been waited for, so its pid is still its own.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            let _ = child.wait();
            eprintln!("{}interrupted: {name} was taken down before it came up", super::ERROR_PREFIX);
            return Ok(signals::stop_exit_code());
        }
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(format!("{} (the emulator exited with code {})", relayed(&text), status.code().unwrap_or(-1)));
        }
        if let Some(s) = state::read(name) {
            if s.phase == "up" && s.pid == child.id() {
                print!("{}", std::fs::read_to_string(&log).unwrap_or_default());
                return Ok(0);
            }
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            return Err(format!("the emulator did not come up within 30 s; its output is in {}", log.display()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The background emulator's output as this process's error: main puts the prefix before it again,
/// so the child's own is taken off each line it starts.
fn relayed(child_output: &str) -> String {
    let lines: Vec<&str> = child_output.trim_end().lines().map(|l| l.strip_prefix(super::ERROR_PREFIX).unwrap_or(l)).collect();
    lines.join("\n")
}

fn without_name(argv: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in argv {
        if skip { skip = false; continue; }
        if a == "--name" { skip = true; continue; }
        if a.starts_with("--name=") || a == "--foreground" { continue; }
        out.push(a.clone());
    }
    out
}

pub fn summary(name: &str, topo: &Topology) -> String {
    let (c, s) = state::namespaces(name);
    let mut text = format!("up: {name} (client namespace {c}, server namespace {s}, server address {}, seed {}{})\n",
        crate::topology::SERVER_ADDR, topo.seed, if topo.mptcp { ", MPTCP" } else { "" });
    for (i, p) in topo.paths.iter().enumerate() {
        text.push_str(&format!("  {} {}{}: uplink {}; downlink {}\n", p.name, crate::topology::client_addr(i), if p.backup { " (backup)" } else { "" }, p.uplink_text, p.downlink_text));
    }
    text.trim_end().to_string()
}
