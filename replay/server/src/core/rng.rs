//! Seeded draws that depend only on (seed, key), never on how many draws came before: a replay
//! gives the same result whatever order the browser's requests arrive in.

/// FNV-1a, 64 bit: a stable hash of the key (std's hashers are randomised or unspecified).
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

/// SplitMix64's output function: spreads similar inputs (seeds 1 and 2) over unrelated outputs.
fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A number in [0, 1) fixed by `seed` and `key`.
pub(crate) fn unit_draw(seed: u64, key: &str) -> f64 {
    let bits = splitmix64(seed ^ fnv1a64(key.as_bytes()));
    // The top 53 bits fill an f64 mantissa exactly, so the result is uniform and below 1.
    (bits >> 11) as f64 / (1u64 << 53) as f64
}
