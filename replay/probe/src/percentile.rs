//! Nearest-rank percentiles: always an observed sample, never an interpolation, so a reported
//! p99 delay is a delay some packet actually saw.

use serde::Serialize;

/// The sample at rank ceil(p/100 * n) (1-based) of `sorted`, which must be ascending and
/// non-empty.
pub fn nearest_rank(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

#[derive(Debug, PartialEq, Serialize)]
pub struct Distribution {
    pub min: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    pub mean: f64,
}

impl Distribution {
    /// None for no samples, so the JSON says `null` instead of inventing zeros.
    pub fn of(samples: &[f64]) -> Option<Distribution> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Distribution {
            min: sorted[0],
            p50: nearest_rank(&sorted, 50.0),
            p90: nearest_rank(&sorted, 90.0),
            p99: nearest_rank(&sorted, 99.0),
            max: sorted[sorted.len() - 1],
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_picks_observed_samples() {
        let sorted: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(nearest_rank(&sorted, 50.0), 5.0);
        assert_eq!(nearest_rank(&sorted, 90.0), 9.0);
        assert_eq!(nearest_rank(&sorted, 99.0), 10.0);
        assert_eq!(nearest_rank(&sorted, 0.0), 1.0);
        assert_eq!(nearest_rank(&[7.0], 99.0), 7.0);
    }

    #[test]
    fn distribution_of_unsorted_samples() {
        let d = Distribution::of(&[3.0, 1.0, 4.0, 1.0, 5.0]).unwrap();
        assert_eq!((d.min, d.p50, d.p90, d.max), (1.0, 3.0, 5.0, 5.0));
        assert!((d.mean - 2.8).abs() < 1e-12);
        assert_eq!(Distribution::of(&[]), None);
    }
}
