//! Reading the fields of parsed JSON with error messages that say which file, which place in it,
//! which field, and what was wrong, so that a bad recording can be fixed without a debugger.

use serde_json::{Map, Value};

/// Parses `text`, naming `source` and serde's line and column on failure.
pub(crate) fn parse(text: &str, source: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{source}: not JSON: {e}"))
}

/// A short rendering of a value for error messages: containers by kind (they can be huge), scalars
/// as JSON, cut to keep one bad field from flooding the terminal.
pub(crate) fn describe(value: &Value) -> String {
    const MAX_CHARS: usize = 60;
    match value {
        Value::Object(_) => "an object".to_string(),
        Value::Array(_) => "an array".to_string(),
        scalar => {
            let text = scalar.to_string();
            if text.chars().count() <= MAX_CHARS {
                text
            } else {
                let cut: String = text.chars().take(MAX_CHARS).collect();
                format!("{cut}...")
            }
        }
    }
}

/// A JSON object together with where it sits (e.g. `archive.json: entry 3 (id "x")`) and the
/// dotted path from there (e.g. `response.`), so every error can name the full place.
pub(crate) struct Object<'v> {
    map: &'v Map<String, Value>,
    place: String,
    path: String,
}

impl<'v> Object<'v> {
    /// `value` must be an object; `place` names it in errors.
    pub(crate) fn new(value: &'v Value, place: &str) -> Result<Object<'v>, String> {
        match value {
            Value::Object(map) => Ok(Object {
                map,
                place: place.to_string(),
                path: String::new(),
            }),
            other => Err(format!(
                "{place}: expected an object, got {}",
                describe(other)
            )),
        }
    }

    /// The error for field `name` holding `got` where `expected` was wanted.
    pub(crate) fn invalid(&self, name: &str, expected: &str, got: &Value) -> String {
        format!(
            "{}: {}{name}: expected {expected}, got {}",
            self.place,
            self.path,
            describe(got)
        )
    }

    pub(crate) fn get(&self, name: &str, expected: &str) -> Result<&'v Value, String> {
        self.map.get(name).ok_or_else(|| {
            format!(
                "{}: {}{name}: missing, expected {expected}",
                self.place, self.path
            )
        })
    }

    pub(crate) fn string(&self, name: &str) -> Result<&'v str, String> {
        let value = self.get(name, "a string")?;
        value
            .as_str()
            .ok_or_else(|| self.invalid(name, "a string", value))
    }

    pub(crate) fn optional_string(&self, name: &str) -> Result<Option<&'v str>, String> {
        match self.get(name, "a string or null")? {
            Value::Null => Ok(None),
            Value::String(text) => Ok(Some(text)),
            other => Err(self.invalid(name, "a string or null", other)),
        }
    }

    /// A finite, non-negative number, or null.
    pub(crate) fn optional_non_negative(&self, name: &str) -> Result<Option<f64>, String> {
        const EXPECTED: &str = "a non-negative number or null";
        match self.get(name, EXPECTED)? {
            Value::Null => Ok(None),
            value => match value.as_f64() {
                Some(number) if number.is_finite() && number >= 0.0 => Ok(Some(number)),
                _ => Err(self.invalid(name, EXPECTED, value)),
            },
        }
    }

    pub(crate) fn object(&self, name: &str) -> Result<Object<'v>, String> {
        self.optional_object(name)?
            .ok_or_else(|| self.invalid(name, "an object", &Value::Null))
    }

    pub(crate) fn optional_object(&self, name: &str) -> Result<Option<Object<'v>>, String> {
        match self.get(name, "an object or null")? {
            Value::Null => Ok(None),
            Value::Object(map) => Ok(Some(Object {
                map,
                place: self.place.clone(),
                path: format!("{}{name}.", self.path),
            })),
            other => Err(self.invalid(name, "an object or null", other)),
        }
    }

    /// The members of field `name`, which must be an object whose values are all strings.
    pub(crate) fn string_map(&self, name: &str) -> Result<Vec<(&'v str, &'v str)>, String> {
        let value = self.get(name, "an object of strings")?;
        let map = value
            .as_object()
            .ok_or_else(|| self.invalid(name, "an object of strings", value))?;
        map.iter()
            .map(|(key, member)| match member.as_str() {
                Some(text) => Ok((key.as_str(), text)),
                None => Err(self.invalid(&format!("{name}.{key}"), "a string", member)),
            })
            .collect()
    }
}
