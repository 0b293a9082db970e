//! Bytes per fixed time window, counted from the first byte, so a rate limit or a capacity trace
//! shows up as a series rather than one average.

pub struct Windows {
    window_ns: u64,
    start_ns: Option<u64>,
    bytes: Vec<u64>,
}

impl Windows {
    pub fn new(window_ms: u64) -> Windows {
        Windows {
            window_ns: window_ms * 1_000_000,
            start_ns: None,
            bytes: Vec::new(),
        }
    }

    pub fn add(&mut self, at_ns: u64, bytes: u64) {
        let start = *self.start_ns.get_or_insert(at_ns);
        let index = (at_ns.saturating_sub(start) / self.window_ns) as usize;
        if self.bytes.len() <= index {
            self.bytes.resize(index + 1, 0);
        }
        self.bytes[index] += bytes;
    }

    pub fn into_vec(self) -> Vec<u64> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_start_at_the_first_byte_and_keep_empty_ones() {
        let mut w = Windows::new(100);
        w.add(5_000_000_000, 10);
        w.add(5_099_999_999, 5);
        w.add(5_300_000_000, 7);
        assert_eq!(w.into_vec(), vec![15, 0, 0, 7]);
    }
}
