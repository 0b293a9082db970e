//! The replay servers' archive reader fed what a disk may hold (property-based, proptest): a
//! recording's archive with fields of its entries changed or dropped, or cut short, is read or
//! refused with an error naming the file, never a panic; and every request to an archive it
//! accepts finds an answer or a clear miss.

use pagepath_server::core::archive::{parse_archive, Origin};
use pagepath_server::core::matcher::Matcher;
use proptest::prelude::*;
use serde_json::{json, Value};

const SOURCE: &str = "fuzz/archive.json";

/// An archive entry as the profiler writes it.
fn entry(id: &str, url: &str, status: u64, headers: Value) -> Value {
    json!({"id": id, "requestId": id, "url": url, "method": "GET", "resourceType": "Document",
        "priority": {"initial": "Low", "final": "High"}, "requestHeaders": {},
        "times": {"start": 1.0, "response": 1.1, "end": 1.2, "wallTime": null},
        "response": {"status": status, "statusText": "OK", "headers": headers, "mimeType": "text/html",
            "protocol": "h2", "remoteAddress": null, "connectionId": "4", "connectionReused": false, "timing": null},
        "fromCache": null, "sizes": {"encodedDataLength": 10, "bodySize": 5},
        "body": {"sha256": "81783ec94714d3de9af2bca978895434ffd70877d7bfe7854bf3129d2e923e18", "size": 722, "base64Encoded": false},
        "bodyMissing": null, "failure": null, "serverDelay": {"ms": 12.5, "method": "ttfb-minus-handshake-rtt", "rttMs": 3}})
}

fn base_archive() -> Value {
    json!([
        entry("1", "https://www.a.test/?q=1", 200, json!({"content-type": "text/html", "set-cookie": "[redacted by pagepath]"})),
        entry("2", "https://www.a.test:443/old", 302, json!({"location": "https://cdn.a.test/new"})),
        entry("2#1", "https://cdn.a.test/new", 200, json!({})),
        entry("3", "http://plain.a.test:8080/x.js", 404, json!({"x-multi": "one\ntwo"})),
    ])
}

/// The fields of an entry and of its parts that the reader looks at or passes over.
const FIELDS: [&str; 17] = [
    "id", "url", "method", "resourceType", "priority", "response", "fromCache", "body", "serverDelay", "status",
    "statusText", "headers", "mimeType", "sha256", "size", "final", "ms",
];

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop_oneof![Just(-1.0), Just(0.0), Just(99.0), Just(600.0), Just(1e300), Just(0.5)].prop_map(Value::from),
        prop::sample::select(vec!["", "GET", "g e t", "disk", "https://", "https://x.test/../../etc", "ftp://a.test/", "data:,x", "../bodies", "ab"]).prop_map(Value::from),
        Just(json!([])),
        Just(json!({"a": 1})),
    ]
}

/// Sets or drops `field` in the entry, or in the part of it that has such a field.
fn change(entry: &mut Value, field: &str, to: Option<Value>) {
    let owner = ["status", "statusText", "headers", "mimeType"].contains(&field).then_some("response")
        .or_else(|| ["sha256", "size"].contains(&field).then_some("body"))
        .or_else(|| (field == "final").then_some("priority"))
        .or_else(|| (field == "ms").then_some("serverDelay"));
    let object = match owner {
        Some(part) => entry.get_mut(part),
        None => Some(entry),
    };
    if let Some(Value::Object(m)) = object {
        match to {
            Some(v) => drop(m.insert(field.to_string(), v)),
            None => drop(m.remove(field)),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn a_changed_archive_is_read_or_refused_naming_the_file(
        changes in prop::collection::vec((0usize..4, prop::sample::select(FIELDS.to_vec()), prop::option::weighted(0.8, value())), 1..4)
    ) {
        let mut archive = base_archive();
        for (i, field, to) in changes {
            change(&mut archive[i], field, to);
        }
        match parse_archive(&archive.to_string(), SOURCE) {
            Ok(read) => {
                let mut matcher = Matcher::new(&read);
                for origin in read.origins() {
                    for target in ["/", "/new", "/x.js?v=2", "/missing"] {
                        matcher.lookup(&origin, "GET", target);
                    }
                }
                let (origin, target) = Origin::parse_url("https://www.a.test/?q=1").unwrap();
                matcher.lookup(&origin, "POST", &target);
            }
            Err(e) => prop_assert!(e.starts_with(&format!("{SOURCE}: ")), "an error that names no file: {e}"),
        }
    }

    #[test]
    fn an_archive_cut_short_is_refused_naming_the_file(at in any::<prop::sample::Index>()) {
        let text = base_archive().to_string();
        match parse_archive(&text[..at.index(text.len())], SOURCE) {
            Ok(_) => prop_assert!(false, "a cut archive was read"),
            Err(e) => prop_assert!(e.starts_with(&format!("{SOURCE}: ")), "{e}"),
        }
    }
}
