//! `pagepath net shell ...`: Mahimahi's shells in one. Brings up a private topology from
//! Mahimahi arguments with a link to the host (so the host is reachable at MAHIMAHI_BASE, as in
//! Mahimahi), runs the command in its client namespace, and takes everything down when the
//! command ends or on Ctrl-C.

use std::process::Command;
use std::time::Duration;

use super::{exec::env, fresh_seed, require_root};
use crate::io::serve::{self, Running};
use crate::io::{host_link, signals, state};
use crate::topology::mahimahi::parse_shell;
use crate::topology::ParseContext;

pub fn run(argv: &[String]) -> Result<i32, String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let ctx = ParseContext { source: "shell".into(), base_dir: cwd, fallback_seed: fresh_seed(), seed_override: None };
    let shell = parse_shell(argv, &ctx)?;
    require_root()?;
    state::sweep();
    let name = format!("sh{}", std::process::id());
    state::claim(&name, std::process::id())?;
    signals::install();
    let running = match serve::bring_up(&name, &shell.topology, &argv.join(" "), true) {
        Ok(r) => r,
        Err(e) => {
            state::release(&name);
            return Err(e);
        }
    };
    let (client_ns, server_ns) = state::namespaces(&name);
    let (client_dev, server_dev) = serve::tun_names(0);
    let mut s = serve::state_of(&name, &shell.topology);
    let written = host_link::connect(&client_ns, &server_ns, &client_dev, &server_dev)
        .map_err(|e| format!("shell: linking the host: {e}"))
        .and_then(|h| { s.host_addr = Some(h.host_addr); state::write(&s) });
    if let Err(e) = written {
        stop(running, &name);
        return Err(e);
    }
    let command = if shell.command.is_empty() { vec![std::env::var("SHELL").unwrap_or("/bin/sh".into())] } else { shell.command };
    let code = match env(Command::new("ip").args(["netns", "exec", &s.client_ns]).args(&command), &s).spawn() {
        Ok(mut child) => wait(&mut child),
        Err(e) => {
            eprintln!("shell: {}: {e}", command[0]);
            127
        }
    };
    stop(running, &name);
    Ok(code)
}

/// Removes everything the shell made: forwarding threads, namespaces, host link, state files.
fn stop(running: Running, name: &str) {
    signals::request_stop();
    running.tear_down(0);
    state::release(name);
    // A shell's name is used once, so nothing would ever replace its stats file.
    let _ = std::fs::remove_file(state::file(name, ".stats.json"));
}

/// The command's exit code; on SIGINT/SIGTERM to us, the command is asked to stop, then killed.
fn wait(child: &mut std::process::Child) -> i32 {
    let mut asked = None;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return status.code().unwrap_or(130);
        }
        if signals::stopping() {
            let since = *asked.get_or_insert_with(std::time::Instant::now);
            // SAFETY: kill has no memory effects.
            let sig = if since.elapsed() < Duration::from_secs(3) { libc::SIGTERM } else { libc::SIGKILL };
            unsafe { libc::kill(child.id() as i32, sig) };
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
