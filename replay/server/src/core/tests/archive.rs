use crate::core::archive::*;

const HASH: &str = "81783ec94714d3de9af2bca978895434ffd70877d7bfe7854bf3129d2e923e18";

/// An archive entry as the profiler writes it, with the fields the tests vary.
fn entry(id: &str, url: &str, response: &str, from_cache: &str, body: &str) -> String {
    format!(
        r#"{{"id": "{id}", "requestId": "{id}", "url": "{url}", "method": "get", "resourceType": "Document",
            "priority": {{"initial": "High", "final": "VeryHigh"}}, "requestHeaders": {{}},
            "times": {{"start": 1.0, "response": 1.1, "end": 1.2, "wallTime": null}},
            "response": {response}, "fromCache": {from_cache}, "sizes": {{"encodedDataLength": 10, "bodySize": 5}},
            "body": {body}, "bodyMissing": null, "failure": null, "futureField": [1, 2],
            "serverDelay": {{"ms": 12.5, "method": "ttfb-minus-handshake-rtt", "rttMs": 3}}}}"#
    )
}

fn response(status: &str, headers: &str) -> String {
    format!(
        r#"{{"status": {status}, "statusText": "OK", "headers": {headers}, "mimeType": "text/html",
            "protocol": "h2", "remoteAddress": null, "connectionId": "4", "connectionReused": false, "timing": null}}"#
    )
}

fn body() -> String {
    format!(r#"{{"sha256": "{HASH}", "size": 722, "base64Encoded": false}}"#)
}

fn sample_archive() -> String {
    let headers = r#"{"Content-Type": "text/html", "Set-Cookie": "a=1\nb=2", "set-cookie": "[redacted by pagepath]",
        "Content-Length": "722", "content-encoding": "br", "Connection": "keep-alive", "alt-svc": "h3=\":443\"",
        "Transfer-Encoding": "chunked", "x-multi": "one\n[redacted by pagepath]\ntwo", "content-type": "text/html"}"#;
    let redirect = r#"{"location": "https://www.example.test/b"}"#;
    [
        entry(
            "1",
            "https://WWW.Example.test/a?x=1#frag",
            &response("200", headers),
            "null",
            &body(),
        ),
        entry(
            "2",
            "https://www.example.test:443/a",
            &response("302", redirect),
            "null",
            "null",
        ),
        entry(
            "2#1",
            "https://www.example.test/b",
            &response("200", "{}"),
            "null",
            &body(),
        ),
        entry(
            "3",
            "https://cdn.example.test/cached.css",
            &response("200", "{}"),
            "\"disk\"",
            &body(),
        ),
        entry(
            "4",
            "data:image/png;base64,AAAA",
            &response("200", "{}"),
            "null",
            "null",
        ),
        entry(
            "5",
            "https://cdn.example.test/failed.js",
            "null",
            "null",
            "null",
        ),
        entry(
            "6",
            "http://cdn.example.test:8080",
            &response("204", "{}"),
            "null",
            "null",
        ),
    ]
    .join(",")
}

#[test]
fn serves_network_responses_and_skips_the_rest() {
    let archive = parse_archive(&format!("[{}]", sample_archive()), "archive.json").unwrap();
    let ids: Vec<&str> = archive.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "2#1", "6"]);

    let first = &archive.resources[0];
    assert_eq!(
        first.origin,
        Origin {
            scheme: "https".into(),
            host: "www.example.test".into(),
            port: 443
        }
    );
    assert_eq!(
        (first.method.as_str(), first.target.as_str()),
        ("GET", "/a?x=1")
    );
    assert_eq!(
        (
            first.status,
            first.status_text.as_str(),
            first.mime.as_str()
        ),
        (200, "OK", "text/html")
    );
    assert_eq!(
        first.body.as_ref().map(|b| (b.sha256.as_str(), b.size)),
        Some((HASH, 722))
    );
    assert_eq!(first.delay_ms, Some(12.5));
    assert_eq!(first.chrome_priority.as_deref(), Some("VeryHigh"));
    assert_eq!(first.resource_type, "Document");

    let redirect = &archive.resources[1];
    assert_eq!((redirect.status, redirect.target.as_str()), (302, "/a"));
    assert_eq!(
        *redirect.headers,
        [(
            "location".to_string(),
            "https://www.example.test/b".to_string()
        )]
    );
    assert!(redirect.body.is_none());

    let no_content = &archive.resources[3];
    assert_eq!(
        no_content.origin.to_string(),
        "http://cdn.example.test:8080"
    );
    assert_eq!(no_content.target, "/");
}

#[test]
fn response_headers_are_split_filtered_and_lowercased() {
    let archive = parse_archive(&format!("[{}]", sample_archive()), "archive.json").unwrap();
    let headers: Vec<(&str, &str)> = archive.resources[0]
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        headers,
        [
            ("content-type", "text/html"),
            ("set-cookie", "a=1"),
            ("set-cookie", "b=2"),
            ("x-multi", "one"),
            ("x-multi", "two")
        ]
    );
}

