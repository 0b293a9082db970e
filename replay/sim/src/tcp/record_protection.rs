//! TLS 1.3 records of the real size without AES-GCM, for the simulator.
//!
//! A record's cost in virtual time is its bytes: the inner content type and the AEAD's 16-byte tag
//! on each, as every TLS 1.3 suite adds them. Sealing and opening the page's bytes with AES-GCM
//! took about a tenth of the simulator's time on the thesis grid's pages, for nothing a simulation
//! needs (both ends are in one process and nothing is secret), so the stand-in copies the plaintext
//! and appends the content type and a tag of zeros, and the receiver takes them off again. The key
//! schedule still runs (its keys are derived and unused), so handshakes keep their messages.

use rustls::crypto::cipher::{AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload, Tls13AeadAlgorithm, UnsupportedOperationError};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};

/// Every TLS 1.3 AEAD's tag (AES-GCM's and ChaCha20-Poly1305's alike).
const TAG: usize = 16;

/// The stand-in AEAD of a suite whose keys are `key_len` bytes.
pub fn aead(key_len: usize) -> &'static dyn Tls13AeadAlgorithm {
    Box::leak(Box::new(StandInAead { key_len }))
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
        let alg = aead(16);
        assert_eq!(alg.key_len(), 16);
        let key = || AeadKey::from([7u8; 32]);
        let mut sealer = alg.encrypter(key(), Iv::new([0; 12]));
        let body = b"the page's bytes";
        let sealed = sealer.encrypt(OutboundPlainMessage { typ: ContentType::ApplicationData, version: ProtocolVersion::TLSv1_2, payload: OutboundChunks::Single(body) }, 0).unwrap();
        assert_eq!(sealed.payload.as_ref().len(), body.len() + 1 + TAG);
        assert_eq!(sealer.encrypted_payload_len(body.len()), body.len() + 1 + TAG);
        let mut wire = sealed.encode();
        let mut opener = alg.decrypter(key(), Iv::new([0; 12]));
        let inbound = InboundOpaqueMessage::new(ContentType::ApplicationData, ProtocolVersion::TLSv1_2, &mut wire[5..]);
        let opened = opener.decrypt(inbound, 0).unwrap();
        assert_eq!(opened.typ, ContentType::ApplicationData);
        assert_eq!(opened.payload, body);
        let mut short = [0u8; TAG - 1];
        assert!(opener.decrypt(InboundOpaqueMessage::new(ContentType::ApplicationData, ProtocolVersion::TLSv1_2, &mut short), 1).is_err());
    }
}
