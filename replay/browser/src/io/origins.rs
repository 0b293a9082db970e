//! The replay's name map (origins.json, docs/formats/replay-server.md): where each origin of the
//! page is served.

use super::transport::OriginAddress;
use serde::Deserialize;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OriginsFile {
    schema_version: u32,
    kind: String,
    spki_hash: String,
    origins: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    origin: String,
    address: String,
    port: u16,
    host: String,
}

pub struct NameMap {
    pub origins: Vec<OriginAddress>,
    pub spki_hash: String,
}

pub fn read_origins(path: &Path) -> Result<NameMap, String> {
    let at = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{at}: cannot read the replay's name map: {e}"))?;
    let file: OriginsFile = serde_json::from_str(&text).map_err(|e| format!("{at}: not a replay name map: {e}"))?;
    if file.kind != "pagepath-origins" || file.schema_version != 1 {
        return Err(format!("{at}: kind {:?} schemaVersion {} is not a version 1 pagepath-origins file", file.kind, file.schema_version));
    }
    let mut origins = Vec::new();
    for (i, e) in file.origins.into_iter().enumerate() {
        let ip: IpAddr = e.address.parse().map_err(|_| format!("{at}: /origins/{i}/address: {:?} is not an IP address", e.address))?;
        origins.push(OriginAddress { tls: e.origin.starts_with("https://"), origin: e.origin, host: e.host, address: SocketAddr::new(ip, e.port) });
    }
    Ok(NameMap { origins, spki_hash: file.spki_hash })
}

/// `scheme://host:port` of an absolute URL, with the scheme's default port written out as
/// origins.json writes it; None for what is not an http(s) URL.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let default_port = match scheme {
        "https" => 443,
        "http" => 80,
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let has_port = authority.rsplit_once(':').is_some_and(|(_, p)| p.chars().all(|c| c.is_ascii_digit()) && !authority.ends_with(']'));
    Some(if has_port { format!("{scheme}://{authority}") } else { format!("{scheme}://{authority}:{default_port}") })
}

/// Finds the served origin of a URL; origins.json may write the default port or leave it out.
pub fn find_origin<'a>(origins: &'a [OriginAddress], url: &str) -> Option<&'a OriginAddress> {
    let wanted = origin_of(url)?;
    origins.iter().find(|o| origin_of(&o.origin).as_deref() == Some(wanted.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_with_and_without_default_ports_match() {
        assert_eq!(origin_of("https://a.test/x?y").as_deref(), Some("https://a.test:443"));
        assert_eq!(origin_of("http://a.test:8080/").as_deref(), Some("http://a.test:8080"));
        assert_eq!(origin_of("data:text/plain,hi"), None);
        let o = OriginAddress { origin: "https://a.test".into(), host: "a.test".into(), address: "10.0.0.1:443".parse().unwrap(), tls: true };
        assert!(find_origin(std::slice::from_ref(&o), "https://a.test:443/p").is_some());
        assert!(find_origin(std::slice::from_ref(&o), "https://b.test/p").is_none());
    }
}
