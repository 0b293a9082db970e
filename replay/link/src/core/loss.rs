//! Random loss where packets enter the link, before the queue, as Mahimahi's mm-loss sits in
//! front of mm-link.

use super::config::LossModel;
use super::rng::Rng;

pub struct Loss {
    model: LossModel,
    /// The Gilbert-Elliott chain's state; it starts good.
    bad: bool,
    rng: Rng,
}

impl Loss {
    pub fn new(model: &LossModel, rng: Rng) -> Loss {
        Loss {
            model: model.clone(),
            bad: false,
            rng,
        }
    }

    /// Whether the next packet is lost.
    pub fn lose(&mut self) -> bool {
        match self.model {
            LossModel::None => false,
            LossModel::Bernoulli { p } => self.rng.chance(p),
            LossModel::GilbertElliott {
                p,
                r,
                loss_good,
                loss_bad,
            } => {
                // The chain moves first, so the packet sees the state it arrives in.
                if self.rng.chance(if self.bad { r } else { p }) {
                    self.bad = !self.bad;
                }
                self.rng.chance(if self.bad { loss_bad } else { loss_good })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Purpose;

    fn run(model: LossModel, n: usize) -> Vec<bool> {
        let mut loss = Loss::new(&model, Rng::new(11, Purpose::Loss));
        (0..n).map(|_| loss.lose()).collect()
    }

    fn rate(lost: &[bool]) -> f64 {
        lost.iter().filter(|&&l| l).count() as f64 / lost.len() as f64
    }

    #[test]
    fn no_model_loses_nothing() {
        assert_eq!(rate(&run(LossModel::None, 1000)), 0.0);
    }

    #[test]
    fn bernoulli_rate_is_within_binomial_tolerance() {
        // 100k packets at p = 0.01: sd = sqrt(0.01 * 0.99 / 1e5) = 0.000315; 4.5 sd = 0.00142.
        let r = rate(&run(LossModel::Bernoulli { p: 0.01 }, 100_000));
        assert!((r - 0.01).abs() < 0.00142, "{r}");
        assert_eq!(rate(&run(LossModel::Bernoulli { p: 1.0 }, 100)), 1.0);
    }

    #[test]
    fn gilbert_elliott_mean_loss_matches_the_stationary_mix() {
        let (p, r, loss_good, loss_bad) = (0.01, 0.2, 0.01, 0.5);
        let lost = run(
            LossModel::GilbertElliott {
                p,
                r,
                loss_good,
                loss_bad,
            },
            1_000_000,
        );
        // Stationary P(bad) = p/(p+r) = 1/21: expected loss 0.5/21 + 0.01*20/21 = 1/30.
        let expected = p / (p + r) * loss_bad + r / (p + r) * loss_good;
        assert!((expected - 1.0 / 30.0).abs() < 1e-12);
        // The chain correlates packets: the state fraction's variance is pi_b*pi_g*(1+l)/(1-l)/n
        // with l = 1-p-r = 0.79, i.e. 0.387/n, scaled by (loss_bad-loss_good)^2; the per-packet
        // coin adds at most 0.021/n. Total 0.114/n: sd 0.00034 at n = 1e6; 4.5 sd = 0.0016.
        assert!((rate(&lost) - expected).abs() < 0.0016, "{}", rate(&lost));
    }

    #[test]
    fn gilbert_elliott_bursts_last_one_over_r() {
        // With loss only in the bad state, a loss burst is a stay in the bad state: geometric with
        // mean 1/r = 5 and variance (1-r)/r^2 = 20. About n*p/(p+r)*r = 9500 bursts in 1e6
        // packets, so the mean burst's sd is sqrt(20/9500) = 0.046; 4.5 sd = 0.21.
        let lost = run(
            LossModel::GilbertElliott {
                p: 0.01,
                r: 0.2,
                loss_good: 0.0,
                loss_bad: 1.0,
            },
            1_000_000,
        );
        let bursts: Vec<usize> = lost
            .split(|&l| !l)
            .map(<[bool]>::len)
            .filter(|&len| len > 0)
            .collect();
        let mean = bursts.iter().sum::<usize>() as f64 / bursts.len() as f64;
        assert!(
            (mean - 5.0).abs() < 0.21,
            "{mean} over {} bursts",
            bursts.len()
        );
    }
}
