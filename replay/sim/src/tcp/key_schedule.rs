//! TLS 1.3's key schedule and transcript hash of the real sizes without SHA-2, for the simulator.
//!
//! Both ends of a simulated connection derive their keys and Finished messages from HMACs and
//! hashes of the handshake, and record_protection.rs leaves those keys unused: what a handshake
//! costs in virtual time is its messages, whose sizes depend on the hash's output length alone.
//! The HMACs (thirty and more a handshake, each several SHA-256 blocks over a few bytes) and the
//! transcript hash took 5% of the simulator's instructions on the thesis grid's pages, so a
//! simulation stands in a 64-bit FNV-1a over the bytes, spread to the hash's output length. It is
//! no hash to rely on, and nothing relies on it: both ends compute the same function of the same
//! bytes, so the handshake completes and a Finished message of the wrong transcript still fails.

use rustls::crypto::hash::{Context, Hash, HashAlgorithm, Output};
use rustls::crypto::hmac::{Hmac, Key, Tag};
use rustls::crypto::tls13::{Hkdf, HkdfUsingHmac};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The stand-in of a hash of `output_len` bytes (32 for SHA-256, 48 for SHA-384), named `algorithm`.
pub fn hash(algorithm: HashAlgorithm, output_len: usize) -> &'static dyn Hash {
    Box::leak(Box::new(StandInHash { algorithm, output_len }))
}

/// HKDF over the stand-in HMAC of `output_len` bytes.
pub fn hkdf(output_len: usize) -> &'static dyn Hkdf {
    let hmac: &'static StandInHmac = Box::leak(Box::new(StandInHmac { output_len }));
    Box::leak(Box::new(HkdfUsingHmac(hmac)))
}

/// FNV-1a's state after `bytes`, from `state`: the same whatever pieces the bytes come in.
fn fnv(mut state: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        state = (state ^ u64::from(*b)).wrapping_mul(FNV_PRIME);
    }
    state
}

/// `len` bytes from a 64-bit state, eight at a time through SplitMix64's finaliser.
fn spread(state: u64, len: usize) -> Vec<u8> {
    (0..len.div_ceil(8) as u64)
        .flat_map(|i| {
            let mut z = state ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)).to_le_bytes()
        })
        .take(len)
        .collect()
}

struct StandInHash {
    algorithm: HashAlgorithm,
    output_len: usize,
}

impl Hash for StandInHash {
    fn start(&self) -> Box<dyn Context> {
        Box::new(Running { state: FNV_OFFSET, output_len: self.output_len })
    }

    fn hash(&self, data: &[u8]) -> Output {
        Output::new(&spread(fnv(FNV_OFFSET, data), self.output_len))
    }

    fn output_len(&self) -> usize {
        self.output_len
    }

    fn algorithm(&self) -> HashAlgorithm {
        self.algorithm
    }
}

#[derive(Clone)]
struct Running {
    state: u64,
    output_len: usize,
}

impl Context for Running {
    fn fork_finish(&self) -> Output {
        Output::new(&spread(self.state, self.output_len))
    }

    fn fork(&self) -> Box<dyn Context> {
        Box::new(self.clone())
    }

    fn finish(self: Box<Self>) -> Output {
        self.fork_finish()
    }

    fn update(&mut self, data: &[u8]) {
        self.state = fnv(self.state, data);
    }
}

struct StandInHmac {
    output_len: usize,
}

impl Hmac for StandInHmac {
    fn with_key(&self, key: &[u8]) -> Box<dyn Key> {
        // The key's length goes in first, so that no key and message pair runs into another's.
        let keyed = fnv(fnv(FNV_OFFSET, &(key.len() as u64).to_le_bytes()), key);
        Box::new(KeyedHmac { keyed, output_len: self.output_len })
    }

    fn hash_output_len(&self) -> usize {
        self.output_len
    }
}

struct KeyedHmac {
    keyed: u64,
    output_len: usize,
}

impl Key for KeyedHmac {
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> Tag {
        let state = middle.iter().fold(fnv(self.keyed, first), |s, m| fnv(s, m));
        Tag::new(&spread(fnv(state, last), self.output_len))
    }

    fn tag_len(&self) -> usize {
        self.output_len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_has_its_length_and_depends_on_the_bytes_not_on_their_pieces() {
        let h = hash(HashAlgorithm::SHA256, 32);
        assert_eq!(h.hash(b"abc").as_ref().len(), 32);
        assert_eq!(hash(HashAlgorithm::SHA384, 48).hash(b"abc").as_ref().len(), 48);
        let mut c = h.start();
        c.update(b"ab");
        let fork = c.fork_finish();
        c.update(b"c");
        assert_eq!(c.fork_finish().as_ref(), h.hash(b"abc").as_ref());
        assert_ne!(fork.as_ref(), h.hash(b"abc").as_ref());
        assert_ne!(h.hash(b"abc").as_ref(), h.hash(b"abd").as_ref());
    }

    #[test]
    fn an_hmac_depends_on_its_key_and_its_message() {
        let hmac = StandInHmac { output_len: 32 };
        let tag = |k: &[u8], m: &[u8]| hmac.with_key(k).sign(&[m]).as_ref().to_vec();
        assert_eq!(tag(b"k", b"m").len(), 32);
        assert_eq!(tag(b"k", b"m"), hmac.with_key(b"k").sign_concat(b"", &[b"m"], b"").as_ref());
        assert_ne!(tag(b"k", b"m"), tag(b"j", b"m"));
        assert_ne!(tag(b"k", b"m"), tag(b"k", b"n"));
        assert_ne!(tag(b"km", b""), tag(b"k", b"m"));
    }
}
