//! One simulated host: a smoltcp interface with the host's address, its sockets, and the queue
//! of packets the paths delivered to it and it sent.

use smoltcp::iface::{Config, Interface, SocketSet};
use smoltcp::phy::{self, Device, DeviceCapabilities, Medium};
use smoltcp::time::Instant;
use smoltcp::wire::{HardwareAddress, IpAddress, IpCidr};
use std::collections::VecDeque;
use std::net::Ipv4Addr;

/// The paths' MTU: the emulator's links carry 1500-byte IP packets.
pub const MTU: usize = 1500;

pub struct Host {
    pub ip: Ipv4Addr,
    pub iface: Interface,
    sockets: SocketSet<'static>,
    pub wire: Wire,
    /// When the stack next wants polling, as of its last poll, unless a socket changed since.
    due: Option<Instant>,
    changed: bool,
}

impl Host {
    pub fn new(ip: Ipv4Addr, seed: u64) -> Host {
        let mut wire = Wire::default();
        let mut config = Config::new(HardwareAddress::Ip);
        config.random_seed = seed ^ u64::from(u32::from(ip));
        let mut iface = Interface::new(config, &mut wire, Instant::ZERO);
        // Every other host is on the link: the paths, not the stack, decide where packets go.
        iface.update_ip_addrs(|addrs| {
            addrs.push(IpCidr::new(IpAddress::Ipv4(ip), 0)).expect("one address per host");
        });
        Host { ip, iface, sockets: SocketSet::new(Vec::new()), wire, due: None, changed: false }
    }

    pub fn sockets(&self) -> &SocketSet<'static> {
        &self.sockets
    }

    /// The sockets, to change: an application's read or write, a new or removed socket.
    pub fn sockets_mut(&mut self) -> &mut SocketSet<'static> {
        self.changed = true;
        &mut self.sockets
    }

    /// Takes in what arrived, runs the stack's timers and sends; returns the packets sent.
    pub fn poll(&mut self, now: Instant) -> Vec<Vec<u8>> {
        self.iface.poll(now, &mut self.wire, &mut self.sockets);
        self.due = self.iface.poll_at(now, &self.sockets);
        self.changed = false;
        std::mem::take(&mut self.wire.sent)
    }

    /// When the stack next wants polling. smoltcp finds it by asking every socket, which costs as
    /// much as a poll: it is kept from the last poll until a socket changes.
    pub fn poll_at(&mut self, now: Instant) -> Option<Instant> {
        if self.changed {
            self.due = self.iface.poll_at(now, &self.sockets);
            self.changed = false;
        }
        self.due
    }
}

/// The host's side of the paths.
#[derive(Default)]
pub struct Wire {
    pub arrived: VecDeque<Vec<u8>>,
    pub sent: Vec<Vec<u8>>,
}

impl Device for Wire {
    type RxToken<'a> = Received;
    type TxToken<'a> = Sending<'a>;

    fn capabilities(&self) -> DeviceCapabilities {
        let mut caps = DeviceCapabilities::default();
        caps.medium = Medium::Ip;
        caps.max_transmission_unit = MTU;
        // Nothing corrupts a packet on the way; checksums would only cost time.
        caps.checksum = phy::ChecksumCapabilities::ignored();
        caps
    }

    fn receive(&mut self, _: Instant) -> Option<(Received, Sending<'_>)> {
        let packet = self.arrived.pop_front()?;
        Some((Received(packet), Sending(&mut self.sent)))
    }

    fn transmit(&mut self, _: Instant) -> Option<Sending<'_>> {
        Some(Sending(&mut self.sent))
    }
}

pub struct Received(Vec<u8>);

impl phy::RxToken for Received {
    fn consume<R, F: FnOnce(&[u8]) -> R>(self, f: F) -> R {
        f(&self.0)
    }
}

pub struct Sending<'a>(&'a mut Vec<Vec<u8>>);

impl phy::TxToken for Sending<'_> {
    fn consume<R, F: FnOnce(&mut [u8]) -> R>(self, len: usize, f: F) -> R {
        let mut packet = vec![0; len];
        let r = f(&mut packet);
        self.0.push(packet);
        r
    }
}
