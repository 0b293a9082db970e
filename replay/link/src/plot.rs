//! Reading mm-link logs back: the numbers mm-throughput-graph prints and a standalone SVG of
//! throughput and queueing delay over time, so a run's link can be inspected without Mahimahi's
//! Perl and gnuplot. Works on any mm-link log, ours or Mahimahi's.

use std::fmt::{self, Write};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EventKind {
    /// A packet reached the queue (dropped ones too: a drop line follows).
    Arrival {
        bytes: u64,
    },
    /// A packet left the queue after `delay_ms` in it.
    Departure {
        bytes: u64,
        delay_ms: u64,
    },
    /// The link could have sent this many bytes: one delivery opportunity.
    Opportunity {
        bytes: u64,
    },
    Drop {
        packets: u64,
        bytes: u64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    pub ms: u64,
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParsedLog {
    /// From `# mahimahi mm-link (NAME) [...]`.
    pub link_name: Option<String>,
    /// From `# queue: ...`.
    pub queue: Option<String>,
    /// In file order; never empty.
    pub events: Vec<Event>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LogSummary {
    /// Each timestamp is a whole-millisecond slot, so events at ms 0 through 9 cover 10 ms.
    pub duration_ms: u64,
    pub capacity_bits: f64,
    pub arrived_bytes: u64,
    pub departed_bytes: u64,
    pub dropped_packets: u64,
    pub dropped_bytes: u64,
    pub mean_capacity_mbps: f64,
    pub mean_throughput_mbps: f64,
    /// Departed bits over capacity bits; 0 when the log has no opportunities (unlimited link).
    pub utilization: f64,
    pub queue_delay_ms_p50: f64,
    pub queue_delay_ms_p95: f64,
    pub queue_delay_ms_max: f64,
    pub link_name: Option<String>,
    pub queue: Option<String>,
}

const ANY_EVENT: &str = "<ms> <+|-|#|d> ...";

pub fn parse_log(text: &str) -> Result<ParsedLog, String> {
    let mut log = ParsedLog {
        link_name: None,
        queue: None,
        events: Vec::new(),
    };
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('#') {
            read_header(header.trim(), &mut log);
        } else if !line.is_empty() {
            let event = parse_event(line).map_err(|expected| {
                format!(
                    "line {}: expected '{expected}', found '{}'",
                    index + 1,
                    cut(line, 60)
                )
            })?;
            log.events.push(event);
        }
    }
    if log.events.is_empty() {
        return Err("no events".into());
    }
    Ok(log)
}

fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

fn read_header(header: &str, log: &mut ParsedLog) {
    if let Some(rest) = header.strip_prefix("mahimahi mm-link (") {
        let end = rest
            .find(") [")
            .or_else(|| rest.rfind(')'))
            .unwrap_or(rest.len());
        log.link_name = Some(rest[..end].to_string());
    } else if let Some(queue) = header.strip_prefix("queue:") {
        log.queue = Some(queue.trim().to_string());
    }
}

/// The error is the form the line should have had.
fn parse_event(line: &str) -> Result<Event, &'static str> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let ms = fields[0].parse::<u64>().map_err(|_| ANY_EVENT)?;
    let numbers = |form: &'static str, count: usize| -> Result<Vec<u64>, &'static str> {
        if fields.len() != count + 2 {
            return Err(form);
        }
        fields[2..]
            .iter()
            .map(|f| f.parse::<u64>().map_err(|_| form))
            .collect()
    };
    let kind = match fields.get(1).copied() {
        Some("+") => EventKind::Arrival {
            bytes: numbers("<ms> + <bytes>", 1)?[0],
        },
        Some("-") => {
            let n = numbers("<ms> - <bytes> <queueing delay ms>", 2)?;
            EventKind::Departure {
                bytes: n[0],
                delay_ms: n[1],
            }
        }
        Some("#") => EventKind::Opportunity {
            bytes: numbers("<ms> # <bytes>", 1)?[0],
        },
        Some("d") => {
            let n = numbers("<ms> d <packets> <bytes>", 2)?;
            EventKind::Drop {
                packets: n[0],
                bytes: n[1],
            }
        }
        _ => return Err(ANY_EVENT),
    };
    Ok(Event { ms, kind })
}

/// First and one-past-last millisecond slot; the log's clock starts at its first event.
fn span(log: &ParsedLog) -> (u64, u64) {
    let first = log.events.iter().map(|e| e.ms).min().unwrap_or(0);
    let last = log.events.iter().map(|e| e.ms).max().unwrap_or(0);
    (first, last + 1)
}

/// Nearest rank: a percentile is always a delay some packet saw.
fn nearest_rank(sorted: &[u64], p: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n => sorted[(((p / 100.0) * n as f64).ceil() as usize).clamp(1, n) - 1] as f64,
    }
}

