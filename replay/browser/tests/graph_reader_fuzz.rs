//! The graph reader fed what a disk may hold (property-based, proptest): a valid graph with a few
//! of its fields changed, dropped or doubled, or cut short, is read or refused with an error naming
//! the place, never a panic; and a graph it accepts runs to its end without one.

mod core_support;

use core_support::*;
use pagepath_browser::core::{parse_graph, Completion, Options};
use proptest::prelude::*;
use serde_json::{json, Value};

/// sync_script_page with what the reader has most to check: a timer, paint markers, a subframe,
/// a fetch with recorded phases, a connection and a raised priority.
fn base_graph() -> Value {
    let mut page = sync_script_page();
    page.frame("sub", Some(MAIN), "sub-dcl", "sub-load");
    page.timer("t", MAIN, 2.0, 10.0);
    page.paint("fcp", "fcp");
    page.paint_rendered("lcp", "lcp", 4.0);
    let hero = page.resource("hero", MAIN, "https://a.test/hero.png", 3);
    hero["resource"]["initialPriority"] = "Low".into();
    hero["resource"]["priority"] = "High".into();
    hero["resource"]["connection"] = json!({"id": 3, "reused": true});
    hero["resource"]["phases"] = json!({"queued": {"start": 1, "end": 2}, "dns": null, "connect": null, "ssl": null,
        "send": {"start": 2, "end": 2.1}, "wait": {"start": 2.1, "end": 9}, "download": {"start": 9, "end": 12}});
    page.edges("R1", &[("p1", "hero")]);
    page.edges("R19", &[("s", "t")]);
    page.edges("paint-fcp", &[("p1", "fcp")]);
    page.edges("paint-lcp", &[("fcp", "lcp"), ("hero", "lcp")]);
    page.edges("completion-load", &[("sub-dcl", "sub-load")]);
    serde_json::from_str(&page.json()).unwrap()
}

/// Every place in `v` (JSON pointers), the document itself first.
fn places(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, c)| places(c, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, c)| places(c, format!("{at}/{i}"), out)),
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Change {
    /// The value at the place becomes this one.
    Set(Value),
    /// The field or item at the place goes.
    Drop,
    /// The item at the place appears twice (a node or edge given twice).
    Double,
}

fn change() -> impl Strategy<Value = Change> {
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop_oneof![Just(-1.0), Just(0.0), Just(1e308), Just(0.5), Just(4e9)].prop_map(Value::from),
        prop::sample::select(vec!["", "d0", "p1", "js", "main", "sub", "load", "High", "VeryLow", "https://a.test/", "x"]).prop_map(Value::from),
        Just(json!([])),
        Just(json!({})),
    ];
    prop_oneof![4 => value.prop_map(Change::Set), 2 => Just(Change::Drop), 1 => Just(Change::Double)]
}

fn apply(doc: &mut Value, place: &str, change: Change) {
    let Some((parent, last)) = place.rsplit_once('/') else {
        if let Change::Set(v) = change {
            *doc = v;
        }
        return;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    match (doc.pointer_mut(parent), change) {
        (Some(Value::Object(m)), Change::Set(v)) => drop(m.insert(key, v)),
        (Some(Value::Object(m)), _) => drop(m.remove(&key)),
        (Some(Value::Array(a)), change) => {
            let i: usize = key.parse().unwrap();
            match change {
                Change::Set(v) => a[i] = v,
                Change::Drop => drop(a.remove(i)),
                Change::Double => a.insert(i, a[i].clone()),
            }
        }
        _ => {}
    }
}

fn read_or_refuse(text: &str) -> Result<(), TestCaseError> {
    match parse_graph(text) {
        Ok(graph) => {
            for wait_for in [Completion::Graph, Completion::Load] {
                let mut sim = Sim::new(&graph, Options { wait_for, dispatch_latency: true, ..Options::default() }, latency(|_| 5.0));
                sim.run();
            }
        }
        Err(e) => prop_assert!(e.starts_with('/') || e.starts_with("not a JSON document"), "an error that names no place: {e}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn a_changed_graph_is_read_or_refused_naming_the_place(changes in prop::collection::vec((any::<prop::sample::Index>(), change()), 1..4)) {
        let mut doc = base_graph();
        for (index, change) in changes {
            let mut all = Vec::new();
            places(&doc, String::new(), &mut all);
            let place = index.get(&all).clone();
            apply(&mut doc, &place, change);
        }
        read_or_refuse(&doc.to_string())?;
    }

    #[test]
    fn a_graph_cut_short_is_refused(at in any::<prop::sample::Index>()) {
        let text = base_graph().to_string();
        let cut = &text[..at.index(text.len())];
        prop_assert!(parse_graph(cut).unwrap_err().starts_with("not a JSON document"));
    }
}
