//! Server processing delays (seed 001 §3.4.1): each response waits for its recorded delay; where
//! the recording could not measure one, for a delay drawn from the empirical distribution of its
//! kind of content and request method.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value;

use super::archive::Archive;
use super::json::{self, Object};
use super::rng;

const CLASSES: [&str; 9] = [
    "html", "css", "script", "json", "image", "font", "media", "text", "other",
];

/// The kind of content a delay distribution is kept for, by MIME type, else by CDP's resource
/// type (servers often send a generic type such as application/octet-stream).
/// A MIME type without its parameters, lowercase: "text/html; charset=utf-8" -> "text/html".
pub fn mime_essence(mime: &str) -> String {
    mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

pub fn mime_class(mime: &str, resource_type: &str) -> &'static str {
    let essence = mime_essence(mime);
    let by_mime = match essence.as_str() {
        "text/html" | "application/xhtml+xml" => Some("html"),
        "text/css" => Some("css"),
        m if m.ends_with("javascript") || m.ends_with("ecmascript") => Some("script"),
        m if m == "application/json" || m == "text/json" || m.ends_with("+json") => Some("json"),
        m if m.starts_with("image/") => Some("image"),
        m if m.starts_with("font/")
            || m.contains("font-")
            || m == "application/vnd.ms-fontobject" =>
        {
            Some("font")
        }
        m if m.starts_with("audio/") || m.starts_with("video/") => Some("media"),
        m if m.starts_with("text/") || m == "application/xml" => Some("text"),
        _ => None,
    };
    by_mime.unwrap_or(match resource_type {
        "Document" => "html",
        "Stylesheet" => "css",
        "Script" => "script",
        "Image" => "image",
        "Font" => "font",
        "Media" => "media",
        _ => "other",
    })
}

/// The thesis found servers answer within a second; longer measurements are taken for stalls
/// of the measurement, not the server, and kept out of the distributions.
const OUTLIER_MS: f64 = 1000.0;

/// Delay samples in ms, keyed by `"<METHOD> <class>"` (e.g. `"GET script"`).
#[derive(Clone, Debug, Default)]
pub struct DelaySamples {
    samples: BTreeMap<String, Vec<f64>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SamplesFile<'a> {
    schema_version: u32,
    kind: &'static str,
    samples: &'a BTreeMap<String, Vec<f64>>,
}

const FILE_KIND: &str = "pagepath-server-delays";

impl DelaySamples {
    /// The archive's measured delays, without outliers. Cache hits are not in an archive's
    /// resources, so they cannot pull the distributions towards zero.
    pub fn from_archive(archive: &Archive) -> DelaySamples {
        let mut samples = DelaySamples::default();
        for resource in &archive.resources {
            if let Some(ms) = resource.delay_ms.filter(|&ms| ms <= OUTLIER_MS) {
                let key = format!(
                    "{} {}",
                    resource.method,
                    mime_class(&resource.mime, &resource.resource_type)
                );
                samples.samples.entry(key).or_default().push(ms);
            }
        }
        samples
    }

    pub fn merge(&mut self, other: &DelaySamples) {
        for (key, values) in &other.samples {
            self.samples.entry(key.clone()).or_default().extend(values);
        }
    }

    /// Reads a samples file (see `to_json`). Values are taken as given: whoever wrote the file
    /// chose them, outliers included.
    pub fn parse(text: &str, source: &str) -> Result<DelaySamples, String> {
        let document = json::parse(text, source)?;
        let file = Object::new(&document, source)?;
        let version = file.get("schemaVersion", "1")?;
        if version != &Value::from(1) {
            return Err(file.invalid("schemaVersion", "1", version));
        }
        let kind = file.get("kind", FILE_KIND)?;
        if kind.as_str() != Some(FILE_KIND) {
            return Err(file.invalid("kind", &format!("{FILE_KIND:?}"), kind));
        }
        let map_value = file.get("samples", "an object")?;
        let map = map_value
            .as_object()
            .ok_or_else(|| file.invalid("samples", "an object", map_value))?;
        let mut samples = DelaySamples::default();
        for (key, values) in map {
            let valid_key = key.split_once(' ').is_some_and(|(method, class)| {
                !method.is_empty()
                    && method.bytes().all(|b| b.is_ascii_uppercase())
                    && CLASSES.contains(&class)
            });
            if !valid_key {
                return Err(format!(
                    "{source}: samples: key {key:?}: expected \"<METHOD> <class>\" with class one of {}",
                    CLASSES.join(", ")
                ));
            }
            let field = format!("samples.{key}");
            let list = values
                .as_array()
                .ok_or_else(|| file.invalid(&field, "an array of numbers", values))?;
            let numbers = list
                .iter()
                .enumerate()
                .map(|(index, value)| match value.as_f64() {
                    Some(ms) if ms.is_finite() && ms >= 0.0 => Ok(ms),
                    _ => Err(file.invalid(
                        &format!("{field}[{index}]"),
                        "a non-negative number of ms",
                        value,
                    )),
                })
                .collect::<Result<Vec<f64>, String>>()?;
            samples.samples.insert(key.clone(), numbers);
        }
        Ok(samples)
    }

