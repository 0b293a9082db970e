//! pagepath-browser: PCP's emulated browser loading a graph's page from replay servers. See
//! cli::HELP.

use pagepath_browser::cli;
use pagepath_browser::core::parse_graph;
use pagepath_browser::io::{driver, origins};
use std::process::ExitCode;

fn main() -> ExitCode {
    let items: Vec<String> = std::env::args().skip(1).collect();
    let args = match cli::parse(&items) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{}", cli::HELP);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("pagepath-browser: {e}\n(see pagepath-browser --help)");
            return ExitCode::from(2);
        }
    };
    let at = args.graph.display().to_string();
    let graph = match std::fs::read_to_string(&args.graph).map_err(|e| format!("cannot read it: {e}")).and_then(|t| parse_graph(&t)) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("pagepath-browser: {at}: {e}");
            return ExitCode::from(2);
        }
    };
    let names = match origins::read_origins(&args.origins) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("pagepath-browser: {e}");
            return ExitCode::from(2);
        }
    };
    let report = driver::run(&graph, names, &args);
    println!("{}", serde_json::to_string(&report).expect("a report serialises"));
    if report.status == "failed" {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
