//! First and largest contentful paint: the main frame's paint markers complete when what they
//! wait for has, a run waiting for load also waits for them, and a graph without them (older, or a
//! page that painted nothing contentful) reports none, saying why.

mod core_support;

use core_support::*;
use pagepath_browser::core::{parse_graph, Completion, Options};
use serde_json::Value;

/// sync_script_page with FCP after the parser's second chunk and the script, LCP after FCP and that
/// chunk, and the largest element's content `id` (at `url`) found by that chunk; the caller says
/// how LCP waits for the content.
fn paints_with_content(id: &str, url: &str, mime_rank: u64) -> Page {
    let mut page = sync_script_page();
    page.resource(id, MAIN, url, mime_rank);
    page.paint("fcp", "fcp");
    page.paint("lcp", "lcp");
    page.edges("R1", &[("p1", id)]);
    page.edges("paint-fcp", &[("p1", "fcp"), ("s", "fcp")]);
    page.edges("paint-lcp", &[("fcp", "lcp"), ("p1", "lcp")]);
    page
}

/// paints_with_content with a hero image as the largest element; the image (50 ms) does not hold
/// the load event.
fn painted_page() -> Page {
    let mut page = paints_with_content("hero", "https://a.test/hero.png", 3);
    page.edges("paint-lcp", &[("hero", "lcp")]);
    page
}

fn painted_latency(url: &str) -> f64 {
    if url == "https://a.test/hero.png" { 50.0 } else { sync_script_latency(url) }
}

#[test]
fn paints_complete_when_what_they_wait_for_has() {
    let outcome = Sim::new(&painted_page().graph(), Options::default(), latency(painted_latency)).run();
    // p1 ends at 66, so FCP; the hero image is asked for then and in at 116, so LCP.
    assert_times(&outcome, "fcp", 66.0, 66.0);
    assert_times(&outcome, "lcp", 116.0, 116.0);
    assert_eq!(outcome.metrics.first_contentful_paint_ms, Some(66.0));
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(116.0));
    assert_eq!(outcome.metrics.largest_contentful_paint_missing, None);
    assert_eq!(outcome.metrics.load_ms, Some(76.0));
}

#[test]
fn a_first_content_of_images_only_is_painted_in_the_first_frame_after_one_of_them_arrived() {
    // The marker is the first paint (66); a thumbnail asked for with the hero arrives at 86, the
    // hero at 116: the first contentful paint is the thumbnail's frame, the largest still the hero's.
    let mut page = painted_page();
    page.resource("thumb", MAIN, "https://a.test/thumb.png", 3);
    page.edges("R1", &[("p1", "thumb")]);
    page.set("fcp", "/fcp", serde_json::json!({"firstImages": ["hero", "thumb"]}));
    let thumb_latency = |url: &str| if url == "https://a.test/thumb.png" { 20.0 } else { painted_latency(url) };
    let outcome = Sim::new(&page.graph(), Options::default(), latency(thumb_latency)).run();
    assert_times(&outcome, "fcp", 66.0, 66.0);
    assert_eq!(outcome.metrics.first_contentful_paint_ms, Some(86.0));
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(116.0));
    page.set("fcp", "/fcp", serde_json::json!({"firstImages": ["hero"]}));
    let outcome = Sim::new(&page.graph(), Options::default(), latency(thumb_latency)).run();
    assert_eq!(outcome.metrics.first_contentful_paint_ms, Some(116.0), "only the hero counts");
}

#[test]
fn a_run_waiting_for_load_goes_on_to_the_paints() {
    let options = Options { wait_for: Completion::Load, ..Options::default() };
    let outcome = Sim::new(&painted_page().graph(), options, latency(painted_latency)).run();
    assert_eq!(outcome.metrics.load_ms, Some(76.0));
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(116.0), "the LCP image arrives 40 ms after load");
}

#[test]
fn a_run_waiting_for_dcl_stops_there() {
    let options = Options { wait_for: Completion::DomContentLoaded, ..Options::default() };
    let outcome = Sim::new(&painted_page().graph(), options, latency(painted_latency)).run();
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(66.0));
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, None);
}

#[test]
fn a_graph_without_paint_markers_reports_none_and_why() {
    let older = Sim::new(&sync_script_page().graph(), Options::default(), latency(sync_script_latency)).run();
    assert_eq!(older.metrics.first_contentful_paint_ms, None);
    assert_eq!(older.metrics.largest_contentful_paint_ms, None);
    assert_eq!(older.metrics.largest_contentful_paint_missing.as_deref(), Some("the graph has no emulated largest contentful paint marker"));
    assert_eq!(older.metrics.load_ms, Some(76.0), "an older graph still replays");

    let mut file: Value = serde_json::from_str(&sync_script_page().json()).unwrap();
    let why = "no largest contentful paint candidate in the main frame: nothing contentful (text or image) was painted";
    file["recorded"] = serde_json::json!({"domContentLoaded": 66, "load": 76, "firstContentfulPaint": null, "largestContentfulPaint": null, "largestContentfulPaintMissing": why});
    let graph = parse_graph(&file.to_string()).unwrap();
    let blank = Sim::new(&graph, Options::default(), latency(sync_script_latency)).run();
    assert_eq!(blank.metrics.largest_contentful_paint_missing.as_deref(), Some(why));
}

