//! The post-quantum hybrid key share Chromium offers first in every TLS 1.3 ClientHello,
//! X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem: the ML-KEM-768 encapsulation key, 1,184 bytes, then
//! an X25519 public key), beside a plain X25519 share made from the same X25519 key.
//!
//! Its size is why it is here: Chromium's ClientHello is about 2 KB, two TCP segments, where
//! rustls's without it is 264 bytes, one. At 1 Mbit/s with a 16-packet queue, Chromium's four
//! handshakes to one host put eight segments in the uplink at once and lost the second segment of
//! two of them, which waited 0.7-1.7 s for its retransmission (real-gentelella, 2026-12-05,
//! tcpdump in the servers' namespace); the emulated browser's never lost one. The replay servers
//! do not speak ML-KEM, so they take the X25519 share, as with Chromium; a server that chose the
//! hybrid would get a real one.

use ml_kem::kem::Decapsulate;
use ml_kem::{Ciphertext, EncodedSizeUser, KemCore, MlKem768, B32};
use ring::agreement::{agree_ephemeral, EphemeralPrivateKey, UnparsedPublicKey, X25519};
use ring::rand::{SecureRandom, SystemRandom};
use rustls::crypto::{ActiveKeyExchange, SharedSecret, SupportedKxGroup};
use rustls::client::{ClientSessionMemoryCache, ClientSessionStore, Tls12ClientSessionValue, Tls13ClientSessionValue};
use rustls::pki_types::ServerName;
use rustls::{Error, NamedGroup};

#[cfg(test)]
const MLKEM768_ENCAPSULATION_KEY: usize = 1184;
const MLKEM768_CIPHERTEXT: usize = 1088;
const X25519_SHARE: usize = 32;

/// X25519MLKEM768 for rustls's client: offered first, its X25519 half offered alone after it.
#[derive(Debug)]
pub struct X25519MlKem768;

impl SupportedKxGroup for X25519MlKem768 {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let rng = SystemRandom::new();
        let x25519 = EphemeralPrivateKey::generate(&X25519, &rng).map_err(|_| Error::FailedToGetRandomBytes)?;
        let classical = x25519.compute_public_key().map_err(|_| Error::FailedToGetRandomBytes)?.as_ref().to_vec();
        let (mut d, mut z) = ([0u8; 32], [0u8; 32]);
        rng.fill(&mut d).and_then(|_| rng.fill(&mut z)).map_err(|_| Error::FailedToGetRandomBytes)?;
        let (decapsulation, encapsulation) = MlKem768::generate_deterministic(&B32::from(d), &B32::from(z));
        let mut share = encapsulation.as_bytes().to_vec();
        share.extend_from_slice(&classical);
        Ok(Box::new(Active { x25519, decapsulation, share, classical }))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::X25519MLKEM768
    }
}

struct Active {
    x25519: EphemeralPrivateKey,
    decapsulation: <MlKem768 as KemCore>::DecapsulationKey,
    share: Vec<u8>,
    classical: Vec<u8>,
}

impl Active {
    fn x25519_secret(x25519: EphemeralPrivateKey, peer: &[u8]) -> Result<Vec<u8>, Error> {
        agree_ephemeral(x25519, &UnparsedPublicKey::new(&X25519, peer), |secret| secret.to_vec())
            .map_err(|_| Error::from(rustls::PeerMisbehaved::InvalidKeyShare))
    }
}

impl ActiveKeyExchange for Active {
    /// The server's share is the ML-KEM ciphertext then its X25519 key; the secret is the ML-KEM
    /// shared key then the X25519 one.
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        if peer.len() != MLKEM768_CIPHERTEXT + X25519_SHARE {
            return Err(rustls::PeerMisbehaved::InvalidKeyShare.into());
        }
        let ciphertext = Ciphertext::<MlKem768>::try_from(&peer[..MLKEM768_CIPHERTEXT]).map_err(|_| Error::from(rustls::PeerMisbehaved::InvalidKeyShare))?;
        let mlkem = self.decapsulation.decapsulate(&ciphertext).map_err(|_| Error::from(rustls::PeerMisbehaved::InvalidKeyShare))?;
        let mut secret = mlkem.to_vec();
        secret.extend(Self::x25519_secret(self.x25519, &peer[MLKEM768_CIPHERTEXT..])?);
        Ok(SharedSecret::from(secret.as_slice()))
    }

    fn hybrid_component(&self) -> Option<(NamedGroup, &[u8])> {
        Some((NamedGroup::X25519, &self.classical))
    }

    fn complete_hybrid_component(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        Ok(SharedSecret::from(Self::x25519_secret(self.x25519, peer)?.as_slice()))
    }

    fn pub_key(&self) -> &[u8] {
        &self.share
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::X25519MLKEM768
    }
}

