//! Seeded randomness for loss, RED and jitter. Both algorithms are fixed and have published
//! reference outputs (xoshiro256** seeded through splitmix64, as their author recommends), so a
//! seed replays the same run on every platform and every version of this crate.

/// What a stream of numbers is for. Each purpose draws from its own stream, so that turning on
/// jitter, say, does not change which packets the loss model drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Loss,
    Queue,
    Jitter,
}

impl Purpose {
    /// The purpose's name in ASCII: distinct, and easy to recognise in a debugger.
    fn salt(self) -> u64 {
        match self {
            Purpose::Loss => 0x6c6f_7373,        // "loss"
            Purpose::Queue => 0x71_7565_7565,    // "queue"
            Purpose::Jitter => 0x6a69_7474_6572, // "jitter"
        }
    }
}

#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    pub fn new(seed: u64, purpose: Purpose) -> Rng {
        // splitmix64's output function is a bijection, so four consecutive outputs are never all
        // zero, the one state xoshiro cannot leave.
        let mut x = seed ^ purpose.salt();
        Rng {
            s: [
                splitmix64(&mut x),
                splitmix64(&mut x),
                splitmix64(&mut x),
                splitmix64(&mut x),
            ],
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with the 53 bits an f64 mantissa holds.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability p (never for p <= 0, always for p >= 1).
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }

    /// Uniform in [0, n), n > 0, without modulo bias (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if m as u64 >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_its_reference_output() {
        // Vigna's splitmix64.c from state 0: the first output is the well-known 0xe220a8397b1dcdaf.
        let mut x = 0;
        assert_eq!(splitmix64(&mut x), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn xoshiro_matches_outputs_worked_by_hand() {
        // From s = [1, 2, 3, 4]: out1 = rotl(2*5, 7)*9 = 11520; the update leaves s1 = 2^2 = 0, so
        // out2 = 0; then s1 = 262146^7 = 262149 and out3 = 262149*5*128*9 = 1509978240.
        let mut rng = Rng { s: [1, 2, 3, 4] };
        assert_eq!(
            [rng.next_u64(), rng.next_u64(), rng.next_u64()],
            [11520, 0, 1_509_978_240]
        );
    }

    #[test]
    fn same_seed_same_stream_and_purposes_differ() {
        let draw = |seed, purpose| {
            let mut r = Rng::new(seed, purpose);
            (0..8).map(|_| r.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(draw(7, Purpose::Loss), draw(7, Purpose::Loss));
        assert_ne!(draw(7, Purpose::Loss), draw(8, Purpose::Loss));
        assert_ne!(draw(7, Purpose::Loss), draw(7, Purpose::Queue));
        assert_ne!(draw(7, Purpose::Queue), draw(7, Purpose::Jitter));
    }

    #[test]
    fn f64_is_in_unit_interval_with_mean_one_half() {
        let mut r = Rng::new(1, Purpose::Loss);
        let n = 100_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            sum += x;
        }
        // Uniform variance is 1/12, so the mean's sd is sqrt(1/12/n) = 0.00091; allow 5 sd.
        assert!((sum / n as f64 - 0.5).abs() < 0.0046);
    }

    #[test]
    fn below_covers_its_range_evenly() {
        let mut r = Rng::new(2, Purpose::Jitter);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[r.below(3) as usize] += 1;
        }
        // Each count is binomial(30000, 1/3): sd = 81.6; allow 5 sd around 10000.
        assert!(
            counts.iter().all(|&c| (c as i64 - 10_000).abs() < 410),
            "{counts:?}"
        );
        assert_eq!(Rng::new(3, Purpose::Jitter).below(1), 0);
    }
}
