//! Which recorded response answers a request, and a report of how faithfully the replay could
//! answer. Deterministic, in the manner of Mahimahi's matcher: an exact match on origin, method
//! and target first, then the same path with the closest query string, else nothing (a 404).

use std::collections::HashMap;

use serde::Serialize;

use super::archive::{Archive, Origin};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MatchKind {
    Exact,
    Fuzzy,
    Unmatched,
}

#[derive(Clone, Copy, Debug)]
pub struct Match {
    pub kind: MatchKind,
    /// Index into `Archive::resources`; None when unmatched.
    pub resource: Option<usize>,
}

/// The report keeps at most this many requests in each list; the counts stay exact, so
/// `fuzzy - fuzzyMatches.length` (and likewise for unmatched) says how many were left out.
/// A page load makes a few hundred requests; the cap only guards a server left running.
const LISTED_REQUESTS_MAX: usize = 1000;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FuzzyMatch {
    pub method: String,
    pub url: String,
    pub served_url: String,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestedUrl {
    pub method: String,
    pub url: String,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FidelityReport {
    pub schema_version: u32,
    pub kind: String,
    pub requests: u64,
    pub exact: u64,
    pub fuzzy: u64,
    pub unmatched: u64,
    /// In request order, the first `LISTED_REQUESTS_MAX`.
    pub fuzzy_matches: Vec<FuzzyMatch>,
    /// In request order, the first `LISTED_REQUESTS_MAX`.
    pub unmatched_requests: Vec<RequestedUrl>,
    /// The URL of every recorded entry no request was answered with, in recorded order: a URL
    /// recorded three times and requested twice appears once.
    pub never_requested: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    origin: Origin,
    method: String,
    /// The full target for exact matching, the path alone for fuzzy matching.
    target: String,
}

pub struct Matcher {
    /// Recorded entries per exact key, in recorded order.
    by_target: HashMap<Key, Vec<usize>>,
    /// Recorded entries per path, in recorded order.
    by_path: HashMap<Key, Vec<usize>>,
    /// How many requests each exact key has had: the next one gets the entry at this position.
    requests_by_target: HashMap<Key, usize>,
    /// Each resource's query string (after '?'), for fuzzy matching.
    recorded_queries: Vec<String>,
    /// How many times each resource was served.
    served: Vec<u64>,
    exact: u64,
    fuzzy: u64,
    unmatched: u64,
    fuzzy_matches: Vec<(String, String, usize)>,
    unmatched_requests: Vec<(String, String)>,
}

fn split_query(target: &str) -> (&str, &str) {
    target.split_once('?').unwrap_or((target, ""))
}

fn common_prefix_len(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

impl Matcher {
    pub fn new(archive: &Archive) -> Matcher {
        let mut by_target: HashMap<Key, Vec<usize>> = HashMap::new();
        let mut by_path: HashMap<Key, Vec<usize>> = HashMap::new();
        for (index, resource) in archive.resources.iter().enumerate() {
            let key = Key {
                origin: resource.origin.clone(),
                method: resource.method.clone(),
                target: resource.target.clone(),
            };
            let path = split_query(&resource.target).0.to_string();
            by_path
                .entry(Key {
                    target: path,
                    ..key.clone()
                })
                .or_default()
                .push(index);
            by_target.entry(key).or_default().push(index);
        }
        Matcher {
            by_target,
            by_path,
            requests_by_target: HashMap::new(),
            recorded_queries: archive
                .resources
                .iter()
                .map(|r| split_query(&r.target).1.to_string())
                .collect(),
            served: vec![0; archive.resources.len()],
            exact: 0,
            fuzzy: 0,
            unmatched: 0,
            fuzzy_matches: Vec::new(),
            unmatched_requests: Vec::new(),
        }
    }

    /// Answers one request and counts it for the report. `method` may be in any case.
    pub fn lookup(&mut self, origin: &Origin, method: &str, target: &str) -> Match {
        let method = method.to_ascii_uppercase();
        let key = Key {
            origin: origin.clone(),
            method,
            target: target.to_string(),
        };
        if let Some(entries) = self.by_target.get(&key) {
            let asked = self.requests_by_target.entry(key).or_insert(0);
            // Repeats are answered in recorded order; past the last, the last stands for the rest.
            let resource = entries[(*asked).min(entries.len() - 1)];
            *asked += 1;
            self.exact += 1;
            self.served[resource] += 1;
            return Match {
                kind: MatchKind::Exact,
                resource: Some(resource),
            };
        }
        let (path, query) = split_query(target);
        let path_key = Key {
            target: path.to_string(),
            ..key
        };
        let Some(candidates) = self.by_path.get(&path_key) else {
            self.unmatched += 1;
            if self.unmatched_requests.len() < LISTED_REQUESTS_MAX {
                self.unmatched_requests
                    .push((path_key.method, format!("{origin}{target}")));
            }
            return Match {
                kind: MatchKind::Unmatched,
                resource: None,
            };
        };
        // Longest shared query prefix; then the least served, so repeated fuzzy requests spread
        // over the recorded variants; then the first recorded (min_by_key keeps the first).
        let resource = candidates
            .iter()
            .copied()
            .min_by_key(|&candidate| {
                let shared = common_prefix_len(query, &self.recorded_queries[candidate]);
                (std::cmp::Reverse(shared), self.served[candidate])
            })
            .expect("a path is indexed only with at least one entry");
        self.fuzzy += 1;
        self.served[resource] += 1;
        if self.fuzzy_matches.len() < LISTED_REQUESTS_MAX {
            self.fuzzy_matches
                .push((path_key.method, format!("{origin}{target}"), resource));
        }
        Match {
            kind: MatchKind::Fuzzy,
            resource: Some(resource),
        }
    }

    pub fn report(&self, archive: &Archive) -> FidelityReport {
        FidelityReport {
            schema_version: 1,
            kind: "pagepath-fidelity".to_string(),
            requests: self.exact + self.fuzzy + self.unmatched,
            exact: self.exact,
            fuzzy: self.fuzzy,
            unmatched: self.unmatched,
            fuzzy_matches: self
                .fuzzy_matches
                .iter()
                .map(|(method, url, resource)| FuzzyMatch {
                    method: method.clone(),
                    url: url.clone(),
                    served_url: archive.resources[*resource].url.clone(),
                })
                .collect(),
            unmatched_requests: self
                .unmatched_requests
                .iter()
                .map(|(method, url)| RequestedUrl {
                    method: method.clone(),
                    url: url.clone(),
                })
                .collect(),
            never_requested: archive
                .resources
                .iter()
                .zip(&self.served)
                .filter(|(_, &served)| served == 0)
                .map(|(resource, _)| resource.url.clone())
                .collect(),
        }
    }
}
