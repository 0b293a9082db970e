//! The QUIC transport settings every replay connection gets.

use super::MultipathScheduler;
use crate::service::Service;
use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use tquic::{Config, TlsConfig, TlsConfigSelector};

const MIB: u64 = 1024 * 1024;
/// A whole page can be in flight on one connection, so flow control must never be what limits a
/// replay: tens of MB per connection and per stream.
const CONNECTION_WINDOW: u64 = 64 * MIB;
const STREAM_WINDOW: u64 = 32 * MIB;
/// Pages open hundreds of requests on one connection.
const MAX_STREAMS_BIDI: u64 = 1000;
const IDLE_TIMEOUT_MS: u64 = 30_000;
/// Room for the connection IDs that the peer's extra paths consume.
const ACTIVE_CID_LIMIT: u64 = 8;

pub fn server_config(service: &Service, multipath: Option<MultipathScheduler>) -> Result<Config, String> {
    server_config_with(Arc::new(server_tls(service)?), service, multipath)
}

/// The TLS context of the service's certificate. Making one reads the system's trust store
/// (tquic's context always does), which costs milliseconds: the simulator keeps it across loads.
pub fn server_tls(service: &Service) -> Result<TlsConfig, String> {
    let cert = utf8_path(service.cert_file(), "certificate")?;
    let key = utf8_path(service.key_file(), "private key")?;
    TlsConfig::new_server_config(cert, key, vec![b"h3".to_vec()], false).map_err(|e| format!("cannot load the certificate {cert} with the key {key}: {e}"))
}

/// `server_config` with a TLS context made before.
pub fn server_config_with(tls: Arc<TlsConfig>, service: &Service, multipath: Option<MultipathScheduler>) -> Result<Config, String> {
    let mut config = transport_settings(multipath.as_ref(), service.backup_peers())?;
    config.set_tls_config_selector(Arc::new(OneTls(tls)));
    // The same controller as the TCP replays (io/congestion.rs), so that they differ in protocol.
    config.set_congestion_control_algorithm(crate::io::congestion::quic_algorithm(service.congestion()));
    Ok(config)
}

/// Windows, stream limits and multipath with its scheduler, the same for replay servers and
/// pagepath's clients.
/// Paths from or to an address in `backup` are kept as backups by pagepath's schedulers.
pub fn transport_config(tls: TlsConfig, multipath: Option<&MultipathScheduler>, backup: &[IpAddr]) -> Result<Config, String> {
    let mut config = transport_settings(multipath, backup)?;
    config.set_tls_config(tls);
    Ok(config)
}

fn transport_settings(multipath: Option<&MultipathScheduler>, backup: &[IpAddr]) -> Result<Config, String> {
    let mut config = Config::new().map_err(|e| format!("cannot make a QUIC configuration: {e}"))?;
    config.set_max_connection_window(CONNECTION_WINDOW);
    config.set_max_stream_window(STREAM_WINDOW);
    config.set_initial_max_data(CONNECTION_WINDOW);
    config.set_initial_max_stream_data_bidi_local(STREAM_WINDOW);
    config.set_initial_max_stream_data_bidi_remote(STREAM_WINDOW);
    config.set_initial_max_stream_data_uni(STREAM_WINDOW);
    config.set_initial_max_streams_bidi(MAX_STREAMS_BIDI);
    config.set_max_idle_timeout(IDLE_TIMEOUT_MS);
    if let Some(scheduler) = multipath {
        config.enable_multipath(true);
        config.set_multipath_algorithm(scheduler.algorithm());
        config.set_active_connection_id_limit(ACTIVE_CID_LIMIT);
        scheduler.install(&mut config, backup)?;
    }
    Ok(config)
}

/// One TLS context for every server name, as tquic's own `set_tls_config` gives, but shared.
struct OneTls(Arc<TlsConfig>);

impl TlsConfigSelector for OneTls {
    fn get_default(&self) -> Option<Arc<TlsConfig>> {
        Some(self.0.clone())
    }
    fn select(&self, _server_name: &str) -> Option<Arc<TlsConfig>> {
        Some(self.0.clone())
    }
}

fn utf8_path<'a>(path: &'a Path, what: &str) -> Result<&'a str, String> {
    path.to_str().ok_or_else(|| format!("the {what} path {} is not UTF-8, which tquic needs", path.display()))
}
