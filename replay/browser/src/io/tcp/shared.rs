//! What every task of the TCP transport shares: the configuration, where events go, the TLS
//! settings, the connection records, and the signal that stops everything at finish().

use super::dialer::Dialer;
use super::records::Registry;
use super::tls::TlsConfigs;
use crate::core::RequestId;
use crate::io::transport::{Event, Events, TransportConfig};
use std::future::Future;
use std::sync::Arc;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use pagepath_runtime::Spawner;

pub(super) struct Shared {
    pub config: TransportConfig,
    pub events: Events,
    pub tls: TlsConfigs,
    pub records: Arc<Registry>,
    pub tasks: TaskTracker,
    pub stop: CancellationToken,
    pub spawner: Spawner,
    pub dialer: Box<dyn Dialer>,
    /// Told of every event, for a driver that waits on the transport's own runtime (the
    /// simulator's) rather than on the events channel.
    pub on_event: Option<Arc<Notify>>,
}

impl Shared {
    pub fn emit(&self, event: Event) {
        // The driver may have stopped listening (it is finishing); nothing is left to tell then.
        let _ = self.events.send(event);
        if let Some(notify) = &self.on_event {
            notify.notify_one();
        }
    }

    pub fn fail(&self, id: RequestId, reason: &str) {
        self.emit(Event::Failed { id, reason: reason.to_string(), at: tquic::clock::now() });
    }

    /// Runs a task on the transport's runtime until it ends or finish() stops it; stopping drops
    /// the task's sockets, which is what closes them.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let stop = self.stop.clone();
        self.spawner.spawn(self.tasks.track_future(
            async move {
                // Biased: select!'s random order, seeded afresh by each process, made a simulated load
                // differ from run to run.
                tokio::select! {
                    biased;
                    _ = stop.cancelled() => {}
                    _ = task => {}
                }
            },
        ));
    }
}
