//! Runs one TCP connection's response schedule (core::schedule) in real time: takes the requests
//! the HTTP front end parsed, waits out processing delays, releases each response's headers and
//! then its body chunk by chunk, and logs every stream when it is done.

use crate::core::schedule::ConnectionSchedule;
use crate::io::stream_paths::written;
use crate::service::{Prepared, Service, StreamLog};
use bytes::Bytes;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

pub struct NewStream {
    pub stream: u64,
    pub method: String,
    pub prepared: Prepared,
    pub headers_go: oneshot::Sender<()>,
    pub chunks: mpsc::Sender<Bytes>,
}

struct Open {
    method: String,
    prepared: Prepared,
    headers_go: Option<oneshot::Sender<()>>,
    chunks: mpsc::Sender<Bytes>,
}

enum InFlight {
    /// A chunk waiting for room in its stream's channel.
    Sending { stream: u64, bytes: Bytes, last: bool },
    /// Sent; the next chunk waits until hyper has taken this one.
    Draining { stream: u64 },
}

enum Step {
    /// Nothing can be sent now.
    Idle,
    /// The schedule moved (headers released, a stream dropped); ask again.
    Moved,
    Send(InFlight),
}

/// `path`: the connection's (local, remote) addresses when it has one path (TCP), None over MPTCP,
/// whose kernel does not say which subflow carried what.
pub fn spawn(service: Arc<Service>, connection: u64, origin: String, path: Option<(String, String)>) -> mpsc::UnboundedSender<NewStream> {
    let (tx, rx) = mpsc::unbounded_channel();
    pagepath_runtime::spawn(run(service, connection, origin, path, rx));
    tx
}

async fn run(service: Arc<Service>, connection: u64, origin: String, path: Option<(String, String)>, mut requests: mpsc::UnboundedReceiver<NewStream>) {
    let mut schedule = service.new_schedule();
    let mut open: HashMap<u64, Open> = HashMap::new();
    let mut in_flight: Option<InFlight> = None;
    loop {
        if in_flight.is_none() {
            // Only now: a finished stream's last chunk may still be the one in flight.
            log_finished(&service, &mut schedule, &mut open, connection, &origin, path.as_ref());
            match next(&mut schedule, &mut open, service.now_us()) {
                Step::Idle => {}
                Step::Moved => continue,
                Step::Send(f) => in_flight = Some(f),
            }
        }
        let wake = schedule.next_timeout().map(|t| Duration::from_micros(t.saturating_sub(service.now_us())));
        // Biased: select!'s random order, seeded afresh by each process, made a simulated load
        // differ from run to run.
        tokio::select! {
            biased;
            got = requests.recv() => match got {
                Some(r) => {
                    schedule.on_request(service.now_us(), r.stream, r.prepared.delay_us, r.prepared.body.len() as u64, r.prepared.priority);
                    let o = Open { method: r.method, prepared: r.prepared, headers_go: Some(r.headers_go), chunks: r.chunks };
                    open.insert(r.stream, o);
                }
                None => break,
            },
            _ = pagepath_runtime::sleep(wake.unwrap_or_default()), if wake.is_some() && in_flight.is_none() => {},
            moved = advance(in_flight.as_ref(), &open), if in_flight.is_some() => {
                let stream = in_flight.as_ref().map(stream_of).unwrap_or_default();
                in_flight = match (moved, in_flight.take()) {
                    (true, Some(InFlight::Sending { last: false, .. })) => Some(InFlight::Draining { stream }),
                    (true, _) => None,
                    (false, _) => {
                        schedule.on_cancel(service.now_us(), stream);
                        None
                    }
                };
            },
        }
    }
    // The connection is gone: whatever was not sent never will be.
    for stream in open.keys().copied().collect::<Vec<_>>() {
        schedule.on_cancel(service.now_us(), stream);
    }
    log_finished(&service, &mut schedule, &mut open, connection, &origin, path.as_ref());
}

fn stream_of(f: &InFlight) -> u64 {
    match f {
        InFlight::Sending { stream, .. } | InFlight::Draining { stream } => *stream,
    }
}

/// Asks the schedule for the next chunk and starts it on its way.
fn next(schedule: &mut ConnectionSchedule, open: &mut HashMap<u64, Open>, now: u64) -> Step {
    let Some(chunk) = schedule.next_chunk(now) else { return Step::Idle };
    let Some(o) = open.get_mut(&chunk.stream) else { return Step::Moved };
    if chunk.first && o.headers_go.take().map(|go| go.send(())).is_some_and(|sent| sent.is_err()) {
        schedule.on_cancel(now, chunk.stream);
        return Step::Moved;
    }
    let start = chunk.offset as usize;
    let bytes = o.prepared.body.slice(start..start + chunk.len as usize);
    if bytes.is_empty() {
        return Step::Moved;
    }
    Step::Send(InFlight::Sending { stream: chunk.stream, bytes, last: chunk.last })
}

/// Resolves when the chunk in flight has moved on: true if hyper took it, false if the stream is gone.
async fn advance(f: Option<&InFlight>, open: &HashMap<u64, Open>) -> bool {
    let Some(f) = f else { return false };
    let Some(o) = open.get(&stream_of(f)) else { return false };
    match o.chunks.reserve().await {
        Ok(permit) => {
            if let InFlight::Sending { bytes, .. } = f {
                permit.send(bytes.clone());
            }
            true
        }
        Err(_) => false,
    }
}

fn log_finished(
    service: &Service,
    schedule: &mut ConnectionSchedule,
    open: &mut HashMap<u64, Open>,
    connection: u64,
    origin: &str,
    path: Option<&(String, String)>,
) {
    for times in schedule.take_finished() {
        let Some(o) = open.remove(&times.stream) else { continue };
        let p = &o.prepared;
        let paths = path.map(|(local, remote)| written(local, remote, &times, service.now_us()));
        service.log_stream(StreamLog {
            connection,
            stream: times.stream,
            origin: origin.to_string(),
            method: o.method,
            url: p.url.clone(),
            status: p.status,
            kind: p.kind,
            delay_us: p.delay_us,
            priority: p.priority,
            times,
            paths,
        });
    }
}
