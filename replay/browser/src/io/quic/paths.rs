//! What a connection's paths carried, by local address: the numbers a ConnectionRecord reports.

use crate::io::transport::PathBytes;
use std::net::SocketAddr;
use tquic::Connection;

#[derive(Clone, Debug, Default)]
pub struct PathSnapshot {
    pub bytes: Vec<PathBytes>,
    /// Paths whose validation completed (the first path's included).
    pub validated: usize,
    pub multipath: bool,
}

/// Bytes sent (up) and received (down) per path, the path numbered by the position of its local
/// address in `locals` (the bound sockets, in TransportConfig::locals order); paths from one
/// local address are summed.
pub fn snapshot(conn: &mut Connection, locals: &[SocketAddr]) -> PathSnapshot {
    let mut snap = PathSnapshot { multipath: conn.is_multipath(), ..PathSnapshot::default() };
    let tuples: Vec<_> = conn.paths_iter().collect();
    for t in tuples {
        if conn.get_path(t.local, t.remote).is_ok_and(|p| p.validated()) {
            snap.validated += 1;
        }
        let Ok(stats) = conn.get_path_stats(t.local, t.remote) else { continue };
        let (up, down) = (stats.sent_bytes, stats.recv_bytes);
        // Every path starts from one of the bound sockets; one that did not would have no index.
        let Some(path) = locals.iter().position(|l| *l == t.local) else { continue };
        match snap.bytes.iter_mut().find(|b| b.path == path) {
            Some(b) => {
                b.bytes_up = Some(b.bytes_up.unwrap_or(0) + up);
                b.bytes_down = Some(b.bytes_down.unwrap_or(0) + down);
            }
            None => snap.bytes.push(PathBytes { path, bytes_up: Some(up), bytes_down: Some(down) }),
        }
    }
    snap.bytes.sort_by_key(|b| b.path);
    snap
}
