//! TLS for HTTP/1.1 and HTTP/2 over TCP/MPTCP: rustls with the replay's certificate, offering
//! exactly the ALPN protocol asked for, so the browser cannot fall back to another one.

use super::certs::ReplayCertificate;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;

pub fn server_config(cert: &ReplayCertificate, alpn: &[u8]) -> Result<Arc<rustls::ServerConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key_der.clone()));
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(vec![CertificateDer::from(cert.cert_der.clone())], key)
        .map_err(|e| format!("TLS: the replay certificate is unusable: {e}"))?;
    config.alpn_protocols = vec![alpn.to_vec()];
    Ok(Arc::new(config))
}
