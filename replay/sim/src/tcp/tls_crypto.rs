//! Which TLS arithmetic a simulation runs over TCP: ring's, as a replay does, or stand-ins of the
//! same sizes (handshake_crypto.rs for key exchange and signatures, record_protection.rs for
//! AES-GCM), which virtual time does not count and which cost the simulator most of its TLS time.

use super::handshake_crypto::{stand_in_key_exchange, StandInKey};
use super::record_protection::stand_in_suites;
use rustls::crypto::CryptoProvider;
use rustls::sign::SigningKey;
use std::sync::Arc;

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
        provider.cipher_suites = stand_in_suites(&provider.cipher_suites);
        (provider, Arc::new(StandInKey) as Arc<dyn SigningKey>)
    })
}
