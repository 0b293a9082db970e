//! A direction's mm-link log as a file: its folder made, the file created and buffered, for the
//! emulator's paths and the simulator's alike.

use crate::core::config::QueueConfig;
use crate::core::log::{describe_queue, LinkLog, LogHeader};
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// The log of the direction `link_name` (e.g. "wifi uplink") into `file`; `capacity` and `queue`
/// as the header describes them, `init_timestamp_ms` its start in Unix ms (0 in virtual time).
pub fn create_log(file: &Path, link_name: &str, capacity: &str, queue: &QueueConfig, command_line: &str, init_timestamp_ms: u64) -> Result<LinkLog, String> {
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let f = File::create(file).map_err(|e| format!("log file {}: {e}", file.display()))?;
    let header = LogHeader { link_name, capacity, log_path: &file.display().to_string(), command_line, queue: &describe_queue(queue), init_timestamp_ms };
    Ok(LinkLog::new(Box::new(BufWriter::new(f)), &header))
}
