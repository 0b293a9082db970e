//! The client's QUIC settings, matched to the replay server's so that neither side's flow
//! control limits a page.

use tquic::{Config, MultipathAlgorithm, TlsConfig};

const MIB: u64 = 1024 * 1024;
const CONNECTION_WINDOW: u64 = 64 * MIB;
const STREAM_WINDOW: u64 = 32 * MIB;
const MAX_STREAMS: u64 = 1000;
const IDLE_TIMEOUT_MS: u64 = 30_000;
/// Room for the connection IDs that extra paths consume.
const ACTIVE_CID_LIMIT: u64 = 8;

pub fn client_config(multipath: Option<MultipathAlgorithm>) -> Result<Config, String> {
    let mut tls = TlsConfig::new_client_config(vec![b"h3".to_vec()], false)
        .map_err(|e| format!("cannot make a TLS configuration: {e}"))?;
    // Replay certificates are self-signed and made per replay: there is nothing to verify against.
    tls.set_verify(false);
    let mut config = Config::new().map_err(|e| format!("cannot make a QUIC configuration: {e}"))?;
    config.set_tls_config(tls);
    config.set_max_connection_window(CONNECTION_WINDOW);
    config.set_max_stream_window(STREAM_WINDOW);
    config.set_initial_max_data(CONNECTION_WINDOW);
    config.set_initial_max_stream_data_bidi_local(STREAM_WINDOW);
    config.set_initial_max_stream_data_bidi_remote(STREAM_WINDOW);
    config.set_initial_max_stream_data_uni(STREAM_WINDOW);
    config.set_initial_max_streams_bidi(MAX_STREAMS);
    config.set_max_idle_timeout(IDLE_TIMEOUT_MS);
    if let Some(algorithm) = multipath {
        config.enable_multipath(true);
        config.set_multipath_algorithm(algorithm);
        config.set_active_connection_id_limit(ACTIVE_CID_LIMIT);
    }
    Ok(config)
}
