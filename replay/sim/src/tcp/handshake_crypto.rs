//! TLS handshakes of the real size without their public-key arithmetic, for the simulator.
//!
//! In virtual time a handshake's cost is its bytes and round trips; the CPU it takes is not
//! modelled. X25519 and ECDSA P-256 (the servers' signing, the browser's verification) took about a
//! quarter of the simulator's time on the thesis grid's pages (a handshake per HTTP/1.1
//! connection, six an origin), so a simulation stands them in: the key shares are 32 random bytes
//! as X25519's are, the shared secret is their XOR (both ends derive it; it protects nothing, and
//! nothing in a simulation needs protecting), and the server's signature is `SIGNATURE_LENGTH`
//! bytes, the length the replay servers always send (one_length_signatures.rs). rustls runs its
//! whole handshake and key schedule as before, so every record and segment has the size it has
//! with the real arithmetic: the simulate test holds a page's loads with both
//! to the same timings. `--tls-crypto real` keeps the arithmetic (tls_crypto.rs).

use pagepath_server::io::one_length_signatures::SIGNATURE_LENGTH;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{ActiveKeyExchange, CryptoProvider, SharedSecret, SupportedKxGroup};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::sign::{Signer, SigningKey};
use rustls::{DigitallySignedStruct, Error, NamedGroup, SignatureAlgorithm, SignatureScheme};

const X25519_SHARE: usize = 32;

/// `provider` with X25519 stood in; the other groups stay (the client lists them, never uses them).
pub fn stand_in_key_exchange(mut provider: CryptoProvider) -> CryptoProvider {
    for group in provider.kx_groups.iter_mut() {
        if group.name() == NamedGroup::X25519 {
            *group = &StandInX25519;
        }
    }
    provider
}

#[derive(Debug)]
struct StandInX25519;

impl SupportedKxGroup for StandInX25519 {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let mut share = [0u8; X25519_SHARE];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut share).map_err(|_| Error::FailedToGetRandomBytes)?;
        Ok(Box::new(Share(share)))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

struct Share([u8; X25519_SHARE]);

impl ActiveKeyExchange for Share {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        if peer.len() != X25519_SHARE {
            return Err(Error::from(rustls::PeerMisbehaved::InvalidKeyShare));
        }
        Ok(SharedSecret::from(self.0.iter().zip(peer).map(|(a, b)| a ^ b).collect::<Vec<u8>>()))
    }

    fn pub_key(&self) -> &[u8] {
        &self.0
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

/// The servers' key: ECDSA P-256 by name, signatures of the replay servers' one length.
#[derive(Debug)]
pub struct StandInKey;

impl SigningKey for StandInKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&SignatureScheme::ECDSA_NISTP256_SHA256).then(|| Box::new(StandInSigner) as Box<dyn Signer>)
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ECDSA
    }
}

#[derive(Debug)]
struct StandInSigner;

impl Signer for StandInSigner {
    fn sign(&self, _message: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(vec![0; SIGNATURE_LENGTH])
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ECDSA_NISTP256_SHA256
    }
}

/// The browser's check: the certificate is the one the simulation's servers hold, and its
/// signature has the stand-in's length and scheme.
#[derive(Debug)]
pub struct StandInVerifier {
    certificate: Vec<u8>,
    /// What the real check offers (the ClientHello's signature_algorithms, which is bytes too).
    schemes: Vec<SignatureScheme>,
}

impl StandInVerifier {
    pub fn new(certificate: &[u8]) -> StandInVerifier {
        let schemes = rustls::crypto::ring::default_provider().signature_verification_algorithms.supported_schemes();
        StandInVerifier { certificate: certificate.to_vec(), schemes }
    }
}

impl ServerCertVerifier for StandInVerifier {
    fn verify_server_cert(&self, end_entity: &CertificateDer<'_>, _: &[CertificateDer<'_>], _: &ServerName<'_>, _: &[u8], _: UnixTime) -> Result<ServerCertVerified, Error> {
        if end_entity.as_ref() == self.certificate.as_slice() {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(Error::General("the server's certificate is not the simulation's".to_string()))
        }
    }

    fn verify_tls12_signature(&self, _: &[u8], _: &CertificateDer<'_>, _: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, Error> {
        Err(Error::General("the simulation's servers speak TLS 1.3".to_string()))
    }

    fn verify_tls13_signature(&self, _: &[u8], _: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, Error> {
        if dss.scheme == SignatureScheme::ECDSA_NISTP256_SHA256 && dss.signature().len() == SIGNATURE_LENGTH {
            Ok(HandshakeSignatureValid::assertion())
        } else {
            Err(Error::General(format!("a {:?} signature of {} bytes is not the stand-in's", dss.scheme, dss.signature().len())))
        }
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.schemes.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ends_derive_one_secret_from_shares_of_x25519s_size() {
        let client = StandInX25519.start().unwrap();
        let server = StandInX25519.start().unwrap();
        assert_eq!(client.pub_key().len(), 32);
        let (c, s) = (client.pub_key().to_vec(), server.pub_key().to_vec());
        assert_ne!(c, s);
        let a = client.complete(&s).unwrap();
        let b = server.complete(&c).unwrap();
        assert_eq!(a.secret_bytes(), b.secret_bytes());
        assert!(StandInX25519.start().unwrap().complete(&[0; 31]).is_err());
    }

    #[test]
    fn the_verifier_takes_the_stand_in_signature_and_nothing_else() {
        let signer = StandInKey.choose_scheme(&[SignatureScheme::ECDSA_NISTP256_SHA256]).unwrap();
        assert_eq!(signer.sign(b"transcript").unwrap().len(), SIGNATURE_LENGTH);
        assert!(StandInKey.choose_scheme(&[SignatureScheme::ED25519]).is_none());
        let v = StandInVerifier::new(&[1, 2, 3]);
        assert!(v.supported_verify_schemes().len() > 1);
        let cert = CertificateDer::from(vec![1, 2, 3]);
        let name = ServerName::try_from("a.test").unwrap();
        assert!(v.verify_server_cert(&cert, &[], &name, &[], UnixTime::now()).is_ok());
        assert!(v.verify_server_cert(&CertificateDer::from(vec![9]), &[], &name, &[], UnixTime::now()).is_err());
    }
}
