//! TLS that trusts exactly the replay's certificate, by the SHA-256 of its public key, as
//! Chromium does with --ignore-certificate-errors-spki-list: no CA and no name check, but the
//! handshake's signatures are checked as usual, so only the holder of the replay's key passes.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use super::hybrid_key_share::{EveryHelloHybrid, X25519MlKem768};
use rustls::client::Resumption;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, SupportedKxGroup, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use std::sync::Arc;

/// Client settings per ALPN protocol offered: each offers exactly one, as the servers accept one.
pub struct TlsConfigs {
    pub http1: Arc<ClientConfig>,
    pub http2: Arc<ClientConfig>,
}

pub(super) fn client_configs(spki_hash: &str) -> Result<TlsConfigs, String> {
    real_client_configs(spki_hash, Some(&X25519MlKem768))
}

/// The browser's settings with ring's crypto, offering `hybrid` first if given (the simulator
/// offers none yet: simulator.md, *What it does not do yet*).
pub fn real_client_configs(spki_hash: &str, hybrid: Option<&'static dyn SupportedKxGroup>) -> Result<TlsConfigs, String> {
    match STANDARD.decode(spki_hash) {
        Ok(digest) if digest.len() == 32 => {}
        _ => return Err(format!("spki_hash {spki_hash:?} is not a base64 SHA-256 digest (44 characters ending in '=')")),
    }
    let provider = rustls::crypto::ring::default_provider();
    let verifier = ReplayKeyVerifier { spki_hash: spki_hash.to_string(), algorithms: provider.signature_verification_algorithms };
    client_configs_with(provider, hybrid, Arc::new(verifier))
}

/// The browser's settings on another crypto provider, hybrid key share (offered first, as
/// Chromium offers X25519MLKEM768: hybrid_key_share.rs) and certificate check (the simulator's).
pub fn client_configs_with(provider: rustls::crypto::CryptoProvider, hybrid: Option<&'static dyn SupportedKxGroup>, verifier: Arc<dyn ServerCertVerifier>) -> Result<TlsConfigs, String> {
    let mut provider = chromium_order(provider);
    if let Some(hybrid) = hybrid {
        provider.kx_groups.insert(0, hybrid);
    }
    let provider = Arc::new(provider);
    let sessions = Arc::new(EveryHelloHybrid::default());
    let config = |alpn: &[u8]| -> Result<Arc<ClientConfig>, String> {
        let mut config = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .dangerous()
            .with_custom_certificate_verifier(verifier.clone())
            .with_no_client_auth();
        config.alpn_protocols = vec![alpn.to_vec()];
        config.resumption = Resumption::store(sessions.clone());
        Ok(Arc::new(config))
    };
    Ok(TlsConfigs { http1: config(b"http/1.1")?, http2: config(b"h2")? })
}

/// The cipher suites in the order Chromium offers them, AES-128-GCM with SHA-256 first, where
/// rustls puts AES-256-GCM with SHA-384 first; the servers take the client's order, so a replay
/// negotiates what a load in Chromium negotiates (and hashes its handshake with SHA-256). The
/// provider's own suites are reordered, not replaced: the simulator's stand in for ring's.
fn chromium_order(mut provider: rustls::crypto::CryptoProvider) -> rustls::crypto::CryptoProvider {
    use rustls::CipherSuite::{TLS13_AES_128_GCM_SHA256, TLS13_AES_256_GCM_SHA384, TLS13_CHACHA20_POLY1305_SHA256};
    let first = [TLS13_AES_128_GCM_SHA256, TLS13_AES_256_GCM_SHA384, TLS13_CHACHA20_POLY1305_SHA256];
    provider.cipher_suites.sort_by_key(|s| first.iter().position(|f| *f == s.suite()).unwrap_or(first.len()));
    provider
}

#[derive(Debug)]
struct ReplayKeyVerifier {
    spki_hash: String,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for ReplayKeyVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let cert = ParsedCertificate::try_from(end_entity)?;
        let digest = ring::digest::digest(&ring::digest::SHA256, cert.subject_public_key_info().as_ref());
        let hash = STANDARD.encode(digest.as_ref());
        if hash == self.spki_hash {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "the server's certificate has public key hash {hash}, not the replay's {}",
                self.spki_hash
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
