//! The network: link directions ("channels") and static routes between nodes.

mod channel;
mod handover;
mod pipe;
mod routing;
mod shared_buffer;

pub use channel::{Channel, ChannelCounters};
pub use routing::Routes;
pub use shared_buffer::{SharedBuffer, SharedBufferConfig};

use crate::engine::{Event, Scheduler};
use crate::packet::{Ecn, Packet, PacketId, PacketKind, PacketPool, NO_PACKET};
use crate::prefetch::prefetch;
use crate::queue::{DequeueSink, Verdict};
use crate::trace::Trace;

/// All channels and the routing table. A link `l` owns channels `2l` (a→b) and `2l+1` (b→a).
///
/// Transmission ends are not events (unless `eager`): a channel runs its own, each at its own
/// time, when it is next touched after that end's place in the event order
/// ([`Scheduler::has_passed`]) — a packet arriving at it (`forward`), its pipe's head leaving
/// (`on_pipe_head`), the trace sampling, the warm-up snapshot and the end of the run
/// (`settle`). Nothing else reads a channel, and an end's effects are the channel's own (the
/// packet moves into the pipe, the next one starts; or the packet goes to a channel that only
/// this one feeds, below), so every end happens at the same time and
/// in the same order as if it were scheduled: results are identical either way (`eager`
/// schedules them, and a test compares), with a third fewer events on a busy network. The only
/// event a channel schedules is its pipe's next arrival, which may be the packet still on the
/// wire.
///
/// A packet whose next channel is fed by its current one alone is handed to it when its
/// serialization ends, dated its arrival (see `handover`), rather than entering the pipe: the
/// next channel runs ahead of the clock. The pipe's arrival event still comes, for the packet
/// on the wire when the pipe is empty, so that a channel is never left with an unhanded
/// packet past its arrival time; on a busy link that is one event per propagation delay
/// instead of one per packet.
pub struct Network {
    pub channels: Vec<Channel>,
    pub routes: Routes,
    /// Data packets of each TCP connection (by flow index) dropped by a queue or a loss model.
    pub data_drops: Vec<u64>,
    /// Transmission ends are scheduled as events: needed when a trace records every change of
    /// a queue as it happens (their records would otherwise come out of time order).
    eager: bool,
    /// Per channel: the channel all its packets come from, if one (`handover::sole_feeders`).
    sole_feeder: Vec<u32>,
    /// Packets arriving before this time are handed over (0: none are).
    handover_until_ns: u64,
    /// What the queue being dequeued did besides returning a packet (reused by every channel).
    sink: DequeueSink,
    /// Nodes whose output queues share one buffer (`shared_buffer`).
    shared_buffers: Vec<SharedBuffer>,
    /// Per channel: the index of the shared buffer its queue draws on, or `NO_SHARED_BUFFER`.
    shared_buffer_of: Vec<u32>,
    /// Per channel: arrivals its node's shared buffer refused (also counted in `drops_queue`).
    pub shared_buffer_drops: Vec<u64>,
    /// Per packet (by its slot in the pool), where routers choose among equal-cost channels
    /// (`hops_ahead`): its *hop*, the channel it takes from the far node of the channel it last
    /// arrived at, found on that arrival, when its record is at hand anyway; `NO_HOP` if it is
    /// delivered there or a spraying router draws there. Its arrival at that node then
    /// forwards it without waiting on its record, the route table and the flow hash, and the
    /// run loop prefetches the channel it takes an event ahead.
    hops: Vec<u32>,
    /// Whether `hops` are kept: only with equal-cost choices, where the choice (a flow hash)
    /// is long to wait for; a dumbbell's lookups are short.
    hops_ahead: bool,
}

/// `shared_buffer_of` value of a channel whose queue has its own memory only.
const NO_SHARED_BUFFER: u32 = u32::MAX;

/// A packet's hop when none is known ahead (see `Network::hops`).
pub const NO_HOP: u32 = u32::MAX;

