//! pagepath-sim: a replay in virtual time. See cli::HELP.

use pagepath_sim::{cli, simulation};
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
            eprintln!("pagepath-sim: {e}\n(see pagepath-sim --help)");
            return ExitCode::from(2);
        }
    };
    match simulation::simulate(&args) {
        Ok(line) => {
            println!("{line}");
            if line["status"] == "failed" {
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
