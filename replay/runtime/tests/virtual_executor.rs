//! The virtual executor: time moves only when every task waits, straight to the next timer, on
//! the executor's tick; tasks run in the order they were woken.

use pagepath_runtime::{now, sleep, sleep_until, spawn, timeout, yield_now, VirtualExecutor};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn log() -> Arc<Mutex<Vec<String>>> {
    Arc::new(Mutex::new(Vec::new()))
}

#[test]
fn sleepers_wake_in_deadline_order_at_their_deadlines_and_no_real_time_passes() {
    let ex = VirtualExecutor::new(Duration::from_micros(1));
    let start = ex.now();
    let seen = log();
    for ms in [30u64, 10, 20] {
        let seen = seen.clone();
        ex.spawn(async move {
            sleep(Duration::from_millis(ms)).await;
            seen.lock()
                .unwrap()
                .push(format!("{ms} at {:?}", now() - start));
        });
    }
    let wall = std::time::Instant::now();
    ex.block_on(sleep(Duration::from_secs(3600)));
    assert!(
        wall.elapsed() < Duration::from_secs(5),
        "an hour of virtual time took {:?}",
        wall.elapsed()
    );
    assert_eq!(
        *seen.lock().unwrap(),
        ["10 at 10ms", "20 at 20ms", "30 at 30ms"]
    );
    assert_eq!(ex.now() - start, Duration::from_secs(3600));
}

#[test]
fn a_deadline_between_ticks_fires_on_the_next_tick() {
    let ex = VirtualExecutor::new(Duration::from_millis(1));
    let start = ex.now();
    ex.block_on(sleep(Duration::from_micros(1_200)));
    assert_eq!(ex.now() - start, Duration::from_millis(2));
    // One already on a tick waits for no other.
    ex.block_on(sleep_until(start + Duration::from_millis(5)));
    assert_eq!(ex.now() - start, Duration::from_millis(5));
}

#[test]
fn a_dropped_sleep_neither_wakes_nor_moves_the_clock() {
    let ex = VirtualExecutor::new(Duration::from_micros(1));
    let start = ex.now();
    let out = ex.block_on(timeout(Duration::from_millis(50), async {
        sleep(Duration::from_millis(10)).await;
        7
    }));
    assert_eq!(out, Some(7));
    assert_eq!(
        ex.now() - start,
        Duration::from_millis(10),
        "the timeout's own sleep was dropped"
    );
    let late = ex.block_on(timeout(
        Duration::from_millis(5),
        sleep(Duration::from_millis(100)),
    ));
    assert_eq!(late, None);
    assert_eq!(ex.now() - start, Duration::from_millis(15));
}

#[test]
fn a_task_that_yields_runs_again_after_every_task_ready_at_that_instant() {
    let ex = VirtualExecutor::new(Duration::from_micros(1));
    let seen = log();
    let (a, b) = (seen.clone(), seen.clone());
    ex.spawn(async move {
        a.lock().unwrap().push("a1".into());
        yield_now().await;
        a.lock().unwrap().push("a2".into());
    });
    ex.spawn(async move {
        b.lock().unwrap().push("b1".into());
        // A task it spawns, and that one's, still run before the yielder comes back.
        let c = b.clone();
        spawn(async move {
            c.lock().unwrap().push("c".into());
            let d = c.clone();
            spawn(async move { d.lock().unwrap().push("d".into()) });
        });
    });
    ex.block_on(sleep(Duration::from_millis(1)));
    assert_eq!(*seen.lock().unwrap(), ["a1", "b1", "c", "d", "a2"]);
}

#[test]
fn tasks_woken_at_one_instant_run_in_the_order_they_were_woken() {
    let ex = VirtualExecutor::new(Duration::from_micros(1));
    let seen = log();
    let (tx, rx) = std::sync::mpsc::channel::<tokio::sync::oneshot::Sender<()>>();
    for name in ["x", "y", "z"] {
        let (go, wait) = tokio::sync::oneshot::channel::<()>();
        tx.send(go).unwrap();
        let seen = seen.clone();
        ex.spawn(async move {
            let _ = wait.await;
            seen.lock().unwrap().push(name.to_string());
        });
    }
    let gos: Vec<_> = rx.try_iter().collect();
    ex.spawn(async move {
        sleep(Duration::from_millis(3)).await;
        for go in gos.into_iter().rev() {
            let _ = go.send(());
        }
    });
    ex.block_on(sleep(Duration::from_millis(4)));
    assert_eq!(*seen.lock().unwrap(), ["z", "y", "x"]);
}

#[test]
#[should_panic(expected = "virtual time stands still")]
fn waiting_on_what_nothing_will_bring_is_an_error_not_a_hang() {
    let ex = VirtualExecutor::new(Duration::from_micros(1));
    let (_keep, never) = tokio::sync::oneshot::channel::<()>();
    let _ = ex.block_on(never);
}

#[test]
fn off_the_executor_the_same_calls_run_on_tokio() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let out = rt.block_on(async {
        let (tx, rx) = tokio::sync::oneshot::channel();
        spawn(async move {
            sleep(Duration::from_millis(10)).await;
            let _ = tx.send(1);
        });
        timeout(Duration::from_secs(1), rx).await
    });
    assert_eq!(out.map(Result::ok), Some(Some(1)));
}
