//! The replay's name map (origins.json, docs/formats/replay-server.md): which address serves each
//! recorded host, over what, and the flags that send Chromium there and make it trust the
//! replay's certificate.

use super::logs::write_atomically;
use crate::config::{Protocol, ServeConfig};
use crate::core::archive::Origin;
use crate::service::OriginServer;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;

/// How one origin is served in this replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Serving {
    Tls(&'static [u8]),
    Clear,
    Quic,
}

pub fn serving(origin: &Origin, protocol: Protocol) -> Serving {
    if origin.scheme != "https" {
        return Serving::Clear;
    }
    match protocol {
        Protocol::Http1 => Serving::Tls(b"http/1.1"),
        Protocol::Http1Clear => Serving::Clear,
        Protocol::H2 => Serving::Tls(b"h2"),
        Protocol::H3 => Serving::Quic,
    }
}

fn serving_name(s: Serving) -> &'static str {
    match s {
        Serving::Tls(b"h2") => "h2",
        Serving::Tls(_) => "http/1.1 over TLS",
        Serving::Clear => "http/1.1",
        Serving::Quic => "h3",
    }
}

pub fn origin_text<S: Serializer>(o: &Origin, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&o.to_string())
}

/// One address per host, in order of host name, so the same recording gets the same map.
pub fn assign(origins: &[Origin], first: Ipv4Addr) -> Result<Vec<OriginServer>, String> {
    let mut by_host: BTreeMap<&str, Ipv4Addr> = BTreeMap::new();
    let mut next = u32::from(first);
    for o in origins {
        if by_host.contains_key(o.host.as_str()) {
            continue;
        }
        by_host.insert(&o.host, Ipv4Addr::from(next));
        next = next.checked_add(1).ok_or("--first-address: too high for this many hosts")?;
    }
    Ok(origins.iter().map(|o| OriginServer { origin: o.clone(), address: IpAddr::V4(by_host[o.host.as_str()]), port: o.port }).collect())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OriginEntry<'a> {
    #[serde(flatten)]
    server: &'a OriginServer,
    host: &'a str,
    serves: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NameMap<'a> {
    schema_version: u32,
    kind: &'static str,
    recording: String,
    protocol: &'static str,
    transport: &'static str,
    spki_hash: &'a str,
    certificate: &'static str,
    /// The wall-clock moment the logs' µs times count from, ms since the Unix epoch.
    clock_start_unix_ms: f64,
    origins: Vec<OriginEntry<'a>>,
    host_resolver_rules: String,
    chromium_flags: Vec<String>,
}

pub fn write(out: &Path, servers: &[OriginServer], cfg: &ServeConfig, spki_hash: &str, clock_start_unix_ms: f64) -> Result<String, String> {
    let mut hosts: BTreeMap<&str, IpAddr> = BTreeMap::new();
    for s in servers {
        hosts.insert(&s.origin.host, s.address);
    }
    let mut rules: Vec<String> = hosts.iter().map(|(h, a)| format!("MAP {h} {a}")).collect();
    rules.push("EXCLUDE localhost".into());
    let host_resolver_rules = rules.join(", ");
    let mut flags = vec![format!("--host-resolver-rules={host_resolver_rules}"), format!("--ignore-certificate-errors-spki-list={spki_hash}")];
    let quic: Vec<String> = servers
        .iter()
        .filter(|s| serving(&s.origin, cfg.protocol) == Serving::Quic)
        .map(|s| format!("{}:{}", s.origin.host, s.port))
        .collect();
    if !quic.is_empty() {
        flags.push("--enable-quic".into());
        flags.push(format!("--origin-to-force-quic-on={}", quic.join(",")));
    }
    let map = NameMap {
        schema_version: 1,
        kind: "pagepath-origins",
        recording: cfg.recording.display().to_string(),
        protocol: cfg.protocol.name(),
        transport: cfg.transport.name(),
        spki_hash,
        certificate: "cert.pem",
        clock_start_unix_ms,
        origins: servers
            .iter()
            .map(|s| OriginEntry { server: s, host: &s.origin.host, serves: serving_name(serving(&s.origin, cfg.protocol)) })
            .collect(),
        host_resolver_rules,
        chromium_flags: flags,
    };
    let text = serde_json::to_string_pretty(&map).expect("the name map serialises");
    // one flag a line, for `xargs -a chromium.flags -d '\n' chromium ...`: the host resolver rules
    // hold spaces that a shell would split
    write_atomically(&out.join("chromium.flags"), (map.chromium_flags.join("\n") + "\n").as_bytes())?;
    write_atomically(&out.join("origins.json"), text.as_bytes())?;
    Ok(text)
}
