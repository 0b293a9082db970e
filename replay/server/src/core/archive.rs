//! A recording's `archive.json` (docs/formats/recording.md), read into the responses a replay
//! serves.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::json::{self, Object};

/// Where a request goes: what one replay origin server stands in for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    pub scheme: String,
    pub host: String,
    pub port: u16,
}

impl Origin {
    /// Splits an http(s) URL into its origin and request target (path and query; `/` when the
    /// path is empty). Any other scheme, or a URL without a host or with a bad port, gives None.
    /// User info and the fragment are dropped: neither is sent to a server. IPv6 hosts keep their
    /// brackets so that the origin prints as a URL.
    pub fn parse_url(url: &str) -> Option<(Origin, String)> {
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default_port = default_port(&scheme)?;
        let without_fragment = rest.split_once('#').map_or(rest, |(before, _)| before);
        let authority_end = without_fragment
            .find(['/', '?'])
            .unwrap_or(without_fragment.len());
        let (authority, target) = without_fragment.split_at(authority_end);
        let host_and_port = authority
            .rsplit_once('@')
            .map_or(authority, |(_, after)| after);
        let (host, port) = split_port(host_and_port)?;
        if host.is_empty() || host.contains(char::is_whitespace) {
            return None;
        }
        let port = match port {
            None | Some("") => default_port,
            Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) => digits.parse().ok()?,
            Some(_) => return None,
        };
        let target = match target.chars().next() {
            None => "/".to_string(),
            Some('?') => format!("/{target}"),
            Some(_) => target.to_string(),
        };
        Some((
            Origin {
                scheme,
                host: host.to_ascii_lowercase(),
                port,
            },
            target,
        ))
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    }
}

/// `host:port`, `host`, `[v6]:port` or `[v6]`; a v6 address's colons are not a port separator.
fn split_port(host_and_port: &str) -> Option<(&str, Option<&str>)> {
    if host_and_port.starts_with('[') {
        let close = host_and_port.find(']')?;
        let (host, after) = host_and_port.split_at(close + 1);
        match after {
            "" => Some((host, None)),
            _ => Some((host, Some(after.strip_prefix(':')?))),
        }
    } else {
        Some(match host_and_port.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_and_port, None),
        })
    }
}

impl Origin {
    /// `host[:port]`, the port only when it is not the scheme's default: HTTP's Host header and
    /// the `:authority` of HTTP/2 and HTTP/3.
    pub fn authority(&self) -> String {
        match default_port(&self.scheme) {
            Some(port) if port == self.port => self.host.clone(),
            _ => format!("{}:{}", self.host, self.port),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.authority())
    }
}

/// A body file `bodies/<sha256>` of the recording, stored decoded.
#[derive(Clone, Debug)]
pub struct BodyRef {
    pub sha256: String,
    pub size: u64,
}

/// One recorded response, ready to serve.
#[derive(Clone, Debug)]
pub struct Resource {
    pub id: String,
    pub url: String,
    pub origin: Origin,
    pub method: String,
    pub target: String,
    pub status: u16,
    pub status_text: String,
    /// Lowercase names, one value each, in name order; see `response_headers` for what is left out.
    /// Shared: every response replayed from this entry hands the same list on.
    pub headers: Arc<[(String, String)]>,
    /// None: serve an empty body (redirect hops, 204s, bodies the recording could not get).
    pub body: Option<BodyRef>,
    pub mime: String,
    pub resource_type: String,
    pub delay_ms: Option<f64>,
    pub chrome_priority: Option<String>,
}

#[derive(Clone)]
pub struct Archive {
    pub resources: Vec<Resource>,
}

impl Archive {
    /// Every origin with something to serve, sorted and without repeats: one server each.
    pub fn origins(&self) -> Vec<Origin> {
        let origins: BTreeSet<&Origin> = self.resources.iter().map(|r| &r.origin).collect();
        origins.into_iter().cloned().collect()
    }
}

/// Reads `text`, the content of the file named `source`. Entries are numbered from 0 in errors,
/// as in a JSON pointer. Only http(s) requests that the network answered are kept: entries with
/// other schemes, without a response, or served from the browser's cache never reached a server.
pub fn parse_archive(text: &str, source: &str) -> Result<Archive, String> {
    let document = json::parse(text, source)?;
    let entries = document.as_array().ok_or_else(|| {
        format!(
            "{source}: expected an array of entries, got {}",
            json::describe(&document)
        )
    })?;
    let mut resources = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        if let Some(resource) = parse_entry(entry, &format!("{source}: entry {index}"))? {
            resources.push(resource);
        }
    }
    if resources.is_empty() {
        return Err(format!(
            "{source}: no response to serve: none of its {} entries is an http(s) request answered by the network",
            entries.len()
        ));
    }
    Ok(Archive { resources })
}

