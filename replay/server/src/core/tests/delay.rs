use super::resource;
use crate::core::archive::{Archive, Resource};
use crate::core::delay::*;

fn with(id: &str, mime: &str, resource_type: &str, delay_ms: Option<f64>) -> Resource {
    let mut r = resource(id, &format!("https://a.test/{id}"));
    r.mime = mime.to_string();
    r.resource_type = resource_type.to_string();
    r.delay_ms = delay_ms;
    r
}

/// Scripts measured at 10, 20, 30 and 40 ms, a stylesheet at 5 ms, an outlier script at 2.5 s,
/// and four scripts and an image whose delays the recording could not measure.
fn archive() -> Archive {
    let mut resources = vec![
        with("s1", "text/javascript", "Script", Some(10.0)),
        with("s2", "application/javascript", "Script", Some(40.0)),
        with("s3", "text/javascript", "Script", Some(20.0)),
        with("s4", "text/javascript", "Script", Some(30.0)),
        with("c1", "text/css", "Stylesheet", Some(5.0)),
        with("slow", "text/javascript", "Script", Some(2500.0)),
    ];
    resources
        .extend(["m1", "m2", "m3", "m4"].map(|id| with(id, "text/javascript", "Script", None)));
    resources.push(with("img", "image/png", "Image", None));
    Archive { resources }
}

#[test]
fn classes_come_from_the_mime_type_else_the_resource_type() {
    let cases = [
        ("text/html; charset=utf-8", "Other", "html"),
        ("TEXT/CSS", "Other", "css"),
        ("application/x-javascript", "Other", "script"),
        ("application/ld+json", "XHR", "json"),
        ("image/svg+xml", "Other", "image"),
        ("font/woff2", "Other", "font"),
        ("application/x-font-ttf", "Other", "font"),
        ("video/mp4", "Other", "media"),
        ("text/plain", "Script", "text"),
        ("application/octet-stream", "Script", "script"),
        ("application/octet-stream", "Font", "font"),
        ("", "Document", "html"),
        ("application/octet-stream", "Fetch", "other"),
    ];
    for (mime, resource_type, class) in cases {
        assert_eq!(
            mime_class(mime, resource_type),
            class,
            "{mime} {resource_type}"
        );
    }
}

#[test]
fn samples_keep_measured_delays_without_outliers() {
    let samples = DelaySamples::from_archive(&archive());
    assert_eq!(samples.len(), 5);
    let json: serde_json::Value = serde_json::from_str(&samples.to_json()).unwrap();
    assert_eq!(
        json["samples"]["GET script"],
        serde_json::json!([10.0, 40.0, 20.0, 30.0])
    );
    assert_eq!(json["samples"]["GET css"], serde_json::json!([5.0]));
}

#[test]
fn a_recorded_delay_is_used_as_is() {
    let archive = archive();
    let model = DelayModel::new(
        &archive,
        DelaySamples::from_archive(&archive),
        DelayMode::Recorded,
        7,
    );
    assert_eq!(model.delay_us(0), (10_000, DelaySource::Recorded));
    assert_eq!(model.delay_us(4), (5_000, DelaySource::Recorded));
    // An outlier is kept out of the samples, not out of its own response.
    assert_eq!(model.delay_us(5), (2_500_000, DelaySource::Recorded));
}

#[test]
fn a_missing_delay_is_drawn_from_its_class_then_its_method_then_all() {
    let samples = DelaySamples::parse(
        r#"{"schemaVersion": 1, "kind": "pagepath-server-delays",
            "samples": {"GET script": [10, 20, 30, 40], "GET css": [900], "POST json": [300]}}"#,
        "delays.json",
    )
    .unwrap();
    let mut post_image = with("post", "image/png", "Image", None);
    post_image.method = "POST".to_string();
    let mut put = with("put", "text/css", "Stylesheet", None);
    put.method = "PUT".to_string();
    let mut resources: Vec<Resource> = ["m1", "m2", "m3", "m4"]
        .iter()
        .map(|id| with(id, "text/javascript", "Script", None))
        .collect();
    resources.extend([with("css", "text/css", "Stylesheet", None), post_image, put]);
    let model = DelayModel::new(&Archive { resources }, samples, DelayMode::Recorded, 7);
    for index in 0..4 {
        let (us, source) = model.delay_us(index);
        assert_eq!(source, DelaySource::Drawn);
        assert!(
            (10_000..=40_000).contains(&us),
            "script drawn outside the script samples: {us}"
        );
    }
    assert_eq!(model.delay_us(4), (900_000, DelaySource::Drawn));
    assert_eq!(model.delay_us(5), (300_000, DelaySource::Drawn));
    let (us, source) = model.delay_us(6);
    assert_eq!(source, DelaySource::Drawn);
    assert!((10_000..=900_000).contains(&us), "{us}");
}

