//! A fetch as an HTTP/3 request head.

use crate::io::transport::Fetch;
use pagepath_server::core::archive::Origin;
use tquic::h3::Header;

/// The request head of `fetch`, or why its URL cannot be one.
pub fn request_head(fetch: &Fetch) -> Result<Vec<Header>, String> {
    let (authority, path) = authority_and_path(&fetch.url).ok_or_else(|| format!("{}: not an absolute https URL", fetch.url))?;
    let mut head = vec![
        Header::new(b":method", fetch.method.as_bytes()),
        Header::new(b":scheme", b"https"),
        Header::new(b":authority", authority.as_bytes()),
        Header::new(b":path", path.as_bytes()),
        Header::new(b"user-agent", b"pagepath-browser"),
    ];
    if let Some(priority) = &fetch.priority {
        head.push(Header::new(b"priority", priority.as_bytes()));
    }
    Ok(head)
}

/// `:authority` (without user information) and `:path` (with the query, without the fragment) of
/// an absolute https URL.
fn authority_and_path(url: &str) -> Option<(String, String)> {
    match Origin::parse_url(url)? {
        (origin, path) if origin.scheme == "https" => Some((origin.authority(), path)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::authority_and_path;

    #[test]
    fn splits_urls_as_http3_sends_them() {
        assert_eq!(authority_and_path("https://a.test/x/y?q=1#f"), Some(("a.test".to_string(), "/x/y?q=1".to_string())));
        assert_eq!(authority_and_path("https://a.test:8443"), Some(("a.test:8443".to_string(), "/".to_string())));
        assert_eq!(authority_and_path("https://u:p@a.test?q"), Some(("a.test".to_string(), "/?q".to_string())));
        assert_eq!(authority_and_path("http://a.test/"), None);
    }
}
