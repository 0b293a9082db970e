//! Which TLS arithmetic a simulation runs over TCP: ring's, as a replay does, or stand-ins of the
//! same sizes (handshake_crypto.rs for key exchange and signatures, key_schedule.rs for the HMACs
//! and hashes, record_protection.rs for AES-GCM), which virtual time does not count and which cost
//! the simulator most of its TLS time.

use super::handshake_crypto::{stand_in_key_exchange, StandInKey};
use super::{key_schedule, record_protection};
use rustls::crypto::{CipherSuiteCommon, CryptoProvider};
use rustls::sign::SigningKey;
use rustls::{SupportedCipherSuite, Tls13CipherSuite};
use std::sync::{Arc, Mutex, OnceLock};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TlsCrypto {
    /// ring's X25519, ECDSA and AES-GCM, as the replay servers and the emulated browser run them.
    Real,
    /// Same sizes and round trips, no arithmetic.
    #[default]
    StandIn,
}

impl TlsCrypto {
    pub fn parse(name: &str) -> Result<TlsCrypto, String> {
        match name {
            "real" => Ok(TlsCrypto::Real),
            "stand-in" => Ok(TlsCrypto::StandIn),
            other => Err(format!("--tls-crypto {other}: there are real (X25519, ECDSA and AES-GCM as a replay runs them) and stand-in (the same sizes without the arithmetic)")),
        }
    }
}

/// The browser's and the servers' TLS settings for `crypto`: None where the real ones are made as
/// a replay makes them.
pub fn stand_ins(crypto: TlsCrypto) -> Option<(CryptoProvider, Arc<dyn SigningKey>)> {
    (crypto == TlsCrypto::StandIn).then(|| {
        let mut provider = stand_in_key_exchange(rustls::crypto::ring::default_provider());
        provider.cipher_suites = provider.cipher_suites.iter().map(|suite| match suite {
            SupportedCipherSuite::Tls13(real) => SupportedCipherSuite::Tls13(stood_in(real)),
            other => *other,
        }).collect();
        (provider, Arc::new(StandInKey) as Arc<dyn SigningKey>)
    })
}

/// A TLS 1.3 suite of the same name, hash length and key length as `real`, its arithmetic stood
/// in; one per real suite for the process's life, as rustls takes suites `'static`.
fn stood_in(real: &'static Tls13CipherSuite) -> &'static Tls13CipherSuite {
    static MADE: OnceLock<Mutex<Vec<(usize, &'static Tls13CipherSuite)>>> = OnceLock::new();
    let mut made = MADE.get_or_init(Default::default).lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = real as *const Tls13CipherSuite as usize;
    if let Some((_, suite)) = made.iter().find(|(k, _)| *k == key) {
        return suite;
    }
    let hash_len = real.common.hash_provider.output_len();
    let suite: &'static Tls13CipherSuite = Box::leak(Box::new(Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: real.common.suite,
            hash_provider: key_schedule::hash(real.common.hash_provider.algorithm(), hash_len),
            confidentiality_limit: real.common.confidentiality_limit,
        },
        hkdf_provider: key_schedule::hkdf(hash_len),
        aead_alg: record_protection::aead(real.aead_alg.key_len()),
        quic: None,
    }));
    made.push((key, suite));
    suite
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_suite_keeps_its_name_and_sizes_and_is_made_once() {
        let real = rustls::crypto::ring::default_provider().cipher_suites;
        let (first, _) = stand_ins(TlsCrypto::StandIn).unwrap();
        let (second, _) = stand_ins(TlsCrypto::StandIn).unwrap();
        assert_eq!(first.cipher_suites.len(), real.len());
        for ((r, a), b) in real.iter().zip(&first.cipher_suites).zip(&second.cipher_suites) {
            assert_eq!(r.suite(), a.suite());
            if let (SupportedCipherSuite::Tls13(r), SupportedCipherSuite::Tls13(a), SupportedCipherSuite::Tls13(b)) = (r, a, b) {
                assert!(std::ptr::eq(*a, *b));
                assert!(!std::ptr::eq(*r, *a));
                assert_eq!(a.common.hash_provider.output_len(), r.common.hash_provider.output_len());
                assert_eq!(a.aead_alg.key_len(), r.aead_alg.key_len());
            }
        }
        assert!(stand_ins(TlsCrypto::Real).is_none());
    }
}
