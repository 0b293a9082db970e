//! An ECDSA key whose handshake signatures are all one length. A DER-encoded P-256 signature is 70
//! to 72 bytes at random (its r and s each take 33 bytes when their top bit is set), so the server's
//! first flight differed by a byte or two from run to run, moving a segment boundary, and with it
//! a delayed ACK or a loss, and a load by up to 13% in the simulator (docs/simulator.md). Signing
//! again until the signature has the most common length, 71 bytes, makes every handshake the same
//! size; each signature is still a fresh, valid one.

use rustls::sign::{Signer, SigningKey};
use rustls::{Error, SignatureAlgorithm, SignatureScheme};
use std::sync::Arc;

/// Half of all P-256 signatures have it; 70 and 72 a quarter each.
pub const SIGNATURE_LENGTH: usize = 71;
/// Tries before a signature of another length is sent: a 71-byte one is missed 64 times in a row
/// once in 2^64 handshakes.
const TRIES: usize = 64;

#[derive(Debug)]
pub struct OneLength(pub Arc<dyn SigningKey>);

impl SigningKey for OneLength {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let inner = self.0.choose_scheme(offered)?;
        Some(Box::new(OneLengthSigner(inner)))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        self.0.algorithm()
    }
}

#[derive(Debug)]
struct OneLengthSigner(Box<dyn Signer>);

impl Signer for OneLengthSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let mut signature = self.0.sign(message)?;
        for _ in 1..TRIES {
            if signature.len() == SIGNATURE_LENGTH || self.0.scheme() != SignatureScheme::ECDSA_NISTP256_SHA256 {
                break;
            }
            signature = self.0.sign(message)?;
        }
        Ok(signature)
    }

    fn scheme(&self) -> SignatureScheme {
        self.0.scheme()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

    #[test]
    fn every_signature_has_one_length_and_verifies() {
        let cert = crate::io::certs::generate(&["a.test".to_string()]).unwrap();
        let der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key_der.clone()));
        let key = OneLength(rustls::crypto::ring::sign::any_ecdsa_type(&der).unwrap());
        let signer = key.choose_scheme(&[SignatureScheme::ECDSA_NISTP256_SHA256]).unwrap();
        let public = ring::signature::EcdsaKeyPair::from_pkcs8(&ring::signature::ECDSA_P256_SHA256_ASN1_SIGNING, &cert.key_der, &ring::rand::SystemRandom::new()).unwrap();
        let verifier = ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_ASN1, ring::signature::KeyPair::public_key(&public).as_ref().to_vec());
        for i in 0..200u32 {
            let message = i.to_be_bytes();
            let s = signer.sign(&message).unwrap();
            assert_eq!(s.len(), SIGNATURE_LENGTH);
            verifier.verify(&message, &s).unwrap();
        }
    }
}
