//! When requests leave the model, as Chromium's do (issue 21): priorities a layout raises, the
//! network stack taking released requests up one at a time, and the way to the network that a
//! never-held request spends before its headers go.

mod core_support;

use core_support::*;
use pagepath_browser::core::{Completion, Ms, Options, Request};
use serde_json::{json, Value};

/// A request's phases as graph.md has them: asked at `asked`, at the network stack at `started`,
/// sent at `sent`, its connection set up from `setup.0` to `setup.1` if it made one.
fn phases(asked: f64, started: f64, setup: Option<(f64, f64)>, sent: f64) -> Value {
    let span = |s: f64, e: f64| json!({"start": s, "end": e});
    json!({
        "queued": span(asked, started),
        "dns": null,
        "connect": setup.map(|(s, e)| span(s, e)),
        "ssl": null,
        "send": span(sent, sent + 0.1),
        "wait": span(sent + 0.1, sent + 30.0),
        "download": span(sent + 30.0, sent + 31.0),
    })
}

/// d0 -> p0 (5 ms) asks for a style sheet, two scripts and an image; a rendering r0 (3 ms)
/// follows p0; the parser reaches `<body>` in p1, after script s1 (a.js) ran. With
/// `image_tag_in_p1`, the image's tag is in p1 and the preload scanner found it in d0.
fn head_page(image_made_as: &str, image_raised_to: &str, image_tag_in_p1: bool) -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 5.0);
    page.set("p0", "/parse", json!({"url": "https://a.test/", "startLine": 0, "endLine": 1, "index": 0, "last": false, "bodyReached": false}));
    page.resource("css", MAIN, "https://a.test/a.css", 1)["resource"]["priority"] = "VeryHigh".into();
    page.resource("js1", MAIN, "https://a.test/a.js", 2);
    page.resource("js2", MAIN, "https://a.test/b.js", 2);
    let img = page.resource("img", MAIN, "https://a.test/i.png", 3);
    img["resource"]["priority"] = image_raised_to.into();
    img["resource"]["initialPriority"] = image_made_as.into();
    img["resource"]["resourceType"] = "Image".into();
    page.render("r0", 3.0);
    page.script("s1", MAIN, 1.0);
    page.parse("p1", MAIN, 1.0);
    page.set("p1", "/parse", json!({"url": "https://a.test/", "startLine": 1, "endLine": 2, "index": 1, "last": true, "bodyReached": true}));
    page.edges("R3", &[("d0", "p0"), ("p0", "p1"), ("d0", "p1")]);
    page.edges("R1", &[("p0", "css"), ("p0", "js1"), ("p0", "js2"), (if image_tag_in_p1 { "p1" } else { "p0" }, "img")]);
    if image_tag_in_p1 {
        page.edges("preload", &[("d0", "css"), ("d0", "js1"), ("d0", "js2"), ("d0", "img")]);
    }
    page.edges("render", &[("p0", "r0")]);
    page.edges("R10", &[("js1", "s1")]);
    page.edges("R4", &[("s1", "p1")]);
    page.edges("completion-dcl", &[("p1", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("css", "load"), ("js2", "load"), ("img", "load"), ("r0", "load")]);
    page
}

fn head_latency(url: &str) -> f64 {
    match url {
        "https://a.test/" => 20.0,
        "https://a.test/a.css" => 50.0,
        "https://a.test/i.png" => 10.0,
        _ => 60.0,
    }
}

fn image_sent_at(made_as: &str, raised_to: &str) -> f64 {
    image_sent_at_with_tag(made_as, raised_to, false)
}

fn image_in_viewport_sent_at(made_as: &str, raised_to: &str) -> f64 {
    let mut page = head_page(made_as, raised_to, false);
    page.set("img", "/resource/inViewport", true.into());
    let mut sim = Sim::new(&page.graph(), Options::default(), latency(head_latency));
    sim.run();
    sim.issued_at("https://a.test/i.png")
}

fn image_sent_at_with_tag(made_as: &str, raised_to: &str, tag_in_p1: bool) -> f64 {
    let mut sim = Sim::new(&head_page(made_as, raised_to, tag_in_p1).graph(), Options::default(), latency(head_latency));
    sim.run();
    sim.issued_at("https://a.test/i.png")
}

