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
///
/// Deferred transmission ends: the end of a transmission that starts with the queue empty and
/// the pipe non-empty only moves the packet into the pipe (the pipe's head is already
/// scheduled) and leaves the link idle, so it is not put in the event heap; it keeps its place
/// in the event order (`Scheduler::reserve`) and the channel runs it, at its own time, the next
/// time anything touches the channel after that place has passed (`catch_up`: a packet
/// arriving, the pipe's head leaving, the warm-up snapshot, the end of the run). Should the
/// queue take a packet or the pipe empty before then, the end would have more to do (start the
/// next packet, schedule the new head) and is put in the heap in its reserved place. Either way
/// every event happens at the same time and in the same order as if each end were scheduled:
/// results are identical, with a fifth fewer events on runs of many flows.
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
        let c = self.routes.next_channel(node, pool.get(id).dst);
        self.catch_up(c, pool, sched);
        let p = pool.get(id);
        let now = sched.now();
        let ch = &mut self.channels[c as usize];
        if ch.is_idle() {
            ch.queue.arrive_at_idle_link(id, p, now);
            if let Some(pcap) = &mut trace.pcap {
                pcap.record(c, now, p, pool.sack(id));
            }
            ch.start_transmission(id, p.wire_bytes, now);
            Self::schedule_tx_end(ch, c, sched);
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
        // The transmission's end now has a packet to start: it must run as an event.
        if let Some(seq) = ch.take_deferred_tx_end() {
            sched.insert_reserved(ch.tx_end_ns(), seq, Event::TxEnd { channel: c });
        }
        if trace.queue_on && trace.on_change {
            let o = ch.queue.occupancy();
            trace.record_queue(now, c, o.packets, o.bytes);
        }
    }

    /// Schedule the end of the transmission `ch` (channel `c`) just started, or defer it if it
    /// will have nothing to schedule: nothing queued and a pipe already holding a packet.
    #[inline]
    fn schedule_tx_end(ch: &mut Channel, c: u32, sched: &mut Scheduler) {
        let seq = sched.reserve();
        if ch.queue.is_empty() && !ch.pipe_is_empty() {
            ch.defer_tx_end(seq);
        } else {
            sched.insert_reserved(ch.tx_end_ns(), seq, Event::TxEnd { channel: c });
        }
    }

    /// Run channel `c`'s deferred transmission end if its place in the event order has passed.
    #[inline]
    fn catch_up(&mut self, c: u32, pool: &mut PacketPool, sched: &Scheduler) {
        let ch = &mut self.channels[c as usize];
        let Some(seq) = ch.deferred_tx_end() else { return };
        let at = ch.tx_end_ns();
        if sched.has_passed(at, seq) {
            ch.take_deferred_tx_end();
            let (head, next) = self.finish_transmission(c, at, pool);
            debug_assert!(head.is_none() && next.is_none(), "a deferred end only moves its packet into a busy pipe");
        }
    }

    /// Run every deferred transmission end whose place in the event order has passed (before
    /// the channels' counters are read).
    pub fn settle(&mut self, pool: &mut PacketPool, sched: &Scheduler) {
        for c in 0..self.channels.len() as u32 {
            self.catch_up(c, pool, sched);
        }
    }

    /// Channel `c` finished serializing its packet: the packet goes into the propagation pipe
    /// (its arrival scheduled if it heads the pipe) and the next one starts.
    #[inline]
    pub fn on_tx_end(&mut self, c: u32, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        let now = sched.now();
        let (head, next) = self.finish_transmission(c, now, pool);
        if let Some((at, id)) = head {
            sched.at(at, Event::PipeHead { channel: c, packet: id });
        }
        if let Some((next, wire)) = next {
            if let Some(pcap) = &mut trace.pcap {
                pcap.record(c, now, pool.get(next), pool.sack(next));
            }
            let ch = &mut self.channels[c as usize];
            ch.start_transmission(next, wire, now);
            Self::schedule_tx_end(ch, c, sched);
            if trace.queue_on && trace.on_change {
                let o = ch.queue.occupancy();
                trace.record_queue(now, c, o.packets, o.bytes);
            }
        }
    }

    /// The end of channel `c`'s transmission, at `now`: apply the loss models, put the packet
    /// in the propagation pipe, and take the next packet from the queue. Returns the pipe's
    /// new head (arrival time, packet) if the packet became it, and the next packet to send.
    #[inline]
    #[allow(clippy::type_complexity)]
    fn finish_transmission(
        &mut self,
        c: u32,
        now: u64,
        pool: &mut PacketPool,
    ) -> (Option<(u64, PacketId)>, Option<(PacketId, u32)>) {
        let ch = &mut self.channels[c as usize];
        let id = ch.finish_transmission();
        // Every model is asked, even after one has dropped the packet, so that each model's
        // random draws never depend on another model's outcome (`any` would short-circuit).
        #[allow(clippy::unnecessary_fold)]
        let lost = {
            let p = pool.get(id);
            ch.loss.iter_mut().fold(false, |lost, m| m.is_lost(p, now) || lost)
        };
        let mut head = None;
        if lost {
            ch.counters.drops_error += 1;
            Self::count_drop(&mut self.data_drops, pool.get(id));
            pool.free(id);
        } else if let Some(at) = ch.enter_pipe(id, now) {
            head = Some((at, id));
        }
        (head, ch.queue.dequeue(now))
    }

    /// The head of channel `c`'s pipe, `id`, arrives: returns the node it reached, scheduling
    /// the next arrival if the pipe holds more. The next head's record and the pipe's entry
    /// after it are prefetched now, one packet time before they are read, since both were
    /// written a propagation delay ago and have left the caches since.
    #[inline]
    pub fn on_pipe_head(&mut self, c: u32, id: PacketId, pool: &mut PacketPool, sched: &mut Scheduler) -> u32 {
        self.catch_up(c, pool, sched);
        let ch = &mut self.channels[c as usize];
        if let Some((t, next)) = ch.leave_pipe(id) {
            sched.at(t, Event::PipeHead { channel: c, packet: next });
            prefetch(pool.get(next));
            ch.prefetch_pipe_after_head();
        } else if let Some(seq) = ch.take_deferred_tx_end() {
            // The pipe is empty: the transmission's end will schedule its packet's arrival.
            sched.insert_reserved(ch.tx_end_ns(), seq, Event::TxEnd { channel: c });
        }
        ch.to
    }

    /// Packets inside the network (queued, being serialized, propagating).
    pub fn packets_inside(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.channels.iter().flat_map(|c| c.packets_inside())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TraceConfig;
    use crate::packet::Packet;
    use crate::queue::{DropTail, Queue};

    const MS: u64 = 1_000_000;

    /// Node 0 sends three 1000-byte packets to node 1 over one 8 Mb/s (1 ms a packet), 10 ms
    /// link: A at 0, B at 2 ms (its end, at 3 ms, is deferred: A is in the pipe, nothing is
    /// queued) and C at 3 ms, from an event scheduled before B's end (`c_first`) or after it.
    /// Returns the arrival times at node 1 and the most packets the queue held.
    fn send_three(c_first: bool) -> (Vec<u64>, u64) {
        let channel = |from, to| {
            let queue = Queue::DropTail(DropTail::new(Some(10), None));
            Channel::new(0, from, to, 8_000_000, 10 * MS, queue, vec![])
        };
        let mut net =
            Network::new(vec![channel(0, 1), channel(1, 0)], Routes::new(2, &[(0, 1)], [0, 1].into_iter()), 1);
        let (mut pool, mut sched) = (PacketPool::default(), Scheduler::default());
        let mut trace = Trace::new(&TraceConfig::default(), 1, 0, 20 * MS).unwrap();
        let packet = Packet::new(PacketKind::Data, 0, 1, 960, 1000);
        // The senders: AppStart of "flow" 0, 1, 2 sends A, B, C.
        sched.at(0, Event::AppStart { flow: 0 });
        sched.at(2 * MS, Event::AppStart { flow: 1 });
        if c_first {
            sched.at(3 * MS, Event::AppStart { flow: 2 });
        }
        let mut arrivals = vec![];
        while let Some(ev) = sched.pop_until(u64::MAX) {
            match ev {
                Event::AppStart { flow } => {
                    let id = pool.alloc(packet);
                    net.forward(0, id, &mut pool, &mut sched, &mut trace);
                    if flow == 1 {
                        assert!(net.channels[0].deferred_tx_end().is_some(), "B's end is deferred");
                        if !c_first {
                            sched.at(3 * MS, Event::AppStart { flow: 2 });
                        }
                    }
                }
                Event::TxEnd { channel } => net.on_tx_end(channel, &mut pool, &mut sched, &mut trace),
                Event::PipeHead { channel, packet } => {
                    assert_eq!(net.on_pipe_head(channel, packet, &mut pool, &mut sched), 1);
                    pool.free(packet);
                    arrivals.push(sched.now());
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        sched.advance_to(u64::MAX);
        net.settle(&mut pool, &sched);
        assert_eq!((pool.live(), net.channels[0].counters.tx_packets), (0, 3));
        (arrivals, net.channels[0].queue.occupancy().max_packets)
    }

    #[test]
    fn a_deferred_transmission_end_keeps_its_place_among_simultaneous_events() {
        // C sent by an event scheduled before B's end: in the event order, B's end has not
        // happened yet, so C waits in the queue (for no time) as it would had the end been
        // scheduled; sent by one scheduled after, C finds the link idle.
        assert_eq!(send_three(true), (vec![11 * MS, 13 * MS, 14 * MS], 1));
        assert_eq!(send_three(false), (vec![11 * MS, 13 * MS, 14 * MS], 0));
    }
}
