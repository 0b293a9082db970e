//! The replay's own records, in its output folder: one JSON line per connection and per response
//! stream, and the fidelity report (what matched the recording and what did not).

use crate::core::matcher::FidelityReport;
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub struct LogFiles {
    dir: PathBuf,
    connections: BufWriter<File>,
    streams: BufWriter<File>,
}

fn create(path: &Path) -> Result<BufWriter<File>, String> {
    File::create(path).map(BufWriter::new).map_err(|e| format!("{}: cannot create: {e}", path.display()))
}

impl LogFiles {
    pub fn create(dir: &Path) -> Result<LogFiles, String> {
        Ok(LogFiles {
            dir: dir.to_path_buf(),
            connections: create(&dir.join("connections.jsonl"))?,
            streams: create(&dir.join("streams.jsonl"))?,
        })
    }

    pub fn stream<T: Serialize>(&mut self, log: &T) {
        write_line(&mut self.streams, log);
    }

    pub fn connection<T: Serialize>(&mut self, log: &T) {
        write_line(&mut self.connections, log);
    }

    pub fn flush_with_fidelity(&mut self, report: &FidelityReport) -> Result<(), String> {
        let _ = self.connections.flush();
        let _ = self.streams.flush();
        let text = serde_json::to_string_pretty(report).expect("a report serialises");
        write_atomically(&self.dir.join("fidelity.json"), text.as_bytes())
    }
}

fn write_line<T: Serialize>(out: &mut BufWriter<File>, log: &T) {
    // A full disk must not stop the replay; the report says what was served anyway.
    let _ = serde_json::to_writer(&mut *out, log);
    let _ = out.write_all(b"\n");
}

/// Readers never see half a file: write beside it, then rename over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}
