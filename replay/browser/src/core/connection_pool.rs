//! Which of an origin's connections a request may use. Chromium keys its connection pools by the
//! origin, by privacy mode (requests without credentials to another origin apart: fonts, CORS
//! fetches) and by network partition (network state partitioning: the requests of a frame whose
//! site is not the top frame's apart), so two requests to one origin may never share a connection.

/// The pool of an origin's connections a request goes to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pool {
    /// Sent without credentials to another origin (graph.md, `privacyMode`).
    pub privacy_mode: bool,
    /// Made by a frame cross-site to the top frame (graph.md, `crossSite`).
    pub partitioned: bool,
}

impl Pool {
    /// How many pools an origin has.
    pub const COUNT: usize = 4;

    /// This pool's place among an origin's `COUNT`.
    pub fn index(self) -> usize {
        usize::from(self.privacy_mode) + 2 * usize::from(self.partitioned)
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;

    #[test]
    fn every_pool_has_its_own_index() {
        let mut seen: Vec<usize> = [false, true].iter().flat_map(|&p| [false, true].map(|q| Pool { privacy_mode: p, partitioned: q }.index())).collect();
        seen.sort();
        assert_eq!(seen, (0..Pool::COUNT).collect::<Vec<_>>());
    }
}
