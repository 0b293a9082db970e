//! TLS for HTTP/1.1 and HTTP/2 over TCP/MPTCP: rustls with the replay's certificate, offering
//! exactly the ALPN protocol asked for, so the browser cannot fall back to another one, and signing
//! its handshakes in signatures of one length (one_length_signatures.rs).

use super::certs::ReplayCertificate;
use super::one_length_signatures::OneLength;
use rustls::crypto::CryptoProvider;
use rustls::sign::{CertifiedKey, SigningKey, SingleCertAndKey};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;

pub fn server_config(cert: &ReplayCertificate, alpn: &[u8]) -> Result<Arc<rustls::ServerConfig>, String> {
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key_der.clone()));
    let signing = rustls::crypto::ring::sign::any_ecdsa_type(&key).map_err(|e| format!("TLS: the replay certificate is unusable: {e}"))?;
    server_config_with(cert, alpn, rustls::crypto::ring::default_provider(), Arc::new(OneLength(signing)))
}

/// The servers' settings on another crypto provider and signing key (the simulator's).
pub fn server_config_with(cert: &ReplayCertificate, alpn: &[u8], provider: CryptoProvider, signing: Arc<dyn SigningKey>) -> Result<Arc<rustls::ServerConfig>, String> {
    let certified = CertifiedKey::new(vec![CertificateDer::from(cert.cert_der.clone())], signing);
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    config.alpn_protocols = vec![alpn.to_vec()];
    Ok(Arc::new(config))
}
