//! Seed 001 Fig 3.12 (§3.7.4): image1.jpg's element load event runs a timer that requests
//! resource 3. The builder gives the load marker the parents Parse Chunk 2, Resource 2 and
//! Resource 3, so whatever the network, the same work happens before load.

mod core_support;

use core_support::*;
use pagepath_browser::core::{Options, Outcome};

/// The document arrives in two chunks: chunk 0 (parsed by p1, which finds image1.jpg) and
/// chunk 1 (parsed by p2).
fn fig_3_12() -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 500), 1000);
    page.download("d1", MAIN, "https://a.test/", (1, 500, 500), 1000);
    page.parse("p1", MAIN, 10.0);
    page.parse("p2", MAIN, 10.0);
    page.resource("r2", MAIN, "https://a.test/image1.jpg", 3);
    page.event("ev", MAIN, 2.0);
    page.timer("tm", MAIN, 2.0, 0.0);
    page.resource("r3", MAIN, "https://a.test/resource3.js", 2);
    page.edges("R9", &[("d0", "d1")]);
    page.edges("R3", &[("d0", "p1"), ("p1", "p2"), ("d1", "p2")]);
    page.edges("R1", &[("p1", "r2")]);
    page.edges("R25", &[("r2", "ev")]);
    page.edges("R20", &[("ev", "tm")]);
    page.edges("R2", &[("tm", "r3")]);
    page.edges("completion-dcl", &[("p2", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("p2", "load"), ("r2", "load"), ("r3", "load")]);
    page
}

/// The document's first half at 10 ms, the rest at 40 ms; the image after `image_ms`; resource 3
/// after 5 ms.
fn run(image_ms: f64) -> (Sim, Outcome) {
    let answer = Box::new(move |r: &pagepath_browser::core::Request| match r.url.as_str() {
        "https://a.test/" => vec![Answer::Bytes(10.0, 500), Answer::Complete(40.0, 1000)],
        "https://a.test/image1.jpg" => vec![Answer::Complete(image_ms, 1000)],
        _ => vec![Answer::Complete(5.0, 1000)],
    });
    let mut sim = Sim::new(&fig_3_12().graph(), Options::default(), answer);
    let outcome = sim.run();
    (sim, outcome)
}

#[test]
fn load_waits_for_the_same_work_on_a_fast_and_a_slow_network() {
    // Fast: p1 10..20 finds the image (20..22); its load event runs 22..24, before chunk 1
    // arrives; the 0 ms timer 24..26 requests resource 3 (26..31). p2 40..50, load at 50.
    let (fast_sim, fast) = run(2.0);
    assert_times(&fast, "ev", 22.0, 24.0);
    assert_times(&fast, "tm", 24.0, 26.0);
    assert_times(&fast, "r3", 26.0, 31.0);
    assert_times(&fast, "p2", 40.0, 50.0);
    assert_eq!(fast.metrics.load_ms, Some(50.0));
    // Slow: the image takes until 70, after parsing (p2 40..50): the event runs 70..72, the
    // timer 72..74, resource 3 74..79, and load waits for it.
    let (slow_sim, slow) = run(50.0);
    assert_times(&slow, "p2", 40.0, 50.0);
    assert_times(&slow, "ev", 70.0, 72.0);
    assert_times(&slow, "r3", 74.0, 79.0);
    assert_eq!(slow.metrics.load_ms, Some(79.0));

    let nodes = fig_3_12().graph().emulated_node_count();
    for outcome in [&fast, &slow] {
        assert_eq!(outcome.node_timings.len(), nodes, "every node runs: {:?}", order(outcome));
        assert_eq!(outcome.metrics.load_ms, Some(timing(outcome, "r3").1.max(timing(outcome, "p2").1)));
    }
    let mut fast_urls = fast_sim.issued_urls();
    let mut slow_urls = slow_sim.issued_urls();
    fast_urls.sort();
    slow_urls.sort();
    assert_eq!(fast_urls, slow_urls);
    let position = |o: &Outcome, id: &str| order(o).iter().position(|n| *n == id).unwrap();
    assert!(position(&fast, "ev") < position(&fast, "p2"), "fast: the event runs before parsing ends");
    assert!(position(&slow, "ev") > position(&slow, "p2"), "slow: the event runs after parsing");
}
