//! `pagepath-net`: the link emulator's command line (also reached as `pagepath net`).

use pagepath_link::cli;
use std::io::Write;

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some(verb) = argv.first() else {
        eprintln!("{}", cli::USAGE);
        std::process::exit(2);
    };
    let rest = &argv[1..];
    // --help anywhere among a verb's own options; exec and shell pass what follows to a command,
    // so for them only right after the verb.
    let own = match verb.as_str() {
        "exec" | "shell" => &rest[..rest.len().min(1)],
        _ => &rest[..rest.iter().position(|a| a == "--").unwrap_or(rest.len())],
    };
    if own.iter().any(|a| a == "--help" || a == "-h") {
        // A reader that stops early (| head) is no error.
        let _ = writeln!(std::io::stdout(), "{}", cli::USAGE);
        std::process::exit(0);
    }
    let result = match verb.as_str() {
        "up" => cli::up::run(rest),
        "down" => cli::down::run(rest),
        "reconfigure" => cli::reconfigure::run(rest),
        "exec" => cli::exec::run(rest),
        "status" => cli::status::run(rest),
        "check" => cli::check::run(rest),
        "shell" => cli::shell::run(rest),
        "plot" => cli::plot::run(rest),
        "check-root" => cli::require_root().map(|()| 0),
        "help" | "--help" | "-h" => {
            println!("{}", cli::USAGE);
            Ok(0)
        }
        other => Err(format!("unknown verb \"{other}\"\n{}", cli::USAGE)),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("{}{e}", cli::ERROR_PREFIX);
            std::process::exit(2);
        }
    }
}
