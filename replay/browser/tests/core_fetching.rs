//! Fetching: the preloader, the session cache, document chunks as bytes arrive, failed requests
//! and request priorities.

mod core_support;

use core_support::*;
use pagepath_browser::core::{Browser, Completion, Options, PriorityScheme, Request};

/// d0 (first half of the document) -> p0 -> a.js -> s -> p1 -> img.png, where img.png was
/// preloaded: a `preload` edge from d1, the second half, which arrives while a.js loads.
fn preload_page() -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 500), 1000);
    page.download("d1", MAIN, "https://a.test/", (1, 500, 500), 1000);
    page.parse("p0", MAIN, 5.0);
    page.resource("js", MAIN, "https://a.test/a.js", 2);
    page.script("s", MAIN, 10.0);
    page.parse("p1", MAIN, 2.0);
    page.resource("img", MAIN, "https://a.test/img.png", 3)["resource"]["preloaded"] = true.into();
    page.edges("R9", &[("d0", "d1")]);
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d1", "p1")]);
    page.edges("R1", &[("p0", "js"), ("p1", "img")]);
    page.edges("preload", &[("d1", "img")]);
    page.edges("R10", &[("js", "s")]);
    page.edges("R4", &[("s", "p1")]);
    page.edges("completion-dcl", &[("p1", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("js", "load"), ("img", "load")]);
    page
}

fn run_preload(preloader: bool) -> (Sim, pagepath_browser::core::Outcome) {
    let answer = Box::new(|r: &Request| match r.url.as_str() {
        "https://a.test/" => vec![Answer::Bytes(10.0, 500), Answer::Complete(20.0, 1000)],
        "https://a.test/a.js" => vec![Answer::Complete(30.0, 1000)],
        _ => vec![Answer::Complete(10.0, 1000)],
    });
    let mut sim = Sim::new(&preload_page().graph(), Options { preloader, ..Options::default() }, answer);
    let outcome = sim.run();
    (sim, outcome)
}

#[test]
fn the_preloader_fetches_early_and_without_it_the_parser_must_reach_the_tag() {
    // p0 10..15 asks for a.js (15..45); d1 is in at 20. With the preloader img.png is asked for
    // then (20..30); s runs 45..55 and p1 55..57, so load is at 57.
    let (on_sim, on) = run_preload(true);
    assert_eq!(on_sim.issued_at("https://a.test/img.png"), 20.0);
    assert_times(&on, "img", 20.0, 30.0);
    assert_times(&on, "p1", 55.0, 57.0);
    assert_eq!(on.metrics.load_ms, Some(57.0));
    // Without it img.png waits for p1: asked for at 57, in at 67.
    let (off_sim, off) = run_preload(false);
    assert_eq!(off_sim.issued_at("https://a.test/img.png"), 57.0);
    assert!(off_sim.issued_at("https://a.test/img.png") >= timing(&off, "p1").1);
    assert_eq!(off.metrics.load_ms, Some(67.0));
}

#[test]
fn a_preconnect_opens_when_the_preloader_sees_its_tag_or_the_parser_reaches_it_and_holds_nothing() {
    let run = |preloader: bool| {
        let mut page = preload_page();
        page.preconnect("pc", MAIN, "https://fonts.test", true);
        page.edges("preload", &[("d1", "pc")]);
        page.edges("R1", &[("p1", "pc")]);
        let answer = Box::new(|r: &Request| match r.url.as_str() {
            "https://a.test/" => vec![Answer::Bytes(10.0, 500), Answer::Complete(20.0, 1000)],
            "https://a.test/a.js" => vec![Answer::Complete(30.0, 1000)],
            _ => vec![Answer::Complete(10.0, 1000)],
        });
        let mut sim = Sim::new(&page.graph(), Options { preloader, ..Options::default() }, answer);
        let outcome = sim.run();
        (sim, outcome)
    };
    let (on_sim, on) = run(true);
    let hint = pagepath_browser::core::Preconnect { origin: "https://fonts.test".into(), pool: pagepath_browser::core::Pool { privacy_mode: true, partitioned: false }, sockets: 1 };
    let hinted = |sim: &Sim| sim.preconnects.iter().filter(|(_, p)| p.origin == hint.origin).cloned().collect::<Vec<_>>();
    assert_eq!(hinted(&on_sim), vec![(20.0, hint.clone())], "asked for once, when d1 is in");
    assert_eq!(on.metrics.load_ms, Some(57.0), "as without the preconnect");
    let (off_sim, _) = run(false);
    assert_eq!(hinted(&off_sim), vec![(57.0, hint)], "without the preloader, once p1 has parsed the tag");
}

