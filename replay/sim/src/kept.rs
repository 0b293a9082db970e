//! What a batch of simulations keeps from one load to the next: each recording as read from its
//! folder (bodies checked against their SHA-256), each graph as parsed by the browser and by the
//! servers, the certificate for each set of hosts, and tquic's TLS context for that certificate,
//! each kind the few most recently used.
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
    certificates: Recent<Vec<String>, ReplayCertificate>,
    /// By the certificate's public key hash.
    tls: Recent<String, Arc<TlsConfig>>,
}

impl Kept {
    /// The TLS context for `cert`, made by `make` the first time.
    pub fn tls(&mut self, cert: &ReplayCertificate, make: impl FnOnce() -> Result<TlsConfig, String>) -> Result<Arc<TlsConfig>, String> {
        self.tls.get_or(cert.spki_hash.clone(), || make().map(Arc::new))
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
        self.certificates.get_or(hosts.to_vec(), || certs::generate(hosts))
    }

    fn critical_ranks(&mut self, graph: &Path) -> Result<HashMap<String, i64>, String> {
        self.ranks.get(graph, graph, read_critical_ranks)
    }
}

/// A file's path with its modification time and size when it was read.
type Stamp = (PathBuf, Option<SystemTime>, u64);

/// The PER_KIND values most recently asked for, by key.
struct Recent<K, V>(VecDeque<(K, V)>);

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Recent(VecDeque::new())
    }
}

impl<K: PartialEq, V: Clone> Recent<K, V> {
    /// The value kept for `key`, else what `make` makes of it (an error is not kept).
    fn get_or(&mut self, key: K, make: impl FnOnce() -> Result<V, String>) -> Result<V, String> {
        if let Some(i) = self.0.iter().position(|(k, _)| *k == key) {
            let entry = self.0.remove(i).expect("found above");
            let value = entry.1.clone();
            self.0.push_front(entry);
            return Ok(value);
        }
        let value = make()?;
        self.0.push_front((key, value.clone()));
        self.0.truncate(PER_KIND);
        Ok(value)
    }
}

/// Values read from files, kept while each file's modification time and size are unchanged.
struct ByFile<T>(Recent<Stamp, T>);

impl<T> Default for ByFile<T> {
    fn default() -> Self {
        ByFile(Recent::default())
    }
}

impl<T: Clone> ByFile<T> {
    /// What `read` makes of `path`, kept while `stamped` (the file it reads) is unchanged.
    fn get(&mut self, path: &Path, stamped: &Path, read: impl FnOnce(&Path) -> Result<T, String>) -> Result<T, String> {
        let meta = std::fs::metadata(stamped).ok();
        let stamp = (path.to_path_buf(), meta.as_ref().and_then(|m| m.modified().ok()), meta.map_or(0, |m| m.len()));
        self.0.get_or(stamp, || read(path))
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
        assert_eq!(kept.0 .0.len(), PER_KIND);
        assert_eq!(kept.0 .0.front().unwrap().1, PER_KIND + 2);
        // Certificates and TLS contexts are kept the same way, by their hosts and key.
        let mut certs = Recent::<Vec<String>, usize>::default();
        for i in 0..PER_KIND + 1 {
            certs.get_or(vec![format!("host{i}.test")], || Ok(i)).unwrap();
        }
        assert_eq!(certs.0.len(), PER_KIND);
        assert_eq!(certs.get_or(vec!["host0.test".into()], || Ok(99)).unwrap(), 99, "the least recently used went first");
    }
}
