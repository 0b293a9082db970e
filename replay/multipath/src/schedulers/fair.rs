//! The hierarchical fair stream scheduler of seed 004 (Petri Rocha thesis) Ch. 4-5: the
//! Hierarchical Link Sharing scheduler (§3.2) ported from packets to QUIC streams, which gives
//! classes of streams weighted max-min fair (§2.3) shares of what is sent. The hierarchy here is
//! the root, one class per RFC 9218 urgency weighted by `weights=`, and each stream with data a
//! leaf of its urgency's class with an equal guarantee. It decides only which stream fills a packet;
//! the path comes from the path scheduler it is paired with (`paths=`).
//!
//! One round, as §5.2 describes it: the root holds the quantum Q* (the bytes a round sends); the
//! streams with data are visited in turn (the pending leaves queue, in the transport's order). At
//! a leaf's first visit (its tick) its class takes its share of the root's fair quota,
//! B_c += R_c + g_c·f_root with f_root = ⌊B_root / Σ g of active classes⌋ (5.6, 5.7), once per round,
//! and the leaf takes its class's, B_i += f_c with f_c = ⌊B_c / active leaves⌋ (5.5). A leaf stays
//! at the head while it has balance and has sent less than Q* this round (5.8); what it sends goes
//! back to the root (5.9). A stream that runs out of data returns its balance to its class's
//! residual, and a class left without streams returns all of its own to the root's (5.10), so an
//! idle class's share goes to the others. When a round ends with a class holding at least one
//! byte per active leaf, a surplus round hands that out with f_root = 0 (§5.2.6); otherwise a main
//! round starts with the root's residual added to its balance (5.2). The balances and residuals
//! always add up to Q* (invariant 5.4; `total_balance` shows it).
//!
//! Options: `weights=` the class weights, `quantum=` Q* in bytes (default 65536), `paths=lowest-rtt`
//! (default) or `round-robin`.
//!
//! Choices the seed leaves open, or that differ here:
//! - A decision names a stream, not a byte count (quiche let the scheduler size the STREAM frame,
//!   5.8's min{B_i, r_i, L, …}), so a leaf with any balance left sends a whole packet and the
//!   overdraft, less than a packet, is carried as a negative balance into its next quota, as
//!   deficit round-robin does. The seed's varying quantum (5.3) exists to guarantee a packet per
//!   main round to every leaf; carrying the overdraft gives that with a fixed Q*.
//! - Weights are relative: the root's guarantee is Q* and a class gets Q*·w_c / Σ w of the active
//!   classes per round; streams in a class are equal leaves (guarantee 1), the seed's default flat
//!   hierarchy of equal guarantees (§4) one level down.
//! - A stream that gets data mid-round joins at the next round, as the seed's pending set is built
//!   at the start of a round (§5.2.1).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Duration;

use crate::registry::Entry;
use crate::scheduler::{Event, Paired, Scheduler, StreamScheduler};
use crate::schedulers::lowest_rtt::LowestRtt;
use crate::schedulers::round_robin::RoundRobin;
use crate::snapshot::{Context, PathId, StreamId};
use crate::urgency_weights::{DefaultWeights, UrgencyWeights};

pub const ENTRY: Entry = Entry {
    name: "fair",
    summary: "seed 004 Ch. 4-5's hierarchical fair stream scheduler (HLS for streams): weighted classes by RFC 9218 urgency, equal shares within a class, an idle class's share redistributed; options weights, quantum, paths",
    build: |opts| {
        let weights = parse_weights(opts.text("weights").as_deref())?;
        let quantum = opts.f64("quantum", 65536.0, 1.0, 1e12)?.round() as i64;
        let paths = opts.text("paths");
        opts.check_all_read("fair")?;
        let streams = Fair::new(weights, quantum);
        match paths.as_deref() {
            None | Some("lowest-rtt") => Ok(Box::new(Paired { name: "fair", paths: LowestRtt, streams }) as Box<dyn Scheduler>),
            Some("round-robin") => Ok(Box::new(Paired { name: "fair", paths: RoundRobin::default(), streams })),
            Some(v) => Err(format!("scheduler option paths={v}: expected lowest-rtt or round-robin")),
        }
    },
};

/// The weights of RFC 9218 urgencies 0 to 7 (urgency_weights.rs), by default 8 - u; whole
/// numbers, as the seed's guarantees are.
pub fn parse_weights(text: Option<&str>) -> Result<[u64; 8], String> {
    UrgencyWeights::parse(text, DefaultWeights::Urgency)?.whole()
}

#[derive(Clone, Default)]
struct Class {
    balance: i64,
    residual: i64,
    /// f_c, once computed this round.
    quota: Option<i64>,
    /// Its leaves with data.
    leaves: i64,
}

struct Leaf {
    class: usize,
    balance: i64,
    /// e_i: sent this round.
    emitted: i64,
    ticked: bool,
}

pub struct Fair {
    weights: [u64; 8],
    quantum: i64,
    root_balance: i64,
    root_residual: i64,
    /// f_root, once computed this round; 0 in a surplus round.
    root_quota: Option<i64>,
    classes: [Class; 8],
    leaves: BTreeMap<StreamId, Leaf>,
    pending: VecDeque<StreamId>,
}