impl Network {
    pub fn new(channels: Vec<Channel>, routes: Routes, tcp_flows: usize, eager: bool) -> Self {
        let sole_feeder = vec![handover::UNUSED; channels.len()];
        Network {
            hops: Vec::new(),
            hops_ahead: routes.has_choices(),
            channels,
            routes,
            data_drops: vec![0; tcp_flows],
            eager,
            sole_feeder,
            handover_until_ns: 0,
            sink: DequeueSink::default(),
            shared_buffers: Vec::new(),
            shared_buffer_of: Vec::new(),
            shared_buffer_drops: Vec::new(),
        }
    }

    /// Make the output queues of each configured node share its buffer (before the run, and
    /// before `find_handovers`, which then leaves their channels out).
    pub fn share_buffers(&mut self, configs: &[SharedBufferConfig]) {
        if configs.is_empty() {
            return;
        }
        self.shared_buffer_of = vec![NO_SHARED_BUFFER; self.channels.len()];
        self.shared_buffer_drops = vec![0; self.channels.len()];
        for (b, config) in configs.iter().enumerate() {
            let ports: Vec<u32> =
                (0..self.channels.len() as u32).filter(|&c| self.channels[c as usize].from == config.node).collect();
            for &c in &ports {
                self.shared_buffer_of[c as usize] = b as u32;
            }
            self.shared_buffers.push(SharedBuffer::new(config, ports));
        }
    }

    /// Whether channel `c` draws on a shared buffer.
    #[inline]
    pub fn has_shared_buffer(&self, c: u32) -> bool {
        self.shared_buffer_of.get(c as usize).is_some_and(|&b| b != NO_SHARED_BUFFER)
    }

    /// Hand nothing over (before a run starts: to check that results do not depend on it).
    #[cfg(test)]
    pub fn forbid_handovers(&mut self) {
        self.sole_feeder.fill(handover::UNUSED);
        self.channels.iter_mut().for_each(|ch| ch.feeds_alone = false);
    }

    /// Look every hop up on arrival (before a run starts: to check that results do not depend
    /// on hops found ahead).
    #[cfg(test)]
    pub fn forbid_hops_ahead(&mut self) {
        self.hops_ahead = false;
    }

    /// Find the channels fed by one other (`paths`: every (source, destination) packets
    /// travel), which packets can then be handed to (`hand_over_until`). A hand-over skips the
    /// arrival at the node between, so channels leaving `seen_nodes` (nodes a capture watches
    /// packets arrive at) take none.
    pub fn find_handovers(&mut self, paths: impl Iterator<Item = (u32, u32)>, seen_nodes: &[u32]) {
        self.sole_feeder = handover::sole_feeders(&self.channels, &self.routes, paths);
        for c in 0..self.channels.len() as u32 {
            if self.has_shared_buffer(c) || seen_nodes.contains(&self.channels[c as usize].from) {
                self.sole_feeder[c as usize] = handover::UNUSED;
            }
        }
        for &f in &self.sole_feeder {
            if handover::is_channel(f) {
                self.channels[f as usize].feeds_alone = true;
            }
        }
    }

    /// Hand over packets that arrive before `until_ns` (0: none). Never with `eager` ends,
    /// whose events would come out of time order.
    pub fn hand_over_until(&mut self, until_ns: u64) {
        self.handover_until_ns = if self.eager { 0 } else { until_ns };
    }

    /// Start handing over mid-run (at the end of the warm-up, whose snapshot reads every
    /// channel): packets already propagating towards a channel that takes hand-overs are handed
    /// over first, so that none reaches it after a later packet handed over at its end. A
    /// channel's pipe is emptied before its feeder's, whose hand-overs run its ends.
    pub fn start_handovers(&mut self, until_ns: u64, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        self.hand_over_until(until_ns);
        if self.handover_until_ns == 0 {
            return;
        }
        let chain_length = |mut c: usize| {
            let mut n = 0;
            while handover::is_channel(self.sole_feeder[c]) {
                (c, n) = (self.sole_feeder[c] as usize, n + 1);
            }
            n
        };
        let mut order: Vec<usize> = (0..self.channels.len()).filter(|&c| self.channels[c].feeds_alone).collect();
        order.sort_by_key(|&c| std::cmp::Reverse(chain_length(c)));
        for c in order {
            let delay_ns = self.channels[c].delay_ns;
            for (arrival, id) in self.channels[c].take_pipe(pool) {
                match self.handover_target(c as u32, id, arrival, pool) {
                    Some(next) => self.hand_over(next, id, arrival, pool, sched, trace),
                    None => self.channels[c].enter_pipe(id, arrival - delay_ns, pool),
                }
            }
        }
    }