#[test]
fn origins_are_sorted_and_unique() {
    let archive = parse_archive(&format!("[{}]", sample_archive()), "archive.json").unwrap();
    let origins: Vec<String> = archive.origins().iter().map(Origin::to_string).collect();
    assert_eq!(
        origins,
        ["http://cdn.example.test:8080", "https://www.example.test"]
    );
}

#[test]
fn urls_split_into_origin_and_target() {
    let split = |url| {
        Origin::parse_url(url).map(|(origin, target)| (origin.to_string(), origin.port, target))
    };
    assert_eq!(
        split("https://a.test"),
        Some(("https://a.test".into(), 443, "/".into()))
    );
    assert_eq!(
        split("HTTP://A.test:80?q#f"),
        Some(("http://a.test".into(), 80, "/?q".into()))
    );
    assert_eq!(
        split("https://user:pw@a.test:8443/p/q?x=1"),
        Some(("https://a.test:8443".into(), 8443, "/p/q?x=1".into()))
    );
    assert_eq!(
        split("https://[::1]:9000/x"),
        Some(("https://[::1]:9000".into(), 9000, "/x".into()))
    );
    assert_eq!(
        split("https://[::1]/x"),
        Some(("https://[::1]".into(), 443, "/x".into()))
    );
    assert_eq!(split("wss://a.test/"), None);
    assert_eq!(split("blob:https://a.test/uuid"), None);
    assert_eq!(split("https:///path"), None);
    assert_eq!(split("https://a.test:99999/"), None);
    assert_eq!(split("https://a.test:8x/"), None);
}

fn error_of(text: &str) -> String {
    match parse_archive(text, "archive.json") {
        Ok(_) => panic!("{text} was accepted"),
        Err(message) => message,
    }
}

#[test]
fn errors_name_file_entry_and_field() {
    assert!(
        error_of("[{").starts_with("archive.json: not JSON: "),
        "{}",
        error_of("[{")
    );
    assert!(
        error_of("[\n{").contains("line 2 column 1"),
        "{}",
        error_of("[\n{")
    );
    assert_eq!(
        error_of("{}"),
        "archive.json: expected an array of entries, got an object"
    );
    assert_eq!(
        error_of(&format!("[{}]", entry("1234.5", "https://a.test/", &response("\"abc\"", "{}"), "null", "null"))),
        "archive.json: entry 0 (id \"1234.5\"): response.status: expected an integer from 100 to 599, got \"abc\""
    );
    assert_eq!(
        error_of(&format!("[{}, {}]", sample_archive(), entry("9", "https://a.test/", &response("600", "{}"), "null", "null"))),
        "archive.json: entry 7 (id \"9\"): response.status: expected an integer from 100 to 599, got 600"
    );
    let without_url = entry(
        "7",
        "https://a.test/",
        &response("200", "{}"),
        "null",
        "null",
    )
    .replace(r#""url": "https://a.test/","#, "");
    assert_eq!(
        error_of(&format!("[{without_url}]")),
        "archive.json: entry 0 (id \"7\"): url: missing, expected a string"
    );
    assert_eq!(
        error_of("[5]"),
        "archive.json: entry 0: expected an object, got 5"
    );
    assert_eq!(
        error_of(&format!(
            "[{}]",
            entry(
                "8",
                "https://a.test/",
                &response("200", r#"{"x": 1}"#),
                "null",
                "null"
            )
        )),
        "archive.json: entry 0 (id \"8\"): response.headers.x: expected a string, got 1"
    );
    let bad_hash = body().replace(HASH, "../../etc/passwd");
    assert_eq!(
        error_of(&format!("[{}]", entry("8", "https://a.test/", &response("200", "{}"), "null", &bad_hash))),
        "archive.json: entry 0 (id \"8\"): body.sha256: expected 64 lowercase hex digits, got \"../../etc/passwd\""
    );
    assert_eq!(
        error_of(&format!("[{}]", entry("8", "https://", &response("200", "{}"), "null", "null"))),
        "archive.json: entry 0 (id \"8\"): url: expected an http(s) URL with a host, got \"https://\""
    );
    let negative_delay = entry(
        "8",
        "https://a.test/",
        &response("200", "{}"),
        "null",
        "null",
    )
    .replace("12.5", "-1");
    assert_eq!(
        error_of(&format!("[{negative_delay}]")),
        "archive.json: entry 0 (id \"8\"): serverDelay.ms: expected a non-negative number or null, got -1"
    );
}

#[test]
fn an_archive_with_nothing_to_serve_is_an_error() {
    let cached = entry(
        "3",
        "https://a.test/x.css",
        &response("200", "{}"),
        "\"memory\"",
        "null",
    );
    assert_eq!(
        error_of(&format!("[{cached}]")),
        "archive.json: no response to serve: none of its 1 entries is an http(s) request answered by the network"
    );
    assert!(error_of("[]").contains("no response to serve"));
}