fn parse_entry(value: &Value, place: &str) -> Result<Option<Resource>, String> {
    let id = Object::new(value, place)?.string("id")?;
    let entry = Object::new(value, &format!("{place} (id {id:?})"))?;
    let url = entry.string("url")?;
    let Some((origin, target)) = Origin::parse_url(url) else {
        let scheme = url
            .split_once(':')
            .map(|(scheme, _)| scheme.to_ascii_lowercase());
        if scheme.as_deref().and_then(default_port).is_some() {
            return Err(entry.invalid("url", "an http(s) URL with a host", &Value::from(url)));
        }
        return Ok(None);
    };
    let Some(response) = entry.optional_object("response")? else {
        return Ok(None);
    };
    if entry.optional_string("fromCache")?.is_some() {
        return Ok(None);
    }
    let status_value = response.get("status", "an integer")?;
    let status = match status_value.as_u64() {
        Some(status @ 100..=599) => status as u16,
        _ => return Err(response.invalid("status", "an integer from 100 to 599", status_value)),
    };
    let method = entry.string("method")?;
    if !is_token(method) {
        return Err(entry.invalid("method", "an HTTP method", &Value::from(method)));
    }
    let priority = entry.object("priority")?;
    let chrome_priority = priority
        .optional_string("final")?
        .or(priority.optional_string("initial")?);
    Ok(Some(Resource {
        id: id.to_string(),
        url: url.to_string(),
        origin,
        method: method.to_ascii_uppercase(),
        target,
        status,
        status_text: response.string("statusText")?.to_string(),
        headers: response_headers(&response.string_map("headers")?).into(),
        body: match entry.optional_object("body")? {
            Some(body) => Some(parse_body(&body)?),
            None => None,
        },
        mime: response.string("mimeType")?.to_string(),
        resource_type: entry.string("resourceType")?.to_string(),
        delay_ms: entry.object("serverDelay")?.optional_non_negative("ms")?,
        chrome_priority: chrome_priority.map(str::to_string),
    }))
}

/// An RFC 9110 token, the syntax of a method: anything else could not be matched to a request.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn parse_body(body: &Object) -> Result<BodyRef, String> {
    let sha256 = body.string("sha256")?;
    // The hash becomes a file name under bodies/: anything but a hash could walk out of it.
    if sha256.len() != 64
        || !sha256
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(body.invalid("sha256", "64 lowercase hex digits", &Value::from(sha256)));
    }
    let size_value = body.get("size", "a non-negative integer")?;
    let size = size_value
        .as_u64()
        .ok_or_else(|| body.invalid("size", "a non-negative integer", size_value))?;
    Ok(BodyRef {
        sha256: sha256.to_string(),
        size,
    })
}

const REDACTED: &str = "[redacted by pagepath]";

/// Headers the replay must not repeat: hop-by-hop ones belong to the recorded connection;
/// bodies are stored decoded, so the recorded encoding and length are wrong for what is sent
/// (the server sets the length); alt-svc would send Chromium to the real servers.
const NOT_FORWARDED: [&str; 10] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
    "te",
    "trailer",
    "content-encoding",
    "content-length",
    "alt-svc",
];

/// CDP joins a repeated header's values with "\n"; they become separate headers again. HTTP/2
/// pseudo-headers are the server's own business and are left out too, as are values redaction
/// replaced (a `set-cookie: [redacted by pagepath]` would set a junk cookie). CDP can report one
/// header under two spellings of its name, which lowercasing turns into exact repeats: dropped.
fn response_headers(recorded: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = Vec::new();
    for (name, joined) in recorded {
        let name = name.to_ascii_lowercase();
        if name.starts_with(':') || NOT_FORWARDED.contains(&name.as_str()) {
            continue;
        }
        for value in joined.split('\n').map(str::trim) {
            let header = (name.clone(), value.to_string());
            if value != REDACTED && !headers.contains(&header) {
                headers.push(header);
            }
        }
    }
    headers.sort_by(|a, b| a.0.cmp(&b.0));
    headers
}
