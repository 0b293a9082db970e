use super::archive_of;
use crate::core::archive::Origin;
use crate::core::matcher::*;

fn origin(text: &str) -> Origin {
    Origin::parse_url(text).unwrap().0
}

/// (kind, resource index) of each request in turn, on one matcher.
fn answers(
    matcher: &mut Matcher,
    requests: &[(&str, &str, &str)],
) -> Vec<(MatchKind, Option<usize>)> {
    requests
        .iter()
        .map(|&(origin_url, method, target)| {
            let found = matcher.lookup(&origin(origin_url), method, target);
            (found.kind, found.resource)
        })
        .collect()
}

#[test]
fn exact_matches_need_origin_method_and_target() {
    let archive = archive_of(&[
        "https://a.test/x",
        "https://b.test/x",
        "https://a.test:8443/x",
    ]);
    let mut matcher = Matcher::new(&archive);
    let found = answers(
        &mut matcher,
        &[
            ("https://b.test", "GET", "/x"),
            ("https://a.test:8443", "get", "/x"),
            ("https://a.test", "GET", "/x"),
            ("https://a.test", "POST", "/x"),
            ("http://a.test", "GET", "/x"),
        ],
    );
    use MatchKind::*;
    assert_eq!(
        found,
        [
            (Exact, Some(1)),
            (Exact, Some(2)),
            (Exact, Some(0)),
            (Unmatched, None),
            (Unmatched, None)
        ]
    );
}

#[test]
fn repeats_are_answered_in_recorded_order_then_the_last_again() {
    let archive = archive_of(&[
        "https://a.test/poll",
        "https://a.test/other",
        "https://a.test/poll",
        "https://a.test/poll",
    ]);
    let mut matcher = Matcher::new(&archive);
    let request = ("https://a.test", "GET", "/poll");
    let found: Vec<Option<usize>> = answers(&mut matcher, &[request; 4])
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(found, [Some(0), Some(2), Some(3), Some(3)]);
}

#[test]
fn fuzzy_matches_take_the_longest_shared_query_prefix() {
    let archive = archive_of(&[
        "https://a.test/api?session=1&page=1",
        "https://a.test/api?session=2&page=1",
        "https://a.test/api?session=2&page=2",
    ]);
    let mut matcher = Matcher::new(&archive);
    let found = answers(
        &mut matcher,
        &[
            ("https://a.test", "GET", "/api?session=2&page=3"),
            ("https://a.test", "GET", "/api?session=1&page=9"),
            ("https://a.test", "GET", "/api?session=2&page=1&x"),
        ],
    );
    use MatchKind::*;
    // session=2&page= is shared by entries 1 and 2; 1 comes first. session=1 only by 0.
    // The last shares the whole of entry 1's query; entry 1 served once already does not matter
    // because the prefix is longer than entry 2's.
    assert_eq!(
        found,
        [(Fuzzy, Some(1)), (Fuzzy, Some(0)), (Fuzzy, Some(1))]
    );
}

#[test]
fn fuzzy_ties_go_to_the_least_served_then_the_first_recorded() {
    let archive = archive_of(&[
        "https://a.test/img?v=1",
        "https://a.test/img?v=2",
        "https://a.test/img?w",
    ]);
    let mut matcher = Matcher::new(&archive);
    let request = ("https://a.test", "GET", "/img?v=9");
    let found: Vec<Option<usize>> = answers(&mut matcher, &[request; 3])
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(found, [Some(0), Some(1), Some(0)]);
    // Without a query the prefix is empty for all: the least served is entry 2.
    assert_eq!(
        matcher
            .lookup(&origin("https://a.test"), "GET", "/img")
            .resource,
        Some(2)
    );
}

#[test]
fn a_path_never_recorded_is_unmatched_not_fuzzy() {
    let archive = archive_of(&["https://a.test/app.js?v=1"]);
    let mut matcher = Matcher::new(&archive);
    let found = answers(
        &mut matcher,
        &[
            ("https://a.test", "GET", "/app.css?v=1"),
            ("https://a.test", "GET", "/app.js/?v=1"),
        ],
    );
    assert_eq!(
        found,
        [(MatchKind::Unmatched, None), (MatchKind::Unmatched, None)]
    );
}

#[test]
fn the_report_counts_and_lists_what_happened() {
    let archive = archive_of(&[
        "https://a.test/",
        "https://a.test/q?id=1",
        "https://a.test/never",
        "https://a.test/twice",
        "https://a.test/twice",
    ]);
    let mut matcher = Matcher::new(&archive);
    answers(
        &mut matcher,
        &[
            ("https://a.test", "GET", "/"),
            ("https://a.test", "GET", "/"),
            ("https://a.test", "GET", "/q?id=2"),
            ("https://a.test", "POST", "/missing"),
            ("https://a.test", "GET", "/twice"),
        ],
    );
    let report = matcher.report(&archive);
    assert_eq!(
        (
            report.requests,
            report.exact,
            report.fuzzy,
            report.unmatched
        ),
        (5, 3, 1, 1)
    );
    let fuzzy: Vec<(&str, &str, &str)> = report
        .fuzzy_matches
        .iter()
        .map(|m| (m.method.as_str(), m.url.as_str(), m.served_url.as_str()))
        .collect();
    assert_eq!(
        fuzzy,
        [("GET", "https://a.test/q?id=2", "https://a.test/q?id=1")]
    );
    let unmatched: Vec<(&str, &str)> = report
        .unmatched_requests
        .iter()
        .map(|r| (r.method.as_str(), r.url.as_str()))
        .collect();
    assert_eq!(unmatched, [("POST", "https://a.test/missing")]);
    assert_eq!(
        report.never_requested,
        ["https://a.test/never", "https://a.test/twice"]
    );

    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["schemaVersion"], 1);
    assert_eq!(json["kind"], "pagepath-fidelity");
    assert_eq!(
        json["fuzzyMatches"][0]["servedUrl"],
        "https://a.test/q?id=1"
    );
    assert_eq!(json["neverRequested"][1], "https://a.test/twice");
}

#[test]
fn the_report_lists_at_most_a_thousand_requests_but_counts_all() {
    let archive = archive_of(&["https://a.test/"]);
    let mut matcher = Matcher::new(&archive);
    for n in 0..1005 {
        matcher.lookup(&origin("https://a.test"), "GET", &format!("/missing/{n}"));
    }
    let report = matcher.report(&archive);
    assert_eq!(
        (report.unmatched, report.unmatched_requests.len()),
        (1005, 1000)
    );
    assert_eq!(
        report.unmatched_requests[999].url,
        "https://a.test/missing/999"
    );
}
