//! The link emulator's readers of user input, fed what a disk or a command line may hold
//! (property-based, proptest): Mahimahi traces, topology files and Mahimahi shell arguments must
//! answer Ok or an Err naming the place, never panic, and never hang on large input.

use pagepath_link::core::trace::parse_trace;
use pagepath_link::topology::mahimahi::parse_shell;
use pagepath_link::topology::{parse_topology, ParseContext};
use proptest::prelude::*;

fn context() -> ParseContext {
    ParseContext { source: "fuzz.json".into(), base_dir: std::env::temp_dir(), fallback_seed: 1, seed_override: None }
}

/// Lines that are mostly timestamps, now and then anything, so parsing gets past the first line.
fn trace_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![8 => (0u64..100_000).prop_map(|n| n.to_string()), 1 => any::<String>(), 1 => Just(String::new()), 1 => Just("18446744073709551616".to_string())];
    (prop::collection::vec(line, 0..60), any::<bool>()).prop_map(|(lines, newline)| lines.join("\n") + if newline { "\n" } else { "" })
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(serde_json::Value::from),
        (0u64..200).prop_map(serde_json::Value::from),
        prop::sample::select(vec!["droptail", "red", "codel", "infinite", "bernoulli", "gilbert-elliott", "x", ""]).prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        let keys = prop::sample::select(vec![
            "schemaVersion", "paths", "uplink", "downlink", "delayMs", "rateMbit", "trace", "once", "loss", "queue", "jitterMs",
            "type", "packets", "bytes", "bdp", "minTh", "maxTh", "model", "p", "r", "rate", "uniform", "name", "backup", "seed", "mptcp",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(keys.prop_map(String::from), inner, 0..6).prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn a_trace_is_read_or_refused_with_its_line(text in trace_text()) {
        match parse_trace(&text) {
            Ok(times) => prop_assert!(!times.is_empty() && times.windows(2).all(|w| w[0] <= w[1])),
            Err(e) => prop_assert!(e.starts_with("line ") || e == "no timestamps", "{e}"),
        }
    }

    #[test]
    fn a_topology_is_read_or_refused_naming_the_file(v in json_value(), version in any::<bool>()) {
        let mut v = v;
        // Usually the right version, so that parsing goes past it into the paths.
        if let (true, Some(m)) = (version, v.as_object_mut()) { m.insert("schemaVersion".into(), 1.into()); }
        if let Err(e) = parse_topology(&v.to_string(), &context()) {
            prop_assert!(e.starts_with("fuzz.json: "), "{e}");
        }
    }

    #[test]
    fn mahimahi_shell_arguments_are_read_or_refused(args in prop::collection::vec(prop_oneof![
        prop::sample::select(vec!["delay", "mm-link", "link", "loss", "uplink", "downlink", "--once", "--", "--uplink-queue=droptail", "--downlink-queue-args=packets=5", "10", "0.5", "-1", "x"]).prop_map(String::from),
        any::<String>(),
    ], 0..8)) {
        let _ = parse_shell(&args, &context());
    }
}
