//! Chromium opens two connections to the main frame's origin when a navigation starts: one
//! carries the document, the other waits for the first subresources on that origin. Its loading
//! predictor asks for two sockets to the page's own origin even with nothing learned about the
//! page, so that a request sent while the document's response still holds the first connection
//! need not wait out a handshake.
//!
//! Measured from the replay servers' connection logs (accuracy/slow-real, 16 realistic sites at 1
//! and 2 Mbit/s): over HTTP/1.1 and HTTP/2 the main origin's server accepted a second TCP+TLS
//! connection 6-18 ms after the document's, on every site and run; over HTTP/2 it carried nothing
//! (its server sent 940-980 bytes, the TLS handshake), over HTTP/1.1 it carried the first
//! same-origin subresource without a connect phase (real-sb-admin-2 at 2 Mbit/s 200 ms: its
//! render-blocking style sheet was sent at 1,012 ms on it, where the model, opening a connection
//! then, sent it at 1,413 ms). Over HTTP/3 no second connection was opened, so the transports
//! that multiplex over QUIC ignore the count.

use super::connection_pool::Pool;
use super::graph::Preconnect;

/// Connections Chromium wants open to the main frame's origin at navigation.
pub(crate) const NAVIGATION_SOCKETS: usize = 2;

/// The preconnect a navigation to `url` starts beside its request, None for a URL without an origin.
pub(crate) fn navigation_preconnect(url: &str, pool: Pool) -> Option<Preconnect> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().filter(|a| !a.is_empty())?;
    Some(Preconnect { origin: format!("{scheme}://{authority}"), pool, sockets: NAVIGATION_SOCKETS })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_is_the_url_without_its_path_query_or_fragment() {
        let pool = Pool { privacy_mode: false, partitioned: false };
        let hint = navigation_preconnect("https://www.site.test:8443/a/index.html?x=1#top", pool).unwrap();
        assert_eq!(hint.origin, "https://www.site.test:8443");
        assert_eq!(hint.sockets, 2);
        assert_eq!(navigation_preconnect("https://www.site.test#top", pool).unwrap().origin, "https://www.site.test");
        assert!(navigation_preconnect("about:blank", pool).is_none());
    }
}
