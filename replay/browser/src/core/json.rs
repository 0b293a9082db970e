//! Reading a serde_json value field by field, so that every error names its JSON pointer
//! ("/nodes/12/duration: missing") as the graph validator's reports do.

use serde_json::Value;

/// A value and the JSON pointer it was found at.
pub(crate) struct At<'a> {
    pub value: &'a Value,
    pub path: String,
}

impl<'a> At<'a> {
    pub fn root(value: &'a Value) -> At<'a> {
        At { value, path: String::new() }
    }

    fn error(&self, what: &str) -> String {
        let place = if self.path.is_empty() { "/" } else { &self.path };
        format!("{place}: {what}")
    }

    /// A required member of an object.
    pub fn field(&self, key: &str) -> Result<At<'a>, String> {
        let object = self.value.as_object().ok_or_else(|| self.error("must be an object"))?;
        let path = format!("{}/{key}", self.path);
        match object.get(key) {
            Some(value) => Ok(At { value, path }),
            None => Err(format!("{path}: missing")),
        }
    }

    /// A member that may be absent or null.
    pub fn optional(&self, key: &str) -> Result<Option<At<'a>>, String> {
        let object = self.value.as_object().ok_or_else(|| self.error("must be an object"))?;
        Ok(object.get(key).filter(|v| !v.is_null()).map(|value| At { value, path: format!("{}/{key}", self.path) }))
    }

    pub fn is_null(&self) -> bool {
        self.value.is_null()
    }

    pub fn str(&self) -> Result<&'a str, String> {
        self.value.as_str().ok_or_else(|| self.error("must be a string"))
    }

    pub fn string(&self) -> Result<String, String> {
        self.str().map(str::to_string)
    }

    pub fn f64(&self) -> Result<f64, String> {
        match self.value.as_f64() {
            Some(n) if n.is_finite() => Ok(n),
            _ => Err(self.error("must be a number")),
        }
    }

    pub fn bool(&self) -> Result<bool, String> {
        self.value.as_bool().ok_or_else(|| self.error("must be true or false"))
    }

    /// A count of bytes, lines or the like: a whole number from 0.
    pub fn u64(&self) -> Result<u64, String> {
        match self.value.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= u64::MAX as f64 => Ok(n as u64),
            _ => Err(self.error("must be a whole number from 0")),
        }
    }

    pub fn items(&self) -> Result<Vec<At<'a>>, String> {
        let array = self.value.as_array().ok_or_else(|| self.error("must be an array"))?;
        Ok(array.iter().enumerate().map(|(i, value)| At { value, path: format!("{}/{i}", self.path) }).collect())
    }

    /// Fails with this value's pointer and `what`.
    pub fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(self.error(what))
    }
}
