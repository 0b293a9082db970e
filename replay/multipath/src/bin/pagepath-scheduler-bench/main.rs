//! `pagepath bench schedulers`' decision cost: every registered scheduler's decide() with the
//! events around it (acks and losses before, sends after), in nanoseconds per decision, on a
//! synthetic two-path sender with one bulk stream and with twenty streams of a page. Each
//! scheduler's run is recorded once and replayed to fresh instances, the schedulers taking turns
//! in every repetition so that drift on a shared machine hits them alike; the median over the
//! repetitions is reported with its ratio to lowest-rtt's in the same run, one JSON line each.

mod trace;
mod world;

use std::process::ExitCode;

use pagepath_multipath::names;

const USAGE: &str = "usage: pagepath-scheduler-bench [--decisions N] [--repetitions R] | --names
  --decisions N    decisions recorded per scheduler and workload (default 4000)
  --repetitions R  timed replays of each, the median reported (default 31)
  --names          print the registered schedulers' names, one a line, and exit
One JSON line per scheduler and workload (1 and 20 sendable streams):
  {\"scheduler\",\"streams\",\"nsPerDecision\",\"nsP25\",\"nsP75\",\"ratioToLowestRtt\",\"decisions\",
   \"repetitions\",\"waits\",\"packetsPerPath\",\"lostPackets\",\"simulatedMs\"}";

const WORKLOADS: [usize; 2] = [1, 20];
const REFERENCE: &str = "lowest-rtt";

pub struct Row {
    pub scheduler: &'static str,
    pub streams: usize,
    pub ns: Vec<f64>,
    pub trace: trace::Trace,
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// Records every registered scheduler on each workload, then times `repetitions` replays of each,
/// in turns.
pub fn measure(decisions: usize, repetitions: usize) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for streams in WORKLOADS {
        for name in names() {
            let trace = trace::record(name, streams, decisions)?;
            trace::check(&trace)?;
            rows.push(Row { scheduler: name, streams, ns: Vec::with_capacity(repetitions), trace });
        }
    }
    for _ in 0..repetitions {
        for row in &mut rows {
            row.ns.push(trace::time(&row.trace)?);
        }
    }
    for row in &mut rows {
        row.ns.sort_by(f64::total_cmp);
    }
    Ok(rows)
}

fn json_lines(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            let median = quantile(&r.ns, 0.5);
            let reference = rows.iter().find(|x| x.streams == r.streams && x.scheduler == REFERENCE).map(|x| quantile(&x.ns, 0.5));
            let ratio = reference.map_or("null".to_string(), |m| format!("{:.3}", median / m));
            let t = &r.trace;
            format!(
                "{{\"scheduler\":{:?},\"streams\":{},\"nsPerDecision\":{:.1},\"nsP25\":{:.1},\"nsP75\":{:.1},\"ratioToLowestRtt\":{},\"decisions\":{},\"repetitions\":{},\"waits\":{},\"packetsPerPath\":[{},{}],\"lostPackets\":{},\"simulatedMs\":{:.1}}}",
                r.scheduler,
                r.streams,
                median,
                quantile(&r.ns, 0.25),
                quantile(&r.ns, 0.75),
                ratio,
                t.decisions(),
                r.ns.len(),
                t.waits,
                t.packets_per_path[0],
                t.packets_per_path[1],
                t.lost_packets,
                t.simulated.as_secs_f64() * 1e3
            )
        })
        .collect()
}

fn whole(args: &[String], i: usize, flag: &str, min: usize, max: usize) -> Result<usize, String> {
    let v = args.get(i + 1).ok_or_else(|| format!("{flag}: expected a number after it"))?;
    v.parse::<usize>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(|| format!("{flag} {v}: expected a whole number from {min} to {max}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut decisions, mut repetitions) = (4000, 31);
    let mut i = 0;
    let parsed: Result<(), String> = (|| {
        while i < args.len() {
            match args[i].as_str() {
                "--decisions" => decisions = whole(&args, i, "--decisions", 10, 1_000_000)?,
                "--repetitions" => repetitions = whole(&args, i, "--repetitions", 1, 10_000)?,
                "--names" => {
                    println!("{}", names().join("\n"));
                    std::process::exit(0);
                }
                "-h" | "--help" => {
                    println!("{USAGE}");
                    std::process::exit(0);
                }
                other => return Err(format!("unknown argument {other:?}")),
            }
            i += 2;
        }
        Ok(())
    })();
    if let Err(e) = parsed {
        eprintln!("pagepath-scheduler-bench: {e}\n{USAGE}");
        return ExitCode::from(2);
    }
    match measure(decisions, repetitions) {
        Ok(rows) => {
            println!("{}", json_lines(&rows).join("\n"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pagepath-scheduler-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_scheduler_is_timed_on_both_workloads_and_drives_the_world() {
        let rows = measure(300, 3).unwrap();
        let lines = json_lines(&rows);
        for streams in WORKLOADS {
            let timed: Vec<&str> = rows.iter().filter(|r| r.streams == streams).map(|r| r.scheduler).collect();
            assert_eq!(timed, names(), "{streams} streams");
        }
        for (r, line) in rows.iter().zip(&lines) {
            assert!(r.ns.iter().all(|ns| *ns > 0.0), "{line}");
            // a run that stopped early or never sent timed nothing worth reporting
            assert_eq!(r.trace.decisions(), 300, "{line}");
            assert!(r.trace.packets_per_path.iter().sum::<u64>() > 100, "{line}");
        }
    }
}