    /// Schedule every transmission end as an event from now on (before a run starts: to check
    /// that results do not depend on it).
    #[cfg(test)]
    pub fn set_eager(&mut self) {
        self.eager = true;
        self.handover_until_ns = 0;
    }

    /// Charge a dropped packet to its TCP connection if it carries data (drops are rare
    /// next to deliveries, so this stays off the common path).
    #[inline]
    fn count_drop(data_drops: &mut [u64], p: &Packet) {
        if p.kind == PacketKind::Data && !p.syn {
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
        self.forward_on(node, id, NO_HOP, pool, sched, trace);
    }

    /// `forward`, taking channel `hop` if not `NO_HOP` (the packet's hop, see `hops`) rather
    /// than looking it up.
    #[inline]
    pub fn forward_on(
        &mut self,
        node: u32,
        id: PacketId,
        hop: u32,
        pool: &mut PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) {
        let c = if hop == NO_HOP { self.routes.next_channel(node, pool.get(id)) } else { hop };
        self.catch_up(c, pool, sched, trace);
        if !self.shared_buffers.is_empty()
            && self.has_shared_buffer(c)
            && !self.admitted_by_shared_buffer(c, id, pool, sched, trace)
        {
            return;
        }
        self.arrive(c, id, sched.now(), pool, sched, trace);
    }

    /// Packet `id`'s hop from the far node of the channel it last arrived at (see `hops`), or
    /// `NO_HOP`.
    #[inline]
    pub fn hop(&self, id: PacketId) -> u32 {
        if self.hops_ahead {
            self.hops[id as usize]
        } else {
            NO_HOP
        }
    }

    /// Note the hop of packet `id`, arriving at channel `c` (see `hops`).
    #[inline]
    fn note_hop(&mut self, c: u32, id: PacketId, p: &Packet, slots: usize) {
        let to = self.channels[c as usize].to;
        let hop = if p.dst == to { NO_HOP } else { self.routes.next_channel_ahead(to, p).unwrap_or(NO_HOP) };
        if id as usize >= self.hops.len() {
            self.hops.resize(slots, NO_HOP);
        }
        self.hops[id as usize] = hop;
    }

    /// Ask the shared buffer of channel `c` whether `id` may join `c`'s queue, after every port
    /// of the node has caught up to now (its queue is as long as it is now). A refused packet
    /// is dropped as a full queue drops it. A packet finding the wire idle is never queued, so
    /// it needs no room.
    #[inline(never)]
    fn admitted_by_shared_buffer(
        &mut self,
        c: u32,
        id: PacketId,
        pool: &mut PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) -> bool {
        if self.channels[c as usize].is_idle() {
            return true;
        }
        let b = self.shared_buffer_of[c as usize] as usize;
        let mut used = 0;
        for k in 0..self.shared_buffers[b].channels.len() {
            let port = self.shared_buffers[b].channels[k];
            self.catch_up(port, pool, sched, trace);
            used += self.channels[port as usize].queue.occupancy().bytes;
        }
        let ch = &mut self.channels[c as usize];
        if self.shared_buffers[b].admits(ch.queue.occupancy().bytes, used, pool.get(id).wire_bytes) {
            return true;
        }
        ch.counters.drops_queue += 1;
        self.shared_buffer_drops[c as usize] += 1;
        Self::count_drop(&mut self.data_drops, pool.get(id));
        pool.free(id);
        false
    }

    /// Packet `id` reaches channel `c` at `now` (the present, or the future of a hand-over).
    #[inline]
    fn arrive(
        &mut self,
        c: u32,
        id: PacketId,
        now: u64,
        pool: &mut PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) {
        let p = pool.get(id);
        if self.hops_ahead {
            self.note_hop(c, id, p, pool.slots());
        }
        let ch = &mut self.channels[c as usize];
        if ch.is_idle() {
            ch.queue.arrive_at_idle_link(id, p, now);
            let wire = p.wire_bytes;
            self.start_transmission(c, id, wire, now, pool, sched, trace);
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
            Verdict::Evicted => {
                self.sink.clear();
                ch.queue.ops_mut().take_evicted(&mut self.sink);
                self.apply_dequeue_sink(c, None, pool);
            }
        }
        let ch = &self.channels[c as usize];
        if trace.records_queue_changes() {
            let o = ch.queue.occupancy();
            trace.record_queue(now, c, o.packets, o.bytes);
        }
    }

    /// Start serializing `id` on channel `c` at `now`: its arrival is scheduled if no other is
    /// pending (the pipe is empty), and its end if `eager`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn start_transmission(
        &mut self,
        c: u32,
        id: PacketId,
        wire_bytes: u32,
        now: u64,
        pool: &PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) {
        if let Some(pcap) = &mut trace.pcap {
            pcap.record(c, now, pool.get(id), pool.sack(id));
        }
        let ch = &mut self.channels[c as usize];
        let end = ch.start_transmission(id, wire_bytes, now);
        if ch.feeds_alone {
            // Its end reads the destination (`handover_target`), a serialization from now; and
            // the next packet's end, which may run right after this one's when the channel
            // catches up on several at once.
            prefetch(pool.get(id));
            for next in ch.queue.next_out() {
                if next != NO_PACKET {
                    prefetch(pool.get(next));
                }
            }
        }
        if !ch.head_pending() {
            ch.set_head_pending(true);
            sched.at(end + ch.delay_ns, Event::PipeHead { channel: c, packet: id });
        }
        if self.eager {
            sched.at(end, Event::TxEnd { channel: c });
        }
    }

