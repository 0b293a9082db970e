//! `pagepath net down NAME | --all`: stop the emulator, which removes what it created; if it
//! is dead or does not stop, remove its leftovers here.

use std::time::{Duration, Instant};

use super::args::Args;
use super::require_root;
use crate::io::state;

pub fn run(argv: &[String]) -> Result<i32, String> {
    let mut a = Args::new(argv);
    let all = a.flag("--all");
    let names = a.rest()?;
    require_root()?;
    let names = match (all, names.as_slice()) {
        (true, []) => state::list(),
        (false, [name]) => vec![name.clone()],
        _ => return Err("down: give one topology name, or --all".into()),
    };
    for name in &names {
        let Some(s) = state::read(name) else {
            return Err(format!("down: no topology named \"{name}\" is up (see `pagepath net status`)"));
        };
        stop(&s);
        println!("down: {name}");
    }
    state::sweep();
    Ok(0)
}

fn stop(s: &state::State) {
    if state::alive(s.pid) {
        // SAFETY: kill has no memory effects.
        unsafe { libc::kill(s.pid as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(15);
        while state::alive(s.pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if state::alive(s.pid) {
            unsafe { libc::kill(s.pid as i32, libc::SIGKILL) };
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    state::clean(&s.name);
}