impl Fair {
    pub fn new(weights: [u64; 8], quantum: i64) -> Fair {
        Fair {
            weights,
            quantum,
            root_balance: quantum,
            root_residual: 0,
            root_quota: None,
            classes: Default::default(),
            leaves: BTreeMap::new(),
            pending: VecDeque::new(),
        }
    }

    /// Every balance and residual together: Q* at all times (invariant 5.4).
    pub fn total_balance(&self) -> i64 {
        self.root_balance + self.root_residual + self.classes.iter().map(|c| c.balance + c.residual).sum::<i64>() + self.leaves.values().map(|l| l.balance).sum::<i64>()
    }

    /// 5.10: a leaf without data returns its balance to its class, a class without leaves to the root.
    fn idle(&mut self, id: StreamId) {
        let Some(leaf) = self.leaves.remove(&id) else { return };
        self.pending.retain(|p| *p != id);
        let class = &mut self.classes[leaf.class];
        class.residual += leaf.balance;
        class.leaves -= 1;
        if class.leaves == 0 {
            self.root_residual += class.balance + class.residual;
            *class = Class::default();
        }
    }

    fn start_round(&mut self, cx: &Context) -> bool {
        let moved: Vec<StreamId> = self.leaves.iter().filter(|(id, l)| cx.stream(**id).is_some_and(|s| s.urgency.min(7) as usize != l.class)).map(|(id, _)| *id).collect();
        for id in moved {
            self.idle(id);
        }
        for s in cx.streams.iter().filter(|s| s.remaining > 0) {
            if !self.leaves.contains_key(&s.id) {
                let class = s.urgency.min(7) as usize;
                self.classes[class].leaves += 1;
                self.leaves.insert(s.id, Leaf { class, balance: 0, emitted: 0, ticked: false });
            }
        }
        if self.leaves.is_empty() {
            return false;
        }
        self.root_balance += self.root_residual;
        self.root_residual = 0;
        let surplus = self.classes.iter().any(|c| c.leaves > 0 && c.balance + c.residual >= c.leaves);
        self.root_quota = surplus.then_some(0);
        for class in &mut self.classes {
            class.quota = None;
        }
        for leaf in self.leaves.values_mut() {
            leaf.ticked = false;
            leaf.emitted = 0;
        }
        self.pending = cx.streams.iter().filter(|s| self.leaves.contains_key(&s.id)).map(|s| s.id).collect();
        true
    }

    /// A leaf's first visit in a round: its class's quota (computed once a round, 5.6-5.7), then its own (5.5).
    fn tick(&mut self, id: StreamId) {
        let c = self.leaves[&id].class;
        if self.classes[c].quota.is_none() {
            let active_weight: i64 = (0..8).filter(|u| self.classes[*u].leaves > 0).map(|u| self.weights[u] as i64).sum();
            let root_quota = *self.root_quota.get_or_insert(self.root_balance.max(0) / active_weight.max(1));
            let share = self.weights[c] as i64 * root_quota;
            self.root_balance -= share;
            let class = &mut self.classes[c];
            class.balance += class.residual + share;
            class.residual = 0;
            class.quota = Some(class.balance.max(0) / class.leaves);
        }
        let quota = self.classes[c].quota.expect("the class ticked above");
        self.classes[c].balance -= quota;
        let leaf = self.leaves.get_mut(&id).expect("a pending stream is a leaf");
        leaf.balance += quota;
        leaf.ticked = true;
    }
}

impl StreamScheduler for Fair {
    fn select_stream(&mut self, cx: &Context, _path: PathId) -> Option<StreamId> {
        let with_data: BTreeSet<StreamId> = cx.streams.iter().filter(|s| s.remaining > 0).map(|s| s.id).collect();
        let gone: Vec<StreamId> = self.leaves.keys().filter(|id| !with_data.contains(id)).copied().collect();
        for id in gone {
            self.idle(id);
        }
        // Rounds that hand nobody a byte only happen while class balances build up to one byte
        // per leaf; the bound keeps a pathological quantum (smaller than the streams) from spinning.
        for _ in 0..64 * (with_data.len() + 1) {
            let Some(&head) = self.pending.front() else {
                if !self.start_round(cx) {
                    return None;
                }
                continue;
            };
            if !self.leaves[&head].ticked {
                self.tick(head);
            }
            let leaf = &self.leaves[&head];
            if leaf.balance > 0 && leaf.emitted < self.quantum {
                return Some(head);
            }
            self.pending.pop_front();
        }
        cx.streams.iter().find(|s| s.remaining > 0).map(|s| s.id)
    }

    fn on_event(&mut self, _now: Duration, event: &Event) {
        if let Event::Sent { stream: Some(s), bytes, .. } = *event {
            if let Some(leaf) = self.leaves.get_mut(&s) {
                leaf.balance -= bytes as i64;
                leaf.emitted += bytes as i64;
                self.root_balance += bytes as i64;
            }
        }
    }
}
