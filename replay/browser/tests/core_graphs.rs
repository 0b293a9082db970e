//! Reading graph files: the shared test vectors, errors naming the place, and real graphs run
//! with instant responses.
//!
//! Besides graph-builder/test-vectors/valid, the real-graph test reads every *.json in the
//! directories of PAGEPATH_GRAPH_DIRS (separated by ':'), e.g. a built corpus's graphs/; the
//! end-to-end tests (tests/src/replay-clients.test.ts) run real graphs in any case.

mod core_support;

use core_support::*;
use pagepath_browser::core::{parse_graph, Graph, Options, Outcome};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn vectors(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graph-builder/test-vectors").join(kind)
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Result<Graph, String> {
    parse_graph(&std::fs::read_to_string(path).expect("a readable graph file"))
}

#[test]
fn the_invalid_vectors_the_model_depends_on_are_refused_naming_the_place() {
    // The other invalid vectors break fields the model does not read (connection ids, the
    // critical path, misspelt optional fields, request phases): the TypeScript validator refuses those.
    let shape_only = ["bad-connection-id.json", "critical-path-gap.json", "misspelt-field.json", "phases-out-of-order.json"];
    let mut refused = 0;
    for path in json_files(&vectors("invalid")) {
        if shape_only.iter().any(|name| path.ends_with(name)) {
            continue;
        }
        let expect = std::fs::read_to_string(path.with_extension("expect.txt")).expect("an expect.txt");
        match read(&path) {
            Ok(_) => panic!("{} was accepted", path.display()),
            Err(e) => assert!(e.contains(expect.trim()), "{}: {e:?} does not name {expect:?}", path.display()),
        }
        refused += 1;
    }
    assert_eq!(refused, 11);
}

#[test]
fn errors_name_the_json_place() {
    let mut page = sync_script_page();
    page.set("p0", "/duration", serde_json::Value::String("5".into()));
    assert_eq!(parse_graph(&page.json()).err().unwrap(), "/nodes/3/duration: must be a number");
    let text = sync_script_page().json().replace("\"schemaVersion\":1", "\"schemaVersion\":2");
    let error = parse_graph(&text).err().unwrap();
    assert!(error.starts_with("/schemaVersion: graph schema version 2 is not supported"), "{error}");
}

/// Every request completes 1 ms after it is handed out.
fn run_instantly(graph: &Graph, preloader: bool) -> Outcome {
    let mut sim = Sim::new(graph, Options { preloader, ..Options::default() }, latency(|_| 1.0));
    let outcome = sim.run();
    assert!(sim.browser.is_finished(), "stalled: {:?}", sim.browser.waiting_for());
    outcome
}

fn check_run(name: &str, graph: &Graph, preloader: bool) {
    let outcome = run_instantly(graph, preloader);
    let timings: BTreeMap<&str, (f64, f64)> = outcome.node_timings.iter().map(|t| (t.node_id.as_str(), (t.start, t.end))).collect();
    assert_eq!(timings.len(), outcome.node_timings.len(), "{name}: a node was timed twice");
    assert_eq!(timings.len(), graph.emulated_node_count(), "{name}: not every node ran");
    assert!(outcome.metrics.load_ms.is_some(), "{name}: no load time");
    for (id, (start, end)) in &timings {
        assert!(start <= end, "{name}: {id} ends at {end} before it starts at {start}");
        // With the preloader a preloaded resource may start before its tag's parse chunk ends.
        if preloader {
            continue;
        }
        for parent in graph.parent_ids(id) {
            let parent_end = timings[parent].1;
            assert!(parent_end <= *start, "{name}: {id} starts at {start} before its parent {parent} ends at {parent_end}");
        }
    }
}

#[test]
fn real_graphs_run_to_the_end_with_instant_responses() {
    let dirs = std::env::var("PAGEPATH_GRAPH_DIRS").unwrap_or_default();
    let mut files = json_files(&vectors("valid"));
    for dir in dirs.split(':').map(Path::new).filter(|d| d.is_dir()) {
        files.extend(json_files(dir));
    }
    for path in &files {
        let name = path.display().to_string();
        let graph = read(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_run(&name, &graph, false);
        check_run(&name, &graph, true);
    }
    println!("ran {} graphs", files.len());
}

#[test]
fn the_same_inputs_give_the_same_run() {
    let graph = read(&vectors("valid").join("two-frames.json")).unwrap();
    let first = run_instantly(&graph, true);
    assert_eq!(first, run_instantly(&graph, true));
    // The iframe (F2) loads before the main frame's load event.
    assert!(timing(&first, "fload").1 <= first.metrics.load_ms.unwrap());
}