#[test]
fn an_image_a_layout_raises_goes_when_the_page_is_rendered() {
    // The document is in at 20, p0 runs 20..25 and asks for all four; three important requests
    // are in flight, so a Low image waits (resource_scheduler.rs, tight mode).
    assert_eq!(image_sent_at("Low", "High"), 28.0, "raised to High by r0's layout, 25..28: it goes then");
    assert_eq!(image_sent_at("Low", "Low"), 85.0, "never raised: it waits until fewer than two head requests are in flight (both scripts end at 85)");
    assert_eq!(image_sent_at("High", "High"), 25.0, "made High: it goes when asked for");
}

#[test]
fn a_rendering_raises_an_image_in_the_viewport_the_recording_never_raised() {
    // The recording's layout came after the image had loaded, so it shows no raise; the final
    // layout drew it in the viewport, so r0's layout (25..28) raises it as Chromium would.
    assert_eq!(image_in_viewport_sent_at("Low", "Low"), 28.0, "raised to High by r0's layout: it goes then, not at 85");
    assert_eq!(image_in_viewport_sent_at("Low", "Medium"), 28.0, "the recorded raise to Medium would not have let it go");
    assert_eq!(image_in_viewport_sent_at("VeryHigh", "VeryHigh"), 25.0, "an image made above High is never lowered");
}

#[test]
fn a_rendering_raises_only_an_image_whose_tag_the_parser_has_inserted() {
    // The preload scanner asks for the head's requests and then the image at 20, as the document
    // is in: three are in flight, so the Low image waits. Its tag is in p1, which runs only after
    // a.js ran (80..81). r0's layout (25..28) cannot place an image not yet in the DOM, so it
    // stays Low, held until fewer than two head requests are in flight (both scripts end at 80).
    assert_eq!(image_sent_at_with_tag("Low", "High", true), 80.0, "not raised by r0 to go at 28");
}

/// d0 -> p0 (1 ms), which ended at 1 ms in the recording; its requests are the caller's to add.
fn one_parse_page() -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 1.0);
    page.set("p0", "/end", 1.into());
    page.edges("R3", &[("d0", "p0")]);
    page.edges("completion-dcl", &[("p0", "dcl")]);
    page.edges("completion-load", &[("dcl", "load")]);
    page
}

/// Seven images asked for together at 1 ms, a Low priority each and the body reached, so no
/// renderer scheduler holds them: the recording's network service took them up 0.5 ms apart
/// (`networkStartMs`), with no response in between.
fn burst_page() -> Page {
    burst_of(7)
}

fn burst_of(images: usize) -> Page {
    let mut page = one_parse_page();
    for i in 0..images {
        let id = format!("img{i}");
        let started = 10.0 + 0.5 * i as f64;
        let img = add_image(&mut page, &id, "p0", 1.0);
        img["resource"]["phases"] = phases(1.0, started, None, started);
        img["resource"]["networkStartMs"] = started.into();
    }
    page
}

/// A Low image at `https://a.test/{n}.png` for node `img{n}`, asked for at `asked` by `parse`,
/// which the load event waits for.
fn add_image<'p>(page: &'p mut Page, id: &str, parse: &str, asked: f64) -> &'p mut Value {
    page.edges("R1", &[(parse, id)]);
    page.edges("completion-load", &[(id, "load")]);
    let img = page.resource(id, MAIN, &format!("https://a.test/{}.png", id.trim_start_matches("img")), 3);
    img["start"] = asked.into();
    img["resource"]["priority"] = "Low".into();
    img["resource"]["resourceType"] = "Image".into();
    img
}

