//! The client's QUIC settings: the replay server's windows and limits (so neither side's flow
//! control limits a page), and no certificate check.

use pagepath_server::io::quic::config::transport_config;
use pagepath_tquic_scheduler::Choice;
use tquic::{Config, TlsConfig};

pub fn client_config(multipath: Option<&Choice>) -> Result<Config, String> {
    let mut tls = TlsConfig::new_client_config(vec![b"h3".to_vec()], false)
        .map_err(|e| format!("cannot make a TLS configuration: {e}"))?;
    // Replay certificates are self-signed and made per replay: there is nothing to verify against.
    tls.set_verify(false);
    transport_config(tls, multipath, &[])
}