    /// Run channel `c`'s transmission ends whose place in the event order has passed.
    #[inline]
    fn catch_up(&mut self, c: u32, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        loop {
            let ch = &self.channels[c as usize];
            let end = ch.tx_end_ns();
            if ch.is_idle() || !sched.has_passed(end, Event::TxEnd { channel: c }) {
                return;
            }
            self.end_transmission(c, end, pool, sched, trace);
        }
    }

    /// Run every transmission end whose place in the event order has passed (before the
    /// channels are read).
    pub fn settle(&mut self, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        for c in 0..self.channels.len() as u32 {
            self.catch_up(c, pool, sched, trace);
        }
    }

    /// The `TxEnd` event of an `eager` network.
    #[inline]
    pub fn on_tx_end(&mut self, c: u32, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        self.end_transmission(c, sched.now(), pool, sched, trace);
    }

    /// Channel `c` finished serializing its packet at `now`: apply the loss models, put the
    /// packet in the propagation pipe, and start the next one from the queue.
    #[inline]
    fn end_transmission(&mut self, c: u32, now: u64, pool: &mut PacketPool, sched: &mut Scheduler, trace: &mut Trace) {
        let ch = &mut self.channels[c as usize];
        let id = ch.finish_transmission();
        // Every model is asked, even after one has dropped the packet, so that each model's
        // random draws never depend on another model's outcome (`any` would short-circuit).
        #[allow(clippy::unnecessary_fold)]
        let lost = !ch.loss.is_empty() && {
            let p = pool.get(id);
            ch.loss.iter_mut().fold(false, |lost, m| m.is_lost(p, now) || lost)
        };
        let mut handover = None;
        if lost {
            ch.counters.drops_error += 1;
            Self::count_drop(&mut self.data_drops, pool.get(id));
            pool.free(id);
        } else {
            let arrival = now + ch.delay_ns;
            match self.handover_target(c, id, arrival, pool) {
                Some(next) => handover = Some((next, arrival)),
                None => self.channels[c as usize].enter_pipe(id, now, pool),
            }
        }
        self.sink.clear();
        let next = self.channels[c as usize].queue.dequeue(now, &mut self.sink);
        if !self.sink.dropped.is_empty() || self.sink.mark {
            self.apply_dequeue_sink(c, next, pool);
        }
        if let Some((next, wire)) = next {
            self.start_transmission(c, next, wire, now, pool, sched, trace);
            if trace.records_queue_changes() {
                let o = self.channels[c as usize].queue.occupancy();
                trace.record_queue(now, c, o.packets, o.bytes);
            }
        }
        if let Some((next, arrival)) = handover {
            self.hand_over(next, id, arrival, pool, sched, trace);
        }
    }