#[test]
fn a_navigation_asks_for_two_connections_to_the_main_frames_origin_and_an_iframe_for_none() {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/index.html#top", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 1.0);
    page.frame("F2", Some(MAIN), "fdcl", "fload");
    page.download("fd0", "F2", "https://b.test/frame.html", (0, 0, 500), 500);
    page.parse("fp0", "F2", 1.0);
    page.edges("R3", &[("d0", "p0"), ("fd0", "fp0")]);
    page.edges("R5", &[("p0", "fd0")]);
    let mut sim = Sim::new(&page.graph(), Options::default(), Box::new(|_: &Request| vec![Answer::Complete(10.0, 1000)]));
    sim.run();
    let asked: Vec<(f64, String, usize)> = sim.preconnects.iter().map(|(at, p)| (*at, p.origin.clone(), p.sockets)).collect();
    assert_eq!(asked, vec![(0.0, "https://a.test".to_string(), 2)], "with the document's request, for its origin only");
}

#[test]
fn a_cross_site_frames_requests_go_to_a_partition_of_their_own() {
    // The main frame (a.test) and an iframe of another site each fetch from cdn.test.
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 1.0);
    page.resource("main-img", MAIN, "https://cdn.test/1.png", 3);
    page.frame("F2", Some(MAIN), "fdcl", "fload");
    page.set_frame("F2", "crossSite", true.into());
    page.download("fd0", "F2", "https://ads.test/frame.html", (0, 0, 500), 500);
    page.parse("fp0", "F2", 1.0);
    page.resource("frame-img", "F2", "https://cdn.test/2.png", 3);
    page.edges("R3", &[("d0", "p0"), ("fd0", "fp0")]);
    page.edges("R5", &[("p0", "fd0")]);
    page.edges("R1", &[("p0", "main-img"), ("fp0", "frame-img")]);
    page.edges("completion-dcl", &[("p0", "dcl"), ("fp0", "fdcl")]);
    page.edges("completion-load", &[("fdcl", "fload"), ("frame-img", "fload"), ("fload", "load"), ("dcl", "load"), ("main-img", "load")]);
    let mut sim = Sim::new(&page.graph(), Options::default(), latency(|_| 10.0));
    sim.run();
    let pool = |url: &str| sim.issued.iter().find(|(_, r)| r.url == url).unwrap().1.pool;
    assert!(!pool("https://cdn.test/1.png").partitioned);
    assert!(pool("https://ads.test/frame.html").partitioned, "the frame's document is fetched in its partition too");
    assert!(pool("https://cdn.test/2.png").partitioned);
}

#[test]
fn the_session_cache_fetches_a_url_once() {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.parse("p1", MAIN, 5.0);
    page.resource("ra", MAIN, "https://a.test/a.png", 3);
    page.resource("rb", MAIN, "https://a.test/a.png", 3);
    page.event("ev", MAIN, 1.0);
    page.resource("rc", MAIN, "https://a.test/a.png", 3);
    page.resource("rx", MAIN, "https://a.test/x.png", 3)["resource"]["fromCache"] = "disk".into();
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1")]);
    page.edges("R1", &[("p0", "ra"), ("p1", "rb"), ("p1", "rx")]);
    page.edges("R25", &[("ra", "ev")]);
    page.edges("R2", &[("ev", "rc")]);
    page.edges("completion-dcl", &[("p1", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("ra", "load"), ("rb", "load"), ("rc", "load"), ("rx", "load")]);
    let mut sim = Sim::new(&page.graph(), Options::default(), latency(|url| if url == "https://a.test/" { 10.0 } else { 50.0 }));
    let outcome = sim.run();
    // p0 10..15 asks for a.png (15..65); p1 15..20 references it again: rb waits for that fetch,
    // 20..65. The load event 65..66 references it a third time: served at once at 66.
    assert_eq!(sim.issued_urls(), ["https://a.test/", "https://a.test/a.png", "https://a.test/x.png"]);
    assert_times(&outcome, "ra", 15.0, 65.0);
    assert_times(&outcome, "rb", 20.0, 65.0);
    assert_times(&outcome, "rc", 66.0, 66.0);
    // x.png came from the disk cache in the recording; this run's cache is cold.
    assert_times(&outcome, "rx", 20.0, 70.0);
    assert!(outcome.warnings.iter().any(|w| w.contains("x.png") && w.contains("cold cache")), "{:?}", outcome.warnings);
    assert_eq!(outcome.metrics.load_ms, Some(70.0));
}

/// A document in three 400-byte chunks, each parsed by its own parse chunk of 5 ms.
fn chunked_page() -> Page {
    let mut page = Page::new("d0");
    for (i, (d, p)) in [("d0", "p0"), ("d1", "p1"), ("d2", "p2")].into_iter().enumerate() {
        page.download(d, MAIN, "https://a.test/", (i as u64, 400 * i as u64, 400), 1200);
        page.parse(p, MAIN, 5.0);
        page.edges("R3", &[(d, p)]);
    }
    page.edges("R9", &[("d0", "d1"), ("d1", "d2")]);
    page.edges("R3", &[("p0", "p1"), ("p1", "p2")]);
    page.edges("completion-dcl", &[("p2", "dcl")]);
    page.edges("completion-load", &[("dcl", "load")]);
    page
}

#[test]
fn download_chunks_complete_as_their_bytes_arrive() {
    let answer = Box::new(|_: &Request| {
        vec![Answer::Bytes(10.0, 300), Answer::Bytes(20.0, 500), Answer::Bytes(60.0, 1000), Answer::Complete(80.0, 1200)]
    });
    let outcome = Sim::new(&chunked_page().graph(), Options::default(), answer).run();
    // 300 bytes at 10 end no chunk; 500 at 20 end d0 (bytes 0..400): p0 20..25. d1 (..800)
    // ends at 60 with 1000 bytes in, so p1 waits until 60 (60..65); d2 ends with the response.
    assert_times(&outcome, "d0", 0.0, 20.0);
    assert_times(&outcome, "p0", 20.0, 25.0);
    assert_times(&outcome, "d1", 20.0, 60.0);
    assert_times(&outcome, "p1", 60.0, 65.0);
    assert_times(&outcome, "d2", 60.0, 80.0);
    assert_times(&outcome, "p2", 80.0, 85.0);
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(85.0));
}