    pub fn to_json(&self) -> String {
        let file = SamplesFile {
            schema_version: 1,
            kind: FILE_KIND,
            samples: &self.samples,
        };
        serde_json::to_string(&file).expect("numbers and strings always serialise")
    }

    /// The number of samples over all keys.
    pub fn len(&self) -> usize {
        self.samples.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DelaySource {
    Recorded,
    Drawn,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayMode {
    /// The recorded delay, else a draw from the samples.
    Recorded,
    /// No processing delay: to see what the network alone costs.
    Zero,
}

/// Every resource's delay, fixed when the model is made: a draw depends on the seed and the
/// resource's id only, so request order cannot change it.
pub struct DelayModel {
    delays: Vec<(u64, DelaySource)>,
}

fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

/// The empirical distribution's inverse at `u` in [0, 1), interpolating between neighbouring
/// order statistics so that draws are not limited to the few values measured.
fn quantile(sorted_values: &[f64], u: f64) -> f64 {
    let position = u * (sorted_values.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted_values.len() - 1);
    let fraction = position - below as f64;
    sorted_values[below] + (sorted_values[above] - sorted_values[below]) * fraction
}

fn ms_to_us(ms: f64) -> u64 {
    (ms * 1000.0).round() as u64
}

impl DelayModel {
    /// `samples` are all the distributions draw from (usually the archive's own merged with a
    /// samples file). A missing delay is drawn from its method and class, else from all samples
    /// of its method, else from all samples; without any sample it is zero.
    pub fn new(archive: &Archive, samples: DelaySamples, mode: DelayMode, seed: u64) -> DelayModel {
        let mut by_method: HashMap<&str, Vec<f64>> = HashMap::new();
        for (key, values) in &samples.samples {
            let method = key.split(' ').next().unwrap_or("");
            by_method.entry(method).or_default().extend(values);
        }
        let all = sorted(samples.samples.values().flatten().copied().collect());
        let by_method: HashMap<&str, Vec<f64>> =
            by_method.into_iter().map(|(m, v)| (m, sorted(v))).collect();
        let by_key: HashMap<&str, Vec<f64>> = samples
            .samples
            .iter()
            .map(|(key, values)| (key.as_str(), sorted(values.clone())))
            .collect();
        let delays = archive
            .resources
            .iter()
            .map(|resource| {
                if mode == DelayMode::Zero {
                    return (0, DelaySource::None);
                }
                if let Some(ms) = resource.delay_ms {
                    return (ms_to_us(ms), DelaySource::Recorded);
                }
                let key = format!(
                    "{} {}",
                    resource.method,
                    mime_class(&resource.mime, &resource.resource_type)
                );
                let pool = [
                    by_key.get(key.as_str()),
                    by_method.get(resource.method.as_str()),
                    Some(&all),
                ]
                .into_iter()
                .flatten()
                .find(|values| !values.is_empty());
                match pool {
                    Some(values) => (
                        ms_to_us(quantile(values, rng::unit_draw(seed, &resource.id))),
                        DelaySource::Drawn,
                    ),
                    None => (0, DelaySource::None),
                }
            })
            .collect();
        DelayModel { delays }
    }

    /// The processing delay of `Archive::resources[resource]`, in µs, and where it came from.
    pub fn delay_us(&self, resource: usize) -> (u64, DelaySource) {
        self.delays[resource]
    }
}