    /// Apply what channel `c`'s queue did at dequeue, or an enqueue's evictions (`sink`): its
    /// drops count and free as an enqueue drop does; a mark sets CE on the packet `next` it
    /// returned.
    #[inline(never)]
    fn apply_dequeue_sink(&mut self, c: u32, next: Option<(PacketId, u32)>, pool: &mut PacketPool) {
        let ch = &mut self.channels[c as usize];
        for &id in &self.sink.dropped {
            ch.counters.drops_queue += 1;
            Self::count_drop(&mut self.data_drops, pool.get(id));
            pool.free(id);
        }
        if let (true, Some((id, _))) = (self.sink.mark, next) {
            pool.get_mut(id).ecn = Ecn::Ce;
        }
    }

    /// The channel that packet `id`, arriving at the end of channel `c` at `arrival`, is handed
    /// to, if any.
    #[inline]
    fn handover_target(&self, c: u32, id: PacketId, arrival: u64, pool: &PacketPool) -> Option<u32> {
        let ch = &self.channels[c as usize];
        if !ch.feeds_alone || arrival >= self.handover_until_ns {
            return None;
        }
        let p = pool.get(id);
        if p.dst == ch.to {
            return None;
        }
        let next = self.routes.next_channel_ahead(ch.to, p)?;
        (self.sole_feeder[next as usize] == c).then_some(next)
    }

    /// Channel `c` takes packet `id` arriving at `arrival`, after the ends that rank before an
    /// arrival then (all up to and including `arrival`).
    fn hand_over(
        &mut self,
        c: u32,
        id: PacketId,
        arrival: u64,
        pool: &mut PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) {
        loop {
            let ch = &self.channels[c as usize];
            let end = ch.tx_end_ns();
            if ch.is_idle() || end > arrival {
                break;
            }
            self.end_transmission(c, end, pool, sched, trace);
        }
        self.arrive(c, id, arrival, pool, sched, trace);
    }

    /// The head of channel `c`'s pipe, `id`, arrives now: returns whether it did (the loss
    /// models may have dropped it at the end of its serialization) and schedules the next
    /// arrival. The next head's record and the pipe's entry after it are prefetched now, one
    /// packet time before they are read, since both were written a propagation delay ago and
    /// have left the caches since.
    ///
    /// The channel is caught up first only when `id` is not already at the head of its pipe
    /// (it is still on the wire, its end not yet run), or when the channel hands packets over
    /// (this event is then what runs its ends before their hand-overs' arrivals). Otherwise
    /// its ends that have passed can wait for its next touch: they only put later packets
    /// behind `id` in the pipe and start the queue's next, and the arrival scheduled next is
    /// the earlier of the pipe's new head and the packet on the wire, which is when that
    /// packet arrives whether its end has run or not (an end's arrival time is fixed when its
    /// serialization starts). Each channel's ends still run in their order, with their loss
    /// models' draws, before anything reads the channel (an arrival at it, `settle`); only
    /// which event runs them changes, never what they do. One channel catch-up per event
    /// fewer, each an unpredictable branch: the k = 8 fat tree runs 8 % faster.
    #[inline]
    pub fn on_pipe_head(
        &mut self,
        c: u32,
        id: PacketId,
        pool: &mut PacketPool,
        sched: &mut Scheduler,
        trace: &mut Trace,
    ) -> bool {
        let ch = &self.channels[c as usize];
        if ch.feeds_alone || ch.pipe_head() != Some((sched.now(), id)) {
            self.catch_up(c, pool, sched, trace);
        }
        let ch = &mut self.channels[c as usize];
        let arrived = ch.leave_pipe(id, sched.now(), pool);
        match ch.next_arrival() {
            Some((t, next)) => {
                sched.at(t, Event::PipeHead { channel: c, packet: next });
                prefetch(pool.get(next));
            }
            None => ch.set_head_pending(false),
        }
        arrived
    }

