//! Where the replay's asynchronous tasks run and sleep. The emulated browser's TCP transport and
//! the replay servers' HTTP front end run on tokio in real time; the simulator runs the same code
//! on a virtual-time executor of its own (virtual_executor.rs), one per thread, which costs a
//! fraction of tokio's scheduler, timer wheel and metrics a packet. Code that spawns or sleeps
//! does it through here, which picks the executor of the calling thread.

mod virtual_executor;
mod virtual_timers;

pub use virtual_executor::VirtualExecutor;
pub use virtual_timers::VirtualSleep;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// Where a task is spawned from outside any runtime (the browser's driver thread): a tokio
/// runtime, or the virtual executor of the calling thread.
#[derive(Clone)]
pub enum Spawner {
    Tokio(tokio::runtime::Handle),
    Virtual,
}

impl Spawner {
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        match self {
            Spawner::Tokio(handle) => drop(handle.spawn(task)),
            Spawner::Virtual => virtual_executor::spawn_here(task),
        }
    }
}

/// Spawns `task` on the calling thread's virtual executor, or on the tokio runtime it runs in.
pub fn spawn(task: impl Future<Output = ()> + Send + 'static) {
    if virtual_executor::on_this_thread() {
        virtual_executor::spawn_here(task);
    } else {
        drop(tokio::spawn(task));
    }
}

/// This thread's time: virtual on a virtual executor's thread, the monotonic clock elsewhere.
pub fn now() -> Instant {
    virtual_timers::virtual_now().unwrap_or_else(Instant::now)
}

/// A sleep until `deadline` on the calling thread's executor's clock.
pub enum Sleep {
    Tokio(Pin<Box<tokio::time::Sleep>>),
    Virtual(VirtualSleep),
}

pub fn sleep_until(deadline: Instant) -> Sleep {
    if virtual_executor::on_this_thread() {
        Sleep::Virtual(VirtualSleep::until(deadline))
    } else {
        Sleep::Tokio(Box::pin(tokio::time::sleep_until(
            tokio::time::Instant::from_std(deadline),
        )))
    }
}

/// On tokio, tokio's own sleep, so that a runtime with its clock paused (a test's) keeps it.
pub fn sleep(duration: Duration) -> Sleep {
    match virtual_timers::virtual_now() {
        Some(now) => Sleep::Virtual(VirtualSleep::until(now + duration)),
        None => Sleep::Tokio(Box::pin(tokio::time::sleep(duration))),
    }
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match self.get_mut() {
            Sleep::Tokio(s) => s.as_mut().poll(cx),
            Sleep::Virtual(s) => Pin::new(s).poll(cx),
        }
    }
}

/// `task`'s output, or None if `limit` passes first.
pub async fn timeout<T>(limit: Duration, task: impl Future<Output = T>) -> Option<T> {
    tokio::select! {
        biased;
        out = task => Some(out),
        _ = sleep(limit) => None,
    }
}

/// Lets every other task that is ready at this instant run first. On the virtual executor the
/// task comes back only when no other is ready, as tokio's yield_now defers it to its next park.
pub async fn yield_now() {
    if virtual_executor::on_this_thread() {
        virtual_executor::Deferred::default().await
    } else {
        tokio::task::yield_now().await
    }
}
