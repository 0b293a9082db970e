//! The virtual executor's clock and timers: a heap of deadlines, earliest first and in the order
//! they were set among equals, so that a run is the same on any machine. A sleep dropped before
//! its deadline frees its entry at once; the heap forgets it when it comes up.

use crate::virtual_executor::with_current;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// An entry's slot and the generation that set it: a slot is reused, a generation is not.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    slot: u32,
    generation: u32,
}

#[derive(Default)]
struct Entry {
    generation: u32,
    waker: Option<Waker>,
}

#[derive(Default)]
pub(crate) struct Timers {
    /// (deadline, order set, key).
    heap: BinaryHeap<Reverse<(Instant, u64, Key)>>,
    entries: Vec<Entry>,
    free: Vec<u32>,
    set: u64,
}

impl Timers {
    fn add(&mut self, deadline: Instant, waker: Waker) -> Key {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.entries.push(Entry::default());
            (self.entries.len() - 1) as u32
        });
        let entry = &mut self.entries[slot as usize];
        entry.generation = entry.generation.wrapping_add(1);
        entry.waker = Some(waker);
        let key = Key {
            slot,
            generation: entry.generation,
        };
        self.set += 1;
        self.heap.push(Reverse((deadline, self.set, key)));
        key
    }

    fn entry(&mut self, key: Key) -> Option<&mut Entry> {
        self.entries
            .get_mut(key.slot as usize)
            .filter(|e| e.generation == key.generation && e.waker.is_some())
    }

    fn update(&mut self, key: Key, waker: &Waker) {
        if let Some(e) = self.entry(key) {
            if !e.waker.as_ref().is_some_and(|w| w.will_wake(waker)) {
                e.waker = Some(waker.clone());
            }
        }
    }

    fn cancel(&mut self, key: Key) {
        if let Some(e) = self.entry(key) {
            e.waker = None;
            self.free.push(key.slot);
        }
    }

    /// The earliest deadline still set.
    pub fn next_deadline(&mut self) -> Option<Instant> {
        while let Some(&Reverse((at, _, key))) = self.heap.peek() {
            if self.entry(key).is_some() {
                return Some(at);
            }
            self.heap.pop();
        }
        None
    }

    /// Takes the wakers of every timer due at `now`, in order.
    pub fn due(&mut self, now: Instant, woken: &mut Vec<Waker>) {
        while let Some(&Reverse((at, _, key))) = self.heap.peek() {
            if at > now {
                break;
            }
            self.heap.pop();
            if let Some(e) = self.entry(key) {
                woken.extend(e.waker.take());
                self.free.push(key.slot);
            }
        }
    }
}

/// The calling thread's virtual time, if it runs a virtual executor.
pub(crate) fn virtual_now() -> Option<Instant> {
    with_current(|inner| inner.now.get())
}

/// A sleep on the virtual clock of the thread that made it.
pub struct VirtualSleep {
    deadline: Instant,
    key: Option<Key>,
}

impl VirtualSleep {
    pub fn until(deadline: Instant) -> VirtualSleep {
        VirtualSleep {
            deadline,
            key: None,
        }
    }
}

impl Future for VirtualSleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        let polled = with_current(|inner| {
            if inner.now.get() >= this.deadline {
                if let Some(key) = this.key.take() {
                    inner.timers.borrow_mut().cancel(key);
                }
                return Poll::Ready(());
            }
            let mut timers = inner.timers.borrow_mut();
            match this.key {
                Some(key) => timers.update(key, cx.waker()),
                None => this.key = Some(timers.add(this.deadline, cx.waker().clone())),
            }
            Poll::Pending
        });
        polled
            .expect("a virtual sleep is polled on the thread of the virtual executor that made it")
    }
}

impl Drop for VirtualSleep {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            // The executor may be going (its tasks are dropped before it), or the timers busy.
            with_current(|inner| {
                if let Ok(mut timers) = inner.timers.try_borrow_mut() {
                    timers.cancel(key);
                }
            });
        }
    }
}
