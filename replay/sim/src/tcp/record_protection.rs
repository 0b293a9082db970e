//! TLS 1.3 records of the real size without AES-GCM, for the simulator.
//!
//! A record's cost in virtual time is its bytes: the inner content type and the AEAD's 16-byte tag
//! on each, as every TLS 1.3 suite adds them. Sealing and opening the page's bytes with AES-GCM
//! took about a tenth of the simulator's time on the thesis grid's pages, for nothing a simulation
//! needs (both ends are in one process and nothing is secret), so the stand-in copies the plaintext
//! and appends the content type and a tag of zeros, and the receiver takes them off again. The key
//! schedule still runs (its keys are derived and unused), so handshakes keep their messages.

use rustls::crypto::cipher::{AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload, Tls13AeadAlgorithm, UnsupportedOperationError};
use rustls::crypto::CipherSuiteCommon;
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion, SupportedCipherSuite, Tls13CipherSuite};
use std::sync::OnceLock;

/// Every TLS 1.3 AEAD's tag (AES-GCM's and ChaCha20-Poly1305's alike).
const TAG: usize = 16;

/// `suites` with each TLS 1.3 suite's record protection stood in; its name, hash and key schedule kept.
pub fn stand_in_suites(suites: &[SupportedCipherSuite]) -> Vec<SupportedCipherSuite> {
    suites.iter().map(|suite| match suite {
        SupportedCipherSuite::Tls13(real) => SupportedCipherSuite::Tls13(stood_in(real)),
        other => *other,
    }).collect()
}

/// One stand-in per real suite for the process's life: a cipher suite is `'static` in rustls.
fn stood_in(real: &'static Tls13CipherSuite) -> &'static Tls13CipherSuite {
    static MADE: OnceLock<std::sync::Mutex<Vec<(usize, &'static Tls13CipherSuite)>>> = OnceLock::new();
    let mut made = MADE.get_or_init(Default::default).lock().expect("no panic holds this lock");
    let key = real as *const Tls13CipherSuite as usize;
    if let Some((_, s)) = made.iter().find(|(k, _)| *k == key) {
        return s;
    }
    let aead: &'static StandInAead = Box::leak(Box::new(StandInAead { key_len: real.aead_alg.key_len() }));
    let suite: &'static Tls13CipherSuite = Box::leak(Box::new(Tls13CipherSuite {
        common: CipherSuiteCommon { suite: real.common.suite, hash_provider: real.common.hash_provider, confidentiality_limit: real.common.confidentiality_limit },
        hkdf_provider: real.hkdf_provider,
        aead_alg: aead,
        quic: None,
    }));
    made.push((key, suite));
    suite
}

struct StandInAead {
    /// The real AEAD's, so that the key schedule derives what it would.
    key_len: usize,
}

impl Tls13AeadAlgorithm for StandInAead {
    fn encrypter(&self, _key: AeadKey, _iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Sealer)
    }

    fn decrypter(&self, _key: AeadKey, _iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Opener)
    }

    fn key_len(&self) -> usize {
        self.key_len
    }

    fn extract_keys(&self, _key: AeadKey, _iv: Iv) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Err(UnsupportedOperationError)
    }
}

struct Sealer;

impl MessageEncrypter for Sealer {
    fn encrypt(&mut self, msg: OutboundPlainMessage<'_>, _seq: u64) -> Result<OutboundOpaqueMessage, Error> {
        let mut payload = PrefixedPayload::with_capacity(self.encrypted_payload_len(msg.payload.len()));
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&[u8::from(msg.typ)]);
        payload.extend_from_slice(&[0; TAG]);
        // TLS 1.3 protected records all say application data, version 1.2 (RFC 8446 §5.2).
        Ok(OutboundOpaqueMessage::new(ContentType::ApplicationData, ProtocolVersion::TLSv1_2, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG
    }
}

struct Opener;

impl MessageDecrypter for Opener {
    fn decrypt<'a>(&mut self, mut msg: InboundOpaqueMessage<'a>, _seq: u64) -> Result<InboundPlainMessage<'a>, Error> {
        let len = msg.payload.len();
        if len < TAG {
            return Err(Error::DecryptError);
        }
        msg.payload.truncate(len - TAG);
        msg.into_tls13_unpadded_message()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::crypto::cipher::OutboundChunks;

    #[test]
    fn a_record_grows_by_the_content_type_and_a_tag_and_opens_to_what_was_sealed() {
        let real = rustls::crypto::ring::default_provider().cipher_suites;
        let suites = stand_in_suites(&real);
        assert_eq!(suites.len(), real.len());
        let SupportedCipherSuite::Tls13(suite) = suites[0] else { panic!("ring lists a TLS 1.3 suite first") };
        assert_eq!(suite.common.suite, real[0].suite());
        let key = || AeadKey::from([7u8; 32]);
        let mut sealer = suite.aead_alg.encrypter(key(), Iv::new([0; 12]));
        let body = b"the page's bytes";
        let sealed = sealer.encrypt(OutboundPlainMessage { typ: ContentType::ApplicationData, version: ProtocolVersion::TLSv1_2, payload: OutboundChunks::Single(body) }, 0).unwrap();
        assert_eq!(sealed.payload.as_ref().len(), body.len() + 1 + TAG);
        assert_eq!(sealer.encrypted_payload_len(body.len()), body.len() + 1 + TAG);
        let mut wire = sealed.encode();
        let mut opener = suite.aead_alg.decrypter(key(), Iv::new([0; 12]));
        let inbound = InboundOpaqueMessage::new(ContentType::ApplicationData, ProtocolVersion::TLSv1_2, &mut wire[5..]);
        let opened = opener.decrypt(inbound, 0).unwrap();
        assert_eq!(opened.typ, ContentType::ApplicationData);
        assert_eq!(opened.payload, body);
        // The same suite twice is one stand-in.
        assert!(std::ptr::eq(stood_in(match real[0] { SupportedCipherSuite::Tls13(s) => s, _ => unreachable!() }), suite));
    }
}
