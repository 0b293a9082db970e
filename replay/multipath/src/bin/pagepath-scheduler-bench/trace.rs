//! A scheduler's run on the synthetic world, kept so it can be replayed: the world evolves with
//! the scheduler's own choices while recording, and replaying the same inputs to a fresh instance
//! of the same (deterministic) scheduler repeats them, so the timed replay calls nothing but the
//! scheduler.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pagepath_multipath::{build, Context, Decision, Event, Options, PathSnapshot, Scheduler, StreamSnapshot};

use crate::world::World;

struct Step {
    now: Duration,
    /// Acks and losses reported before the decision.
    before: Vec<Event>,
    paths: Vec<PathSnapshot>,
    streams: Vec<StreamSnapshot>,
    decision: Decision,
    /// The sends (and a stream finishing) the decision led to.
    after: Vec<Event>,
}

pub struct Trace {
    pub scheduler: &'static str,
    pub streams: usize,
    steps: Vec<Step>,
    pub waits: usize,
    pub packets_per_path: [u64; 2],
    pub lost_packets: u64,
    pub simulated: Duration,
}

impl Trace {
    pub fn decisions(&self) -> usize {
        self.steps.len()
    }
}

fn fresh(name: &str) -> Result<Box<dyn Scheduler>, String> {
    build(name, &Options::default())
}

/// Up to `decisions` decisions of `name` with `streams` streams always sendable. Fewer if the
/// scheduler waits with nothing left that could change its mind.
pub fn record(name: &'static str, streams: usize, decisions: usize) -> Result<Trace, String> {
    let mut scheduler = fresh(name)?;
    let mut world = World::new(streams);
    let mut steps = Vec::with_capacity(decisions);
    let mut waits = 0;
    'run: while steps.len() < decisions {
        let mut before = Vec::new();
        // a transport asks only when a path has room for a packet
        loop {
            world.settle(&mut before);
            if world.any_can_send() {
                break;
            }
            if !world.advance() {
                break 'run;
            }
        }
        let now = world.now();
        for e in &before {
            scheduler.on_event(now, e);
        }
        let (mut paths, mut ready) = (Vec::new(), Vec::new());
        world.snapshot(&mut paths, &mut ready);
        let decision = scheduler.decide(&Context { now, paths: &paths, streams: &ready });
        let mut after = Vec::new();
        let sent = world.apply(decision, &mut after);
        for e in &after {
            scheduler.on_event(now, e);
        }
        steps.push(Step { now, before, paths, streams: ready, decision, after });
        if !sent {
            waits += 1;
            if !world.advance() {
                break;
            }
        }
    }
    Ok(Trace { scheduler: name, streams, steps, waits, packets_per_path: world.sent_per_path, lost_packets: world.lost_packets(), simulated: world.now() })
}

/// Replays the trace to a fresh instance without timing it; an error if the scheduler decides
/// otherwise on the same inputs (the timed replay would then not be the run recorded).
pub fn check(trace: &Trace) -> Result<(), String> {
    let mut s = fresh(trace.scheduler)?;
    for (i, step) in trace.steps.iter().enumerate() {
        for e in &step.before {
            s.on_event(step.now, e);
        }
        let d = s.decide(&Context { now: step.now, paths: &step.paths, streams: &step.streams });
        if d != step.decision {
            return Err(format!("{} decided {:?} at decision {i} on replay, {:?} when recorded: not deterministic", trace.scheduler, d, step.decision));
        }
        for e in &step.after {
            s.on_event(step.now, e);
        }
    }
    Ok(())
}

/// Nanoseconds per decision, with the events around it, over one replay of the whole trace.
pub fn time(trace: &Trace) -> Result<f64, String> {
    let mut s = fresh(trace.scheduler)?;
    let start = Instant::now();
    for step in &trace.steps {
        for e in &step.before {
            s.on_event(step.now, e);
        }
        black_box(s.decide(black_box(&Context { now: step.now, paths: &step.paths, streams: &step.streams })));
        for e in &step.after {
            s.on_event(step.now, e);
        }
    }
    let elapsed = start.elapsed();
    Ok(elapsed.as_nanos() as f64 / trace.steps.len().max(1) as f64)
}