#[test]
fn chunks_scale_to_the_actual_body_size() {
    let mut browser = Browser::new(&chunked_page().graph(), Options::default());
    browser.start(0.0);
    let document = browser.poll_request().expect("the document is requested");
    assert!(document.document && document.expected_body_bytes == Some(1200));
    // The body is 600 bytes instead of 1200: chunk 0 ends at byte 200.
    browser.on_body_size(document.id, 600, 5.0);
    browser.on_body_bytes(document.id, 199, 6.0);
    browser.handle_timeout(20.0);
    assert_eq!(browser.outcome().node_timings.len(), 0);
    browser.on_body_bytes(document.id, 200, 30.0);
    let outcome = browser.outcome();
    assert_eq!(outcome.node_timings[0].node_id, "d0");
    assert_eq!(outcome.node_timings[0].end, 30.0);
}

#[test]
fn a_failed_fetch_completes_with_a_warning_and_the_page_loads() {
    let graph = sync_script_page().graph();
    let answer = Box::new(|r: &Request| match r.url.as_str() {
        "https://a.test/i.png" => vec![Answer::Fail(5.0)],
        url => vec![Answer::Complete(sync_script_latency(url), 1000)],
    });
    let outcome = Sim::new(&graph, Options::default(), answer).run();
    // As in the sync-script case, but i.png fails 5 ms after it is asked for at 66.
    assert_times(&outcome, "img", 66.0, 71.0);
    assert_eq!(outcome.metrics.load_ms, Some(71.0));
    assert!(outcome.warnings.iter().any(|w| w.contains("https://a.test/i.png") && w.contains("connection reset")), "{:?}", outcome.warnings);
}

#[test]
fn waiting_for_dom_content_loaded_finishes_before_load() {
    let graph = sync_script_page().graph();
    let options = Options { wait_for: Completion::DomContentLoaded, ..Options::default() };
    let mut sim = Sim::new(&graph, options, latency(sync_script_latency));
    let outcome = sim.run();
    assert_eq!(outcome.metrics.dom_content_loaded_ms, Some(66.0));
    assert_eq!(outcome.metrics.load_ms, None);
    // i.png is still in flight when the run stops.
    assert!(sim.browser.waiting_for().iter().any(|w| w.contains("i.png") && w.contains("in flight")), "{:?}", sim.browser.waiting_for());
}

#[test]
fn requests_carry_the_priority_of_the_chosen_scheme() {
    let mut page = sync_script_page();
    page.set("js", "/priority/criticalPathRank", 1.into());
    let graph = page.graph();
    let urgencies = |priority: PriorityScheme| {
        let mut sim = Sim::new(&graph, Options { priority, ..Options::default() }, latency(sync_script_latency));
        sim.run();
        sim.issued.iter().map(|(_, r)| (r.urgency, r.incremental)).collect::<Vec<_>>()
    };
    // The document (VeryHigh), a.js (High, mimeRank 2, criticalPathRank 1 of 2) and i.png (High,
    // mimeRank 3: an image, criticalPathRank 0). Ranks spread over 0..7: rank * 8 / 2.
    assert_eq!(urgencies(PriorityScheme::None), [(None, false); 3]);
    assert_eq!(urgencies(PriorityScheme::Browser), [(Some(0), false), (Some(1), false), (Some(1), true)]);
    assert_eq!(urgencies(PriorityScheme::Mime), [(Some(0), false), (Some(2), false), (Some(3), false)]);
    assert_eq!(urgencies(PriorityScheme::CriticalPath), [(Some(0), false), (Some(4), false), (Some(0), false)]);
    assert_eq!(urgencies(PriorityScheme::Depth), [(Some(0), false); 3]);
}

