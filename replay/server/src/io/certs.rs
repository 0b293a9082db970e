//! A certificate made fresh for each replay, naming every recorded host. Browsers are told to
//! trust it by the hash of its public key (Chromium's --ignore-certificate-errors-spki-list), so
//! no CA is installed anywhere and a leaked key is worth nothing after the replay.

use super::one_length_signatures::SIGNATURE_LENGTH;
use base64::Engine;
use std::path::Path;

#[derive(Clone)]
pub struct ReplayCertificate {
    pub cert_pem: String,
    pub key_pem: String,
    pub cert_der: Vec<u8>,
    pub key_der: Vec<u8>,
    /// base64 of the SHA-256 of the SubjectPublicKeyInfo, as Chromium wants it.
    pub spki_hash: String,
}

pub fn generate(hosts: &[String]) -> Result<ReplayCertificate, String> {
    let key = rcgen::KeyPair::generate().map_err(|e| format!("cannot generate a key: {e}"))?;
    let mut params =
        rcgen::CertificateParams::new(hosts.to_vec()).map_err(|e| format!("cannot name the hosts in a certificate: {e}"))?;
    params.distinguished_name.push(rcgen::DnType::CommonName, "pagepath replay");
    // rcgen's own serial is 20 bytes of the key's hash with the top bit cleared, DER-encoded
    // without leading zeros: one key in 256 or so gave a certificate a byte shorter. The same
    // serial with its first byte kept between 0x40 and 0x7f is always 20 bytes.
    let mut serial = ring::digest::digest(&ring::digest::SHA256, &key.public_key_der()).as_ref()[..20].to_vec();
    serial[0] = (serial[0] & 0x3f) | 0x40;
    params.serial_number = Some(rcgen::SerialNumber::from_slice(&serial));
    // A certificate's own ECDSA signature is 70 to 72 bytes at random too: signed again until it
    // has the length the handshakes' have (one_length_signatures.rs), every certificate for the same
    // hosts is the same size, and so is every replay's first flight.
    let mut cert = params.clone().self_signed(&key).map_err(|e| format!("cannot sign the certificate: {e}"))?;
    for _ in 1..64 {
        if signature_length(cert.der()) == Some(SIGNATURE_LENGTH) {
            break;
        }
        cert = params.clone().self_signed(&key).map_err(|e| format!("cannot sign the certificate: {e}"))?;
    }
    let spki = ring::digest::digest(&ring::digest::SHA256, &key.public_key_der());
    Ok(ReplayCertificate {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        cert_der: cert.der().to_vec(),
        key_der: key.serialize_der(),
        spki_hash: base64::engine::general_purpose::STANDARD.encode(spki.as_ref()),
    })
}

/// The length of the DER ECDSA signature that ends a certificate: its last element is a BIT STRING
/// (03 len 00) holding a SEQUENCE (30 len) of r and s.
fn signature_length(der: &[u8]) -> Option<usize> {
    (68..=73).find(|&k| {
        let at = der.len().checked_sub(k + 3);
        at.is_some_and(|a| der[a] == 0x03 && usize::from(der[a + 1]) == k + 1 && der[a + 2] == 0 && der[a + 3] == 0x30 && usize::from(der[a + 4]) == k - 2)
    })
}

impl ReplayCertificate {
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        for (name, text) in [("cert.pem", &self.cert_pem), ("key.pem", &self.key_pem)] {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificates_for_the_same_hosts_are_one_size() {
        let hosts = vec!["a.test".to_string(), "b.test".to_string()];
        // Enough keys that one with a leading zero in rcgen's own serial would turn up (about 1 in 256).
        let sizes: std::collections::BTreeSet<usize> = (0..600).map(|_| generate(&hosts).unwrap().cert_der.len()).collect();
        assert_eq!(sizes.len(), 1, "sizes {sizes:?}");
        assert_eq!(signature_length(&generate(&hosts).unwrap().cert_der), Some(SIGNATURE_LENGTH));
    }
}