#[test]
fn draws_are_fixed_by_the_seed_and_differ_between_seeds() {
    let archive = archive();
    let draws = |seed| {
        let model = DelayModel::new(
            &archive,
            DelaySamples::from_archive(&archive),
            DelayMode::Recorded,
            seed,
        );
        (6..11).map(|i| model.delay_us(i).0).collect::<Vec<u64>>()
    };
    assert_eq!(draws(1), draws(1));
    assert_ne!(draws(1), draws(2));
    // The draw depends on the resource's id, not its position: reordering keeps each delay.
    let mut reversed = archive.resources.clone();
    reversed.reverse();
    let reversed = Archive {
        resources: reversed,
    };
    let model = DelayModel::new(
        &reversed,
        DelaySamples::from_archive(&archive),
        DelayMode::Recorded,
        1,
    );
    let reversed_draws: Vec<u64> = (0..5).rev().map(|i| model.delay_us(i).0).collect();
    assert_eq!(reversed_draws, draws(1));
}

#[test]
fn a_single_sample_is_drawn_exactly_and_no_samples_give_no_delay() {
    let archive = Archive {
        resources: vec![with("x", "text/css", "Stylesheet", None)],
    };
    let samples = DelaySamples::parse(
        r#"{"schemaVersion": 1, "kind": "pagepath-server-delays", "samples": {"GET css": [7.25]}}"#,
        "delays.json",
    )
    .unwrap();
    assert_eq!(
        DelayModel::new(&archive, samples, DelayMode::Recorded, 3).delay_us(0),
        (7_250, DelaySource::Drawn)
    );
    let none = DelayModel::new(&archive, DelaySamples::default(), DelayMode::Recorded, 3);
    assert_eq!(none.delay_us(0), (0, DelaySource::None));
}

#[test]
fn zero_mode_has_no_delays() {
    let archive = archive();
    let model = DelayModel::new(
        &archive,
        DelaySamples::from_archive(&archive),
        DelayMode::Zero,
        7,
    );
    assert!((0..archive.resources.len()).all(|i| model.delay_us(i) == (0, DelaySource::None)));
}

#[test]
fn samples_round_trip_through_json_and_merge() {
    let samples = DelaySamples::from_archive(&archive());
    let again = DelaySamples::parse(&samples.to_json(), "delays.json").unwrap();
    assert_eq!(again.to_json(), samples.to_json());
    let mut merged = again.clone();
    merged.merge(&samples);
    assert_eq!(merged.len(), 10);
    assert!(
        merged.to_json().contains(r#""GET css":[5.0,5.0]"#),
        "{}",
        merged.to_json()
    );
    assert!(DelaySamples::default().is_empty());
}

#[test]
fn bad_sample_files_are_refused_with_the_place() {
    let error = |text: &str| DelaySamples::parse(text, "delays.json").unwrap_err();
    let file = |samples: &str| {
        format!(r#"{{"schemaVersion": 1, "kind": "pagepath-server-delays", "samples": {samples}}}"#)
    };
    assert!(error("nope").starts_with("delays.json: not JSON: "));
    assert_eq!(
        error(r#"{"schemaVersion": 2, "kind": "pagepath-server-delays", "samples": {}}"#),
        "delays.json: schemaVersion: expected 1, got 2"
    );
    assert_eq!(
        error(r#"{"schemaVersion": 1, "kind": "pagepath-graph", "samples": {}}"#),
        "delays.json: kind: expected \"pagepath-server-delays\", got \"pagepath-graph\""
    );
    assert_eq!(
        error(&file("[]")),
        "delays.json: samples: expected an object, got an array"
    );
    assert!(error(&file(r#"{"get script": [1]}"#))
        .starts_with("delays.json: samples: key \"get script\": expected"));
    assert!(error(&file(r#"{"GET scripts": [1]}"#)).contains("class one of html, css, script"));
    assert_eq!(
        error(&file(r#"{"GET script": [1, -2]}"#)),
        "delays.json: samples.GET script[1]: expected a non-negative number of ms, got -2"
    );
    assert_eq!(
        error(&file(r#"{"GET script": 3}"#)),
        "delays.json: samples.GET script: expected an array of numbers, got 3"
    );
}
