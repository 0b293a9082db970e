//! The weighted round-robin over streams that the SA-ECF family (sa-ecf, sa-ecf-ported,
//! sa-ecf-adapted) schedules on: in each round every stream with data gets a balance of its
//! guarantee g_i = quantum x weight_i bytes (seed 004 §5.2: HLS leaves receive their guarantee's
//! share of the round; seed 000 Fig 4.8: "Weighted Round-Robin ... with 150 bytes of quantum"),
//! streams are visited in a fixed order, and a new round starts once no stream has balance left.
//! A packet larger than the balance left is still sent (a stream with any balance may send) and
//! the overdraft is carried into the stream's next round, as deficit round-robin does, so shares
//! hold over time whatever the packet size. Not a scheduler itself.

use std::collections::BTreeMap;

use crate::options::Options;
use crate::urgency_weights::{DefaultWeights, UrgencyWeights};
use crate::snapshot::{Context, StreamId, StreamSnapshot};

/// The options the whole family shares: `quantum` (bytes per weight per round) and `weights`.
pub fn parse_common(opts: &Options) -> Result<(f64, UrgencyWeights), String> {
    let quantum = opts.f64("quantum", 1500.0, 1.0, 1e9)?;
    // equal by default: seed 000 Fig 4.8's equal weights
    let weights = UrgencyWeights::parse(opts.text("weights").as_deref(), DefaultWeights::Equal)?;
    Ok((quantum, weights))
}

pub struct Rounds {
    pub quantum: f64,
    pub weights: UrgencyWeights,
    /// Visiting order: streams join at the back when they get data.
    order: Vec<StreamId>,
    /// Balance left in this round, bytes; negative: overdraft carried from the last round.
    balance: BTreeMap<StreamId, f64>,
}

impl Rounds {
    pub fn new(quantum: f64, weights: UrgencyWeights) -> Rounds {
        Rounds { quantum, weights, order: Vec::new(), balance: BTreeMap::new() }
    }

    pub fn guarantee(&self, s: &StreamSnapshot) -> f64 {
        self.quantum * self.weights.of(s)
    }

    /// Brings the order up to date with the streams that have data (a new one joins at the back
    /// with its guarantee for this round; one without data leaves), starts a new round when no
    /// stream has balance left, and returns the streams with balance in visiting order.
    pub fn pending<'a>(&mut self, cx: &Context<'a>) -> Vec<&'a StreamSnapshot> {
        let active: BTreeMap<StreamId, &StreamSnapshot> = cx.streams.iter().filter(|s| s.remaining > 0).map(|s| (s.id, s)).collect();
        self.order.retain(|id| active.contains_key(id));
        self.balance.retain(|id, _| active.contains_key(id));
        for s in cx.streams.iter().filter(|s| s.remaining > 0) {
            if !self.balance.contains_key(&s.id) {
                self.order.push(s.id);
                self.balance.insert(s.id, self.guarantee(s));
            }
        }
        if !self.balance.is_empty() && self.balance.values().all(|b| *b <= 0.0) {
            // as many rounds as it takes for some stream to pay off its overdraft (one, unless
            // packets are larger than guarantees)
            let rounds = self.order.iter().map(|id| (-self.balance[id] / self.guarantee(active[id])).floor() + 1.0).fold(f64::INFINITY, f64::min);
            for id in &self.order {
                let g = self.guarantee(active[id]);
                *self.balance.get_mut(id).expect("every stream in the order has a balance") += rounds * g;
            }
        }
        self.order.iter().filter(|id| self.balance[id] > 0.0).map(|id| active[id]).collect()
    }

    pub fn charge(&mut self, stream: StreamId, bytes: u64) {
        if let Some(b) = self.balance.get_mut(&stream) {
            *b -= bytes as f64;
        }
    }

    /// Puts `stream` first in the visiting order, where the first stream was (seed 004 Algorithm
    /// 1's `L_ac.swap(0, i)`).
    pub fn swap_to_front(&mut self, stream: StreamId) {
        let first = self.order.iter().position(|id| self.balance[id] > 0.0);
        if let (Some(first), Some(i)) = (first, self.order.iter().position(|id| *id == stream)) {
            self.order.swap(first, i);
        }
    }
}
