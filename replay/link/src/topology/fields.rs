//! Reading JSON objects with errors that name the file, the place and what is wrong.

use serde_json::{Map, Value};

pub struct Obj<'a> {
    pub map: &'a Map<String, Value>,
    /// Where this object is, e.g. "paths[0].downlink".
    pub at: String,
}

impl<'a> Obj<'a> {
    pub fn of(v: &'a Value, at: &str) -> Result<Obj<'a>, String> {
        match v {
            Value::Object(map) => Ok(Obj { map, at: at.to_string() }),
            other => Err(format!("{}: must be an object, got {}", name(at), kind(other))),
        }
    }

    pub fn place(&self, key: &str) -> String {
        if self.at.is_empty() { key.to_string() } else { format!("{}.{key}", self.at) }
    }

    /// Rejects keys the format does not have, so a typo ("delayms") is not silently ignored.
    pub fn only(&self, keys: &[&str]) -> Result<(), String> {
        for k in self.map.keys() {
            if !keys.contains(&k.as_str()) {
                return Err(format!("{}: unknown field (known: {})", self.place(k), keys.join(", ")));
            }
        }
        Ok(())
    }

    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// A number in [min, max], or None when absent.
    pub fn num(&self, key: &str, min: f64, max: f64, unit: &str) -> Result<Option<f64>, String> {
        match self.map.get(key) {
            None => Ok(None),
            Some(v) => number(v, &self.place(key), min, max, unit).map(Some),
        }
    }

    pub fn boolean(&self, key: &str) -> Result<Option<bool>, String> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(format!("{}: must be true or false, got {}", self.place(key), kind(other))),
        }
    }

    pub fn string(&self, key: &str) -> Result<Option<&'a str>, String> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!("{}: must be a string, got {}", self.place(key), kind(other))),
        }
    }
}

pub fn number(v: &Value, at: &str, min: f64, max: f64, unit: &str) -> Result<f64, String> {
    let x = v.as_f64().ok_or_else(|| format!("{at}: must be a number, got {}", kind(v)))?;
    if !(min..=max).contains(&x) {
        return Err(format!("{at}: {x} is out of range; must be between {min} and {max}{unit}"));
    }
    Ok(x)
}

fn name(at: &str) -> &str {
    if at.is_empty() { "the topology" } else { at }
}

pub fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("\"{}\"", s.chars().take(40).collect::<String>()),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}