/// d0 -> p0 asks for site.css and photo.png; site.css -> its evaluation (5 ms) -> bg.png, which
/// holds load only if it was asked for before everything else load waits for was in
/// (`completion-load-raced`).
fn raced_page() -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 500), 500);
    page.parse("p0", MAIN, 1.0);
    page.resource("css", MAIN, "https://a.test/site.css", 1);
    page.script("eval", MAIN, 5.0);
    page.resource("photo", MAIN, "https://a.test/photo.png", 3);
    page.resource("bg", MAIN, "https://a.test/bg.png", 3);
    page.edges("R3", &[("d0", "p0")]);
    page.edges("R1", &[("p0", "css"), ("p0", "photo")]);
    page.edges("R18", &[("css", "eval")]);
    page.edges("R2", &[("eval", "bg")]);
    page.edges("completion-dcl", &[("p0", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("css", "load"), ("photo", "load")]);
    page.edges("completion-load-raced", &[("bg", "load")]);
    page
}

#[test]
fn an_image_rendering_asked_for_holds_load_only_if_asked_for_before_the_rest_was_in() {
    // The document is in at 10 and parsed by 11; site.css is in at 21 and evaluated by 26, when
    // bg.png is asked for. With photo.png in at 111, bg.png (26..36) was asked for first: load at 111.
    let slow_photo = Box::new(|r: &Request| match r.url.as_str() {
        "https://a.test/photo.png" => vec![Answer::Complete(100.0, 1000)],
        _ => vec![Answer::Complete(10.0, 500)],
    });
    let mut sim = Sim::new(&raced_page().graph(), Options::default(), slow_photo);
    let outcome = sim.run();
    assert_eq!(sim.issued_at("https://a.test/bg.png"), 26.0);
    assert_eq!(outcome.metrics.load_ms, Some(111.0));
    // With photo.png in at 16, everything load waits for is in at 21, before bg.png is asked for:
    // load fires at 21 and bg.png still goes out.
    let fast_photo = Box::new(|r: &Request| match r.url.as_str() {
        "https://a.test/photo.png" => vec![Answer::Complete(5.0, 1000)],
        "https://a.test/bg.png" => vec![Answer::Complete(50.0, 1000)],
        _ => vec![Answer::Complete(10.0, 500)],
    });
    let mut sim = Sim::new(&raced_page().graph(), Options::default(), fast_photo);
    let outcome = sim.run();
    assert_eq!(outcome.metrics.load_ms, Some(21.0));
    assert_eq!(sim.issued_at("https://a.test/bg.png"), 26.0);
}

/// The chunked page as recorded: d0 ended at 5 ms and the parser started 20 ms later, while the
/// navigation committed to the renderer; a script's `document.write` (w) parsed at once after it.
fn committed_page() -> Page {
    let mut page = chunked_page();
    page.set("d0", "/end", 5.into());
    page.set("p0", "/start", 25.into());
    page.script("s", MAIN, 4.0);
    page.parse("w", MAIN, 1.0);
    page.set("s", "/end", 30.into());
    page.set("w", "/start", 30.into());
    page.edges("R3", &[("p0", "s")]);
    page.edges("R4", &[("s", "w")]);
    page.edges("completion-dcl", &[("w", "dcl")]);
    page
}

#[test]
fn a_documents_first_parse_chunk_waits_for_the_recorded_commit_and_no_other_does() {
    let answer = || Box::new(|_: &Request| vec![Answer::Bytes(10.0, 500), Answer::Bytes(60.0, 1000), Answer::Complete(80.0, 1200)]);
    let timed = Options { dispatch_latency: true, ..Options::default() };
    let outcome = Sim::new(&committed_page().graph(), timed, answer()).run();
    // d0 ends at 10; p0 waits the recorded 20 ms: 30..35. p1 follows d1 (60) with no gap of its
    // own, and the script's document.write w follows s (35..39) at once.
    assert_times(&outcome, "p0", 30.0, 35.0);
    assert_times(&outcome, "s", 35.0, 39.0);
    assert_times(&outcome, "w", 39.0, 40.0);
    assert_times(&outcome, "p1", 60.0, 65.0);
    let untimed = Sim::new(&committed_page().graph(), Options::default(), answer()).run();
    assert_times(&untimed, "p0", 10.0, 15.0);
}
