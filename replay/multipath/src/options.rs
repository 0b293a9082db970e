//! A scheduler's options, as `--scheduler-opt key=value` gives them (repeatable, or comma separated).
//! Each scheduler takes the keys it knows; one it does not know is an error naming the keys it takes.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    values: BTreeMap<String, String>,
    read: RefCell<BTreeSet<String>>,
}

impl Options {
    /// `key=value` pairs, separated by commas or given one by one.
    pub fn parse<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Result<Options, String> {
        let mut values = BTreeMap::new();
        for pair in pairs.into_iter().flat_map(|p| p.split(',')).map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').ok_or_else(|| format!("scheduler option \"{pair}\": expected key=value"))?;
            if values.insert(k.trim().to_string(), v.trim().to_string()).is_some() {
                return Err(format!("scheduler option {k} is given twice"));
            }
        }
        Ok(Options { values, read: RefCell::default() })
    }

    pub fn f64(&self, key: &str, default: f64, min: f64, max: f64) -> Result<f64, String> {
        self.read.borrow_mut().insert(key.to_string());
        match self.values.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= min && x <= max => Ok(x),
                _ => Err(format!("scheduler option {key}={v}: expected a number from {min} to {max}")),
            },
        }
    }

    pub fn flag(&self, key: &str) -> Result<bool, String> {
        self.read.borrow_mut().insert(key.to_string());
        match self.values.get(key).map(String::as_str) {
            None | Some("false") | Some("off") | Some("0") => Ok(false),
            Some("true") | Some("on") | Some("1") => Ok(true),
            Some(v) => Err(format!("scheduler option {key}={v}: expected on or off")),
        }
    }

    pub fn text(&self, key: &str) -> Option<String> {
        self.read.borrow_mut().insert(key.to_string());
        self.values.get(key).cloned()
    }

    /// After a scheduler has read what it takes: an error for any key it did not.
    pub fn check_all_read(&self, scheduler: &str) -> Result<(), String> {
        let read = self.read.borrow();
        match self.values.keys().find(|k| !read.contains(*k)) {
            None => Ok(()),
            Some(k) if read.is_empty() => Err(format!("scheduler {scheduler} takes no options, got {k}")),
            Some(k) => Err(format!("scheduler {scheduler} has no option {k}; it takes {}", read.iter().cloned().collect::<Vec<_>>().join(", "))),
        }
    }

    pub fn pairs(&self) -> &BTreeMap<String, String> {
        &self.values
    }
}
