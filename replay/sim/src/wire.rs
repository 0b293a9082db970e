//! Where tquic's endpoints put their packets in the simulation: one outbox the world empties into
//! the links after every round, so that a packet enters its link at the virtual time it was sent.

use super::datagram::frame;
use std::cell::RefCell;
use std::rc::Rc;
use tquic::{PacketInfo, PacketSendHandler};

#[derive(Clone, Default)]
pub struct Outbox {
    packets: Rc<RefCell<Vec<Vec<u8>>>>,
}

impl Outbox {
    /// Everything sent since the last call, in the order it was sent.
    pub fn take(&self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.packets.borrow_mut())
    }
}

impl PacketSendHandler for Outbox {
    fn on_packets_send(&self, pkts: &[(Vec<u8>, PacketInfo)]) -> tquic::Result<usize> {
        let mut out = self.packets.borrow_mut();
        // A packet to an IPv6 address has no path in a simulated topology: lost, as on a host
        // without a route.
        out.extend(pkts.iter().filter_map(|(bytes, info)| frame(info.src, info.dst, bytes)));
        Ok(pkts.len())
    }
}
