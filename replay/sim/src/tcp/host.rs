//! One simulated host: a smoltcp interface with the host's address, its sockets, and the queue
//! of packets the paths delivered to it and it sent.

use rustc_hash::FxHashMap;
use smoltcp::iface::{Config, Interface, SocketHandle, SocketSet};
use smoltcp::socket::tcp;
use smoltcp::phy::{self, Device, DeviceCapabilities, Medium};
use smoltcp::time::Instant;
use smoltcp::wire::{HardwareAddress, IpAddress, IpCidr, IpEndpoint};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::net::Ipv4Addr;

/// The paths' MTU: the emulator's links carry 1500-byte IP packets.
pub const MTU: usize = 1500;

/// A socket of a host: its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SockId(usize);

/// Each socket in a set of its own, so that a packet or a timer runs only its own socket's code:
/// smoltcp's poll walks every socket of the set it is given, which on a client of a hundred
/// HTTP/1.1 connections cost a hundred sockets' work per packet.
struct Slot {
    sockets: SocketSet<'static>,
    handle: Option<SocketHandle>,
    /// When its socket next wants polling, as of its last poll, unless it changed since.
    due: Option<Instant>,
    changed: bool,
}

pub struct Host {
    pub ip: Ipv4Addr,
    pub iface: Interface,
    /// Slot 0 holds no socket: packets for no socket go there, and smoltcp answers them.
    slots: Vec<Slot>,
    /// The socket of each (local port, remote endpoint).
    by_ends: FxHashMap<(u16, IpEndpoint), SockId>,
    /// Each slot's `due` when it was set, earliest first: a host of a hundred sockets is asked
    /// for its next timer every round, and walking the slots cost a tenth of a simulation. An entry
    /// whose slot has changed or been polled since is stale and skipped when it comes up.
    timers: BinaryHeap<Reverse<(Instant, usize)>>,
    /// Slots changed since their `due` was last found.
    changed: Vec<usize>,
    pub wire: Wire,
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
        let stray = Slot { sockets: SocketSet::new(Vec::new()), handle: None, due: None, changed: false };
        Host { ip, iface, slots: vec![stray], by_ends: FxHashMap::default(), timers: BinaryHeap::new(), changed: Vec::new(), wire }
    }

    /// A socket, in a slot of its own; `ends` (local port, remote) when they are known, for
    /// `route` to find it.
    pub fn add(&mut self, socket: tcp::Socket<'static>, ends: Option<(u16, IpEndpoint)>) -> SockId {
        let mut sockets = SocketSet::new(Vec::with_capacity(1));
        let handle = sockets.add(socket);
        self.slots.push(Slot { sockets, handle: Some(handle), due: None, changed: true });
        let id = SockId(self.slots.len() - 1);
        self.changed.push(id.0);
        if let Some(e) = ends {
            self.by_ends.insert(e, id);
        }
        id
    }

    /// Drops a socket; its slot stays, empty.
    pub fn remove(&mut self, id: SockId) {
        let slot = &mut self.slots[id.0];
        if let Some(h) = slot.handle.take() {
            slot.sockets.remove(h);
        }
        self.by_ends.retain(|_, s| *s != id);
    }

    pub fn socket(&self, id: SockId) -> &tcp::Socket<'static> {
        let slot = &self.slots[id.0];
        slot.sockets.get::<tcp::Socket>(slot.handle.expect("a removed socket is not used"))
    }

    /// The socket, to change: an application's read or write, a close.
    pub fn socket_mut(&mut self, id: SockId) -> &mut tcp::Socket<'static> {
        let slot = &mut self.slots[id.0];
        if !slot.changed {
            slot.changed = true;
            self.changed.push(id.0);
        }
        slot.sockets.get_mut::<tcp::Socket>(slot.handle.expect("a removed socket is not used"))
    }

    /// The socket a segment from `remote` to `local_port` belongs to, if any.
    pub fn route(&self, local_port: u16, remote: IpEndpoint) -> Option<SockId> {
        self.by_ends.get(&(local_port, remote)).copied()
    }

    /// Takes in `packet` on the socket it belongs to (`to`, or none), runs that socket and sends;
    /// appends the packets sent to `sent`.
    pub fn deliver(&mut self, packet: Vec<u8>, to: Option<SockId>, now: Instant, sent: &mut Vec<Vec<u8>>) {
        self.wire.arrived.push_back(packet);
        self.poll_slot(to.map_or(0, |s| s.0), now);
        sent.append(&mut self.wire.sent);
    }

    /// Runs the sockets whose timers or output are due, in slot order; appends the packets sent
    /// to `sent`.
    #[inline]
    pub fn poll_due(&mut self, now: Instant, sent: &mut Vec<Vec<u8>>) {
        self.find_changed_dues(now);
        if self.timers.peek().is_none_or(|Reverse((t, _))| *t > now) {
            return;
        }
        self.poll_timers(now);
        sent.append(&mut self.wire.sent);
    }

    fn poll_timers(&mut self, now: Instant) {
        let mut due = Vec::new();
        while let Some(&Reverse((t, i))) = self.timers.peek() {
            if t > now {
                break;
            }
            self.timers.pop();
            if self.current(t, i) {
                due.push(i);
            }
        }
        due.sort_unstable();
        due.dedup();
        for i in due {
            self.poll_slot(i, now);
        }
    }

    fn poll_slot(&mut self, i: usize, now: Instant) {
        let slot = &mut self.slots[i];
        self.iface.poll(now, &mut self.wire, &mut slot.sockets);
        slot.due = self.iface.poll_at(now, &slot.sockets);
        slot.changed = false;
        if let (Some(t), true) = (slot.due, i > 0) {
            self.timers.push(Reverse((t, i)));
        }
    }

    /// Asks each changed socket when it next wants polling: smoltcp finds it by asking the
    /// socket, which costs as much as a poll, so it is kept from the last poll until the socket
    /// changes.
    #[inline]
    fn find_changed_dues(&mut self, now: Instant) {
        // Most hosts, most rounds, have none: a call that only returns is a fifth of a host's work.
        if !self.changed.is_empty() {
            self.find_dues_of_changed(now);
        }
    }

    fn find_dues_of_changed(&mut self, now: Instant) {
        for i in std::mem::take(&mut self.changed) {
            let slot = &mut self.slots[i];
            if slot.changed {
                slot.due = self.iface.poll_at(now, &slot.sockets);
                slot.changed = false;
                if let Some(t) = slot.due {
                    self.timers.push(Reverse((t, i)));
                }
            }
        }
    }

    /// Whether a timer entry still says when its slot is due.
    fn current(&self, t: Instant, i: usize) -> bool {
        let slot = &self.slots[i];
        !slot.changed && slot.due == Some(t)
    }

    /// When any of its sockets next wants polling.
    pub fn poll_at(&mut self, now: Instant) -> Option<Instant> {
        self.find_changed_dues(now);
        while let Some(&Reverse((t, i))) = self.timers.peek() {
            if self.current(t, i) {
                return Some(t);
            }
            self.timers.pop();
        }
        None
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
        let r = f(&self.0);
        SPARE_PACKETS.with_borrow_mut(|spare| {
            if spare.len() < SPARE_KEPT {
                spare.push(self.0);
            }
        });
        r
    }
}

pub struct Sending<'a>(&'a mut Vec<Vec<u8>>);

impl phy::TxToken for Sending<'_> {
    fn consume<R, F: FnOnce(&mut [u8]) -> R>(self, len: usize, f: F) -> R {
        let mut packet = SPARE_PACKETS.with_borrow_mut(Vec::pop).unwrap_or_default();
        packet.clear();
        packet.resize(len, 0);
        let r = f(&mut packet);
        self.0.push(packet);
        r
    }
}

/// Packets taken in, whose memory the next packets sent reuse, instead of a zeroed allocation a
/// packet (1% of the simulator's instructions). Shared by the hosts of a thread, since what the
/// servers send the client takes in.
const SPARE_KEPT: usize = 1024;

thread_local! {
    static SPARE_PACKETS: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}
