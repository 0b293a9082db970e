//! `pagepath-server`: serves a recording from one origin server per recorded host (also reached
//! as `pagepath replay serve`).

use pagepath_server::{config, run, schedulers_verb, transport_knobs_verb};

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = match argv.first().map(String::as_str) {
        Some("serve") => config::parse_serve(&argv[1..]).and_then(run::serve),
        Some("schedulers") => schedulers_verb::schedulers(&argv[1..]),
        Some("transport-knobs") => transport_knobs_verb::transport_knobs(&argv[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{}\n{}\n{}", config::USAGE, schedulers_verb::USAGE, transport_knobs_verb::USAGE);
            Ok(0)
        }
        Some(other) => Err(format!("unknown verb \"{other}\"\n{}", config::USAGE)),
        None => Err(config::USAGE.to_string()),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("pagepath-server: {e}");
            std::process::exit(2);
        }
    }
}
