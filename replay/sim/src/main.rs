//! pagepath-sim: a replay in virtual time. See cli::HELP.

use pagepath_sim::kept::Kept;
use pagepath_sim::{cli, messages, simulation};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Allocations from this size on get pages of their own from the kernel, returned when freed.
/// A simulated TCP socket's two 4 MB buffers, when the pool (tcp/buffers.rs) has none to lend,
/// would otherwise be memory freed earlier, which calloc must clear byte by byte. Fresh pages are
/// zero already and only those a connection's data passes through are ever touched.
const OWN_PAGES_FROM: i32 = 1 << 20;

fn main() -> ExitCode {
    // SAFETY: mallopt only sets an allocator parameter, before any thread is started.
    unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_PAGES_FROM) };
    let items: Vec<String> = std::env::args().skip(1).collect();
    if items == ["--batch"] {
        return batch();
    }
    if items == ["--messages"] {
        return messages();
    }
    let args = match cli::parse(&items) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{}\n{}", cli::HELP, messages::HELP);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("pagepath-sim: {e}\n(see pagepath-sim --help)");
            return ExitCode::from(2);
        }
    };
    match simulation::simulate(&args, &mut Kept::default()) {
        Ok(simulated) => {
            println!("{}", simulated.line);
            if simulated.failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("pagepath-sim: {e}");
            ExitCode::from(2)
        }
    }
}

/// One simulation per line of stdin (a JSON array of the arguments a single run takes), one report
/// line per simulation on stdout, or `{"error": ...}` for one that could not run. A sweep keeps one
/// such process per worker: no process to start per load, and the recordings read once.
fn batch() -> ExitCode {
    let mut out = std::io::stdout().lock();
    let mut kept = Kept::default();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let report = serde_json::from_str::<Vec<String>>(&line)
            .map_err(|e| format!("a batch line must be a JSON array of arguments: {e}"))
            .and_then(|items| cli::parse(&items)?.ok_or_else(|| "--help is not a simulation".to_string()))
            .and_then(|args| simulation::simulate(&args, &mut kept));
        let reply = report.map_or_else(|e| serde_json::json!({ "error": e }).to_string(), |s| s.line);
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// Messages alone over idealised paths (messages.rs): JSON in on stdin, JSON out.
fn messages() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut input) {
        eprintln!("pagepath-sim --messages: cannot read stdin: {e}");
        return ExitCode::from(2);
    }
    match messages::messages(&input) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pagepath-sim --messages: {e}\n{}", messages::HELP);
            ExitCode::from(2)
        }
    }
}
