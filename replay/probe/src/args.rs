//! Command-line options of one subcommand: `--name value`, `--name=value` and bare switches,
//! each allowed at most once, with typed accessors whose errors name the offending option.

use std::net::SocketAddr;

use crate::failure::Failure;

pub struct Args {
    given: Vec<(&'static str, Option<String>)>,
}

/// What a subcommand accepts: options that take a value and switches that do not.
pub struct Spec {
    pub valued: &'static [&'static str],
    pub switches: &'static [&'static str],
}

fn usage(message: String) -> Failure {
    Failure::Usage(message)
}

pub fn parse(argv: &[String], spec: &Spec) -> Result<Args, Failure> {
    let mut given: Vec<(&'static str, Option<String>)> = Vec::new();
    let mut rest = argv.iter();
    while let Some(word) = rest.next() {
        let (name, inline) = match word.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        let key = if let Some(key) = spec.valued.iter().copied().find(|k| *k == name) {
            let value = match inline {
                Some(value) => value,
                None => rest
                    .next()
                    .cloned()
                    .ok_or_else(|| usage(format!("{name} needs a value")))?,
            };
            given.push((key, Some(value)));
            key
        } else if let Some(key) = spec.switches.iter().copied().find(|k| *k == name) {
            if inline.is_some() {
                return Err(usage(format!("{name} takes no value")));
            }
            given.push((key, None));
            key
        } else {
            return Err(usage(format!("unknown argument '{word}'")));
        };
        if given.iter().filter(|(k, _)| *k == key).count() > 1 {
            return Err(usage(format!("{key} given more than once")));
        }
    }
    Ok(Args { given })
}

impl Args {
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|(k, _)| *k == name)
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        self.raw(name)
    }

    fn raw(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Exactly one of `names` must be given; returns which.
    pub fn exactly_one(&self, names: &[&'static str]) -> Result<&'static str, Failure> {
        let present: Vec<&'static str> = names.iter().copied().filter(|n| self.has(n)).collect();
        match present.as_slice() {
            [one] => Ok(one),
            [] => Err(usage(format!("one of {} is required", names.join(", ")))),
            _ => Err(usage(format!(
                "{} cannot be combined",
                present.join(" and ")
            ))),
        }
    }

    pub fn addr(&self, name: &str) -> Result<Option<SocketAddr>, Failure> {
        self.raw(name)
            .map(|v| {
                v.parse().map_err(|_| {
                    usage(format!("{name}: expected ADDR:PORT (e.g. 10.0.0.2:5000 or [::1]:5000), found '{v}'"))
                })
            })
            .transpose()
    }

    pub fn required_addr(&self, name: &str) -> Result<SocketAddr, Failure> {
        required(self.addr(name)?, name, "ADDR:PORT")
    }

    /// A finite number > 0, e.g. seconds or Mbit/s.
    pub fn positive(&self, name: &str) -> Result<Option<f64>, Failure> {
        self.raw(name)
            .map(|v| match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
                _ => Err(usage(format!("{name}: expected a number > 0, found '{v}'"))),
            })
            .transpose()
    }

    pub fn positive_or(&self, name: &str, default: f64) -> Result<f64, Failure> {
        Ok(self.positive(name)?.unwrap_or(default))
    }

    /// An integer in `min..=max`.
    pub fn integer(&self, name: &str, min: u64, max: u64) -> Result<Option<u64>, Failure> {
        self.raw(name)
            .map(|v| match v.parse::<u64>() {
                Ok(x) if (min..=max).contains(&x) => Ok(x),
                _ => Err(usage(format!(
                    "{name}: expected an integer from {min} to {max}, found '{v}'"
                ))),
            })
            .transpose()
    }

    pub fn integer_or(&self, name: &str, default: u64, min: u64, max: u64) -> Result<u64, Failure> {
        Ok(self.integer(name, min, max)?.unwrap_or(default))
    }
}

/// Turns a missing option into a usage error; `what` describes the value it takes.
pub fn required<T>(value: Option<T>, name: &str, what: &str) -> Result<T, Failure> {
    value.ok_or_else(|| usage(format!("{name} {what} is required")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        valued: &["--connect", "--count", "--seconds"],
        switches: &["--mptcp"],
    };

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn reads_values_switches_and_inline_values() {
        let args = parse(&words("--connect 10.0.0.2:80 --count=7 --mptcp"), &SPEC).unwrap();
        assert_eq!(
            args.required_addr("--connect").unwrap(),
            "10.0.0.2:80".parse().unwrap()
        );
        assert_eq!(args.integer_or("--count", 20, 1, 100).unwrap(), 7);
        assert!(args.has("--mptcp"));
        assert_eq!(args.positive_or("--seconds", 3.0).unwrap(), 3.0);
    }

    #[test]
    fn errors_name_the_argument() {
        let err = |s: &str| parse(&words(s), &SPEC).err().unwrap();
        assert_eq!(
            err("--bogus 1"),
            Failure::Usage("unknown argument '--bogus'".into())
        );
        assert_eq!(
            err("--count"),
            Failure::Usage("--count needs a value".into())
        );
        assert_eq!(
            err("--mptcp --mptcp"),
            Failure::Usage("--mptcp given more than once".into())
        );
        let args = parse(&words("--count 0 --seconds -1 --connect nowhere"), &SPEC).unwrap();
        assert!(args
            .integer("--count", 1, 9)
            .unwrap_err()
            .to_string()
            .starts_with("--count:"));
        assert!(args
            .positive("--seconds")
            .unwrap_err()
            .to_string()
            .contains("'-1'"));
        assert!(args
            .addr("--connect")
            .unwrap_err()
            .to_string()
            .contains("'nowhere'"));
        let both = parse(&words("--seconds 1 --count 2"), &SPEC).unwrap();
        let msg = both
            .exactly_one(&["--seconds", "--count"])
            .unwrap_err()
            .to_string();
        assert_eq!(msg, "--seconds and --count cannot be combined");
    }
}