/// rustls's session store, less its memory of the group each server chose: rustls would then offer
/// that group's share alone on the next connection to the server (266 bytes, one segment), where
/// Chromium offers both shares on every one.
#[derive(Debug)]
pub struct EveryHelloHybrid(ClientSessionMemoryCache);

impl Default for EveryHelloHybrid {
    fn default() -> Self {
        // rustls's default size.
        Self(ClientSessionMemoryCache::new(256))
    }
}

impl ClientSessionStore for EveryHelloHybrid {
    fn set_kx_hint(&self, _: ServerName<'static>, _: NamedGroup) {}

    fn kx_hint(&self, _: &ServerName<'_>) -> Option<NamedGroup> {
        None
    }

    fn set_tls12_session(&self, name: ServerName<'static>, value: Tls12ClientSessionValue) {
        self.0.set_tls12_session(name, value)
    }

    fn tls12_session(&self, name: &ServerName<'_>) -> Option<Tls12ClientSessionValue> {
        self.0.tls12_session(name)
    }

    fn remove_tls12_session(&self, name: &ServerName<'static>) {
        self.0.remove_tls12_session(name)
    }

    fn insert_tls13_ticket(&self, name: ServerName<'static>, value: Tls13ClientSessionValue) {
        self.0.insert_tls13_ticket(name, value)
    }

    fn take_tls13_ticket(&self, name: &ServerName<'static>) -> Option<Tls13ClientSessionValue> {
        self.0.take_tls13_ticket(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ml_kem::EncapsulateDeterministic;

    #[test]
    fn the_share_is_an_encapsulation_key_then_an_x25519_key_and_both_halves_agree() {
        let active = X25519MlKem768.start().unwrap();
        assert_eq!(active.pub_key().len(), MLKEM768_ENCAPSULATION_KEY + X25519_SHARE);
        let (group, classical) = active.hybrid_component().unwrap();
        assert_eq!((group, classical.len()), (NamedGroup::X25519, X25519_SHARE));
        assert_eq!(&active.pub_key()[MLKEM768_ENCAPSULATION_KEY..], classical);
        // The server's side of the hybrid: encapsulate to the key, and an X25519 key of its own.
        let key = ml_kem::Encoded::<<MlKem768 as KemCore>::EncapsulationKey>::try_from(&active.pub_key()[..MLKEM768_ENCAPSULATION_KEY]).unwrap();
        let encapsulation = <MlKem768 as KemCore>::EncapsulationKey::from_bytes(&key);
        let (ciphertext, mlkem) = encapsulation.encapsulate_deterministic(&B32::from([7u8; 32])).unwrap();
        let server = EphemeralPrivateKey::generate(&X25519, &SystemRandom::new()).unwrap();
        let server_public = server.compute_public_key().unwrap().as_ref().to_vec();
        let server_x25519 = agree_ephemeral(server, &UnparsedPublicKey::new(&X25519, classical.to_vec()), |s| s.to_vec()).unwrap();
        let mut peer = ciphertext.to_vec();
        peer.extend_from_slice(&server_public);
        let secret = active.complete(&peer).unwrap();
        assert_eq!(secret.secret_bytes(), [mlkem.as_slice(), server_x25519.as_slice()].concat());
    }

    #[test]
    fn a_server_that_takes_the_x25519_share_agrees_on_x25519_alone_and_a_bad_share_is_refused() {
        let active = X25519MlKem768.start().unwrap();
        let classical = active.hybrid_component().unwrap().1.to_vec();
        let server = EphemeralPrivateKey::generate(&X25519, &SystemRandom::new()).unwrap();
        let server_public = server.compute_public_key().unwrap().as_ref().to_vec();
        let expected = agree_ephemeral(server, &UnparsedPublicKey::new(&X25519, classical), |s| s.to_vec()).unwrap();
        assert_eq!(active.complete_hybrid_component(&server_public).unwrap().secret_bytes(), expected.as_slice());
        assert!(X25519MlKem768.start().unwrap().complete(&[0u8; 12]).is_err());
    }
}
