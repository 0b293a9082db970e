//! A single-threaded executor in virtual time: tasks run in the order they were woken, and when
//! none is ready the clock jumps to the earliest timer, as a paused tokio runtime's does, but
//! without tokio's atomics, timer wheel, metrics clock reads and mutex-guarded paused clock,
//! which were a fifth of the simulator's time.

use crate::virtual_timers::Timers;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

type Task = Pin<Box<dyn Future<Output = ()>>>;

pub(crate) struct Inner {
    pub now: Cell<Instant>,
    /// Time 0, from which the clock ticks.
    start: Instant,
    /// How far the clock moves at least: a timer fires at the first tick at or after its deadline.
    tick: Duration,
    pub timers: RefCell<Timers>,
    tasks: RefCell<Vec<Slot>>,
    free: RefCell<Vec<usize>>,
    ready: Arc<ReadyQueue>,
    /// Tasks that yielded: woken only when no other task is ready.
    deferred: RefCell<Vec<Waker>>,
}

/// A task's future (None while it is polled, or once it is done) and its waker.
struct Slot {
    task: Option<Task>,
    wake: Arc<TaskWake>,
    waker: Waker,
}

#[derive(Default)]
struct ReadyQueue(Mutex<VecDeque<usize>>);

impl ReadyQueue {
    fn push(&self, slot: usize) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(slot);
    }

    /// Everything queued, in order, into `batch` (empty): one lock a batch, not one a task.
    fn take(&self, batch: &mut VecDeque<usize>) {
        std::mem::swap(
            &mut *self.0.lock().unwrap_or_else(PoisonError::into_inner),
            batch,
        );
    }
}

/// A task's waker: queues its slot once until the task is polled.
struct TaskWake {
    slot: usize,
    queued: AtomicBool,
    ready: Arc<ReadyQueue>,
}

impl Wake for TaskWake {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if !self.queued.swap(true, Ordering::AcqRel) {
            self.ready.push(self.slot);
        }
    }
}

/// The future block_on waits for: woken is all it needs.
struct MainWake(AtomicBool);

impl Wake for MainWake {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::Release);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::Release);
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Inner>>> = const { RefCell::new(None) };
}

/// `f` on the calling thread's executor, if it has one.
pub(crate) fn with_current<R>(f: impl FnOnce(&Inner) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow().as_deref().map(f))
}

pub(crate) fn on_this_thread() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

pub(crate) fn spawn_here(task: impl Future<Output = ()> + 'static) {
    with_current(|inner| inner.spawn(Box::pin(task)))
        .expect("spawned on a thread without a virtual executor");
}

impl Inner {
    fn spawn(&self, task: Task) {
        let mut tasks = self.tasks.borrow_mut();
        let slot = self.free.borrow_mut().pop().unwrap_or(tasks.len());
        let wake = Arc::new(TaskWake {
            slot,
            queued: AtomicBool::new(true),
            ready: self.ready.clone(),
        });
        let s = Slot {
            task: Some(task),
            waker: Waker::from(wake.clone()),
            wake,
        };
        if slot == tasks.len() {
            tasks.push(s);
        } else {
            tasks[slot] = s;
        }
        self.ready.push(slot);
    }

    /// Polls the task in `slot` once, if it is still there. A wake from a finished task's waker
    /// finds its slot empty, or taken by a newer task, which is then polled once for nothing.
    fn run(&self, slot: usize) {
        let (mut task, waker) = {
            let mut tasks = self.tasks.borrow_mut();
            let Some(s) = tasks.get_mut(slot) else { return };
            let Some(task) = s.task.take() else { return };
            // Cleared before the poll, so that a wake during it queues the task again.
            s.wake.queued.store(false, Ordering::Release);
            (task, s.waker.clone())
        };
        let done = task
            .as_mut()
            .poll(&mut Context::from_waker(&waker))
            .is_ready();
        if done {
            self.free.borrow_mut().push(slot);
            drop(task);
        } else {
            self.tasks.borrow_mut()[slot].task = Some(task);
        }
    }

