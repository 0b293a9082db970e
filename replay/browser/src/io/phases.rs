//! A fetch's phases as run-result.md defines them (DevTools' network waterfall), from what the
//! driver saw of its last hop, laid end to end on the run's ms clock.

use serde::Serialize;

#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub start: f64,
    pub end: f64,
}

/// null where the fetch had no such phase or the transport cannot tell: `dns` always, as the
/// replay names its servers by address.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Phases {
    pub queued: Option<Span>,
    pub dns: Option<Span>,
    pub connect: Option<Span>,
    pub ssl: Option<Span>,
    pub send: Option<Span>,
    pub wait: Option<Span>,
    pub download: Option<Span>,
}

/// A connection's setup in ms: started, TLS started (None for clear TCP), established.
pub type HandshakeMs = (f64, Option<f64>, f64);

/// What the driver knows of one hop of a fetch, ms on the run's clock.
#[derive(Clone, Debug, Default)]
pub struct Stamps {
    /// When the model asked for it (a redirect hop: when the driver followed the redirect).
    pub asked: f64,
    pub sent: Option<f64>,
    /// Only on the request that opened its connection.
    pub handshake: Option<HandshakeMs>,
    pub headers: Option<f64>,
}

impl Stamps {
    /// The phases of a fetch whose last byte came at `end`; None when the transport did not say
    /// when it sent the request or the headers never came.
    pub fn phases(&self, end: f64) -> Option<Phases> {
        let (sent, headers) = (self.sent?, self.headers?);
        let first_network = self.handshake.map_or(sent, |h| h.0);
        // The request goes out in one write: its send phase has no length the driver can see.
        let raw = [
            Some((self.asked, first_network)),
            None,
            self.handshake.map(|(started, tls, established)| (started, tls.unwrap_or(established))),
            self.handshake.and_then(|(_, tls, established)| tls.map(|t| (t, established))),
            Some((sent, sent)),
            Some((sent, headers)),
            Some((headers, end)),
        ];
        Some(lay_end_to_end(raw, self.asked, end))
    }
}

/// Clamps spans in phase order so that none starts before the one before it ended, nor ends after
/// `end`: the transports stamp on their own threads, so stamps can be a rounding out of order.
fn lay_end_to_end(raw: [Option<(f64, f64)>; 7], from: f64, end: f64) -> Phases {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let mut cursor = from;
    let spans: Vec<Option<Span>> = raw
        .iter()
        .map(|s| {
            let (a, b) = (*s)?;
            let cap = end.max(cursor);
            let start = a.max(cursor).min(cap);
            let stop = b.max(start).min(cap);
            cursor = stop;
            Some(Span { start: round(start), end: round(stop) })
        })
        .collect();
    Phases { queued: spans[0], dns: spans[1], connect: spans[2], ssl: spans[3], send: spans[4], wait: spans[5], download: spans[6] }
}

#[cfg(test)]
mod tests {
    use super::{Span, Stamps};

    #[test]
    fn a_request_that_opened_a_tls_connection_shows_its_handshake() {
        let stamps = Stamps { asked: 1.0, sent: Some(30.0), handshake: Some((2.0, Some(12.0), 28.0)), headers: Some(50.0) };
        let p = stamps.phases(70.0).unwrap();
        assert_eq!(p.queued, Some(Span { start: 1.0, end: 2.0 }));
        assert_eq!(p.dns, None);
        assert_eq!(p.connect, Some(Span { start: 2.0, end: 12.0 }));
        assert_eq!(p.ssl, Some(Span { start: 12.0, end: 28.0 }));
        assert_eq!(p.send, Some(Span { start: 30.0, end: 30.0 }));
        assert_eq!(p.wait, Some(Span { start: 30.0, end: 50.0 }));
        assert_eq!(p.download, Some(Span { start: 50.0, end: 70.0 }));
    }

    #[test]
    fn a_request_on_a_reused_connection_queues_until_it_is_sent_and_stamps_out_of_order_are_clamped() {
        let stamps = Stamps { asked: 5.0, sent: Some(4.9), handshake: None, headers: Some(20.0) };
        let p = stamps.phases(19.0).unwrap();
        assert_eq!((p.connect, p.ssl), (None, None));
        assert_eq!(p.queued, Some(Span { start: 5.0, end: 5.0 }));
        assert_eq!(p.wait, Some(Span { start: 5.0, end: 19.0 }));
        assert_eq!(p.download, Some(Span { start: 19.0, end: 19.0 }));
        assert!(Stamps { asked: 0.0, sent: None, handshake: None, headers: Some(1.0) }.phases(2.0).is_none());
    }
}
