//! The main thread: a sync script blocking the parser, per-frame queues and frame switching
//! (Algorithms 4 and 5), timers and events first, CPU slow-down, timer clamping, and split
//! computations resuming after their nested child.

mod core_support;

use core_support::*;
use pagepath_browser::core::Options;

#[test]
fn a_sync_script_blocks_the_parser() {
    let graph = sync_script_page().graph();
    let mut sim = Sim::new(&graph, Options::default(), latency(sync_script_latency));
    let outcome = sim.run();
    // The document is asked for at 0 and in at 20; p0 parses 20..25 and finds a.js (25..55);
    // the script runs 55..63, the parser goes on 63..66 and finds i.png (66..76).
    assert_times(&outcome, "d0", 0.0, 20.0);
    assert_times(&outcome, "p0", 20.0, 25.0);
    assert_times(&outcome, "js", 25.0, 55.0);
    assert_times(&outcome, "s", 55.0, 63.0);
    assert_times(&outcome, "p1", 63.0, 66.0);
    assert_times(&outcome, "img", 66.0, 76.0);
    assert_times(&outcome, "dcl", 66.0, 66.0);
    assert_times(&outcome, "load", 76.0, 76.0);
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(66.0));
    assert_eq!(outcome.metrics.load_ms, Some(76.0));
    assert_eq!(outcome.metrics.graph_complete_ms, Some(76.0));
    assert_eq!(sim.issued_urls(), ["https://a.test/", "https://a.test/a.js", "https://a.test/i.png"]);
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
}

