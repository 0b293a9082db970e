//! TLS for HTTP/1.1 and HTTP/2 over TCP/MPTCP: rustls with the replay's certificate, offering
//! exactly the ALPN protocol asked for, so the browser cannot fall back to another one, and signing
//! its handshakes in signatures of one length (one_length_signatures.rs).

use super::certs::ReplayCertificate;
use super::one_length_signatures::OneLength;
use rustls::sign::{CertifiedKey, SingleCertAndKey};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;

pub fn server_config(cert: &ReplayCertificate, alpn: &[u8]) -> Result<Arc<rustls::ServerConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key_der.clone()));
    let signing = rustls::crypto::ring::sign::any_ecdsa_type(&key).map_err(|e| format!("TLS: the replay certificate is unusable: {e}"))?;
    let certified = CertifiedKey::new(vec![CertificateDer::from(cert.cert_der.clone())], Arc::new(OneLength(signing)));
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    config.alpn_protocols = vec![alpn.to_vec()];
    Ok(Arc::new(config))
}
