//! How late the forwarder writes packets against the times the link model gave them: the
//! emulator's own error, which the benchmark reports as percentiles.

use serde::Serialize;

const FINE_US: usize = 2000;
const COARSE_MS: usize = 1000;

#[derive(Clone)]
pub struct Lateness {
    /// 1 µs buckets below 2 ms, then 1 ms buckets up to 1 s (the last one holds the rest).
    fine: Vec<u64>,
    coarse: Vec<u64>,
    count: u64,
    max: u64,
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LatenessSummary {
    pub packets: u64,
    pub p50_us: u64,
    pub p90_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
}

impl Default for Lateness {
    fn default() -> Self {
        Lateness { fine: vec![0; FINE_US], coarse: vec![0; COARSE_MS], count: 0, max: 0 }
    }
}

impl Lateness {
    pub fn record(&mut self, us: u64) {
        if (us as usize) < FINE_US {
            self.fine[us as usize] += 1;
        } else {
            self.coarse[((us / 1000) as usize).min(COARSE_MS - 1)] += 1;
        }
        self.count += 1;
        self.max = self.max.max(us);
    }

    pub fn summary(&self) -> LatenessSummary {
        LatenessSummary { packets: self.count, p50_us: self.quantile(0.5), p90_us: self.quantile(0.9), p99_us: self.quantile(0.99), max_us: self.max }
    }

    /// Nearest rank: the smallest value with at least q of the samples at or below it.
    fn quantile(&self, q: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((q * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (us, n) in self.fine.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return us as u64;
            }
        }
        for (ms, n) in self.coarse.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return ms as u64 * 1000;
            }
        }
        self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut l = Lateness::default();
        for us in 1..=100 {
            l.record(us);
        }
        l.record(5_500);
        let s = l.summary();
        assert_eq!((s.packets, s.p50_us, s.p90_us, s.max_us), (101, 51, 91, 5_500));
        assert_eq!(s.p99_us, 100, "rank 100 of 101 is the last fine sample");
    }
}
