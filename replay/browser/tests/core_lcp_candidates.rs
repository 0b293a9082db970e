//! The largest contentful paint chosen among the graph's candidates (graph.md, LCP candidates):
//! a block's text is sized by what was parsed by its first paint, a later and larger element
//! takes over, and a smaller one does not.

mod core_support;

use core_support::*;
use pagepath_browser::core::{parse_graph, Graph, Options};
use serde_json::{json, Value};

/// sync_script_page (p0 ends at 25 ms, p1 at 66, i.png in at 76) with an FCP after `fcp_after`
/// and the recorded LCP, text of 3,000 px, after FCP and p1; plus `candidates` beside it.
fn with_candidates(fcp_after: &str, candidates: Value) -> Graph {
    let mut page = sync_script_page();
    page.paint("fcp", "fcp");
    page.paint("lcp", "lcp");
    page.edges("paint-fcp", &[(fcp_after, "fcp")]);
    page.edges("paint-lcp", &[("fcp", "lcp"), ("p1", "lcp")]);
    let mut file: Value = serde_json::from_str(&page.json()).unwrap();
    let mut list = candidates.as_array().unwrap().clone();
    list.push(json!({"type": "text", "nodeName": "P", "url": null, "sizes": [{"after": null, "size": 3000}], "waitsFor": [], "recorded": true}));
    file["lcpCandidates"] = Value::Array(list);
    parse_graph(&file.to_string()).unwrap_or_else(|e| panic!("test graph: {e}"))
}

fn body_text() -> Value {
    json!([{"type": "text", "nodeName": "BODY", "url": null, "sizes": [{"after": "p0", "size": 1000}, {"after": "p1", "size": 50000}], "waitsFor": [], "recorded": false}])
}

fn lcp(graph: &Graph) -> (Option<f64>, Value) {
    let outcome = Sim::new(graph, Options::default(), latency(sync_script_latency)).run();
    let metrics = serde_json::to_value(&outcome.metrics).unwrap();
    (outcome.metrics.largest_contentful_paint_ms, metrics["largestContentfulPaintElement"].clone())
}

#[test]
fn text_painted_early_is_sized_by_what_was_parsed_then() {
    // The first paint follows p0 (25 ms): the body's text is 1,000 px then and stays so; the
    // recorded paragraph (3,000 px, at 66 ms) is the largest.
    let (at, element) = lcp(&with_candidates("p0", body_text()));
    assert_eq!(at, Some(66.0));
    assert_eq!(element["nodeName"], "P");
    assert_eq!(element["size"], 3000.0);
}

#[test]
fn text_painted_after_more_was_parsed_is_larger_and_paints_first() {
    // The first paint follows p1 (66 ms): the body's text is 50,000 px in that frame.
    let (at, element) = lcp(&with_candidates("p1", body_text()));
    assert_eq!(at, Some(66.0));
    assert_eq!(element, json!({"type": "text", "nodeName": "BODY", "url": null, "size": 50000.0}));
}

#[test]
fn a_larger_image_arriving_later_takes_over_and_a_smaller_one_does_not() {
    let image = |size: f64| json!([{"type": "image", "nodeName": "IMG", "url": "https://a.test/i.png", "sizes": [{"after": "p1", "size": size}], "waitsFor": ["img"], "recorded": false}]);
    let (at, element) = lcp(&with_candidates("p0", image(8000.0)));
    assert_eq!(at, Some(76.0), "painted as i.png arrives");
    assert_eq!(element["url"], "https://a.test/i.png");
    let (at, element) = lcp(&with_candidates("p0", image(2000.0)));
    assert_eq!(at, Some(66.0));
    assert_eq!(element["nodeName"], "P");
}

#[test]
fn a_graph_without_candidates_names_no_element_itself() {
    let mut page = sync_script_page();
    page.paint("fcp", "fcp");
    page.paint("lcp", "lcp");
    page.edges("paint-fcp", &[("p0", "fcp")]);
    page.edges("paint-lcp", &[("fcp", "lcp"), ("p1", "lcp")]);
    let (at, element) = lcp(&page.graph());
    assert_eq!(at, Some(66.0));
    assert!(element.is_null(), "the run result names the lcp marker's element: {element}");
}

#[test]
fn a_candidate_naming_an_unknown_node_is_refused() {
    let bad = json!([{"type": "text", "nodeName": "BODY", "url": null, "sizes": [{"after": "nope", "size": 1}], "waitsFor": [], "recorded": false}]);
    let mut page = sync_script_page();
    page.paint("fcp", "fcp");
    page.edges("paint-fcp", &[("p0", "fcp")]);
    let mut file: Value = serde_json::from_str(&page.json()).unwrap();
    file["lcpCandidates"] = bad;
    let err = parse_graph(&file.to_string()).unwrap_err();
    assert!(err.contains("/lcpCandidates/0/sizes/0/after") && err.contains("nope"), "{err}");
}