pub fn summarize(log: &ParsedLog) -> LogSummary {
    let (start, end) = span(log);
    let duration_ms = end - start;
    let (mut opportunity, mut arrived, mut departed, mut drop_packets, mut drop_bytes) =
        (0, 0, 0, 0, 0);
    let mut delays = Vec::new();
    for event in &log.events {
        match event.kind {
            EventKind::Arrival { bytes } => arrived += bytes,
            EventKind::Departure { bytes, delay_ms } => {
                departed += bytes;
                delays.push(delay_ms);
            }
            EventKind::Opportunity { bytes } => opportunity += bytes,
            EventKind::Drop { packets, bytes } => {
                drop_packets += packets;
                drop_bytes += bytes;
            }
        }
    }
    delays.sort_unstable();
    let capacity_bits = opportunity as f64 * 8.0;
    let departed_bits = departed as f64 * 8.0;
    // Bits per ms / 1000 = Mbit/s.
    let mbps = |bits: f64| bits / duration_ms as f64 / 1000.0;
    LogSummary {
        duration_ms,
        capacity_bits,
        arrived_bytes: arrived,
        departed_bytes: departed,
        dropped_packets: drop_packets,
        dropped_bytes: drop_bytes,
        mean_capacity_mbps: mbps(capacity_bits),
        mean_throughput_mbps: mbps(departed_bits),
        utilization: if capacity_bits > 0.0 {
            departed_bits / capacity_bits
        } else {
            0.0
        },
        queue_delay_ms_p50: nearest_rank(&delays, 50.0),
        queue_delay_ms_p95: nearest_rank(&delays, 95.0),
        queue_delay_ms_max: delays.last().map_or(0.0, |d| *d as f64),
        link_name: log.link_name.clone(),
        queue: log.queue.clone(),
    }
}

/// Per-bin totals, as mm-throughput-graph bins them.
struct Bins {
    bin_ms: u64,
    duration_ms: u64,
    capacity_bits: Vec<u64>,
    arrival_bits: Vec<u64>,
    departure_bits: Vec<u64>,
    max_delay_ms: Vec<Option<u64>>,
}

impl Bins {
    fn of(log: &ParsedLog, bin_ms: u64) -> Bins {
        let (start, end) = span(log);
        let count = (end - start).div_ceil(bin_ms) as usize;
        let mut bins = Bins {
            bin_ms,
            duration_ms: end - start,
            capacity_bits: vec![0; count],
            arrival_bits: vec![0; count],
            departure_bits: vec![0; count],
            max_delay_ms: vec![None; count],
        };
        for event in &log.events {
            let i = ((event.ms - start) / bin_ms) as usize;
            match event.kind {
                EventKind::Arrival { bytes } => bins.arrival_bits[i] += bytes * 8,
                EventKind::Departure { bytes, delay_ms } => {
                    bins.departure_bits[i] += bytes * 8;
                    bins.max_delay_ms[i] = bins.max_delay_ms[i].max(Some(delay_ms));
                }
                EventKind::Opportunity { bytes } => bins.capacity_bits[i] += bytes * 8,
                EventKind::Drop { .. } => {}
            }
        }
        bins
    }

    /// Start and end of bin `i` in ms; the last bin may be cut short by the end of the log.
    fn range(&self, i: usize) -> (u64, u64) {
        let from = i as u64 * self.bin_ms;
        (from, (from + self.bin_ms).min(self.duration_ms))
    }

