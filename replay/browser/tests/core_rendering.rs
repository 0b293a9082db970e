//! A rendering (`render` node): main-thread work between the parser's chunks, after which its
//! layout's requests go and the parser resumes (docs/emulated-browser.md, Rendering).

mod core_support;

use core_support::*;
use pagepath_browser::core::Options;

/// d0 -> p0 (5 ms) -> render r (12 ms) -> p1 (3 ms) -> dcl; the rendering asks for a web font CSS
/// names (50 ms), which races the load event.
fn rendered_page(parser_waits_for_rendering: bool) -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.render("r", 12.0);
    page.parse("p1", MAIN, 3.0);
    page.resource("font", MAIN, "https://a.test/f.woff2", 4);
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1")]);
    page.edges("render", &[("p0", "r"), ("r", "font")]);
    if parser_waits_for_rendering {
        page.edges("render", &[("r", "p1")]);
    }
    page.edges("completion-dcl", &[("p1", "dcl")]);
    page.edges("completion-load", &[("dcl", "load")]);
    page.edges("completion-load-raced", &[("font", "load")]);
    page
}

fn latencies(url: &str) -> f64 {
    if url == "https://a.test/f.woff2" { 50.0 } else { 20.0 }
}

#[test]
fn the_parser_resumes_after_a_rendering_whose_layout_requests_then_hold_the_load_event() {
    let outcome = Sim::new(&rendered_page(true).graph(), Options::default(), latency(latencies)).run();
    assert_times(&outcome, "r", 25.0, 37.0);
    assert_times(&outcome, "p1", 37.0, 40.0);
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(40.0));
    // The font went at 37, before DOMContentLoaded: load waits for it (37 + 50).
    assert_eq!(outcome.metrics.load_ms, Some(87.0));
}

#[test]
fn a_rendering_holds_the_main_thread_so_a_parser_not_waiting_for_it_still_runs_after_it() {
    // Without the edge p1 is ready at 25 with the rendering; the rendering goes first (Chromium runs
    // a due frame before queued work), so p1 still ends at 40, and load still waits for the font.
    let outcome = Sim::new(&rendered_page(false).graph(), Options::default(), latency(latencies)).run();
    assert_times(&outcome, "r", 25.0, 37.0);
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(40.0));
    assert_eq!(outcome.metrics.load_ms, Some(87.0));
}

/// sync_script_page plus a head sheet (c.css, 50 ms) whose evaluation lets a rendering go; the
/// rendering ran after the body's sync script on the recording (`render-raced`) and its layout
/// asks for a lazy image (10 ms).
fn rendering_after_a_sync_script(script_ms: f64) -> (Page, impl Fn(&str) -> f64) {
    let mut page = sync_script_page();
    page.resource("sheet", MAIN, "https://a.test/c.css", 1);
    page.css("c", MAIN, 2.0);
    page.render("r", 10.0);
    page.resource("lazy", MAIN, "https://a.test/lazy.png", 3);
    page.edges("R1", &[("p0", "sheet")]);
    page.edges("R11", &[("sheet", "c")]);
    page.edges("render", &[("p0", "r"), ("c", "r"), ("r", "lazy")]);
    page.edges("render-raced", &[("s", "r")]);
    let latency = move |url: &str| match url {
        "https://a.test/a.js" => script_ms,
        "https://a.test/c.css" => 50.0,
        "https://a.test/lazy.png" => 10.0,
        other => sync_script_latency(other),
    };
    (page, latency)
}

#[test]
fn a_rendering_goes_without_a_sync_script_whose_file_is_still_on_its_way() {
    // The sheet is in at 75 and evaluated by 77; a.js arrives at 225: the frame does not wait.
    let (page, answer) = rendering_after_a_sync_script(200.0);
    let mut sim = Sim::new(&page.graph(), Options::default(), latency(answer));
    let outcome = sim.run();
    assert_times(&outcome, "r", 77.0, 87.0);
    assert_eq!(sim.issued_at("https://a.test/lazy.png"), 87.0);
    assert_times(&outcome, "s", 225.0, 233.0);
}

#[test]
fn a_rendering_waits_for_a_sync_script_that_was_under_way_when_the_rest_was_done() {
    // a.js arrives at 76, while the sheet is evaluated (75-77): the script runs first, 77-85, and the
    // frame after it, as on the recording.
    let (page, answer) = rendering_after_a_sync_script(51.0);
    let outcome = Sim::new(&page.graph(), Options::default(), latency(answer)).run();
    assert_times(&outcome, "s", 77.0, 85.0);
    assert_times(&outcome, "r", 85.0, 95.0);
}