#[test]
fn a_blocked_main_frame_yields_to_its_iframe_and_gets_the_thread_back() {
    let mut page = Page::new("d0");
    page.frame("F2", Some(MAIN), "fdcl", "fload");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.resource("js", MAIN, "https://a.test/a.js", 2);
    page.script("s", MAIN, 4.0);
    page.parse("p1", MAIN, 2.0);
    page.download("fd0", "F2", "https://b.test/frame.html", (0, 0, 500), 500);
    page.parse("fp0", "F2", 10.0);
    page.parse("fp1", "F2", 10.0);
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1"), ("fd0", "fp0"), ("fp0", "fp1"), ("fd0", "fp1")]);
    page.edges("R1", &[("p0", "js")]);
    page.edges("R5", &[("p0", "fd0")]);
    page.edges("R10", &[("js", "s")]);
    page.edges("R4", &[("s", "p1")]);
    page.edges("completion-dcl", &[("p1", "dcl"), ("fp1", "fdcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("js", "load"), ("fload", "load"), ("fdcl", "fload")]);
    let delays = |url: &str| match url {
        "https://a.test/" => 20.0,
        "https://a.test/a.js" => 15.0,
        _ => 10.0,
    };
    let outcome = Sim::new(&page.graph(), Options::default(), latency(delays)).run();
    // p0 20..25 asks for a.js (in at 40) and the iframe (in at 35). The main frame has nothing
    // to do, so the thread goes to the iframe: fp0 35..45. The script is ready at 40, but the
    // iframe keeps the thread while it has work (fp1 45..55); then back to the main frame.
    assert_times(&outcome, "p0", 20.0, 25.0);
    assert_times(&outcome, "fd0", 25.0, 35.0);
    assert_times(&outcome, "fp0", 35.0, 45.0);
    assert_times(&outcome, "fp1", 45.0, 55.0);
    assert_times(&outcome, "js", 25.0, 40.0);
    assert_times(&outcome, "s", 55.0, 59.0);
    assert_times(&outcome, "p1", 59.0, 61.0);
    assert_times(&outcome, "fload", 55.0, 55.0);
    assert_eq!(outcome.metrics.load_ms, Some(61.0));
}

#[test]
fn a_timer_that_fired_runs_before_queued_parse_chunks() {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.script("s0", MAIN, 2.0);
    page.timer("t", MAIN, 4.0, 1.0);
    page.parse("p1", MAIN, 6.0);
    page.parse("p2", MAIN, 6.0);
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1"), ("p1", "p2"), ("d0", "p2")]);
    page.edges("R12", &[("p0", "s0")]);
    page.edges("R4", &[("s0", "p1")]);
    page.edges("R19", &[("s0", "t")]);
    page.edges("completion-dcl", &[("p2", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("t", "load")]);
    let outcome = Sim::new(&page.graph(), Options::default(), latency(|_| 20.0)).run();
    // s0 25..27 installs a 1 ms timer (fires at 28, while p1 runs 27..33). When p1 ends, both
    // p2 and the timer are queued: the timer goes first.
    assert_times(&outcome, "s0", 25.0, 27.0);
    assert_times(&outcome, "p1", 27.0, 33.0);
    assert_times(&outcome, "t", 33.0, 37.0);
    assert_times(&outcome, "p2", 37.0, 43.0);
    assert_eq!(outcome.metrics.load_ms, Some(43.0));
}

#[test]
fn a_slower_cpu_stretches_every_computation() {
    let graph = sync_script_page().graph();
    let options = Options { cpu_factor: 2.0, ..Options::default() };
    let outcome = Sim::new(&graph, options, latency(sync_script_latency)).run();
    // Every computation takes twice as long: p0 20..30, a.js 30..60, s 60..76, p1 76..82,
    // i.png 82..92. Fetches take as long as before.
    assert_times(&outcome, "p0", 20.0, 30.0);
    assert_times(&outcome, "js", 30.0, 60.0);
    assert_times(&outcome, "s", 60.0, 76.0);
    assert_times(&outcome, "p1", 76.0, 82.0);
    assert_times(&outcome, "img", 82.0, 92.0);
    assert_eq!(outcome.metrics.load_ms, Some(92.0));
}

#[test]
fn deeply_nested_zero_timers_are_clamped_to_4_ms() {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 1.0);
    page.script("s", MAIN, 1.0);
    let timers = ["t1", "t2", "t3", "t4", "t5", "t6"];
    for t in timers {
        page.timer(t, MAIN, 1.0, 0.0);
    }
    page.edges("R3", &[("d0", "p0")]);
    page.edges("R12", &[("p0", "s")]);
    page.edges("R19", &[("s", "t1")]);
    page.edges("R21", &[("t1", "t2"), ("t2", "t3"), ("t3", "t4"), ("t4", "t5"), ("t5", "t6")]);
    page.edges("completion-dcl", &[("p0", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("t6", "load")]);
    let outcome = Sim::new(&page.graph(), Options::default(), latency(|_| 10.0)).run();
    // s 11..12; t1..t4 (nesting 1..4) fire at once: 12..13, 13..14, 14..15, 15..16.
    // t5 and t6 are nested 5 and 6 deep: each waits 4 ms, 20..21 and 25..26.
    assert_times(&outcome, "t1", 12.0, 13.0);
    assert_times(&outcome, "t4", 15.0, 16.0);
    assert_times(&outcome, "t5", 20.0, 21.0);
    assert_times(&outcome, "t6", 25.0, 26.0);
}

#[test]
fn the_rest_of_a_split_computation_runs_right_after_its_nested_child() {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 500), 1000);
    page.download("d1", MAIN, "https://a.test/", (1, 500, 500), 1000);
    page.parse("p0", MAIN, 5.0);
    page.parse("p1", MAIN, 6.0);
    page.parse("p2", MAIN, 6.0);
    page.script("s_a", MAIN, 2.0);
    page.event("ev", MAIN, 1.0);
    page.script("s_b", MAIN, 2.0);
    page.set("s_b", "/script/segment", 1.into());
    page.edges("R9", &[("d0", "d1")]);
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1"), ("p1", "p2"), ("d1", "p2")]);
    page.edges("R12", &[("p0", "s_a")]);
    page.edges("R25", &[("s_a", "ev")]);
    page.edges("continuation", &[("ev", "s_b")]);
    page.edges("completion-dcl", &[("p2", "dcl"), ("s_b", "dcl")]);
    page.edges("completion-load", &[("dcl", "load")]);
    let answer = Box::new(|_: &pagepath_browser::core::Request| vec![Answer::Bytes(20.0, 500), Answer::Complete(33.5, 1000)]);
    let outcome = Sim::new(&page.graph(), Options::default(), answer).run();
    // p0 20..25; p1 goes before the inline script (parse first): 25..31, s_a 31..33, its nested
    // event 33..34. p2 is queued at 33.5, but segment 1 of the script goes on first: 34..36.
    assert_times(&outcome, "p1", 25.0, 31.0);
    assert_times(&outcome, "s_a", 31.0, 33.0);
    assert_times(&outcome, "ev", 33.0, 34.0);
    assert_times(&outcome, "s_b", 34.0, 36.0);
    assert_times(&outcome, "p2", 36.0, 42.0);
}

#[test]
fn a_synchronous_request_keeps_the_main_thread_until_its_response_lets_the_computation_go_on() {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.script("s_a", MAIN, 2.0);
    page.resource("x", MAIN, "https://a.test/x.json", 2);
    page.script("s_b", MAIN, 2.0);
    page.set("s_b", "/script/segment", 1.into());
    page.event("ev", MAIN, 3.0);
    page.edges("R3", &[("d0", "p0")]);
    page.edges("R12", &[("p0", "s_a")]);
    page.edges("R2", &[("s_a", "x")]);
    page.edges("continuation", &[("s_a", "s_b")]);
    page.edges("sync-xhr", &[("x", "s_b")]);
    page.edges("R25", &[("s_a", "ev")]);
    page.edges("completion-dcl", &[("p0", "dcl"), ("s_b", "dcl"), ("ev", "dcl")]);
    page.edges("completion-load", &[("dcl", "load")]);
    let latency_of = |url: &str| if url == "https://a.test/x.json" { 30.0 } else { 20.0 };
    let outcome = Sim::new(&page.graph(), Options::default(), latency(latency_of)).run();
    // p0 20..25, s_a 25..27 sends x, in at 57. The event s_a made is ready at 27, but the thread
    // waits out the request: s_b 57..59, then the event 59..62.
    assert_times(&outcome, "s_a", 25.0, 27.0);
    assert_times(&outcome, "s_b", 57.0, 59.0);
    assert_times(&outcome, "ev", 59.0, 62.0);
}
