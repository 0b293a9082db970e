//! The connection records finish() returns: one per connection set up (a backup attempt dropped
//! during its handshakes is not, connect.rs), numbered in the order their handshakes ended, with what each path carried read from its counts (the kernel's, or the
//! simulator's) while the connection is open (every 20 ms) and as it closes. Reading only at the
//! close is not enough: once the peer has closed an MPTCP connection its subflows, and their
//! counts, can be gone. The simulator's counts stay, so a hosted transport reads them only at the
//! close, without a sampling thread a load.

use super::dialer::Counts;
use crate::io::transport::ConnectionRecord;
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};
use tquic::clock;

const SAMPLE_EVERY: Duration = Duration::from_millis(20);

pub(super) struct Registry {
    started: Instant,
    locals: Vec<IpAddr>,
    records: Mutex<Vec<ConnectionRecord>>,
    /// Open connections' counts, by record index, for the sampler.
    open: Mutex<BTreeMap<usize, Arc<dyn Counts>>>,
    sampling: std::sync::Once,
    /// Whether open connections are read while they are open.
    sample: bool,
}

/// An open connection's record; dropping it reads the connection's bytes and closes the record.
pub(super) struct RecordedConnection {
    registry: Arc<Registry>,
    index: usize,
    counts: Arc<dyn Counts>,
}

impl Registry {
    pub fn new(started: Instant, locals: Vec<IpAddr>, sample: bool) -> Registry {
        Registry { started, locals, records: Mutex::new(Vec::new()), open: Mutex::new(BTreeMap::new()), sampling: std::sync::Once::new(), sample }
    }

    fn ms(&self, at: Instant) -> f64 {
        at.saturating_duration_since(self.started).as_secs_f64() * 1000.0
    }

    /// Records a connection that has just connected; `opened` is when it started connecting.
    pub fn add(self: &Arc<Self>, origin: &str, protocol: &str, opened: Instant, counts: Arc<dyn Counts>) -> RecordedConnection {
        let (mptcp, _) = counts.read(&self.locals);
        let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
        let index = records.len();
        records.push(ConnectionRecord {
            id: connection_id(index),
            origin: origin.to_string(),
            protocol: protocol.to_string(),
            transport: if mptcp { "mptcp" } else { "tcp" }.to_string(),
            opened_ms: self.ms(opened),
            closed_ms: None,
            paths: Vec::new(),
        });
        drop(records);
        self.open.lock().unwrap_or_else(PoisonError::into_inner).insert(index, counts.clone());
        if self.sample {
            let weak = Arc::downgrade(self);
            self.sampling.call_once(|| {
                std::thread::spawn(move || sample_while_alive(weak));
            });
        }
        RecordedConnection { registry: self.clone(), index, counts }
    }

    /// Keeps the larger of the stored and the new reading: counts only grow while a connection
    /// lives, and a reading after its subflows are gone is smaller.
    fn keep_larger(&self, index: usize, paths: Vec<crate::io::transport::PathBytes>) {
        let total = |ps: &[crate::io::transport::PathBytes]| ps.iter().map(|p| p.bytes_up.unwrap_or(0) + p.bytes_down.unwrap_or(0)).sum::<u64>();
        self.update(index, |r| {
            if r.paths.is_empty() || total(&paths) >= total(&r.paths) {
                r.paths = paths;
            }
        });
    }

    pub fn snapshot(&self) -> Vec<ConnectionRecord> {
        self.records.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    fn update(&self, index: usize, change: impl FnOnce(&mut ConnectionRecord)) {
        change(&mut self.records.lock().unwrap_or_else(PoisonError::into_inner)[index]);
    }
}

/// "tcp-1", "tcp-2", ... in the order connections opened.
fn connection_id(index: usize) -> String {
    format!("tcp-{}", index + 1)
}

impl RecordedConnection {
    pub fn id(&self) -> String {
        connection_id(self.index)
    }

    /// What ALPN settled on ("h1" or "h2").
    pub fn negotiated(&self, protocol: &str) {
        self.registry.update(self.index, |r| r.protocol = protocol.to_string());
    }
}

impl Drop for RecordedConnection {
    fn drop(&mut self) {
        let (mptcp, paths) = self.counts.read(&self.registry.locals);
        let closed = self.registry.ms(clock::now());
        self.registry.open.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.index);
        self.registry.keep_larger(self.index, paths);
        self.registry.update(self.index, |r| {
            r.transport = if mptcp { "mptcp" } else { "tcp" }.to_string();
            r.closed_ms = Some(closed);
        });
    }
}

/// Reads every open connection's counts until the registry is gone.
fn sample_while_alive(registry: Weak<Registry>) {
    while let Some(r) = registry.upgrade() {
        let open: Vec<_> = r.open.lock().unwrap_or_else(PoisonError::into_inner).iter().map(|(&i, c)| (i, c.clone())).collect();
        let readings: Vec<_> = open.into_iter().map(|(i, counts)| (i, counts.read(&r.locals).1)).collect();
        for (index, paths) in readings {
            r.keep_larger(index, paths);
        }
        drop(r);
        std::thread::sleep(SAMPLE_EVERY);
    }
}
