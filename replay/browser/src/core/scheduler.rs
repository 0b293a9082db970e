//! The main thread (seed 001 Algorithms 4 and 5): one computation at a time; a global queue of
//! timers and events served first; one queue per frame in which parse chunks go before scripts and
//! style sheets; the thread stays in a frame while it has work, then moves to a subframe with work,
//! else the parent, else any frame with work, in file order.

use super::graph::Frame;
use super::Ms;
use std::collections::VecDeque;

/// Which queue a ready computation joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Timers that fired, events, and the later segments of split computations: the global
    /// priority queue.
    Urgent,
    /// Parse chunks of a frame.
    Parse,
    /// Scripts and style sheets of a frame.
    Eval,
}

#[derive(Default)]
struct FrameQueue {
    parse: VecDeque<usize>,
    eval: VecDeque<usize>,
}

impl FrameQueue {
    fn is_empty(&self) -> bool {
        self.parse.is_empty() && self.eval.is_empty()
    }
}

struct ArmedTimer {
    fires_at: Ms,
    node: usize,
}

pub(crate) struct Scheduler {
    subframes: Vec<Vec<usize>>,
    parents: Vec<Option<usize>>,
    queues: Vec<FrameQueue>,
    urgent: VecDeque<usize>,
    /// Timers waiting for their timeout, in the order they were armed.
    armed: Vec<ArmedTimer>,
    current: usize,
    running: Option<(usize, Ms)>,
    /// The piece of a computation whose synchronous request the thread waits for: nothing else
    /// runs until it does.
    held_for: Option<usize>,
}

impl Scheduler {
    pub fn new(frames: &[Frame], main_frame: usize) -> Scheduler {
        let subframes = (0..frames.len()).map(|f| (0..frames.len()).filter(|&c| frames[c].parent == Some(f)).collect()).collect();
        Scheduler {
            subframes,
            parents: frames.iter().map(|f| f.parent).collect(),
            queues: frames.iter().map(|_| FrameQueue::default()).collect(),
            urgent: VecDeque::new(),
            armed: Vec::new(),
            current: main_frame,
            running: None,
            held_for: None,
        }
    }

    pub fn push(&mut self, node: usize, frame: usize, lane: Lane) {
        match lane {
            Lane::Urgent => self.urgent.push_back(node),
            Lane::Parse => self.queues[frame].parse.push_back(node),
            Lane::Eval => self.queues[frame].eval.push_back(node),
        }
    }

    /// A timer that enters the priority queue at `fires_at`.
    pub fn arm(&mut self, node: usize, fires_at: Ms) {
        self.armed.push(ArmedTimer { fires_at, node });
    }

    /// Moves the timers due at `now` into the priority queue, earliest first (ties: armed first).
    pub fn fire_due(&mut self, now: Ms) {
        while let Some(i) = self.earliest_timer().filter(|&i| self.armed[i].fires_at <= now) {
            let timer = self.armed.remove(i);
            self.urgent.push_back(timer.node);
        }
    }

    fn earliest_timer(&self) -> Option<usize> {
        (0..self.armed.len()).reduce(|best, i| if self.armed[i].fires_at < self.armed[best].fires_at { i } else { best })
    }

    /// When the running computation ends or the next timer fires.
    pub fn next_timeout(&self) -> Option<Ms> {
        let timer = self.earliest_timer().map(|i| self.armed[i].fires_at);
        let end = self.running.map(|(_, end)| end);
        match (timer, end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn running(&self) -> Option<(usize, Ms)> {
        self.running
    }

    /// Takes the running computation off the thread if it has ended by `now`.
    pub fn take_finished(&mut self, now: Ms) -> Option<usize> {
        let (node, end) = self.running?;
        if end > now {
            return None;
        }
        self.running = None;
        Some(node)
    }

    /// The thread waits for a synchronous request: `piece`, the computation's next, runs next, and
    /// nothing runs before it (a sync XHR blocks the renderer's main thread).
    pub fn hold_for(&mut self, piece: usize) {
        self.held_for = Some(piece);
    }

    /// Algorithm 4: the computation the idle thread runs next, if any.
    pub fn next_computation(&mut self) -> Option<usize> {
        if self.running.is_some() {
            return None;
        }
        if let Some(piece) = self.held_for {
            let queued = self.urgent.iter().position(|&n| n == piece)?;
            self.held_for = None;
            return self.urgent.remove(queued);
        }
        if let Some(node) = self.urgent.pop_front() {
            return Some(node);
        }
        if self.queues[self.current].is_empty() {
            self.current = self.select_next_frame()?;
        }
        let queue = &mut self.queues[self.current];
        queue.parse.pop_front().or_else(|| queue.eval.pop_front())
    }

    pub fn run(&mut self, node: usize, until: Ms) {
        self.running = Some((node, until));
    }

    /// Algorithm 5: a subframe with work, else the parent, else any frame with work.
    fn select_next_frame(&self) -> Option<usize> {
        let has_work = |f: &usize| !self.queues[*f].is_empty();
        let sub = self.subframes[self.current].iter().copied().find(has_work);
        let parent = self.parents[self.current].filter(has_work);
        sub.or(parent).or_else(|| (0..self.queues.len()).find(has_work))
    }

    /// The computations queued (urgent first) and the armed timers, for a stall report.
    pub fn queued(&self) -> (Vec<usize>, Vec<(usize, Ms)>) {
        let mut nodes: Vec<usize> = self.urgent.iter().copied().collect();
        for q in &self.queues {
            nodes.extend(q.parse.iter().chain(q.eval.iter()));
        }
        (nodes, self.armed.iter().map(|t| (t.node, t.fires_at)).collect())
    }
}
