//! streams.jsonl's `paths` for a multipath QUIC stream that a pagepath scheduler drives: what
//! tquic reported sending of it on each path (counted by Plugged), on the service's clock.

use crate::io::stream_paths::StreamPathLog;
use crate::service::Service;
use pagepath_tquic_scheduler::Plugged;

pub(super) fn carried(service: &Service, plugged: &mut Plugged, stream: u64) -> Vec<StreamPathLog> {
    let carried = plugged.take_carried(stream);
    carried
        .into_iter()
        .map(|(path, c)| {
            // Every path that carries stream data was in a snapshot first; unknown stays empty.
            let (local, remote) = plugged.path_addresses(path).map(|(l, r)| (l.to_string(), r.to_string())).unwrap_or_default();
            StreamPathLog {
                path: path as u64,
                local,
                remote,
                bytes: c.bytes,
                packets: Some(c.packets),
                first_us: service.us_at(c.first),
                last_us: service.us_at(c.last),
            }
        })
        .collect()
}
