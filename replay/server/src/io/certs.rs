//! A certificate made fresh for each replay, naming every recorded host. Browsers are told to
//! trust it by the hash of its public key (Chromium's --ignore-certificate-errors-spki-list), so
//! no CA is installed anywhere and a leaked key is worth nothing after the replay.

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
    let cert = params.self_signed(&key).map_err(|e| format!("cannot sign the certificate: {e}"))?;
    let spki = ring::digest::digest(&ring::digest::SHA256, &key.public_key_der());
    Ok(ReplayCertificate {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        cert_der: cert.der().to_vec(),
        key_der: key.serialize_der(),
        spki_hash: base64::engine::general_purpose::STANDARD.encode(spki.as_ref()),
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
