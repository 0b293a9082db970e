//! `pagepath net plot LOG [--out FILE.svg] [--bin-ms N] [--title T]`: throughput and queueing
//! delay over time from an mm-link log, by default into LOG with .log replaced by .svg.

use super::args::Args;
use crate::plot::{parse_log, plot_svg, summarize};

pub fn run(argv: &[String]) -> Result<i32, String> {
    let mut a = Args::new(argv);
    let out = a.value("--out")?;
    let bin = a.number("--bin-ms", 1.0, 60_000.0)?.unwrap_or(500.0) as u64;
    let title = a.value("--title")?;
    let rest = a.rest()?;
    let [log] = rest.as_slice() else { return Err("plot: give one mm-link log file".into()) };
    let text = std::fs::read_to_string(log).map_err(|e| format!("{log}: {e}"))?;
    let parsed = parse_log(&text).map_err(|e| format!("{log}: {e}"))?;
    let svg = plot_svg(&parsed, title.as_deref().unwrap_or(log), bin);
    // path0.downlink.log -> path0.downlink.svg, beside it
    let out = out.unwrap_or_else(|| format!("{}.svg", log.strip_suffix(".log").unwrap_or(log)));
    std::fs::write(&out, svg).map_err(|e| format!("{out}: {e}"))?;
    let s = summarize(&parsed);
    println!("{out}: mean capacity {:.2} Mbit/s, throughput {:.2} Mbit/s ({:.0}% used), queueing delay p95 {:.0} ms, {} drops",
        s.mean_capacity_mbps, s.mean_throughput_mbps, s.utilization * 100.0, s.queue_delay_ms_p95, s.dropped_packets);
    Ok(0)
}
