//! The command line of `pagepath-sim`: the topology, then the replay servers' and the emulated
//! browser's own command lines, parsed by their own parsers, so that a simulation is configured
//! exactly as the real replay it stands for.

use crate::mptcp::connections::SchedulerChoice;
use crate::tcp::profile::Congestion;
use crate::tcp::tls_crypto::TlsCrypto;

pub const HELP: &str = "usage: pagepath-sim --topology TOPOLOGY.json [--seed N] [--tcp-profile NAME] [--mptcp-scheduler NAME [--mptcp-scheduler-opt K=V]...] [--coupled lia|olia] [--tls-crypto real|stand-in] [--clock-tick-us N] [--summary] serve RECORDING --out DIR [server options] -- run GRAPH.json --origins DIR/origins.json [browser options]
       pagepath-sim --topology TOPOLOGY.json [--seed N] serve RECORDING --out DIR --protocol h3 [server options] -- fetch --connect ADDR:PORT --host NAME [pagepath-fetch options] TARGET...
       pagepath-sim --batch
       pagepath-sim --messages < INPUT.json   (messages alone over idealised paths, below)

Loads a graph's page with the emulated browser from the replay servers over the topology's
simulated paths, in virtual time: the same browser model, servers, HTTP/1.x, HTTP/2 and HTTP/3
code, and QUIC (tquic) as `pagepath replay`, with TCP from smoltcp, without sockets or waiting. The part from `serve` is what `pagepath-server`
takes, the part from `run` what `pagepath-browser` takes (their --help lists the options); the
browser's --origins is the origins.json the servers write into their --out. Prints one JSON line:
the browser's report with a `simulation` member (what each path delivered, virtual and wall time).
With `fetch` instead of `run`, no page is loaded: the targets are requested at once over one
HTTP/3 connection, as pagepath-fetch requests them (its --help lists the options; --qlog is not
taken), and the line is pagepath-fetch's report (its responses, handshakeUs) with the
`simulation` member.
TCP, MPTCP (subflows over smoltcp, split by pagepath's schedulers), QUIC and multipath QUIC. With --batch it reads one simulation a line from
stdin, each a JSON array of the arguments above, and prints one report line for each (or
{\"error\": ...} for one that cannot run), reading each recording once.
  --topology FILE      the paths, as `pagepath net up` takes them (docs/formats/topology.md)
  --seed N             the links' random choices (loss, RED, jitter), overriding the file's
  --tcp-profile NAME   linux (default: the kernel's initial window 10, 200 ms minimum RTO,
                       40 ms delayed ACKs, with the servers' --congestion, cubic or reno) or
                       thesis (seed 001 Table 3.3: New Reno, initial window 4, 100 ms delayed ACKs)
  --mptcp-scheduler NAME  with --transport mptcp: the scheduler both ends run, one of pagepath's
                       (`pagepath-server schedulers` lists them) or default (the kernel's default,
                       simulated as kernel-default); in the real replay the kernel's net.mptcp.scheduler
  --mptcp-scheduler-opt K=V  its options, as --scheduler-opt gives them for mpquic
  --coupled lia|olia   with --transport mptcp and the servers' --congestion reno: couple the
                       subflows' congestion avoidance, LIA (RFC 6356) or OLIA; the kernel's MPTCP
                       has neither, so a real replay cannot run it
  --tls-crypto real|stand-in  TLS over TCP: stand-in (default) keeps every record's size and
                       round trip but skips X25519's, ECDSA's and AES-GCM's arithmetic, which
                       virtual time does not count (tcp/tls_crypto.rs); real runs ring's, as a
                       replay does (--handshake-crypto, its old name, still works)
  --clock-tick-us N    over TCP and MPTCP: the clock moves in steps of N µs, each event (a
                       packet's arrival, a stack's timer, a server's delay) at the first step at or
                       after its time; default 1000, the tick the simulator was calibrated with
                       (docs/simulator.md, *The clock's tick*); 1 puts every event at its microsecond
  --summary            leave the browser's node timings and requests out of the report line
                       (empty): what a plan of summary runs keeps (docs/formats/experiment-results.md)
";

#[derive(Debug)]
pub struct SimArgs {
    pub topology: std::path::PathBuf,
    pub seed: Option<u64>,
    pub tcp_profile: String,
    pub mptcp_scheduler: SchedulerChoice,
    /// `--coupled`: the MPTCP subflows' coupled congestion control.
    pub coupled: Option<Congestion>,
    pub tls_crypto: TlsCrypto,
    /// `--clock-tick-us`: the TCP world's clock tick.
    pub clock_tick: std::time::Duration,
    /// `--summary`: the report line without node timings and requests (a plan's summary runs).
    pub summary: bool,
    pub server: Vec<String>,
    /// The client's part: `run` and the emulated browser's arguments, or `fetch` and pagepath-fetch's.
    pub client: Vec<String>,
}

/// None when help was asked for.
pub fn parse(items: &[String]) -> Result<Option<SimArgs>, String> {
    if items.is_empty() || items.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(None);
    }
    let mut topology = None;
    let mut seed = None;
    let mut tcp_profile = "linux".to_string();
    let mut mptcp_scheduler = SchedulerChoice { name: "default".into(), options: Vec::new() };
    let mut coupled = None;
    let mut tls_crypto = TlsCrypto::default();
    let mut summary = false;
    let mut clock_tick = crate::tcp::world::CLOCK_TICK;
    let mut rest = items;
    loop {
        match rest {
            [flag, more @ ..] if flag == "--summary" => {
                summary = true;
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--topology" => {
                topology = Some(value.into());
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--seed" => {
                seed = Some(value.parse().map_err(|_| format!("--seed: {value:?} is not a whole number"))?);
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--tcp-profile" => {
                tcp_profile = value.clone();
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--mptcp-scheduler" => {
                mptcp_scheduler.name = value.clone();
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--mptcp-scheduler-opt" => {
                mptcp_scheduler.options.push(value.clone());
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--coupled" => {
                coupled = Some(Congestion::coupled(value)?);
                rest = more;
            }
            [flag, value, more @ ..] if flag == "--clock-tick-us" => {
                let us: u64 = value.parse().ok().filter(|us| *us > 0).ok_or_else(|| format!("--clock-tick-us: {value:?} is not a whole number of microseconds above 0"))?;
                clock_tick = std::time::Duration::from_micros(us);
                rest = more;
            }
            [flag, value, more @ ..] if (flag == "--tls-crypto" || flag == "--handshake-crypto") => {
                tls_crypto = TlsCrypto::parse(value)?;
                rest = more;
            }
            [flag] if ["--topology", "--seed", "--tcp-profile", "--mptcp-scheduler", "--mptcp-scheduler-opt", "--coupled", "--tls-crypto", "--handshake-crypto", "--clock-tick-us"].contains(&flag.as_str()) => {
                return Err(format!("{flag}: a value is required"))
            }
            _ => break,
        }
    }
    let topology = topology.ok_or("--topology TOPOLOGY.json is required: the paths to simulate")?;
    let split = rest.iter().position(|a| a == "--").ok_or("expected: serve RECORDING --out DIR [...] -- run GRAPH.json --origins FILE [...]")?;
    let (server, client) = (&rest[..split], &rest[split + 1..]);
    match server.first().map(String::as_str) {
        Some("serve") => {}
        other => return Err(format!("{other:?}: the servers' part must start with serve, as pagepath-server's command line does")),
    }
    match client.first().map(String::as_str) {
        Some("run" | "fetch") => {}
        other => return Err(format!("{other:?}: the client's part must start with run, as pagepath-browser's command line does, or with fetch, as pagepath-fetch's arguments follow")),
    }
    mptcp_scheduler.build()?;
    Ok(Some(SimArgs { topology, seed, tcp_profile, mptcp_scheduler, coupled, tls_crypto, clock_tick, summary, server: server[1..].to_vec(), client: client.to_vec() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn splits_the_servers_and_the_browsers_command_lines() {
        let a = parse(&words("--topology t.json --seed 7 --tcp-profile thesis serve rec --out o --protocol h3 -- run g.json --origins o/origins.json")).unwrap().unwrap();
        assert_eq!(a.topology, std::path::PathBuf::from("t.json"));
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.tcp_profile, "thesis");
        assert_eq!(a.server, words("rec --out o --protocol h3"));
        assert_eq!(a.client, words("run g.json --origins o/origins.json"));
        let f = parse(&words("--topology t.json serve rec --out o --protocol h3 -- fetch --connect 10.200.1.1:443 --host a.test /x")).unwrap().unwrap();
        assert_eq!(f.client, words("fetch --connect 10.200.1.1:443 --host a.test /x"));
        assert_eq!(a.clock_tick, std::time::Duration::from_millis(1), "the calibrated tick unless asked");
        let b = parse(&words("--topology t.json --clock-tick-us 1 serve rec --out o -- run g.json")).unwrap().unwrap();
        assert_eq!(b.clock_tick, std::time::Duration::from_micros(1));
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        assert!(parse(&words("serve rec -- run g")).unwrap_err().contains("--topology"));
        assert!(parse(&words("--topology t serve rec run g")).unwrap_err().contains("expected"));
        assert!(parse(&words("--topology t rec -- run g")).unwrap_err().contains("serve"));
        assert!(parse(&words("--topology t serve rec -- g")).unwrap_err().contains("run"));
        assert!(parse(&words("--topology t --seed x serve r -- run g")).unwrap_err().contains("--seed"));
        assert!(parse(&words("--topology t --mptcp-scheduler fastest serve r -- run g")).unwrap_err().contains("no scheduler fastest"));
        assert!(parse(&words("--topology t --mptcp-scheduler ecf --mptcp-scheduler-opt nope=1 serve r -- run g")).unwrap_err().contains("nope"));
        assert!(parse(&words("--topology t --clock-tick-us 0 serve r -- run g")).unwrap_err().contains("--clock-tick-us"));
        assert!(parse(&words("--topology t --clock-tick-us")).unwrap_err().contains("a value is required"));
        assert!(parse(&[]).unwrap().is_none());
    }
}
