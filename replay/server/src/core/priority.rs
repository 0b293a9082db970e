//! Response priorities: what an out-of-order server sends first when several responses are
//! ready (seed 001 §3.7.7.7). Expressed as RFC 9218 urgency and incremental flag, plus a rank
//! that orders responses of one urgency (the critical-path order).

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use super::archive::Resource;
use super::json::{self, Object};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorityScheme {
    /// Every response alike.
    None,
    /// By kind of content: HTML, then CSS, JavaScript, images, the rest.
    Mime,
    /// By the graph's critical-path rank of the resource.
    CriticalPath,
    /// As the browser asks in its `priority` request header.
    Client,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Priority {
    /// 0 most urgent to 7 least (RFC 9218).
    pub urgency: u8,
    /// Orders responses of the same urgency, lower first.
    pub rank: i64,
    /// May share the connection with other incremental responses of its urgency (RFC 9218).
    pub incremental: bool,
}

const DEFAULT_URGENCY: u8 = 3;

impl Default for Priority {
    /// RFC 9218's defaults, for requests that say nothing.
    fn default() -> Priority {
        Priority {
            urgency: DEFAULT_URGENCY,
            rank: 0,
            incremental: false,
        }
    }
}

/// Reads an RFC 9218 `priority` header, a structured-field dictionary such as `u=2, i`.
/// RFC 8941 would discard a whole field that does not parse; here each of `u` and `i` falls back
/// to its default on its own, so one odd member cannot cost the other. Unknown keys and
/// parameters are ignored; a key given twice counts as its last value, as in a dictionary.
pub fn parse_priority_header(value: &str) -> Priority {
    let mut priority = Priority::default();
    for member in dictionary_members(value) {
        let member = member
            .split(';')
            .next()
            .unwrap_or("")
            .trim_matches([' ', '\t']);
        let (key, member_value) = match member.split_once('=') {
            Some((key, member_value)) => (key, Some(member_value)),
            None => (member, None),
        };
        match key {
            "u" => {
                priority.urgency = member_value
                    .and_then(parse_urgency)
                    .unwrap_or(DEFAULT_URGENCY)
            }
            // A bare key is boolean true in a structured-field dictionary.
            "i" => priority.incremental = matches!(member_value, None | Some("?1")),
            _ => {}
        }
    }
    priority
}

/// An sf-integer (up to 15 digits, no sign here: negative is out of range anyway) from 0 to 7.
fn parse_urgency(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 15 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>()
        .ok()
        .filter(|&urgency| urgency <= 7)
        .map(|urgency| urgency as u8)
}

/// The dictionary's members: split at commas outside quoted strings (an unknown key's string
/// value may contain commas).
fn dictionary_members(value: &str) -> Vec<&str> {
    let mut members = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (at, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                members.push(&value[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    members.push(&value[start..]);
    members
}

/// The graph format's `mimeRank`: HTML 0, CSS 1, JavaScript 2, images 3, other 4; by MIME type,
/// else by CDP's resource type (servers often send a generic or wrong MIME type).
pub fn mime_rank(mime: &str, resource_type: &str) -> u8 {
    let essence = super::delay::mime_essence(mime);
    match essence.as_str() {
        "text/html" | "application/xhtml+xml" => 0,
        "text/css" => 1,
        m if m.ends_with("javascript") || m.ends_with("ecmascript") => 2,
        m if m.starts_with("image/") => 3,
        _ => match resource_type {
            "Document" => 0,
            "Stylesheet" => 1,
            "Script" => 2,
            "Image" => 3,
            _ => 4,
        },
    }
}

/// URL -> `criticalPathRank` from a graph.json (docs/formats/graph.md). Only `resource` nodes
/// are ranked (documents are `download` nodes and have none). A redirected resource's hop URLs
/// get its rank too: the browser fetches them on its way to it. Where a URL has several nodes,
/// the most urgent rank wins.
pub fn parse_critical_ranks(
    graph_json: &str,
    source: &str,
) -> Result<HashMap<String, i64>, String> {
    let document = json::parse(graph_json, source)?;
    let graph = Object::new(&document, source)?;
    let version = graph.get("schemaVersion", "1")?;
    if version != &Value::from(1) {
        return Err(graph.invalid("schemaVersion", "1 (the only graph version known)", version));
    }
    let kind = graph.get("kind", "\"pagepath-graph\"")?;
    if kind.as_str() != Some("pagepath-graph") {
        return Err(graph.invalid("kind", "\"pagepath-graph\"", kind));
    }
    let nodes_value = graph.get("nodes", "an array")?;
    let nodes = nodes_value
        .as_array()
        .ok_or_else(|| graph.invalid("nodes", "an array", nodes_value))?;
    let mut ranks: HashMap<String, i64> = HashMap::new();
    for (index, node_value) in nodes.iter().enumerate() {
        let node = Object::new(node_value, &format!("{source}: nodes/{index}"))?;
        if node.string("kind")? != "resource" {
            continue;
        }
        let node = Object::new(
            node_value,
            &format!("{source}: nodes/{index} (id {:?})", node.string("id")?),
        )?;
        let resource = node.object("resource")?;
        let mut urls = vec![resource.string("url")?];
        match node_value["resource"].get("redirects") {
            None => {}
            Some(Value::Array(hops)) => {
                for (hop_index, hop) in hops.iter().enumerate() {
                    let field = format!("redirects[{hop_index}]");
                    urls.push(
                        hop.as_str()
                            .ok_or_else(|| resource.invalid(&field, "a URL", hop))?,
                    );
                }
            }
            Some(other) => return Err(resource.invalid("redirects", "an array of URLs", other)),
        }
        // Excluded nodes carry no priorities at all.
        let rank = match node_value.get("priority") {
            None | Some(Value::Null) => None,
            Some(_) => {
                let priority = node.object("priority")?;
                match priority.get("criticalPathRank", "an integer or null")? {
                    Value::Null => None,
                    value => Some(value.as_i64().filter(|&rank| rank >= 0).ok_or_else(|| {
                        priority.invalid(
                            "criticalPathRank",
                            "a non-negative integer or null",
                            value,
                        )
                    })?),
                }
            }
        };
        let Some(rank) = rank else { continue };
        for url in urls {
            let best = ranks.entry(url.to_string()).or_insert(rank);
            *best = (*best).min(rank);
        }
    }
    Ok(ranks)
}

/// Where URLs the graph does not rank go under `CriticalPath`: after every ranked one, with room
/// left so that adding to it cannot overflow.
const UNRANKED: i64 = i64::MAX / 2;

/// The priority of a response to a request; `resource` is None for an unmatched request (a 404,
/// which gets the default whatever the scheme).
pub fn priority_for(
    scheme: PriorityScheme,
    resource: Option<&Resource>,
    critical: &HashMap<String, i64>,
    client_header: Option<&str>,
) -> Priority {
    let Some(resource) = resource else {
        return Priority::default();
    };
    match scheme {
        PriorityScheme::None => Priority::default(),
        PriorityScheme::Mime => Priority {
            urgency: mime_rank(&resource.mime, &resource.resource_type),
            ..Priority::default()
        },
        PriorityScheme::CriticalPath => Priority {
            urgency: 0,
            rank: critical.get(&resource.url).copied().unwrap_or(UNRANKED),
            incremental: false,
        },
        PriorityScheme::Client => client_header.map(parse_priority_header).unwrap_or_default(),
    }
}
