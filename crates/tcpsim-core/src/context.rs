//! What an event handler may touch: the clock and scheduler, the network, the packet pool
//! and the trace buffers. There is no global state; everything a handler does goes through
//! this context.

use crate::engine::Scheduler;
use crate::net::Network;
use crate::packet::{Packet, PacketPool, SackBlock};
use crate::trace::Trace;

pub struct Ctx<'a> {
    pub sched: &'a mut Scheduler,
    pub net: &'a mut Network,
    pub pool: &'a mut PacketPool,
    pub trace: &'a mut Trace,
}

impl Ctx<'_> {
    #[inline]
    pub fn now(&self) -> u64 {
        self.sched.now()
    }

    /// Hand a new packet to the network at node `from`.
    #[inline]
    pub fn transmit(&mut self, from: u32, p: Packet) {
        let id = self.pool.alloc(p);
        self.net.forward(from, id, self.pool, self.sched, self.trace);
    }

    /// Hand a new ACK carrying SACK `blocks` to the network at node `from`.
    pub fn transmit_with_sack(&mut self, from: u32, p: Packet, blocks: &[SackBlock]) {
        let id = self.pool.alloc_with_sack(p, blocks);
        self.net.forward(from, id, self.pool, self.sched, self.trace);
    }
}
