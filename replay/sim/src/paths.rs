//! The topology's paths as the link emulator models them (pagepath_link::core): per path an
//! uplink and a downlink Direction with its loss, queue, rate or trace and delay. A packet takes
//! the path of its client address, as the emulator's namespaces route it: path i joins the
//! client's 10.10.i.2 to the servers.

use super::datagram::ip_addresses;
use pagepath_link::core::direction::Direction;
use pagepath_link::io::log_file::create_log;
use pagepath_link::topology::Topology;
use std::net::IpAddr;

pub struct Paths {
    client_ips: Vec<IpAddr>,
    /// (uplink, downlink) per path.
    directions: Vec<(Direction, Direction)>,
    /// The packets due at an instant with their release times, kept from call to call.
    due: Vec<(Vec<u8>, u64)>,
}

/// What one path delivered, in wire bytes (IP length plus the TUN header), as the emulator's
/// counters give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    pub up: u64,
    pub down: u64,
}

impl Paths {
    /// `client_ips[i]` is the client's address on path i. Where the topology asks for logs
    /// (`logDir`), each direction writes mm-link's log as the emulator does, in virtual time.
    pub fn new(topology: &Topology, client_ips: Vec<IpAddr>) -> Result<Paths, String> {
        let mut directions = Vec::new();
        for p in &topology.paths {
            let log = |file: Option<&std::path::Path>, label: &str, capacity: &str, queue| {
                file.map(|f| create_log(f, &format!("{} {label}", p.name), capacity, queue, "pagepath-sim", 0)).transpose()
            };
            let up = Direction::new(&p.uplink, 0, log(p.uplink_log.as_deref(), "uplink", &p.uplink_text, &p.uplink.queue)?);
            let down = Direction::new(&p.downlink, 0, log(p.downlink_log.as_deref(), "downlink", &p.downlink_text, &p.downlink.queue)?);
            directions.push((up, down));
        }
        Ok(Paths { client_ips, directions, due: Vec::new() })
    }

    /// A packet handed to its path at `now_us`; one with no path (neither end a client address
    /// of this topology) is dropped, as a router without a route drops it.
    pub fn send(&mut self, now_us: u64, packet: Vec<u8>) {
        let Some((src, dst)) = ip_addresses(&packet) else { return };
        let path = |ip: IpAddr| self.client_ips.iter().position(|&c| c == ip);
        if let Some(i) = path(src) {
            self.directions[i].0.arrive(now_us, packet);
        } else if let Some(i) = path(dst) {
            self.directions[i].1.arrive(now_us, packet);
        }
    }

    /// When a packet next leaves a queue or reaches the far end.
    pub fn next_event(&self) -> Option<u64> {
        self.directions.iter().flat_map(|(up, down)| [up.next_event(), down.next_event()]).flatten().min()
    }

    /// The packets that have reached the far end by `now_us`, appended to `out` in the order
    /// they arrived (path order, uplink first, among packets arriving at the same microsecond).
    /// The caller keeps `out` from round to round: a fresh vector each time cost an allocation.
    pub fn arrived(&mut self, now_us: u64, out: &mut Vec<Vec<u8>>) {
        for (up, down) in &mut self.directions {
            for d in [up, down] {
                d.advance(now_us);
                while let Some(p) = d.pop_ready(now_us) {
                    self.due.push(p);
                }
            }
        }
        // Stable: equal release times keep path order.
        self.due.sort_by_key(|(_, release)| *release);
        out.extend(self.due.drain(..).map(|(p, _)| p));
    }

    pub fn delivered(&self) -> Vec<Delivered> {
        self.directions.iter().map(|(up, down)| Delivered { up: up.stats().delivered_bytes, down: down.stats().delivered_bytes }).collect()
    }
}