#[test]
fn requests_released_together_start_as_far_apart_as_the_recording_started_them() {
    let graph = burst_page().graph();
    let starts = |options: Options| {
        let mut sim = Sim::new(&graph, options, latency(|_| 20.0)).http2_connection(0.0, "https://a.test");
        sim.run();
        (0..7).map(|i| sim.issued_at(&format!("https://a.test/{i}.png"))).collect::<Vec<_>>()
    };
    // The document is in at 20, p0 runs 20..21 and asks for the seven. The network service takes
    // them up at 21, 21.5, ... 24; the first leaves at once, the others' sends wait behind the
    // starts queued before them, so they leave together after the last.
    assert_eq!(starts(Options { dispatch_latency: true, ..Options::default() }), [vec![21.0], vec![24.0; 6]].concat());
    assert_eq!(starts(Options::default()), vec![21.0; 7], "without recorded dispatch costs, all at once");
    let mut page = burst_page();
    page.set("img1", "/end", 10.7.into());
    page.set("img4", "/end", 12.2.into());
    let graph = page.graph();
    let mut sim = Sim::new(&graph, Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0)).http2_connection(0.0, "https://a.test");
    sim.run();
    assert_eq!(sim.issued_at("https://a.test/6.png") - sim.issued_at("https://a.test/0.png"), 0.0, "responses between two pairs of starts leave four gaps, too few to tell a spacing");
}

#[test]
fn a_request_reaching_the_network_service_while_it_takes_up_a_batch_waits_behind_it_and_holds_back_what_it_had_not_started() {
    let mut page = burst_page();
    // A second parse chunk (21..22 in the replay) asks for an eighth image as it ends: it reaches
    // the network service at 22, in the middle of the seven's starts (21 to 24).
    page.parse("p1", MAIN, 1.0);
    page.set("p1", "/start", 1.into());
    page.set("p1", "/end", 2.into());
    page.set("p1", "/parse", json!({"url": "https://a.test/", "startLine": 1, "endLine": 2, "index": 1, "last": true}));
    page.edges("R3", &[("p0", "p1"), ("d0", "p1")]);
    add_image(&mut page, "img7", "p1", 2.0);
    let mut sim = Sim::new(&page.graph(), Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0)).http2_connection(0.0, "https://a.test");
    sim.run();
    let sent: Vec<f64> = (0..8).map(|i| sim.issued_at(&format!("https://a.test/{i}.png"))).collect();
    // Taken up 0.5 ms after the seventh. The images started by 22 had their sends queued before it
    // came, behind the seventh's start; those started later wait for its start too.
    assert_eq!(sent, vec![21.0, 24.0, 24.0, 24.5, 24.5, 24.5, 24.5, 24.5]);
}

#[test]
fn a_request_that_needs_a_new_connection_sets_it_up_as_it_is_taken_up_not_after_the_batch() {
    let mut page = burst_page();
    page.set("img3", "/resource/url", "https://b.test/3.png".into());
    page.set("img3", "/resource/origin", "https://b.test".into());
    let mut sim = Sim::new(&page.graph(), Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0)).http2_connection(0.0, "https://a.test");
    sim.run();
    let sent: Vec<f64> = (0..7).map(|i| sim.issued_at(&format!("https://{}.test/{i}.png", if i == 3 { "b" } else { "a" }))).collect();
    // The batch is taken up at 21, 21.5, ... 24; the request to b.test, the first there, goes to its
    // transport as it is taken up, at 22.5, and the others leave together after the last start.
    assert_eq!(sent, vec![21.0, 24.0, 24.0, 22.5, 24.0, 24.0, 24.0]);
}

