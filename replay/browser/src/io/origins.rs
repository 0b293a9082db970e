//! The replay's name map (origins.json, docs/formats/replay-server.md): where each origin of the
//! page is served.

use super::transport::OriginAddress;
use pagepath_server::core::archive::Origin;
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

/// Finds the served origin of a URL; origins.json may write the default port or leave it out.
pub fn find_origin<'a>(origins: &'a [OriginAddress], url: &str) -> Option<&'a OriginAddress> {
    let (wanted, _) = Origin::parse_url(url)?;
    origins.iter().find(|o| Origin::parse_url(&o.origin).is_some_and(|(served, _)| served == wanted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_with_and_without_default_ports_match() {
        let served = |origin: &str, port: u16| OriginAddress {
            origin: origin.into(),
            host: "a.test".into(),
            address: std::net::SocketAddr::from(([10, 0, 0, 1], port)),
            tls: origin.starts_with("https"),
        };
        let origins = [served("https://a.test", 443), served("http://a.test:8080", 8080)];
        assert_eq!(find_origin(&origins, "https://a.test:443/p").map(|o| o.address.port()), Some(443));
        assert_eq!(find_origin(&origins, "https://a.test/x?y").map(|o| o.address.port()), Some(443));
        assert_eq!(find_origin(&origins, "http://a.test:8080/").map(|o| o.address.port()), Some(8080));
        assert!(find_origin(&origins, "http://a.test/").is_none());
        assert!(find_origin(&origins, "https://b.test/p").is_none());
        assert!(find_origin(&origins, "data:text/plain,hi").is_none());
    }
}