    /// The first tick at or after `t`.
    fn on_tick(&self, t: Instant) -> Instant {
        let tick = self.tick.as_nanos();
        let since = t.saturating_duration_since(self.start).as_nanos();
        let ticks = since.div_ceil(tick);
        self.start + Duration::from_nanos((ticks * tick) as u64)
    }

    /// Moves the clock to the earliest timer and wakes every timer due then; false if none is set.
    fn advance(&self) -> bool {
        let mut woken = Vec::new();
        {
            let mut timers = self.timers.borrow_mut();
            let Some(next) = timers.next_deadline() else {
                return false;
            };
            let next = self.on_tick(next);
            if next > self.now.get() {
                self.now.set(next);
            }
            timers.due(self.now.get(), &mut woken);
        }
        woken.into_iter().for_each(Waker::wake);
        true
    }
}

/// The executor of the calling thread, from new() until dropped; at most one a thread.
pub struct VirtualExecutor {
    inner: Rc<Inner>,
}

impl VirtualExecutor {
    /// Virtual time starts at the real now and moves in steps of `tick` (at least 1 ns).
    pub fn new(tick: Duration) -> VirtualExecutor {
        let start = Instant::now();
        let inner = Rc::new(Inner {
            now: Cell::new(start),
            start,
            tick: tick.max(Duration::from_nanos(1)),
            timers: RefCell::new(Timers::default()),
            tasks: RefCell::new(Vec::new()),
            free: RefCell::new(Vec::new()),
            ready: Arc::new(ReadyQueue::default()),
            deferred: RefCell::new(Vec::new()),
        });
        CURRENT.with(|c| {
            let mut c = c.borrow_mut();
            assert!(c.is_none(), "one virtual executor a thread");
            *c = Some(inner.clone());
        });
        VirtualExecutor { inner }
    }

    pub fn now(&self) -> Instant {
        self.inner.now.get()
    }

    pub fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        self.inner.spawn(Box::pin(task));
    }

    /// Runs the tasks, moving the clock as they wait, until `future` is done.
    /// Panics if every task waits on something no timer or task will bring.
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        let mut future = pin!(future);
        let main = Arc::new(MainWake(AtomicBool::new(true)));
        let waker = Waker::from(main.clone());
        let mut cx = Context::from_waker(&waker);
        let mut batch = VecDeque::new();
        loop {
            if main.0.swap(false, Ordering::AcqRel) {
                if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                    return out;
                }
            }
            let mut ran = false;
            loop {
                self.inner.ready.take(&mut batch);
                if batch.is_empty() {
                    break;
                }
                batch.drain(..).for_each(|slot| self.inner.run(slot));
                ran = true;
            }
            if ran || main.0.load(Ordering::Acquire) {
                continue;
            }
            let deferred = std::mem::take(&mut *self.inner.deferred.borrow_mut());
            if !deferred.is_empty() {
                deferred.into_iter().for_each(Waker::wake);
                continue;
            }
            assert!(
                self.inner.advance(),
                "virtual time stands still: every task waits and no timer is set"
            );
        }
    }
}

impl Drop for VirtualExecutor {
    fn drop(&mut self) {
        // The tasks go while the executor is still the thread's: dropping one may drop a sleep
        // or wake another.
        let tasks = std::mem::take(&mut *self.inner.tasks.borrow_mut());
        drop(tasks);
        self.inner.deferred.borrow_mut().clear();
        CURRENT.with(|c| *c.borrow_mut() = None);
    }
}

/// Pending once, its waker kept until no task is ready (yield_now on the virtual executor).
#[derive(Default)]
pub(crate) struct Deferred {
    yielded: bool,
}

impl Future for Deferred {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.yielded {
            return Poll::Ready(());
        }
        self.yielded = true;
        with_current(|inner| inner.deferred.borrow_mut().push(cx.waker().clone()))
            .expect("yielded on a thread without a virtual executor");
        Poll::Pending
    }
}