#[test]
fn a_request_no_scheduler_holds_waits_as_long_as_the_recorded_one_took_to_be_sent() {
    // p0 ended at 1 in the recording, and asked for all four at once.
    let mut page = one_parse_page();
    let mut add = |id: &str, priority: &str, phases: Value, connection: Value| {
        let r = page.resource(id, MAIN, &format!("https://a.test/{id}"), 2);
        r["start"] = 1.into();
        // "Low>High": made Low, raised to High by a layout.
        let (made, last) = priority.split_once('>').unwrap_or((priority, priority));
        r["resource"]["initialPriority"] = made.into();
        r["resource"]["priority"] = last.into();
        r["resource"]["phases"] = phases;
        r["resource"]["connection"] = connection;
    };
    let reused = |id: u64| json!({"id": id, "reused": true});
    // Sent 20 ms after it was asked for, on a connection open since the document.
    add("open", "High", phases(1.0, 19.0, None, 21.0), reused(1));
    // Set up a connection from 5 to 15 and sent at 21: 10 ms of its own way, the rest the set-up.
    add("fresh", "High", phases(1.0, 5.0, Some((5.0, 15.0)), 21.0), json!({"id": 2, "reused": false}));
    // Waited for that connection: its wait is the model transport's, not a dispatch cost.
    add("waited", "High", phases(1.0, 16.0, None, 16.0), reused(2));
    // A Low request may be held, which hides its own way: it takes the page's usual one, the
    // median of the others' (20, 10 and none: 20).
    add("low", "Low", phases(1.0, 40.0, None, 41.0), reused(1));
    // Made Low and raised to High by a layout: held as Low, so its recorded send includes the hold
    // that the model makes itself, and it takes the usual way too.
    add("raised", "Low>High", phases(1.0, 40.0, None, 41.0), reused(1));
    for id in ["open", "fresh", "waited", "low", "raised"] {
        page.edges("R1", &[("p0", id)]);
        page.edges("completion-load", &[(id, "load")]);
    }
    let mut sim = Sim::new(&page.graph(), Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0));
    sim.run();
    // The document is in at 20 and p0 runs 20..21.
    let after_p0 = |id: &str| sim.issued_at(&format!("https://a.test/{id}")) - 21.0;
    assert_eq!((after_p0("open"), after_p0("fresh"), after_p0("waited"), after_p0("low")), (20.0, 10.0, 0.0, 20.0));
    assert_eq!(after_p0("raised"), 20.0, "a raised image's recorded send held it once already");
}

/// A style sheet (VeryHigh) or script of p0 at `https://a.test/{id}`, asked for at `asked` and sent
/// at `sent` in the recording, on the document's connection.
fn add_sent(page: &mut Page, id: &str, priority: &str, asked: f64, sent: f64) {
    let r = page.resource(id, MAIN, &format!("https://a.test/{id}"), 2);
    r["start"] = asked.into();
    r["resource"]["priority"] = priority.into();
    r["resource"]["resourceType"] = (if priority == "VeryHigh" { "Stylesheet" } else { "Script" }).into();
    r["resource"]["phases"] = phases(asked, sent, None, sent);
    r["resource"]["connection"] = json!({"id": 1, "reused": true});
}

#[test]
fn requests_are_asked_for_in_the_recorded_order_and_a_hold_hides_their_way_to_the_network() {
    // p0 ended at 1 in the recording. The preload scanner asked for a Low async script at 1, then
    // two style sheets (sent 0.5 ms later) at 2 and another Low script at 3. The two Low scripts
    // may be held, so they take the page's usual way: the median of 0.5, 0.5, 10 and 10.
    let mut page = one_parse_page();
    let mut add = |id: &str, priority: &str, asked: f64, sent: f64| add_sent(&mut page, id, priority, asked, sent);
    add("async", "Low", 1.0, 60.0);
    add("css1", "VeryHigh", 2.0, 2.5);
    add("css2", "VeryHigh", 2.0, 2.5);
    add("head", "High", 2.0, 12.0);
    add("head2", "High", 2.0, 12.0);
    add("late", "Low", 3.0, 90.0);
    for id in ["async", "css1", "css2", "head", "head2", "late"] {
        page.edges("R1", &[("p0", id)]);
        page.edges("completion-load", &[(id, "load")]);
    }
    // The parser reaches `<body>` only after the second head script has run.
    page.set("p0", "/parse", json!({"url": "https://a.test/", "startLine": 0, "endLine": 1, "index": 0, "last": false, "bodyReached": false}));
    page.script("s", MAIN, 1.0);
    page.parse("p1", MAIN, 1.0);
    page.set("p1", "/parse", json!({"url": "https://a.test/", "startLine": 1, "endLine": 2, "index": 1, "last": true, "bodyReached": true}));
    page.edges("R10", &[("head2", "s")]);
    page.edges("R4", &[("s", "p1")]);
    page.edges("R3", &[("p0", "p1"), ("d0", "p1")]);
    let mut sim = Sim::new(&page.graph(), Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0));
    sim.run();
    // The document is in at 20 and p0 runs 20..21. The async script is asked for at 21, while
    // nothing is in flight: it goes, and reaches the network stack 10 ms later.
    assert_eq!(sim.issued_at("https://a.test/async"), 31.0);
    assert_eq!(sim.issued_at("https://a.test/css1"), 22.5);
    // Asked for at 23 with five in flight, it waits until fewer than two are: the style sheets
    // end at 42.5, the async script at 51, the head scripts at 52. Its way (10 ms) was made
    // while it waited.
    assert_eq!(sim.issued_at("https://a.test/late"), 52.0);
}

