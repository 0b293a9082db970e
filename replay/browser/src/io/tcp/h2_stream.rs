//! One HTTP/2 response as it arrives: Headers, Progress per DATA frame (whose bytes are handed
//! back to flow control at once), Done at the end of the stream.

use super::shared::Shared;
use crate::core::RequestId;
use crate::io::transport::{Event, Handshake};
use h2::client::ResponseFuture;
use std::sync::Arc;
use std::time::Instant;

/// When the request went out (its HEADERS frame handed to h2), and the handshake if it opened the connection.
pub(super) struct Sent {
    pub at: Instant,
    pub handshake: Option<Handshake>,
}

pub(super) async fn receive(shared: Arc<Shared>, connection: String, id: RequestId, sent: Sent, response: ResponseFuture) {
    if let Err(e) = read(&shared, id, sent, response).await {
        shared.fail(id, &format!("{connection}: {e}"));
    }
}

async fn read(shared: &Shared, id: RequestId, sent: Sent, response: ResponseFuture) -> Result<(), h2::Error> {
    let response = response.await?;
    let status = response.status().as_u16();
    let location = response.headers().get(http::header::LOCATION).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    shared.emit(Event::Headers { id, status, location, at: tquic::clock::now(), sent: Some(sent.at), handshake: sent.handshake });
    let mut body = response.into_body();
    let mut received = 0u64;
    while let Some(data) = body.data().await {
        let data = data?;
        let at = tquic::clock::now();
        let _ = body.flow_control().release_capacity(data.len());
        if !data.is_empty() {
            received += data.len() as u64;
            shared.emit(Event::Progress { id, received, at });
        }
    }
    shared.emit(Event::Done { id, status, body_bytes: received, at: tquic::clock::now() });
    Ok(())
}
