//! pagepath-netprobe: traffic sources and sinks for testing and benchmarking the link emulator.
//! Each subcommand prints one JSON object on stdout when it ends; everything else goes to stderr,
//! so a harness can parse stdout whole.

mod args;
mod arrival_stamps;
mod clock;
mod deadline;
mod echo;
mod failure;
mod header;
mod loss;
mod mptcp;
mod percentile;
mod rtt;
mod signals;
mod sock;
mod tcp;
mod tcp_limits;
mod udp_recv;
mod udp_send;
mod windows;

use serde::Serialize;

use failure::Failure;

const USAGE: &str = "\
usage: pagepath-netprobe <subcommand> [options]
  tcp (--listen ADDR:PORT | --connect ADDR:PORT) (--send SECONDS | --recv)
      [--mptcp] [--cc CONGESTION_CONTROL] [--window-ms 100] [--timeout SECONDS (30)]
  udp-send --connect ADDR:PORT --rate-mbit R --size BYTES (--seconds S | --count N) [--no-catch-up]
  udp-recv --listen ADDR:PORT [--window-ms 100] [--idle-timeout SECONDS (3)] [--timeout SECONDS (60)]
  echo --listen ADDR:PORT [--seconds S]
  rtt --connect ADDR:PORT [--count 20] [--interval-ms 50] [--size 64] [--timeout-ms 2000]";

fn json<T: Serialize>(report: T) -> String {
    serde_json::to_string(&report).expect("reports hold only numbers, strings and lists")
}

fn dispatch(argv: &[String]) -> Result<String, Failure> {
    let Some((subcommand, rest)) = argv.split_first() else {
        return Err(Failure::Usage("a subcommand is required".into()));
    };
    match subcommand.as_str() {
        "tcp" => tcp::run(&tcp::parse(rest)?).map(json),
        "udp-send" => udp_send::run(&udp_send::parse(rest)?).map(json),
        "udp-recv" => udp_recv::run(&udp_recv::parse(rest)?).map(json),
        "echo" => echo::run(&echo::parse(rest)?).map(json),
        "rtt" => rtt::run(&rtt::parse(rest)?).map(json),
        other => Err(Failure::Usage(format!("unknown subcommand '{other}'"))),
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if matches!(
        argv.first().map(String::as_str),
        Some("-h" | "--help" | "help")
    ) {
        println!("{USAGE}");
        return;
    }
    match dispatch(&argv) {
        Ok(report) => println!("{report}"),
        Err(failure) => {
            eprintln!("pagepath-netprobe: {failure}");
            if let Failure::Usage(_) = failure {
                eprintln!("{USAGE}");
            }
            std::process::exit(failure.exit_code());
        }
    }
}
