use std::collections::HashMap;

use super::resource;
use crate::core::priority::*;

fn p(urgency: u8, rank: i64, incremental: bool) -> Priority {
    Priority {
        urgency,
        rank,
        incremental,
    }
}

#[test]
fn priority_headers_follow_rfc_9218() {
    let cases = [
        ("u=2, i", p(2, 0, true)),
        ("i=?1", p(3, 0, true)),
        ("i=?0, u=0", p(0, 0, false)),
        ("u=5", p(5, 0, false)),
        ("", p(3, 0, false)),
        ("u=7;foo=bar,i", p(7, 0, true)),
        ("  u=1 ,\ti  ", p(1, 0, true)),
        ("u=01", p(1, 0, false)),
        ("u=8, i", p(3, 0, true)),
        ("u=-1", p(3, 0, false)),
        ("u=2.5", p(3, 0, false)),
        ("u=a, i=1", p(3, 0, false)),
        ("u=1, u=4", p(4, 0, false)),
        ("U=1", p(3, 0, false)),
        (r#"x="a, u=0", u=6"#, p(6, 0, false)),
        (r#"x="say \"u=0, i\"", u=6"#, p(6, 0, false)),
    ];
    for (header, expected) in cases {
        assert_eq!(parse_priority_header(header), expected, "{header:?}");
    }
    assert_eq!(Priority::default(), p(3, 0, false));
}

#[test]
fn mime_ranks_put_html_then_css_then_scripts_then_images() {
    let cases = [
        ("text/html; charset=utf-8", "Other", 0),
        ("application/xhtml+xml", "Other", 0),
        ("text/css", "Other", 1),
        ("text/javascript", "Other", 2),
        ("application/ecmascript", "Other", 2),
        ("image/webp", "Other", 3),
        ("font/woff2", "Font", 4),
        ("application/json", "Fetch", 4),
        ("application/octet-stream", "Stylesheet", 1),
        ("text/plain", "Script", 2),
        ("", "Document", 0),
        ("", "Image", 3),
    ];
    for (mime, resource_type, rank) in cases {
        assert_eq!(
            mime_rank(mime, resource_type),
            rank,
            "{mime} {resource_type}"
        );
    }
}

const GRAPH: &str = r#"{
  "schemaVersion": 1, "kind": "pagepath-graph", "unknownField": true,
  "nodes": [
    {"id": "d0", "kind": "download", "resource": {"url": "https://a.test/"}, "priority": {"criticalPathRank": null}},
    {"id": "r1", "kind": "resource", "resource": {"url": "https://a.test/app.js", "redirects": []},
     "priority": {"criticalPathRank": 2, "mimeRank": 2}},
    {"id": "r2", "kind": "resource", "resource": {"url": "https://a.test/site.css", "redirects": ["https://a.test/old.css"]},
     "priority": {"criticalPathRank": 0}},
    {"id": "r3", "kind": "resource", "resource": {"url": "https://a.test/app.js"}, "priority": {"criticalPathRank": 1}},
    {"id": "r4", "kind": "resource", "resource": {"url": "https://a.test/late.png"}, "excluded": "after-load"},
    {"id": "r5", "kind": "resource", "resource": {"url": "https://a.test/unranked.png"}, "priority": {"criticalPathRank": null}}
  ]
}"#;

#[test]
fn critical_ranks_come_from_resource_nodes() {
    let ranks = parse_critical_ranks(GRAPH, "graph.json").unwrap();
    let expected: HashMap<String, i64> = [
        ("https://a.test/app.js", 1),
        ("https://a.test/site.css", 0),
        ("https://a.test/old.css", 0),
    ]
    .into_iter()
    .map(|(url, rank)| (url.to_string(), rank))
    .collect();
    assert_eq!(ranks, expected);
}

#[test]
fn bad_graphs_are_refused_with_the_place() {
    let error = |text: &str| parse_critical_ranks(text, "graph.json").unwrap_err();
    assert!(error("{").starts_with("graph.json: not JSON: "));
    assert_eq!(
        error(&GRAPH.replace(r#""schemaVersion": 1"#, r#""schemaVersion": 2"#)),
        "graph.json: schemaVersion: expected 1 (the only graph version known), got 2"
    );
    assert_eq!(error(&GRAPH.replace(r#""criticalPathRank": 0"#, r#""criticalPathRank": "first""#)),
        "graph.json: nodes/2 (id \"r2\"): priority.criticalPathRank: expected a non-negative integer or null, got \"first\"");
    assert_eq!(
        error(&GRAPH.replace(r#""url": "https://a.test/late.png""#, r#""href": "x""#)),
        "graph.json: nodes/4 (id \"r4\"): resource.url: missing, expected a string"
    );
    assert_eq!(
        error(&GRAPH.replace(r#""redirects": []"#, r#""redirects": [7]"#)),
        "graph.json: nodes/1 (id \"r1\"): resource.redirects[0]: expected a URL, got 7"
    );
    assert_eq!(
        error(r#"{"schemaVersion": 1, "kind": "pagepath-graph", "nodes": {}}"#),
        "graph.json: nodes: expected an array, got an object"
    );
    assert_eq!(
        error(r#"{"schemaVersion": 1, "kind": "pagepath-graph", "nodes": [{"id": "x"}]}"#),
        "graph.json: nodes/0: kind: missing, expected a string"
    );
}

#[test]
fn each_scheme_gives_its_priority() {
    let mut css = resource("c", "https://a.test/site.css");
    css.mime = "text/css".to_string();
    let mut image = resource("i", "https://a.test/late.png");
    (image.mime, image.resource_type) = ("image/png".to_string(), "Image".to_string());
    let ranks = parse_critical_ranks(GRAPH, "graph.json").unwrap();
    let header = Some("u=1, i");
    use PriorityScheme::*;
    assert_eq!(
        priority_for(None, Some(&css), &ranks, header),
        p(3, 0, false)
    );
    assert_eq!(
        priority_for(Mime, Some(&css), &ranks, header),
        p(1, 0, false)
    );
    assert_eq!(
        priority_for(Mime, Some(&image), &ranks, header),
        p(3, 0, false)
    );
    assert_eq!(
        priority_for(CriticalPath, Some(&css), &ranks, header),
        p(0, 0, false)
    );
    assert_eq!(
        priority_for(CriticalPath, Some(&image), &ranks, header),
        p(0, i64::MAX / 2, false)
    );
    assert_eq!(
        priority_for(Client, Some(&css), &ranks, header),
        p(1, 0, true)
    );
    assert_eq!(
        priority_for(Client, Some(&css), &ranks, Option::None),
        p(3, 0, false)
    );
    for scheme in [None, Mime, CriticalPath, Client] {
        assert_eq!(
            priority_for(scheme, Option::None, &ranks, header),
            Priority::default()
        );
    }
}