    /// Rates over the time each bin covers, so a short last bin does not dip.
    fn mbps(&self, bits: &[u64]) -> Vec<f64> {
        let per_bin = bits.iter().enumerate();
        per_bin
            .map(|(i, b)| *b as f64 / (self.range(i).1 - self.range(i).0) as f64 / 1000.0)
            .collect()
    }
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 600.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 880.0;
const THROUGHPUT: Panel = Panel {
    top: 70.0,
    bottom: 300.0,
};
const DELAY: Panel = Panel {
    top: 350.0,
    bottom: 510.0,
};

/// A plot area spanning LEFT..RIGHT, with a y range from 0 to `max` in data units.
struct Panel {
    top: f64,
    bottom: f64,
}

impl Panel {
    fn y(&self, value: f64, max: f64) -> f64 {
        self.bottom - value / max * (self.bottom - self.top)
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// An axis maximum and tick step of 1, 2 or 5 times a power of ten, about five ticks high.
fn nice_axis(data_max: f64) -> (f64, f64) {
    if data_max <= 0.0 || !data_max.is_finite() {
        return (1.0, 0.2);
    }
    let raw = data_max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    (step * (data_max / step).ceil(), step)
}

fn tick_label(value: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    format!("{value:.decimals$}")
}

/// Gridlines and labels for both axes of `panel`, x in seconds and y from 0 to a round number
/// above `y_peak`, which it returns.
fn axes(
    out: &mut String,
    panel: &Panel,
    y_peak: f64,
    y_label: &str,
    seconds: f64,
) -> Result<f64, fmt::Error> {
    let (y_max, y_step) = nice_axis(y_peak);
    let (_, x_step) = nice_axis(seconds);
    let (top, bottom) = (panel.top, panel.bottom);
    writeln!(
        out,
        r##"<g class="axes" stroke="#e4e4e4" font-size="11" fill="#444">"##
    )?;
    for k in 0..=(y_max / y_step).round() as u64 {
        let value = k as f64 * y_step;
        let (at, label) = (panel.y(value, y_max), tick_label(value, y_step));
        writeln!(
            out,
            r#"<line x1="{LEFT}" y1="{at:.1}" x2="{RIGHT}" y2="{at:.1}"/>"#
        )?;
        let (lx, ly) = (LEFT - 6.0, at + 4.0);
        writeln!(
            out,
            r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="end" stroke="none">{label}</text>"#
        )?;
    }
    for k in 0..=(seconds / x_step).floor() as u64 {
        let t = k as f64 * x_step;
        let (at, label) = (LEFT + t / seconds * (RIGHT - LEFT), tick_label(t, x_step));
        writeln!(
            out,
            r#"<line x1="{at:.1}" y1="{top}" x2="{at:.1}" y2="{bottom}"/>"#
        )?;
        let ly = bottom + 15.0;
        writeln!(
            out,
            r#"<text x="{at:.1}" y="{ly:.1}" text-anchor="middle" stroke="none">{label}</text>"#
        )?;
    }
    let (middle, label) = ((top + bottom) / 2.0, escape(y_label));
    writeln!(
        out,
        r#"<text transform="translate(20 {middle:.1}) rotate(-90)" text-anchor="middle" stroke="none" font-size="12">{label}</text>"#
    )?;
    let (width, height) = (RIGHT - LEFT, bottom - top);
    writeln!(
        out,
        r##"<rect x="{LEFT}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#888"/>"##
    )?;
    writeln!(out, "</g>")?;
    Ok(y_max)
}

fn points(xy: impl Iterator<Item = (f64, f64)>) -> String {
    xy.map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn caption(s: &LogSummary) -> String {
    let capacity = if s.capacity_bits > 0.0 {
        format!(
            "mean capacity {:.2} Mbit/s, mean throughput {:.2} Mbit/s ({:.1}% utilization)",
            s.mean_capacity_mbps,
            s.mean_throughput_mbps,
            s.utilization * 100.0
        )
    } else {
        format!(
            "mean throughput {:.2} Mbit/s (no delivery opportunities logged)",
            s.mean_throughput_mbps
        )
    };
    format!(
        "{capacity}, p95 queueing delay {} ms, drops {} packets ({} bytes)",
        s.queue_delay_ms_p95, s.dropped_packets, s.dropped_bytes
    )
}

/// A standalone SVG: throughput per `bin_ms` bin on top (capacity, arrivals, departures), the
/// largest queueing delay of each bin's departures below, and the summary as a caption.
/// A `bin_ms` of 0 is taken as 1.
pub fn plot_svg(log: &ParsedLog, title: &str, bin_ms: u64) -> String {
    let mut out = String::new();
    draw(&mut out, log, title, bin_ms.max(1)).expect("formatting into a String cannot fail");
    out
}

const LEGEND: [(&str, &str); 3] = [
    (
        "capacity",
        r##"<rect y="-9" width="18" height="10" fill="#cfe0f5" stroke="#9dbfe8"/>"##,
    ),
    (
        "arrivals",
        r##"<line y1="-4" x2="18" y2="-4" stroke="#e08a2c" stroke-width="1"/>"##,
    ),
    (
        "departures",
        r##"<line y1="-4" x2="18" y2="-4" stroke="#1f4e9c" stroke-width="2"/>"##,
    ),
];

fn draw(out: &mut String, log: &ParsedLog, title: &str, bin_ms: u64) -> fmt::Result {
    let bins = Bins::of(log, bin_ms);
    let seconds = bins.duration_ms as f64 / 1000.0;
    let x = |ms: u64| LEFT + ms as f64 / bins.duration_ms as f64 * (RIGHT - LEFT);
    let middle = |i: usize| {
        let (from, to) = bins.range(i);
        (x(from) + x(to)) / 2.0
    };
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">"#
    )?;
    writeln!(out, r##"<rect width="100%" height="100%" fill="#fff"/>"##)?;
    let title = escape(title);
    writeln!(
        out,
        r#"<text x="{LEFT}" y="22" font-size="16" font-weight="bold">{title}</text>"#
    )?;
    let queue = log.queue.as_ref().map(|q| format!("queue {q}"));
    let about: Vec<String> = log.link_name.iter().cloned().chain(queue).collect();
    if !about.is_empty() {
        let about = escape(&about.join(", "));
        writeln!(
            out,
            r##"<text x="{LEFT}" y="40" font-size="12" fill="#555">{about}</text>"##
        )?;
    }

    let capacity = bins.mbps(&bins.capacity_bits);
    let arrivals = bins.mbps(&bins.arrival_bits);
    let departures = bins.mbps(&bins.departure_bits);
    let peak = capacity
        .iter()
        .chain(&arrivals)
        .chain(&departures)
        .fold(0.0, |m: f64, v| m.max(*v));
    let rate_max = axes(out, &THROUGHPUT, peak, "throughput (Mbit/s)", seconds)?;
    // Capacity as steps: it is a budget spread over the whole bin, not a sample at its middle.
    let steps = (0..capacity.len()).flat_map(|i| {
        let ((from, to), y) = (bins.range(i), THROUGHPUT.y(capacity[i], rate_max));
        [(x(from), y), (x(to), y)]
    });
    let base = THROUGHPUT.bottom;
    let area = points(
        [(LEFT, base)]
            .into_iter()
            .chain(steps)
            .chain([(RIGHT, base)]),
    );
    writeln!(
        out,
        r##"<polygon class="capacity" fill="#cfe0f5" stroke="#9dbfe8" stroke-width="0.5" points="{area}"/>"##
    )?;
    let line = |rates: &[f64]| {
        points(
            rates
                .iter()
                .enumerate()
                .map(|(i, r)| (middle(i), THROUGHPUT.y(*r, rate_max))),
        )
    };
    let (arrived, departed) = (line(&arrivals), line(&departures));
    writeln!(
        out,
        r##"<polyline class="arrivals" fill="none" stroke="#e08a2c" stroke-width="1" points="{arrived}"/>"##
    )?;
    writeln!(
        out,
        r##"<polyline class="departures" fill="none" stroke="#1f4e9c" stroke-width="2" points="{departed}"/>"##
    )?;
    writeln!(out, r#"<g class="legend" font-size="12">"#)?;
    for (i, (label, swatch)) in LEGEND.iter().enumerate() {
        let at = RIGHT - 330.0 + i as f64 * 110.0;
        writeln!(
            out,
            r#"<g transform="translate({at:.1} 60)">{swatch}<text x="24">{label}</text></g>"#
        )?;
    }
    writeln!(out, "</g>")?;

    let peak_delay = bins
        .max_delay_ms
        .iter()
        .flatten()
        .max()
        .map_or(0.0, |d| *d as f64);
    let delay_max = axes(
        out,
        &DELAY,
        peak_delay,
        "queueing delay (ms, max per bin)",
        seconds,
    )?;
    writeln!(out, r##"<g class="delay" fill="#b03a2e">"##)?;
    for (i, delay) in bins.max_delay_ms.iter().enumerate() {
        if let Some(d) = delay {
            let (cx, cy) = (middle(i), DELAY.y(*d as f64, delay_max));
            writeln!(out, r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="2"/>"#)?;
        }
    }
    writeln!(out, "</g>")?;
    let centre = (LEFT + RIGHT) / 2.0;
    writeln!(
        out,
        r#"<text x="{centre:.1}" y="548" text-anchor="middle" font-size="12">time (s)</text>"#
    )?;
    let summary = escape(&caption(&summarize(log)));
    writeln!(
        out,
        r#"<text class="caption" x="{LEFT}" y="582" font-size="12">{summary}</text>"#
    )?;
    writeln!(out, "</svg>")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 10 opportunities of 1504 B in ms 0..=9; five arrivals, one of them dropped; four
    /// departures after 0, 1, 2 and 0 ms in the queue.
    const LOG: &str = "\
# mahimahi mm-link (uplink) [12mbps.trace] > up.log
# command line: pagepath-net --uplink-log up.log
# queue: droptail [packets=3]
# init timestamp: 1700000000000
# base timestamp: 0
0 + 1504
0 + 1504
0 + 1504
0 # 1504
0 - 1504 0
1 # 1504
1 - 1504 1
2 # 1504
2 - 1504 2
3 # 1504
4 + 1504
4 + 1504
4 d 1 1504
4 # 1504
4 - 1504 0
5 # 1504
6 # 1504
7 # 1504
8 # 1504
9 # 1504
";

    #[test]
    fn summary_worked_by_hand() {
        let log = parse_log(LOG).unwrap();
        assert_eq!(log.link_name.as_deref(), Some("uplink"));
        assert_eq!(log.queue.as_deref(), Some("droptail [packets=3]"));
        assert_eq!(log.events.len(), 20);
        let s = summarize(&log);
        assert_eq!(s.duration_ms, 10);
        assert_eq!(s.capacity_bits, 10.0 * 1504.0 * 8.0);
        // 120320 bits in 10 ms.
        assert!((s.mean_capacity_mbps - 12.032).abs() < 1e-9);
        assert_eq!((s.arrived_bytes, s.departed_bytes), (5 * 1504, 4 * 1504));
        assert_eq!((s.dropped_packets, s.dropped_bytes), (1, 1504));
        // 48128 bits in 10 ms, 4 of the 10 opportunities used.
        assert!((s.mean_throughput_mbps - 4.8128).abs() < 1e-9);
        assert!((s.utilization - 0.4).abs() < 1e-12);
        // Sorted delays 0, 0, 1, 2: rank ceil(0.5*4) = 2 and ceil(0.95*4) = 4.
        assert_eq!(
            (
                s.queue_delay_ms_p50,
                s.queue_delay_ms_p95,
                s.queue_delay_ms_max
            ),
            (0.0, 2.0, 2.0)
        );
    }

    #[test]
    fn parse_errors_name_the_line() {
        let err = |text: &str| parse_log(text).unwrap_err();
        assert_eq!(
            err("# header\n0 + 100\n5 x 3\n"),
            "line 3: expected '<ms> <+|-|#|d> ...', found '5 x 3'"
        );
        assert_eq!(
            err("0 - 1500\n"),
            "line 1: expected '<ms> - <bytes> <queueing delay ms>', found '0 - 1500'"
        );
        assert_eq!(
            err("\n\nabc + 5"),
            "line 3: expected '<ms> <+|-|#|d> ...', found 'abc + 5'"
        );
        let long = format!("7 # {}", "9".repeat(100));
        assert_eq!(
            err(&long),
            format!(
                "line 1: expected '<ms> # <bytes>', found '7 # {}...'",
                "9".repeat(56)
            )
        );
        assert_eq!(err("# mahimahi mm-link (uplink) [x] > y\n\n"), "no events");
        assert_eq!(err(""), "no events");
    }

    #[test]
    fn bins_rate_a_short_last_bin_over_its_own_length() {
        let bins = Bins::of(&parse_log(LOG).unwrap(), 4);
        assert_eq!(bins.capacity_bits, vec![4 * 12032, 4 * 12032, 2 * 12032]);
        assert_eq!(bins.mbps(&bins.capacity_bits), vec![12.032, 12.032, 12.032]);
        assert_eq!(bins.max_delay_ms, vec![Some(2), Some(0), None]);
        assert_eq!(nice_axis(12.032), (15.0, 5.0));
        assert_eq!(nice_axis(0.0), (1.0, 0.2));
    }

    #[test]
    fn svg_has_every_series_and_escapes_the_title() {
        let svg = plot_svg(&parse_log(LOG).unwrap(), "<cell> & \"quotes\"", 2);
        assert!(svg.starts_with("<?xml") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("&lt;cell&gt; &amp; &quot;quotes&quot;"));
        assert!(!svg.contains("<cell>"));
        for class in [
            "capacity",
            "arrivals",
            "departures",
            "delay",
            "legend",
            "caption",
        ] {
            assert!(svg.contains(&format!("class=\"{class}\"")), "no {class}");
        }
        // Bins 0-1, 2-3 and 4-5 hold departures.
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("uplink, queue droptail [packets=3]"));
        assert!(svg.contains(
            "mean capacity 12.03 Mbit/s, mean throughput 4.81 Mbit/s (40.0% utilization)"
        ));
        assert!(svg.contains("p95 queueing delay 2 ms, drops 1 packets (1504 bytes)"));
    }
}
