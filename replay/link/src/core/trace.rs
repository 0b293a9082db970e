//! Mahimahi packet-delivery traces: one line per 1504-byte delivery opportunity, holding its time
//! in whole milliseconds from the start of the trace. The rules are Mahimahi's, so a trace that
//! works here works in mm-link and the other way round.

use super::OPPORTUNITY_BYTES;

/// The opportunity times of a trace file, or what is wrong with it, naming the line.
pub fn parse_trace(text: &str) -> Result<Vec<u64>, String> {
    // Only the newline that ends the last line is not a line of its own; any other empty line is
    // a blank line, which Mahimahi rejects.
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.is_empty() {
        return Err("no timestamps".into());
    }
    let mut times: Vec<u64> = Vec::new();
    for (i, line) in body.split('\n').enumerate() {
        let n = i + 1;
        let ms = parse_line(line.trim()).map_err(|e| format!("line {n}: {e}"))?;
        if let Some(&previous) = times.last() {
            if ms < previous {
                return Err(format!(
                    "line {n}: {ms} is before the previous timestamp {previous}; timestamps must not decrease"
                ));
            }
        }
        times.push(ms);
    }
    if times.last() == Some(&0) {
        // The trace repeats with a period of its last timestamp; a period of 0 never advances.
        return Err(format!(
            "line {}: the trace must last longer than 0 ms",
            times.len()
        ));
    }
    Ok(times)
}

fn parse_line(line: &str) -> Result<u64, String> {
    if line.is_empty() {
        return Err("blank line; every line must hold one timestamp".into());
    }
    if let Ok(ms) = line.parse() {
        return Ok(ms);
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if line.strip_prefix('-').is_some_and(digits) {
        return Err(format!(
            "{line} is negative; timestamps are milliseconds from the start"
        ));
    }
    if digits(line) {
        return Err(format!("{line} is too large for a timestamp"));
    }
    let mut shown: String = line.chars().take(40).collect();
    if shown.len() < line.len() {
        shown.push('…');
    }
    Err(format!("\"{shown}\" is not a whole number of milliseconds"))
}

/// The average rate a parsed trace delivers over one period, in bits per second.
pub fn mean_bits_per_second(ms: &[u64]) -> f64 {
    let seconds = ms.last().copied().unwrap_or(0) as f64 / 1000.0;
    (ms.len() as u64 * OPPORTUNITY_BYTES * 8) as f64 / seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_times_trimming_spaces_and_the_final_newline() {
        assert_eq!(
            parse_trace("0\n0\n 5 \n10\r\n12\n"),
            Ok(vec![0, 0, 5, 10, 12])
        );
        assert_eq!(parse_trace("3"), Ok(vec![3]));
    }

    #[test]
    fn empty_file_has_no_timestamps() {
        assert_eq!(parse_trace(""), Err("no timestamps".into()));
        assert_eq!(parse_trace("\n"), Err("no timestamps".into()));
    }

    #[test]
    fn blank_line_names_its_line() {
        let e = parse_trace("1\n\n2\n").unwrap_err();
        assert!(e.starts_with("line 2: blank line"), "{e}");
        // A second newline at the end is a blank last line.
        let e = parse_trace("1\n2\n\n").unwrap_err();
        assert!(e.starts_with("line 3: blank line"), "{e}");
    }

    #[test]
    fn non_numeric_line_is_shown_cut_to_40_characters() {
        let e = parse_trace("1\n2x\n").unwrap_err();
        assert_eq!(e, "line 2: \"2x\" is not a whole number of milliseconds");
        let long = format!("{}{}", "a".repeat(40), "TAIL");
        let e = parse_trace(&format!("1\n2\n{long}\n")).unwrap_err();
        assert!(
            e.starts_with(&format!("line 3: \"{}…\"", "a".repeat(40))),
            "{e}"
        );
        assert!(!e.contains("TAIL"), "{e}");
    }

    #[test]
    fn negative_and_too_large_numbers_are_named() {
        let e = parse_trace("0\n-5\n").unwrap_err();
        assert!(e.starts_with("line 2: -5 is negative"), "{e}");
        let e = parse_trace("99999999999999999999\n").unwrap_err();
        assert!(
            e.starts_with("line 1: 99999999999999999999 is too large"),
            "{e}"
        );
    }

    #[test]
    fn decreasing_timestamp_names_both_values() {
        let e = parse_trace("1\n2\n3\n4\n5\n15\n12\n20\n").unwrap_err();
        assert_eq!(
            e,
            "line 7: 12 is before the previous timestamp 15; timestamps must not decrease"
        );
    }

    #[test]
    fn trace_ending_at_zero_is_rejected() {
        assert_eq!(
            parse_trace("0\n0\n"),
            Err("line 2: the trace must last longer than 0 ms".into())
        );
    }

    #[test]
    fn mean_rate_counts_1504_byte_opportunities_per_period() {
        // 1000 opportunities in 1 s: 1000 * 1504 * 8 = 12.032 Mbit/s.
        let ms: Vec<u64> = (1..=1000).collect();
        assert!((mean_bits_per_second(&ms) - 12_032_000.0).abs() < 1e-6);
        // Two opportunities at the same instant, period 4 ms: 2 * 12032 bits / 0.004 s.
        assert!((mean_bits_per_second(&[4, 4]) - 6_016_000.0).abs() < 1e-6);
    }
}
