//! The network: link directions ("channels") and static routes between nodes.

mod channel;
mod routing;

pub use channel::{Channel, ChannelCounters};
pub use routing::Routes;

use crate::engine::{Event, Scheduler};
use crate::packet::{Ecn, Packet, PacketId, PacketKind, PacketPool};
use crate::prefetch::prefetch;
use crate::queue::Verdict;
use crate::trace::Trace;

/// All channels and the routing table. A link `l` owns channels `2l` (a→b) and `2l+1` (b→a).
pub struct Network {
    pub channels: Vec<Channel>,
    pub routes: Routes,
    /// Data packets of each TCP connection (by flow index) dropped by a queue or a loss model.
    pub data_drops: Vec<u64>,
}

impl Network {
    pub fn new(channels: Vec<Channel>, routes: Routes, tcp_flows: usize) -> Self {
        Network { channels, routes, data_drops: vec![0; tcp_flows] }
    }

    /// Charge a dropped packet to its TCP connection if it carries data (drops are rare
    /// next to deliveries, so this stays off the common path).
    #[inline]
    fn count_drop(data_drops: &mut [u64], p: &Packet) {
        if p.kind == PacketKind::Data {
            data_drops[p.flow as usize] += 1;
        }
    }

    /// Send packet `id`, now at `node`, one hop towards its destination: start serializing it
    /// if the outgoing channel is idle, else offer it to the queue, which may enqueue it, mark
    /// it CE (set here, in the pool) or drop it.
    #[inline]
    pub fn forward(
        &mut self,
        node: u32,
        id: PacketId,
        pool: &mut PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) {
        let p = pool.get(id);
        let c = self.routes.next_channel(node, p.dst);
        let now = sched.now();
        let ch = &mut self.channels[c as usize];
        if ch.is_idle() {
            ch.queue.arrive_at_idle_link(id, p, now);
            if let Some(pcap) = &mut trace.pcap {
                pcap.record(c, now, p);
            }
            let done = ch.start_transmission(id, p.wire_bytes, now);
            sched.at(done, Event::TxEnd { channel: c });
            return;
        }
        match ch.queue.enqueue(id, p, now) {
            Verdict::Enqueued => {}
            Verdict::Marked => pool.get_mut(id).ecn = Ecn::Ce,
            Verdict::Dropped | Verdict::DroppedEarly => {
                ch.counters.drops_queue += 1;
                Self::count_drop(&mut self.data_drops, pool.get(id));
                pool.free(id);
                return;
            }
        }
        if trace.queue_on && trace.on_change {
            let o = ch.queue.occupancy();
            trace.record_queue(now, c, o.packets, o.bytes);
        }
    }

    /// Channel `c` finished serializing its packet: apply the loss models, put the packet in
    /// the propagation pipe, and start the next one.
    #[inline]
    pub fn on_tx_end(&mut self, c: u32, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        let now = sched.now();
        let ch = &mut self.channels[c as usize];
        let id = ch.finish_transmission();
        // Every model is asked, even after one has dropped the packet, so that each model's
        // random draws never depend on another model's outcome (`any` would short-circuit).
        #[allow(clippy::unnecessary_fold)]
        let lost = {
            let p = pool.get(id);
            ch.loss.iter_mut().fold(false, |lost, m| m.is_lost(p, now) || lost)
        };
        if lost {
            ch.counters.drops_error += 1;
            Self::count_drop(&mut self.data_drops, pool.get(id));
            pool.free(id);
        } else if let Some(head_at) = ch.enter_pipe(id, now) {
            sched.at(head_at, Event::PipeHead { channel: c, packet: id });
        }
        if let Some((next, wire)) = ch.queue.dequeue(now) {
            if let Some(pcap) = &mut trace.pcap {
                pcap.record(c, now, pool.get(next));
            }
            let done = ch.start_transmission(next, wire, now);
            sched.at(done, Event::TxEnd { channel: c });
            if trace.queue_on && trace.on_change {
                let o = ch.queue.occupancy();
                trace.record_queue(now, c, o.packets, o.bytes);
            }
        }
    }

    /// The head of channel `c`'s pipe, `id`, arrives: returns the node it reached, scheduling
    /// the next arrival if the pipe holds more. The next head's record and the pipe's entry
    /// after it are prefetched now, one packet time before they are read, since both were
    /// written a propagation delay ago and have left the caches since.
    #[inline]
    pub fn on_pipe_head(&mut self, c: u32, id: PacketId, pool: &PacketPool, sched: &mut Scheduler) -> u32 {
        let ch = &mut self.channels[c as usize];
        if let Some((t, next)) = ch.leave_pipe(id) {
            sched.at(t, Event::PipeHead { channel: c, packet: next });
            prefetch(pool.get(next));
            ch.prefetch_pipe_after_head();
        }
        ch.to
    }

    /// Packets inside the network (queued, being serialized, propagating).
    pub fn packets_inside(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.channels.iter().flat_map(|c| c.packets_inside())
    }
}
