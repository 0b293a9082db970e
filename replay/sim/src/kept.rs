//! What a batch of simulations keeps from one load to the next: each recording as read from its
//! folder (bodies checked against their SHA-256), each graph as parsed by the browser and by the
//! servers, the certificate for each set of hosts, and tquic's TLS context for that certificate.
//! A sweep loads the same pages hundreds of times, and these cost more than a simulated load's
//! own work. Nothing here holds per-load state, and a file changed on disk is read again.

use pagepath_browser::core::{parse_graph, Graph};
use pagepath_server::io::certs::{self, ReplayCertificate};
use pagepath_server::io::load::{read_critical_ranks, read_recording, Recording};
use pagepath_server::run::Sources;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;
use tquic::TlsConfig;

/// Files kept of each kind, the most recently used first: a sweep's workers go through cells page
/// by page, so a few suffice, and a corpus of hundreds of pages must not all stay in memory.
const PER_KIND: usize = 8;

#[derive(Default)]
pub struct Kept {
    recordings: ByFile<Recording>,
    ranks: ByFile<HashMap<String, i64>>,
    graphs: ByFile<Graph>,
    certificates: HashMap<Vec<String>, ReplayCertificate>,
    /// By the certificate's public key hash.
    tls: HashMap<String, Arc<TlsConfig>>,
}

impl Kept {
    /// The TLS context for `cert`, made by `make` the first time.
    pub fn tls(&mut self, cert: &ReplayCertificate, make: impl FnOnce() -> Result<TlsConfig, String>) -> Result<Arc<TlsConfig>, String> {
        if let Some(t) = self.tls.get(&cert.spki_hash) {
            return Ok(t.clone());
        }
        let t = Arc::new(make()?);
        self.tls.insert(cert.spki_hash.clone(), t.clone());
        Ok(t)
    }

    /// The browser's graph from `path`.
    pub fn graph(&mut self, path: &Path) -> Result<Graph, String> {
        self.graphs.get(path, path, |p| {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read the graph: {e}", p.display()))?;
            parse_graph(&text).map_err(|e| format!("{}: {e}", p.display()))
        })
    }
}

impl Sources for Kept {
    fn recording(&mut self, dir: &Path) -> Result<Recording, String> {
        self.recordings.get(dir, &dir.join("archive.json"), read_recording)
    }

    fn certificate(&mut self, hosts: &[String]) -> Result<ReplayCertificate, String> {
        if let Some(c) = self.certificates.get(hosts) {
            return Ok(c.clone());
        }
        let c = certs::generate(hosts)?;
        self.certificates.insert(hosts.to_vec(), c.clone());
        Ok(c)
    }

    fn critical_ranks(&mut self, graph: &Path) -> Result<HashMap<String, i64>, String> {
        self.ranks.get(graph, graph, read_critical_ranks)
    }
}

/// A file's path with its modification time and size when it was read.
type Stamp = (PathBuf, Option<SystemTime>, u64);

struct ByFile<T>(VecDeque<(Stamp, T)>);

impl<T> Default for ByFile<T> {
    fn default() -> Self {
        ByFile(VecDeque::new())
    }
}

impl<T: Clone> ByFile<T> {
    /// What `read` makes of `path`, kept while `stamped` (the file it reads) is unchanged.
    fn get(&mut self, path: &Path, stamped: &Path, read: impl FnOnce(&Path) -> Result<T, String>) -> Result<T, String> {
        let meta = std::fs::metadata(stamped).ok();
        let stamp = (path.to_path_buf(), meta.as_ref().and_then(|m| m.modified().ok()), meta.map_or(0, |m| m.len()));
        if let Some(i) = self.0.iter().position(|(s, _)| *s == stamp) {
            let entry = self.0.remove(i).expect("found above");
            let value = entry.1.clone();
            self.0.push_front(entry);
            return Ok(value);
        }
        let value = read(path)?;
        self.0.push_front((stamp, value.clone()));
        self.0.truncate(PER_KIND);
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_once_until_it_changes() {
        let dir = std::env::temp_dir().join(format!("pagepath-kept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        std::fs::write(&file, "one").unwrap();
        let mut kept = ByFile::<String>::default();
        let reads = std::cell::Cell::new(0);
        let read = |p: &Path| {
            reads.set(reads.get() + 1);
            std::fs::read_to_string(p).map_err(|e| e.to_string())
        };
        assert_eq!(kept.get(&file, &file, read).unwrap(), "one");
        assert_eq!(kept.get(&file, &file, read).unwrap(), "one");
        std::fs::write(&file, "three").unwrap();
        assert_eq!(kept.get(&file, &file, read).unwrap(), "three");
        assert_eq!(reads.get(), 2);
        // An error is not kept: the next load tries again.
        let missing = dir.join("missing.txt");
        assert!(kept.get(&missing, &missing, read).is_err());
        std::fs::write(&missing, "now").unwrap();
        assert_eq!(kept.get(&missing, &missing, read).unwrap(), "now");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_the_most_recent_files_are_kept() {
        let mut kept = ByFile::<usize>::default();
        for i in 0..PER_KIND + 3 {
            let p = PathBuf::from(format!("/nonexistent/{i}"));
            kept.get(&p, &p, |_| Ok(i)).unwrap();
        }
        assert_eq!(kept.0.len(), PER_KIND);
        assert_eq!(kept.0.front().unwrap().1, PER_KIND + 2);
    }
}
