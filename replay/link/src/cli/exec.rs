//! `pagepath net exec NAME client|server -- COMMAND...`: run a command inside one side.

use std::os::unix::process::CommandExt;
use std::process::Command;

use super::require_root;
use crate::io::state;

pub fn run(argv: &[String]) -> Result<i32, String> {
    let (name, side, command) = match argv {
        [name, side, rest @ ..] => (name, side, if rest.first().map(String::as_str) == Some("--") { &rest[1..] } else { rest }),
        _ => return Err("exec: usage: pagepath net exec NAME client|server [--] COMMAND...".into()),
    };
    if command.is_empty() {
        return Err("exec: no command given".into());
    }
    require_root()?;
    let s = state::read(name).filter(|s| state::alive(s.pid) && s.phase == "up")
        .ok_or_else(|| format!("exec: no topology named \"{name}\" is up (see `pagepath net status`)"))?;
    let ns = match side.as_str() {
        "client" => &s.client_ns,
        "server" => &s.server_ns,
        other => return Err(format!("exec: side must be client or server, got \"{other}\"")),
    };
    let err = env(Command::new("ip").args(["netns", "exec", ns]).args(command), &s).exec();
    Err(format!("exec: {}: {err}", command[0]))
}

/// Where things are, for commands run inside: pagepath's names and Mahimahi's MAHIMAHI_BASE,
/// so scripts written for either find the server. In a shell MAHIMAHI_BASE is the host, as in
/// Mahimahi; a topology from `net up` has no host link, so there it is the server address.
pub fn env<'a>(cmd: &'a mut Command, s: &state::State) -> &'a mut Command {
    let clients: Vec<&str> = s.paths.iter().map(|p| p.client_addr.as_str()).collect();
    if let Some(host) = &s.host_addr {
        cmd.env("PAGEPATH_HOST_ADDR", host);
    }
    cmd.env("PAGEPATH_NET", &s.name).env("PAGEPATH_SERVER_ADDR", &s.server_addr)
        .env("PAGEPATH_CLIENT_ADDRS", clients.join(",")).env("MAHIMAHI_BASE", s.host_addr.as_deref().unwrap_or(&s.server_addr))
}