#[test]
fn a_held_request_reaches_the_network_stack_no_sooner_than_one_asked_for_before_it() {
    // p0 ended at 1 in the recording. It asked for a style sheet that took 30 ms to be sent and
    // three scripts that took 5, then a Low script: that one may be held, so it takes the page's
    // usual way (the median: 5 ms), yet the renderer's requests reach the network service in
    // order, so it gets there only after the style sheet.
    let mut page = one_parse_page();
    let mut add = |id: &str, priority: &str, asked: f64, sent: f64| add_sent(&mut page, id, priority, asked, sent);
    add("css", "VeryHigh", 1.0, 31.0);
    for id in ["h1", "h2", "h3"] {
        add(id, "High", 1.0, 6.0);
    }
    add("low", "Low", 2.0, 90.0);
    for id in ["css", "h1", "h2", "h3", "low"] {
        page.edges("R1", &[("p0", id)]);
        page.edges("completion-load", &[(id, "load")]);
    }
    let mut sim = Sim::new(&page.graph(), Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0));
    sim.run();
    // The document is in at 20 and p0 runs 20..21; the Low script is asked for at 22.
    assert_eq!(sim.issued_at("https://a.test/h1"), 26.0);
    assert_eq!(sim.issued_at("https://a.test/css"), 51.0);
    assert_eq!(sim.issued_at("https://a.test/low"), 51.0, "not at 27, ahead of the style sheet asked for before it");
}

#[test]
fn each_frame_holds_its_own_requests_until_its_own_parser_reaches_body() {
    // The main frame's parser reaches <body> in p0 (20..21), then asks for an iframe; the iframe's
    // head (fp0, before its body) asks for a style sheet and two Low images. Blink keeps a
    // scheduler per document: the iframe's images wait in its tight mode (two throttled requests in
    // flight, its sheet and the first image) until its parser reaches <body> in fp1, after the
    // sheet (25 ms) has been evaluated.
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 1000), 1000);
    page.parse("p0", MAIN, 1.0);
    page.frame("F2", Some(MAIN), "fdcl", "fload");
    page.download("fd0", "F2", "https://b.test/frame.html", (0, 0, 500), 500);
    page.parse("fp0", "F2", 1.0);
    page.set("fp0", "/parse", json!({"url": "https://b.test/frame.html", "startLine": 0, "endLine": 1, "index": 0, "last": false, "bodyReached": false}));
    page.resource("sheet", "F2", "https://b.test/f.css", 1)["resource"]["priority"] = "VeryHigh".into();
    for (id, url) in [("img1", "https://b.test/1.png"), ("img2", "https://b.test/2.png")] {
        let r = page.resource(id, "F2", url, 3);
        r["resource"]["priority"] = "Low".into();
        r["resource"]["resourceType"] = "Image".into();
    }
    page.css("css", "F2", 1.0);
    page.parse("fp1", "F2", 1.0);
    page.set("fp1", "/parse", json!({"url": "https://b.test/frame.html", "startLine": 1, "endLine": 2, "index": 1, "last": true, "bodyReached": true}));
    page.edges("R3", &[("d0", "p0"), ("fd0", "fp0"), ("fp0", "fp1"), ("fd0", "fp1")]);
    page.edges("R5", &[("p0", "fd0")]);
    page.edges("R1", &[("fp0", "sheet"), ("fp0", "img1"), ("fp0", "img2")]);
    page.edges("R18", &[("sheet", "css")]);
    page.edges("R12", &[("css", "fp1")]);
    page.edges("completion-dcl", &[("p0", "dcl"), ("fp1", "fdcl")]);
    page.edges("completion-load", &[("fdcl", "fload"), ("img1", "fload"), ("img2", "fload"), ("fload", "load"), ("dcl", "load")]);
    let mut sim = Sim::new(&page.graph(), Options::default(), latency(|url| if url.ends_with(".css") { 25.0 } else { 20.0 }));
    sim.run();
    // The main document is in at 20 and p0 runs 20..21; the frame's document is in at 41, fp0
    // runs 41..42 and asks for the sheet and the images.
    assert_eq!(sim.issued_at("https://b.test/f.css"), 42.0);
    assert_eq!(sim.issued_at("https://b.test/1.png"), 42.0, "one throttled request in flight: the first image goes");
    // The first image ends at 62, which frees the second, before fp1 reaches <body> (68..69, after
    // the sheet's evaluation 67..68).
    assert_eq!(sim.issued_at("https://b.test/2.png"), 62.0, "held in the iframe's tight mode, though the main frame reached <body>");
}

