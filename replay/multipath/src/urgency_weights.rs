//! Weights per RFC 9218 urgency (the only per-stream signal HTTP/3 carries), as every weighted
//! scheduler's `weights=` option takes them, in one option value (so no commas):
//! `urgency:weight` pairs separated by slashes (`0:4/1:2/3:1`; an urgency not listed weighs 1),
//! eight weights separated by colons (those of urgencies 0 to 7), `urgency` (8 - u: urgency 0
//! weighs 8, urgency 7 one) or `equal`.

use crate::snapshot::StreamSnapshot;

#[derive(Clone, Debug, PartialEq)]
pub struct UrgencyWeights(pub [f64; 8]);

/// What a scheduler takes when `weights=` is not given.
#[derive(Clone, Copy, Debug)]
pub enum DefaultWeights {
    Equal,
    Urgency,
}

impl UrgencyWeights {
    pub fn parse(text: Option<&str>, default: DefaultWeights) -> Result<UrgencyWeights, String> {
        let bad = |v: &str| {
            format!("scheduler option weights={v}: expected urgency:weight pairs separated by slashes (weights=0:4/1:2/3:1; an urgency not listed weighs 1), eight weights separated by colons (urgencies 0 to 7), urgency or equal; a weight is a positive number up to 1000000")
        };
        let weight = |x: &str| x.trim().parse::<f64>().ok().filter(|w| w.is_finite() && *w > 0.0 && *w <= 1e6);
        let v = match (text.map(str::trim), default) {
            (None, DefaultWeights::Equal) | (Some("equal"), _) => return Ok(UrgencyWeights([1.0; 8])),
            (None, DefaultWeights::Urgency) | (Some("urgency"), _) => return Ok(UrgencyWeights(std::array::from_fn(|u| (8 - u) as f64))),
            (Some(v), _) => v,
        };
        match v {
            v if !v.contains('/') && v.split(':').count() == 8 => {
                let listed: Option<Vec<f64>> = v.split(':').map(weight).collect();
                listed.and_then(|l| l.try_into().ok()).map(UrgencyWeights).ok_or_else(|| bad(v))
            }
            v => {
                let mut weights = [1.0; 8];
                let mut given = [false; 8];
                for pair in v.split('/') {
                    let (u, w) = pair.split_once(':').ok_or_else(|| bad(v))?;
                    let u = u.trim().parse::<usize>().ok().filter(|u| *u < 8).ok_or_else(|| bad(v))?;
                    if given[u] {
                        return Err(format!("scheduler option weights={v}: urgency {u} is given twice"));
                    }
                    given[u] = true;
                    weights[u] = weight(w).ok_or_else(|| bad(v))?;
                }
                Ok(UrgencyWeights(weights))
            }
        }
    }

    pub fn of(&self, s: &StreamSnapshot) -> f64 {
        self.0[s.urgency.min(7) as usize]
    }

    /// For a scheduler that counts whole tokens or bytes per weight: the weights as integers.
    pub fn whole(&self) -> Result<[u64; 8], String> {
        match self.0.iter().find(|w| w.fract() != 0.0) {
            Some(w) => Err(format!("scheduler option weights: {w} is not a whole number, which this scheduler needs (it counts whole shares)")),
            None => Ok(self.0.map(|w| w as u64)),
        }
    }
}