    /// Packets inside the network (queued, being serialized, propagating).
    pub fn packets_inside<'a>(&'a self, pool: &'a PacketPool) -> impl Iterator<Item = PacketId> + 'a {
        self.channels.iter().flat_map(|c| c.packets_inside(pool))
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
    /// link: A at 0, B at 0.5 ms (queued behind A) and C at 3 ms, the instant B's serialization
    /// ends. Returns the arrival times at node 1, the most packets the queue held, whether C
    /// found the wire idle, and the events run.
    fn send_three(eager: bool) -> (Vec<u64>, u64, bool, u64) {
        let channel = |from, to| {
            let queue = Queue::DropTail(DropTail::new(Some(10), None));
            Channel::new(0, from, to, 8_000_000, 10 * MS, queue, vec![])
        };
        let mut net =
            Network::new(vec![channel(0, 1), channel(1, 0)], Routes::new(2, &[(0, 1)], [0, 1].into_iter()), 1, eager);
        let (mut pool, mut sched) = (PacketPool::default(), Scheduler::default());
        let mut trace = Trace::new(&TraceConfig::default(), 1, 0, 20 * MS).unwrap();
        let packet = Packet::new(PacketKind::Data, 0, 1, 960, 1000);
        // The senders: AppStart of "flow" 0, 1, 2 sends A, B, C.
        for (flow, at) in [(0, 0), (1, MS / 2), (2, 3 * MS)] {
            sched.at(at, Event::AppStart { flow });
        }
        let (mut arrivals, mut c_found_idle) = (vec![], false);
        while let Some(ev) = sched.pop_until(u64::MAX) {
            match ev {
                Event::AppStart { flow } => {
                    let id = pool.alloc(packet);
                    if flow == 2 {
                        net.catch_up(0, &mut pool, &mut sched, &mut trace);
                        c_found_idle = net.channels[0].is_idle();
                    }
                    net.forward(0, id, &mut pool, &mut sched, &mut trace);
                }
                Event::TxEnd { channel } => net.on_tx_end(channel, &mut pool, &mut sched, &mut trace),
                Event::PipeHead { channel, packet } => {
                    assert!(net.on_pipe_head(channel, packet, &mut pool, &mut sched, &mut trace));
                    assert_eq!(net.channels[channel as usize].to, 1);
                    pool.free(packet);
                    arrivals.push(sched.now());
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        sched.advance_to(u64::MAX);
        net.settle(&mut pool, &mut sched, &mut trace);
        assert_eq!((pool.live(), net.channels[0].counters.tx_packets), (0, 3));
        (arrivals, net.channels[0].queue.occupancy().max_packets, c_found_idle, sched.events)
    }

    #[test]
    fn a_transmission_end_run_by_its_channel_keeps_its_place_among_simultaneous_events() {
        // B's end at 3 ms ranks before C's sending at 3 ms: C finds the wire idle whether the
        // end is an event or run when C arrives. Events: 3 sends, 3 arrivals (+ 3 ends).
        assert_eq!(send_three(true), (vec![11 * MS, 12 * MS, 14 * MS], 1, true, 9));
        assert_eq!(send_three(false), (vec![11 * MS, 12 * MS, 14 * MS], 1, true, 6));
    }
}