/// The load event fires when p0 ends; an inline script s0 after p0 (10 ms, not holding load)
/// fetches a prefetch (VeryLow) and arms a timer that fetches once more after `timeout_ms`.
fn after_load_page(timeout_ms: f64) -> Page {
    let mut page = one_parse_page();
    page.script("s0", MAIN, 10.0);
    page.resource("pf", MAIN, "https://a.test/next.html", 5)["resource"]["priority"] = "VeryLow".into();
    page.timer("t", MAIN, 1.0, timeout_ms);
    page.resource("late", MAIN, "https://a.test/late.json", 5);
    page.edges("R12", &[("p0", "s0")]);
    page.edges("R2", &[("s0", "pf"), ("t", "late")]);
    page.edges("R19", &[("s0", "t")]);
    page
}

#[test]
fn waiting_for_load_runs_on_while_a_request_could_follow_within_chromiums_quiet_period() {
    let run = |timeout_ms: f64| {
        let options = Options { wait_for: Completion::Load, ..Options::default() };
        let mut sim = Sim::new(&after_load_page(timeout_ms).graph(), options, latency(|_| 20.0));
        let outcome = sim.run();
        (outcome.metrics.load_ms, sim.issued_urls())
    };
    // The document is in at 20, p0 runs 20..21 and the load event fires; s0 runs 21..31.
    let (load, urls) = run(500.0);
    assert_eq!(load, Some(21.0), "the run going on does not move the load event");
    assert!(urls.contains(&"https://a.test/next.html".to_string()), "the prefetch s0 makes after the load event is in the run: {urls:?}");
    assert!(urls.contains(&"https://a.test/late.json".to_string()), "a timer due 500 ms after the network went quiet fetches within the period: {urls:?}");
    let (_, urls) = run(5000.0);
    assert!(!urls.contains(&"https://a.test/late.json".to_string()), "a timer due 5 s later is past the quiet period: {urls:?}");
}

#[test]
fn a_hosts_low_priority_requests_wait_six_at_a_time_until_a_connection_to_it_spoke_http2_and_a_request_ended() {
    let graph = burst_of(8).graph();
    // The first image is answered in 20 ms, the others in 100: asked for at 21, it ends at 41.
    let starts = |http2_at: Option<f64>| {
        let sim = Sim::new(&graph, Options::default(), latency(|url| if url.ends_with(".png") && !url.ends_with("/0.png") { 100.0 } else { 20.0 }));
        let mut sim = match http2_at {
            Some(at) => sim.http2_connection(at, "https://a.test"),
            None => sim,
        };
        sim.run();
        (0..8).map(|i| sim.issued_at(&format!("https://a.test/{i}.png"))).collect::<Vec<_>>()
    };
    assert_eq!(starts(Some(0.0)), vec![21.0; 8], "known before they are asked for: all at once");
    assert_eq!(starts(None), [vec![21.0; 6], vec![41.0, 121.0]].concat(), "never known: six in flight to the host");
    assert_eq!(starts(Some(30.0)), [vec![21.0; 6], vec![41.0, 41.0]].concat(), "known at 30, but the scheduler looks again only as the first image ends");
}

