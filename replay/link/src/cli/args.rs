//! A small argument reader: `--flag`, `--key value` and `--key=value`, positionals in order.

pub struct Args {
    items: Vec<String>,
}

impl Args {
    pub fn new(items: &[String]) -> Args {
        Args { items: items.to_vec() }
    }

    pub fn flag(&mut self, name: &str) -> bool {
        let before = self.items.len();
        self.items.retain(|a| a != name);
        self.items.len() != before
    }

    pub fn value(&mut self, name: &str) -> Result<Option<String>, String> {
        let prefix = format!("{name}=");
        if let Some(i) = self.items.iter().position(|a| a.starts_with(&prefix)) {
            return Ok(Some(self.items.remove(i)[prefix.len()..].to_string()));
        }
        if let Some(i) = self.items.iter().position(|a| a == name) {
            if i + 1 >= self.items.len() {
                return Err(format!("{name}: needs a value"));
            }
            self.items.remove(i);
            return Ok(Some(self.items.remove(i)));
        }
        Ok(None)
    }

    pub fn number(&mut self, name: &str, min: f64, max: f64) -> Result<Option<f64>, String> {
        let Some(v) = self.value(name)? else { return Ok(None) };
        let x: f64 = v.parse().map_err(|_| format!("{name}: \"{v}\" is not a number"))?;
        if !(min..=max).contains(&x) {
            return Err(format!("{name}: {x} is out of range; must be between {min} and {max}"));
        }
        Ok(Some(x))
    }

    /// What is left: positionals. Anything still starting with "--" is an unknown option.
    pub fn rest(&mut self) -> Result<Vec<String>, String> {
        if let Some(a) = self.items.iter().find(|a| a.starts_with("--")) {
            return Err(format!("{a}: unknown option"));
        }
        Ok(std::mem::take(&mut self.items))
    }
}
