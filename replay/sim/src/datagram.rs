//! A UDP datagram as the link carries it: behind real IPv4 and UDP headers, so that the link
//! model counts its wire size as the emulator does (IP length plus the TUN header) and the
//! simulator routes it by its addresses. Checksums are left 0: nothing here verifies them.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, SocketAddrV4};

const IPV4_HEADER: usize = 20;
const UDP_HEADER: usize = 8;
const UDP: u8 = 17;
const TTL: u8 = 64;

/// `payload` from `src` to `dst` as an IPv4 packet; None for an IPv6 address, which the
/// simulated topologies (docs/formats/topology.md addresses) never use.
pub fn frame(src: SocketAddr, dst: SocketAddr, payload: &[u8]) -> Option<Vec<u8>> {
    let (IpAddr::V4(s), IpAddr::V4(d)) = (src.ip(), dst.ip()) else { return None };
    let total = IPV4_HEADER + UDP_HEADER + payload.len();
    let mut p = Vec::with_capacity(total);
    p.extend_from_slice(&[0x45, 0]);
    p.extend_from_slice(&(total as u16).to_be_bytes());
    p.extend_from_slice(&[0, 0, 0x40, 0, TTL, UDP, 0, 0]);
    p.extend_from_slice(&s.octets());
    p.extend_from_slice(&d.octets());
    p.extend_from_slice(&src.port().to_be_bytes());
    p.extend_from_slice(&dst.port().to_be_bytes());
    p.extend_from_slice(&((UDP_HEADER + payload.len()) as u16).to_be_bytes());
    p.extend_from_slice(&[0, 0]);
    p.extend_from_slice(payload);
    Some(p)
}

/// The addresses of a packet `frame` made.
pub fn addresses(packet: &[u8]) -> Option<(SocketAddr, SocketAddr)> {
    if packet.len() < IPV4_HEADER + UDP_HEADER || packet[0] != 0x45 || packet[9] != UDP {
        return None;
    }
    let ip = |at: usize| Ipv4Addr::new(packet[at], packet[at + 1], packet[at + 2], packet[at + 3]);
    let port = |at: usize| u16::from_be_bytes([packet[at], packet[at + 1]]);
    let src = SocketAddrV4::new(ip(12), port(IPV4_HEADER));
    let dst = SocketAddrV4::new(ip(16), port(IPV4_HEADER + 2));
    Some((src.into(), dst.into()))
}

/// The source and destination of any IPv4 packet (a datagram or a TCP segment).
pub fn ip_addresses(packet: &[u8]) -> Option<(IpAddr, IpAddr)> {
    if packet.len() < IPV4_HEADER || packet[0] >> 4 != 4 {
        return None;
    }
    let ip = |at: usize| IpAddr::V4(Ipv4Addr::new(packet[at], packet[at + 1], packet[at + 2], packet[at + 3]));
    Some((ip(12), ip(16)))
}

/// The UDP payload of a packet `frame` made.
pub fn payload(packet: &mut [u8]) -> &mut [u8] {
    &mut packet[IPV4_HEADER + UDP_HEADER..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framed_datagram_keeps_its_addresses_and_payload_and_counts_28_bytes_of_headers() {
        let (src, dst): (SocketAddr, SocketAddr) = ("10.10.1.2:40001".parse().unwrap(), "10.200.1.3:443".parse().unwrap());
        let mut p = frame(src, dst, b"quic").unwrap();
        assert_eq!(p.len(), 32);
        assert_eq!(u16::from_be_bytes([p[2], p[3]]), 32, "IP total length");
        assert_eq!(addresses(&p), Some((src, dst)));
        assert_eq!(ip_addresses(&p), Some((src.ip(), dst.ip())));
        assert_eq!(payload(&mut p), b"quic");
        assert_eq!(frame("[::1]:1".parse().unwrap(), dst, b""), None);
    }
}
