//! Reads what a replay serves from a recording folder (docs/formats/recording.md): the archive,
//! every body it names (checked against its size and SHA-256), delay samples and the graph.

use crate::config::ServeConfig;
use crate::core::archive::{parse_archive, Archive};
use crate::core::delay::{DelayModel, DelaySamples};
use crate::core::priority::parse_critical_ranks;
use crate::service::Content;
use bytes::Bytes;
use std::collections::HashMap;
use std::path::Path;

fn read_text(path: &Path, what: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read the {what}: {e}", path.display()))
}

/// A recording's archive and bodies as read from its folder: what does not depend on how it is
/// served.
#[derive(Clone)]
pub struct Recording {
    pub archive: Archive,
    /// One per archive resource; responses without a recorded body are empty.
    pub bodies: Vec<Bytes>,
}

pub fn read_recording(dir: &Path) -> Result<Recording, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a recording folder (no such directory)", dir.display()));
    }
    let archive_path = dir.join("archive.json");
    if !archive_path.is_file() {
        return Err(format!(
            "{}: no archive.json: not a pagepath recording, or an incomplete one (profile writes <dir>.partial until it is whole)",
            dir.display()
        ));
    }
    let archive = parse_archive(&read_text(&archive_path, "archive")?, &archive_path.display().to_string())?;
    let mut cache: HashMap<String, Bytes> = HashMap::new();
    let mut bodies = Vec::with_capacity(archive.resources.len());
    for r in &archive.resources {
        let Some(body) = &r.body else {
            bodies.push(Bytes::new());
            continue;
        };
        if let Some(b) = cache.get(&body.sha256) {
            bodies.push(b.clone());
            continue;
        }
        let bytes = read_body(dir, &body.sha256, body.size, &r.id)?;
        cache.insert(body.sha256.clone(), bytes.clone());
        bodies.push(bytes);
    }
    Ok(Recording { archive, bodies })
}

/// The critical-path rank of each resource in the graph file (core::priority).
pub fn read_critical_ranks(path: &Path) -> Result<HashMap<String, i64>, String> {
    parse_critical_ranks(&read_text(path, "graph")?, &path.display().to_string())
}

/// The recording with what `cfg` adds: delay samples, the delay model and, read from `cfg.graph`
/// by the caller, the graph's critical-path ranks.
pub fn content(cfg: &ServeConfig, recording: Recording, critical_ranks: HashMap<String, i64>) -> Result<Content, String> {
    let Recording { archive, bodies } = recording;
    let mut samples = DelaySamples::from_archive(&archive);
    if let Some(path) = &cfg.delay_samples {
        samples.merge(&if path.is_dir() { corpus_samples(path)? } else { DelaySamples::parse(&read_text(path, "delay samples")?, &path.display().to_string())? });
    }
    let delays = DelayModel::new(&archive, samples.clone(), cfg.delays, cfg.seed);
    Ok(Content { archive, bodies, delays, critical_ranks, samples })
}

/// The processing delays of every recording in a folder (a corpus's recordings/): the empirical
/// distributions of seed 001 §3.4.1. A recording that cannot be read is named and skipped.
fn corpus_samples(dir: &Path) -> Result<DelaySamples, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot list the recordings: {e}", dir.display()))?;
    let mut samples = DelaySamples::default();
    let mut read = 0;
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path().join("archive.json")).filter(|p| p.is_file()).collect();
    paths.sort();
    for path in paths {
        match std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display())).and_then(|t| parse_archive(&t, &path.display().to_string())) {
            Ok(archive) => {
                samples.merge(&DelaySamples::from_archive(&archive));
                read += 1;
            }
            Err(e) => eprintln!("pagepath-server: --delay-samples: skipped {e}"),
        }
    }
    if read == 0 {
        return Err(format!("--delay-samples {}: no readable recording (a folder with <name>/archive.json)", dir.display()));
    }
    Ok(samples)
}

fn read_body(dir: &Path, sha256: &str, size: u64, id: &str) -> Result<Bytes, String> {
    // core::archive accepted `sha256` only as 64 hex digits, so it names a file, never a path.
    let path = dir.join("bodies").join(sha256);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: the body of entry {id:?} cannot be read: {e}", path.display()))?;
    if bytes.len() as u64 != size {
        return Err(format!("{}: the body of entry {id:?} has {} bytes, the archive says {size}", path.display(), bytes.len()));
    }
    let digest = ring::digest::digest(&ring::digest::SHA256, &bytes);
    let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    if !hex.eq_ignore_ascii_case(sha256) {
        return Err(format!("{}: the body of entry {id:?} is corrupt: its SHA-256 is {hex}", path.display()));
    }
    Ok(Bytes::from(bytes))
}
