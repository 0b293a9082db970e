//! One HTTP/1.x connection: requests written as the pool hands them over (back to back when
//! pipelining), responses read in the same order. An error fails every request the connection
//! holds; when the server ends the connection cleanly, unanswered requests go back to the pool.

use super::connect::{connect, Connected};
use super::h1_response::ResponseReader;
use super::request::{Origin, Request};
use super::shared::Shared;
use super::TcpProtocol;
use std::sync::Arc;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// What a connection tells its pool.
pub(super) enum Note {
    /// A response is complete: the connection holds one request fewer.
    Answered { lane: u64 },
    /// The connection is up and can take requests.
    Ready { lane: u64 },
    /// The connection could not be set up; the requests handed to it have failed with it.
    ConnectFailed { lane: u64, reason: String },
    /// The connection is gone; `unanswered` never got a byte of response and can go elsewhere.
    Closed { lane: u64, unanswered: Vec<Request> },
}

pub(super) struct Lane {
    pub shared: Arc<Shared>,
    pub origin: Arc<Origin>,
    pub lane: u64,
    pub requests: UnboundedReceiver<Request>,
    pub pool: UnboundedSender<Note>,
    /// HTTP/1.0 style: one request, `Connection: close`.
    pub one_request: bool,
    /// Opened by a preconnect: no request shows its handshake, as in Chromium's phases.
    pub ahead: bool,
}

pub(super) async fn run(mut lane: Lane) {
    let connected = match connect(&lane.shared, &lane.origin, TcpProtocol::Http1).await {
        Ok(connected) => connected,
        Err(reason) => {
            fail_handed(&mut lane, &reason);
            let _ = lane.pool.send(Note::ConnectFailed { lane: lane.lane, reason });
            return;
        }
    };
    let _ = lane.pool.send(Note::Ready { lane: lane.lane });
    let ended = exchange(&mut lane, connected).await;
    // No request may reach the connection from now on; those already handed to it fail with it,
    // or go back to the pool when the server closed it cleanly.
    lane.requests.close();
    let mut unanswered = match ended {
        Ended::Closed { unanswered } => unanswered,
        Ended::Failed { unanswered, reason } => {
            for r in unanswered {
                lane.shared.fail(r.id, &reason);
            }
            fail_handed(&mut lane, &reason);
            Vec::new()
        }
    };
    while let Ok(r) = lane.requests.try_recv() {
        unanswered.push(r);
    }
    let _ = lane.pool.send(Note::Closed { lane: lane.lane, unanswered });
}

/// Fails every request handed to the lane and not yet taken up; none may reach it any more.
fn fail_handed(lane: &mut Lane, reason: &str) {
    lane.requests.close();
    while let Ok(r) = lane.requests.try_recv() {
        lane.shared.fail(r.id, reason);
    }
}

enum Ended {
    Closed { unanswered: Vec<Request> },
    Failed { unanswered: Vec<Request>, reason: String },
}

async fn exchange(lane: &mut Lane, connected: Connected) -> Ended {
    let Connected { stream, record, handshake, .. } = connected;
    // The request that opened the connection is the first one written on it.
    let mut handshake = (!lane.ahead).then_some(handshake);
    let (read, mut write) = tokio::io::split(stream);
    let mut reader = ResponseReader::new(read);
    let (written, mut in_flight) = unbounded_channel::<Request>();
    let Lane { shared, origin, lane: id, requests, pool, one_request, .. } = lane;
    let writing = async {
        while let Some(mut request) = requests.recv().await {
            if let Err(e) = write_request(&mut write, origin, &request, *one_request).await {
                return (Some(request), Err(format!("sending the request failed: {e}")));
            }
            request.sent = Some(tquic::clock::now());
            request.handshake = handshake.take();
            let _ = written.send(request);
        }
        // The pool is gone (the transport is finishing): the stop signal ends the rest.
        std::future::pending().await
    };
    let reading = async {
        while let Some(request) = in_flight.recv().await {
            match reader.read(&request, shared).await {
                Err(reason) => return (Some(request), Err(reason)),
                Ok(reusable) => {
                    let _ = pool.send(Note::Answered { lane: *id });
                    if !reusable || *one_request {
                        return (None, Ok(()));
                    }
                }
            }
        }
        (None, Ok(()))
    };
    // Biased: select!'s random order, seeded afresh by each process, made a simulated load
    // differ from run to run.
    let (current, outcome) = tokio::select! {
        biased;
        r = writing => r,
        r = reading => r,
    };
    let mut unanswered: Vec<Request> = current.into_iter().collect();
    while let Ok(r) = in_flight.try_recv() {
        unanswered.push(r);
    }
    match outcome {
        Ok(()) => Ended::Closed { unanswered },
        Err(e) => Ended::Failed { unanswered, reason: format!("{}: {e} (connection {})", origin.named, record.id()) },
    }
}

async fn write_request(io: &mut (impl AsyncWrite + Unpin), origin: &Origin, request: &Request, close: bool) -> std::io::Result<()> {
    let mut head = format!(
        "{} {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: pagepath-browser\r\nAccept-Encoding: identity\r\n",
        request.method, request.target, origin.authority
    );
    if let Some(priority) = &request.priority {
        head.push_str(&format!("priority: {priority}\r\n"));
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    io.write_all(head.as_bytes()).await?;
    io.flush().await
}