/// A document recorded on loopback: one parse chunk p0 holds head and body and needs both download
/// chunks; the `<body>` tag ends at `body_byte`. Two head scripts (High) and a body image (Low),
/// all found by the preload scanner in the first chunk, which arrives at 10 ms; the second at 200.
fn body_in_first_chunk_page(body_byte: u64) -> Page {
    let mut page = Page::new("d0");
    page.download("d0", MAIN, "https://a.test/", (0, 0, 500), 1000);
    page.download("d1", MAIN, "https://a.test/", (1, 500, 500), 1000);
    page.parse("p0", MAIN, 5.0);
    page.set("p0", "/parse", json!({"url": "https://a.test/", "startLine": 0, "endLine": 40, "index": 0, "last": true, "bodyReached": true, "bodyByte": body_byte}));
    page.resource("js1", MAIN, "https://a.test/a.js", 2);
    page.resource("js2", MAIN, "https://a.test/b.js", 2);
    add_image(&mut page, "img", "p0", 12.0);
    page.edges("R9", &[("d0", "d1")]);
    page.edges("R3", &[("d1", "p0")]);
    page.edges("R1", &[("p0", "js1"), ("p0", "js2")]);
    page.edges("preload", &[("d0", "js1"), ("d0", "js2"), ("d0", "img")]);
    page.edges("completion-dcl", &[("p0", "dcl")]);
    page.edges("completion-load", &[("dcl", "load"), ("js1", "load"), ("js2", "load")]);
    page
}

fn body_image_sent_at(body_byte: u64) -> Ms {
    let answer = Box::new(|r: &Request| match r.url.as_str() {
        "https://a.test/" => vec![Answer::Bytes(10.0, 500), Answer::Complete(200.0, 1000)],
        _ => vec![Answer::Complete(300.0, 1000)],
    });
    let mut sim = Sim::new(&body_in_first_chunk_page(body_byte).graph(), Options::default(), answer);
    sim.run();
    sim.issued_at("https://a.test/.png")
}

#[test]
fn the_parser_reaches_the_body_as_the_bytes_up_to_its_tag_arrive() {
    // The scripts are in flight from 10 ms, so the Low image is held while the parser is in the
    // head (tight mode). The <body> tag is in the first chunk: the parser is past it at 10 ms,
    // long before p0's other bytes (200 ms) and p0's end (205 ms).
    assert_eq!(body_image_sent_at(400), 10.0);
    // In the second chunk: past it when that chunk is in.
    assert_eq!(body_image_sent_at(600), 200.0);
}

#[test]
fn requests_to_one_host_are_sent_in_the_order_they_were_taken_up_not_the_recorded_send_order() {
    // p0 ended at 1 in the recording and asked for a head script (High) and then a style sheet
    // (VeryHigh). The network service took the script up first (at 3, the sheet at 4), but the
    // recording's one HTTP/2 connection sent the sheet first (at 10, the script at 11): the
    // script goes no later than the sheet. A style sheet to another host keeps its own send.
    let mut page = one_parse_page();
    let mut add = |id: &str, priority: &str, url: &str, taken_up: f64, sent: f64| {
        let r = page.resource(id, MAIN, url, 2);
        r["start"] = 2.0.into();
        r["resource"]["priority"] = priority.into();
        r["resource"]["resourceType"] = (if priority == "VeryHigh" { "Stylesheet" } else { "Script" }).into();
        r["resource"]["phases"] = phases(2.0, taken_up, None, sent);
        r["resource"]["networkStartMs"] = taken_up.into();
        r["resource"]["connection"] = json!({"id": 1, "reused": true});
    };
    add("script", "High", "https://a.test/script.js", 3.0, 11.0);
    add("sheet", "VeryHigh", "https://a.test/sheet.css", 4.0, 10.0);
    add("other", "VeryHigh", "https://b.test/other.css", 5.0, 6.0);
    for id in ["script", "sheet", "other"] {
        page.edges("R1", &[("p0", id)]);
        page.edges("completion-load", &[(id, "load")]);
    }
    let mut sim = Sim::new(&page.graph(), Options { dispatch_latency: true, ..Options::default() }, latency(|_| 20.0));
    sim.run();
    // The document is in at 20 and p0 runs 20..21: the script goes 10 ms after, as recorded.
    let (script, sheet) = (sim.issued_at("https://a.test/script.js"), sim.issued_at("https://a.test/sheet.css"));
    assert_eq!(script, 31.0);
    assert!(sheet > script && sheet < script + 0.01, "the sheet right after the script, not at 30: {sheet}");
    assert_eq!(sim.issued_at("https://b.test/other.css"), 26.0, "another host's request keeps its recorded send");
}