#[test]
fn paint_metrics_are_in_the_report_as_camel_case() {
    let outcome = Sim::new(&painted_page().graph(), Options::default(), latency(painted_latency)).run();
    let metrics = serde_json::to_value(&outcome.metrics).unwrap();
    assert_eq!(metrics["firstContentfulPaintMs"], 66.0);
    assert_eq!(metrics["largestContentfulPaintMs"], 116.0);
    assert!(metrics["largestContentfulPaintMissing"].is_null());
}

#[test]
fn a_paint_is_presented_its_frames_rendering_after_what_it_waits_for_and_blocks_nothing_meanwhile() {
    let mut page = sync_script_page();
    page.paint_rendered("fcp", "fcp", 30.0);
    page.edges("paint-fcp", &[("p1", "fcp"), ("s", "fcp")]);
    let outcome = Sim::new(&page.graph(), Options::default(), latency(sync_script_latency)).run();
    // p1 ends at 66: the frame is presented 30 ms later, while DOMContentLoaded goes on at 66.
    assert_eq!(outcome.metrics.first_contentful_paint_ms, Some(96.0));
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(66.0));
    let slow = Options { cpu_factor: 2.0, ..Options::default() };
    let outcome = Sim::new(&page.graph(), slow, latency(sync_script_latency)).run();
    let dcl = outcome.metrics.dom_content_loaded_ms.unwrap();
    assert!((outcome.metrics.first_contentful_paint_ms.unwrap() - dcl - 60.0).abs() < 1e-9, "a slower CPU renders slower: {:?}", outcome.metrics);
}

/// paints_with_content with text as the largest element, in a web font asked for by the parser's
/// second chunk (at 66 ms) through a face of the given `font-display`, taking `font_ms` to arrive.
fn text_in_web_font(display: &str, font_ms: f64) -> (pagepath_browser::core::Graph, impl Fn(&str) -> f64) {
    let mut page = paints_with_content("font", "https://a.test/face.woff2", 2);
    page.edges(&format!("font-display-{display}"), &[("font", "lcp")]);
    page.edges("completion-load", &[("font", "load")]);
    let latency = move |url: &str| if url == "https://a.test/face.woff2" { font_ms } else { sync_script_latency(url) };
    (page.graph(), latency)
}

#[test]
fn text_waits_for_its_web_font_while_the_font_comes_in_time() {
    for display in ["auto", "block"] {
        let (graph, font_latency) = text_in_web_font(display, 500.0);
        let outcome = Sim::new(&graph, Options::default(), latency(font_latency)).run();
        assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(566.0), "font-display: {display}");
    }
}

#[test]
fn auto_text_paints_in_a_fallback_font_two_seconds_after_navigation_start() {
    let (graph, font_latency) = text_in_web_font("auto", 5000.0);
    let options = Options { wait_for: Completion::Load, ..Options::default() };
    let outcome = Sim::new(&graph, options, latency(font_latency)).run();
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(2000.0), "Chromium's LCP limit, not the font at 5,066 ms");
    assert_eq!(outcome.metrics.load_ms, Some(5066.0), "the font still holds the load event");
}

#[test]
fn block_text_paints_in_a_fallback_font_three_seconds_after_its_font_was_asked_for() {
    let (graph, font_latency) = text_in_web_font("block", 5000.0);
    let outcome = Sim::new(&graph, Options::default(), latency(font_latency)).run();
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(3066.0), "asked for at 66 ms, as the parser's second chunk ended");
}

#[test]
fn a_paint_that_gives_up_on_its_font_still_waits_for_its_other_parents() {
    let (graph, font_latency) = text_in_web_font("auto", 5000.0);
    let slow_script = move |url: &str| if url == "https://a.test/a.js" { 2500.0 } else { font_latency(url) };
    let outcome = Sim::new(&graph, Options::default(), latency(slow_script)).run();
    let fcp = outcome.metrics.first_contentful_paint_ms.unwrap();
    assert!(fcp > 2500.0, "the script holds the first paint: {fcp}");
    assert_eq!(outcome.metrics.largest_contentful_paint_ms, Some(fcp), "past the limit the text paints with the first paint");
}
