//! A simulation: built from a [`SimConfig`] and a seed, run to the end, summarized.
//!
//! The run loop pops events in (time, insertion) order and hands each to its component with
//! a [`Ctx`]. At `warmup_ns` every counter is snapshotted; summaries are the differences
//! between the end and that snapshot. At the end, packet conservation is checked: every
//! packet created was delivered, dropped (by a queue or a loss model) or is still inside the
//! network.

use crate::app::cbr::{CbrSource, UdpCounters};
use crate::app::connections::{Transfer, WebTraffic, WindowCounts};
use crate::app::on_off::OnOffSchedule;
use crate::build_context::BuildContext;
use crate::config::{AppConfig, RoutingConfig, SimConfig};
use crate::context::Ctx;
use crate::engine::{Event, Scheduler};
use crate::loss::LossModel;
use crate::net::{Channel, ChannelCounters, Network, Routes, NO_HOP};
use crate::packet::{PacketKind, PacketPool};
use crate::prefetch::prefetch;
use crate::queue::{ClassQueueStats, DualPi2ClassStats, Occupancy, Queue, Signals};
use crate::results::{ChannelResult, DualPi2QueueResult, FlowResult, RdQueueResult, RunSummary, UdpFlowResult};
use crate::rng::RandomStream;
use crate::tcp::receiver::ReceiverCounters;
use crate::tcp::sender::SenderCounters;
use crate::tcp::TcpFlow;
use crate::time::ns_to_s;
use crate::trace::Trace;

/// Counters at the start of the measurement window.
#[derive(Default)]
struct Snapshot {
    senders: Vec<SenderCounters>,
    receivers: Vec<ReceiverCounters>,
    channels: Vec<ChannelCounters>,
    data_drops: Vec<u64>,
    queues: Vec<Occupancy>,
    rd: Vec<Option<[ClassQueueStats; 2]>>,
    dualpi2: Vec<Option<[DualPi2ClassStats; 2]>>,
    signals: Vec<Signals>,
    shared_buffer_drops: Vec<u64>,
    udp: Vec<UdpCounters>,
}

/// Events between two checks of a stop request: at the engine's slowest (a few million events
/// per second) a request is seen within milliseconds, and the check costs nothing measurable.
pub const STOP_CHECK_EVENTS: u32 = 1 << 14;

/// Packets alive at once (at the peak so far) from which the run loop prefetches: below, they
/// and the links fit in the caches and asking costs more than it saves (a single flow).
const PREFETCH_MIN_PACKETS: usize = 4096;

pub struct Sim {
    sched: Scheduler,
    net: Network,
    pool: PacketPool,
    pub trace: Trace,
    flows: Vec<TcpFlow>,
    /// The ON intervals of each flow (empty for a bulk flow, whose start and stop are
    /// scheduled once at build time).
    schedules: Vec<OnOffSchedule>,
    udp: Vec<CbrSource>,
    /// What each UDP flow's destination received (kept apart from the source).
    udp_received: Vec<UdpCounters>,
    /// Web generators, their connection slots (flows from `web.first_flow()` on) and transfers.
    web: WebTraffic,
    /// Packets of finished web connections discarded at delivery.
    packets_stale: u64,
    duration_ns: u64,
    warmup_ns: u64,
    packets_delivered: u64,
    snapshot: Snapshot,
}

impl Sim {
    /// Build the network and flows; errors name the offending field.
    pub fn new(cfg: &SimConfig, seed: u64) -> Result<Sim, String> {
        cfg.validate()?;
        let mut channels = Vec::with_capacity(2 * cfg.links.len());
        for (l, link) in cfg.links.iter().enumerate() {
            for (dir, from, to, d) in [("ab", link.a, link.b, &link.ab), ("ba", link.b, link.a, &link.ba)] {
                let context =
                    |component: &str| BuildContext::new(seed, &link.name, dir, component, link.rate_bps, &cfg.flows);
                let loss = d
                    .loss
                    .iter()
                    .enumerate()
                    .map(|(j, m)| LossModel::from_config(m, &context(&format!("loss:{j}"))))
                    .collect();
                let queue = Queue::from_config(&d.queue, &context("queue"));
                channels.push(Channel::new(l as u32, from, to, link.rate_bps, link.delay_ns, queue, loss));
            }
        }
        let ends: Vec<(u32, u32)> = cfg.links.iter().map(|l| (l.a, l.b)).collect();
        let tcp_ends = cfg.flows.iter().map(|f| ("flows", f.src, f.dst));
        let endpoints: Vec<(&str, u32, u32)> =
            tcp_ends.chain(cfg.udp_flows.iter().map(|u| ("udp_flows", u.src, u.dst))).collect();
        let web_ends = cfg.web.iter().flat_map(|w| w.clients.iter().copied().chain(w.server));
        let destinations = endpoints.iter().flat_map(|&(_, s, d)| [s, d]).chain(web_ends);
        let routes = match cfg.routing {
            RoutingConfig::Shortest => Routes::new(cfg.nodes.len(), &ends, destinations),
            RoutingConfig::Ecmp { select } => Routes::with_ecmp(cfg.nodes.len(), &ends, destinations, select, |node| {
                RandomStream::new(seed, &format!("ecmp:{}", cfg.nodes[node as usize]))
            }),
        };
        for (i, &(kind, src, dst)) in endpoints.iter().enumerate() {
            if !routes.reachable(src, dst) {
                let index = if kind == "flows" { i } else { i - cfg.flows.len() };
                return Err(format!(
                    "{kind}[{index}]: no route from node '{}' to node '{}'",
                    cfg.nodes[src as usize], cfg.nodes[dst as usize]
                ));
            }
        }
        for (i, w) in cfg.web.iter().enumerate() {
            // Without a server (all_to_all), every host must reach the first.
            let hub = w.server.unwrap_or(w.clients[0]);
            if let Some(j) = w.clients.iter().position(|&c| c != hub && !routes.reachable(hub, c)) {
                return Err(format!(
                    "web[{i}].clients[{j}]: no route from node '{}' to node '{}'",
                    cfg.nodes[hub as usize], cfg.nodes[w.clients[j] as usize]
                ));
            }
        }
        let mut sched = Scheduler::default();
        let mut flows = Vec::with_capacity(cfg.flows.len());
        let mut schedules = Vec::with_capacity(cfg.flows.len());
        for (i, f) in cfg.flows.iter().enumerate() {
            let flow = i as u32;
            let bytes = match &f.app {
                AppConfig::Bulk { start_ns, start_jitter_ns, stop_ns, bytes } => {
                    let jitter =
                        RandomStream::new(seed, &format!("flow:{}:start", f.name)).below_or_equal(*start_jitter_ns);
                    let start = start_ns + jitter;
                    if start < cfg.duration_ns {
                        sched.at(start, Event::AppStart { flow });
                    }
                    if let Some(stop) = stop_ns {
                        if *stop < cfg.duration_ns {
                            sched.at((*stop).max(start), Event::AppStop { flow });
                        }
                    }
                    schedules.push(OnOffSchedule::default());
                    bytes
                }
                AppConfig::OnOff { on_ns, bytes } => {
                    let schedule = OnOffSchedule::new(on_ns.clone());
                    if let Some(start) = schedule.first_start().filter(|t| *t < cfg.duration_ns) {
                        sched.at(start, Event::AppStart { flow });
                    }
                    schedules.push(schedule);
                    bytes
                }
            };
            let mut connection = TcpFlow::new(flow, f, bytes.unwrap_or(u64::MAX));
            connection.sender.seed_cc(RandomStream::new(seed, &format!("flow:{}:cc", f.name)));
            flows.push(connection);
        }
        let udp: Vec<CbrSource> = cfg.udp_flows.iter().enumerate().map(|(i, u)| CbrSource::new(i as u32, u)).collect();
        for (i, source) in udp.iter().enumerate() {
            if let Some(t) = source.first_send_ns().filter(|t| *t < cfg.duration_ns) {
                sched.at(t, Event::UdpSend { flow: i as u32 });
            }
        }
        let mut web = WebTraffic::new(&cfg.web, cfg.flows.len() as u32, seed);
        for (g, generator) in web.generators.iter_mut().enumerate() {
            if let Some(t) = generator.first_arrival().filter(|t| *t < cfg.duration_ns) {
                sched.at(t, Event::WebArrival { generator: g as u32 });
            }
        }
        let trace = Trace::new(&cfg.trace, cfg.flows.len(), cfg.web.len(), cfg.duration_ns)?;
        if !trace.on_change && (trace.cwnd_on || trace.queue_on) {
            sched.at(0, Event::TraceSample);
        }
        if cfg.warmup_ns > 0 {
            sched.at(cfg.warmup_ns, Event::WarmupEnd);
        }
        // A node's capture mixes its links' transmission starts with its arrivals: run every
        // transmission end as an event, so that each record is written in time order.
        let eager = trace.records_queue_changes() || !cfg.trace.pcap_nodes.is_empty();
        let mut net = Network::new(channels, routes, cfg.flows.len(), eager);
        net.share_buffers(&cfg.shared_buffers);
        // Packets travel both ways between a connection's ends (data and ACKs), one way for UDP.
        let web_connections = cfg.web.iter().flat_map(|w| -> Vec<(u32, u32)> {
            match w.server {
                Some(server) => w.clients.iter().map(|&c| (server, c)).collect(),
                // all_to_all: every pair of hosts.
                None => w
                    .clients
                    .iter()
                    .enumerate()
                    .flat_map(|(j, &a)| w.clients[j + 1..].iter().map(move |&b| (a, b)))
                    .collect(),
            }
        });
        let connections = cfg.flows.iter().map(|f| (f.src, f.dst)).chain(web_connections);
        let udp_paths = cfg.udp_flows.iter().map(|u| (u.src, u.dst));
        net.find_handovers(connections.flat_map(|(a, b)| [(a, b), (b, a)]).chain(udp_paths), &cfg.trace.pcap_nodes);
        // A channel running ahead of the clock must not be read before the clock catches up:
        // the queue trace's samples read every channel, and so does the warm-up snapshot,
        // after which hand-overs start (`take_snapshot`).
        if !trace.queue_on && cfg.warmup_ns == 0 {
            net.hand_over_until(cfg.duration_ns);
        }
        Ok(Sim {
            sched,
            net,
            pool: PacketPool::default(),
            trace,
            flows,
            schedules,
            udp_received: vec![UdpCounters::default(); udp.len()],
            web,
            packets_stale: 0,
            udp,
            duration_ns: cfg.duration_ns,
            warmup_ns: cfg.warmup_ns,
            packets_delivered: 0,
            snapshot: Snapshot::default(),
        })
    }

    /// Run every event up to the end of the simulation.
    pub fn run(&mut self) {
        self.run_unless_stopped(|| false);
    }

    /// Run to the end unless `stop`, asked every [`STOP_CHECK_EVENTS`] events, returns true
    /// (e.g. on Ctrl-C); returns whether the run reached its end. Stopping never changes what
    /// the events did, only how many ran.
    pub fn run_unless_stopped(&mut self, mut stop: impl FnMut() -> bool) -> bool {
        loop {
            for _ in 0..STOP_CHECK_EVENTS {
                match self.sched.pop_until(self.duration_ns) {
                    Some(ev) => {
                        if self.pool.slots() >= PREFETCH_MIN_PACKETS {
                            if let Some(next) = self.sched.peek() {
                                self.prefetch_for(next);
                            }
                        }
                        self.dispatch(ev)
                    }
                    None => {
                        self.sched.advance_to(self.duration_ns);
                        self.net.settle(&mut self.pool, &mut self.sched, &mut self.trace);
                        self.web.close_open(&self.flows);
                        return true;
                    }
                }
            }
            if stop() {
                return false;
            }
        }
    }

    /// Ask for the packet and link direction that event `ev` will read (`prefetch`).
    #[inline]
    fn prefetch_for(&self, ev: Event) {
        match ev {
            Event::PipeHead { channel, packet } => {
                prefetch(self.pool.get(packet));
                prefetch(&self.net.channels[channel as usize]);
                let hop = self.net.hop(packet);
                if hop != NO_HOP {
                    prefetch(&self.net.channels[hop as usize]);
                }
            }
            Event::TxEnd { channel } => prefetch(&self.net.channels[channel as usize]),
            _ => {}
        }
    }

    #[inline]
    fn dispatch(&mut self, ev: Event) {
        let mut ctx = Ctx { sched: &mut self.sched, net: &mut self.net, pool: &mut self.pool, trace: &mut self.trace };
        match ev {
            Event::TxEnd { channel } => ctx.net.on_tx_end(channel, ctx.pool, ctx.sched, ctx.trace),
            Event::PipeHead { channel, packet: id } => {
                if !ctx.net.on_pipe_head(channel, id, ctx.pool, ctx.sched, ctx.trace) {
                    return;
                }
                let node = ctx.net.channels[channel as usize].to;
                if let Some(pcap) = ctx.trace.pcap.as_mut() {
                    pcap.arrive(node, ctx.sched.now(), ctx.pool.get(id), ctx.pool.sack(id));
                }
                // Known ahead, the packet's hop is the channel the routes give, taken without
                // waiting on its record.
                let hop = ctx.net.hop(id);
                let p = *ctx.pool.get(id);
                if hop != NO_HOP || p.dst != node {
                    ctx.net.forward_on(node, id, hop, ctx.pool, ctx.sched, ctx.trace);
                    return;
                }
                // Taken before the slot is freed: the ACK's handler may reuse it.
                let (sack, sack_count) = ctx.pool.sack(id);
                ctx.pool.free(id);
                self.packets_delivered += 1;
                match p.kind {
                    PacketKind::Data => {
                        let connection = &mut self.flows[p.flow as usize];
                        if p.epoch != connection.receiver.epoch() {
                            self.packets_stale += 1;
                            return;
                        }
                        connection.receiver.on_data(&p, &mut ctx);
                        if p.flow >= self.web.first_flow() {
                            if let Some((generator, t)) = self.web.after_data(p.flow, connection, ctx.now()) {
                                if t < self.duration_ns {
                                    ctx.sched.at(t, Event::WebArrival { generator });
                                }
                            }
                        }
                    }
                    PacketKind::Ack => {
                        let connection = &mut self.flows[p.flow as usize];
                        if p.epoch != connection.sender.epoch() {
                            self.packets_stale += 1;
                            return;
                        }
                        if p.syn {
                            connection.sender.on_syn_ack(&mut ctx);
                        } else {
                            connection.sender.on_ack(p.ack, &sack[..sack_count], p.ece, &mut ctx);
                        }
                        if p.flow >= self.web.first_flow() {
                            self.web.after_ack(p.flow, connection);
                        }
                    }
                    PacketKind::Udp => {
                        let r = &mut self.udp_received[p.flow as usize];
                        r.packets_received += 1;
                        r.bytes_received += p.wire_bytes as u64;
                    }
                }
            }
            Event::Rto { flow, generation } => self.flows[flow as usize].sender.on_rto_event(generation, &mut ctx),
            Event::DelayedAck { flow, generation } => {
                self.flows[flow as usize].receiver.on_delack_event(generation, &mut ctx)
            }
            Event::Pace { flow, generation } => self.flows[flow as usize].sender.on_pace_event(generation, &mut ctx),
            Event::AppStart { flow } => {
                self.flows[flow as usize].sender.start(&mut ctx);
                if let Some(end) = self.schedules[flow as usize].current_end().filter(|t| *t < self.duration_ns) {
                    ctx.sched.at(end, Event::AppStop { flow });
                }
            }
            Event::AppStop { flow } => {
                self.flows[flow as usize].sender.stop();
                if let Some(start) = self.schedules[flow as usize].next_start().filter(|t| *t < self.duration_ns) {
                    ctx.sched.at(start, Event::AppStart { flow });
                }
            }
            Event::UdpSend { flow } => {
                if let Some(t) = self.udp[flow as usize].send(&mut ctx).filter(|t| *t < self.duration_ns) {
                    ctx.sched.at(t, Event::UdpSend { flow });
                }
            }
            Event::WebArrival { generator } => {
                let series = self.web.first_flow() + generator;
                let next = self.web.arrive(generator, series, &mut self.flows, &mut ctx);
                if let Some(t) = next.filter(|t| *t < self.duration_ns) {
                    ctx.sched.at(t, Event::WebArrival { generator });
                }
            }
            Event::TraceSample => self.sample_traces(),
            Event::WarmupEnd => self.take_snapshot(),
        }
    }

    fn sample_traces(&mut self) {
        let now = self.sched.now();
        if self.trace.cwnd_on {
            for f in &self.flows[..self.web.first_flow() as usize] {
                let s = &f.sender;
                self.trace.record_cwnd(now, s.flow(), s.cwnd(), s.ssthresh(), s.bwe_bps(), s.min_rtt_ns());
            }
        }
        if self.trace.queue_on {
            self.net.settle(&mut self.pool, &mut self.sched, &mut self.trace);
            for (c, ch) in self.net.channels.iter().enumerate() {
                let o = ch.queue.occupancy();
                self.trace.record_queue(now, c as u32, o.packets, o.bytes);
            }
        }
        // A full trace takes no more rows: sampling on would only cost events.
        if self.trace.truncated_at_ns().is_none() {
            self.sched.at(now + self.trace.interval_ns, Event::TraceSample);
        }
    }

    fn take_snapshot(&mut self) {
        let now = self.sched.now();
        self.net.settle(&mut self.pool, &mut self.sched, &mut self.trace);
        for f in &mut self.flows {
            f.sender.start_measurement_window();
        }
        for ch in &mut self.net.channels {
            ch.queue.occupancy_mut().reset_max();
        }
        self.snapshot = Snapshot {
            senders: self.flows.iter().map(|f| f.sender.counters()).collect(),
            receivers: self.flows.iter().map(|f| f.receiver.counters).collect(),
            channels: self
                .net
                .channels
                .iter()
                .map(|c| ChannelCounters { busy_ns: c.busy_ns_at(now), ..c.counters })
                .collect(),
            data_drops: self.net.data_drops.clone(),
            queues: self.net.channels.iter().map(|c| c.queue.occupancy().at(now)).collect(),
            rd: self.net.channels.iter().map(|c| c.queue.rd().map(|rd| rd.class_stats_at(now))).collect(),
            dualpi2: self.net.channels.iter().map(|c| c.queue.dualpi2().map(|q| q.class_stats_at(now))).collect(),
            signals: self.net.channels.iter().map(|c| c.queue.signals()).collect(),
            shared_buffer_drops: self.net.shared_buffer_drops.clone(),
            udp: self
                .udp
                .iter()
                .zip(&self.udp_received)
                .map(|(s, r)| UdpCounters {
                    packets_received: r.packets_received,
                    bytes_received: r.bytes_received,
                    ..s.counters
                })
                .collect(),
        };
        if !self.trace.queue_on {
            self.net.start_handovers(self.duration_ns, &mut self.pool, &mut self.sched, &mut self.trace);
        }
    }

    /// Every transfer the web generators started, in order of start.
    pub fn transfers(&self) -> &[Transfer] {
        &self.web.transfers
    }

    /// Summaries over [warmup, end], after checking packet conservation.
    pub fn summary(&self) -> Result<RunSummary, String> {
        if let Some(error) = self.trace.alloc_error().or(self.web.error.as_deref()) {
            return Err(error.to_string());
        }
        let now = self.sched.now();
        let window_ns = self.duration_ns - self.warmup_ns;
        let window_s = ns_to_s(window_ns);
        let snap = &self.snapshot;
        let flows = self.flows[..self.web.first_flow() as usize]
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let s0 = snap.senders.get(i).copied().unwrap_or_default();
                let r0 = snap.receivers.get(i).copied().unwrap_or_default();
                let s = &f.sender.counters();
                let r = &f.receiver.counters;
                let delivered = r.bytes_delivered - r0.bytes_delivered;
                let sent = s.bytes_sent - s0.bytes_sent;
                let retx = s.bytes_retransmitted - s0.bytes_retransmitted;
                let samples = s.rtt_samples - s0.rtt_samples;
                let drops0 = snap.data_drops.get(i).copied().unwrap_or_default();
                FlowResult {
                    id: i as u32,
                    packets_sent: s.packets_sent - s0.packets_sent,
                    packets_dropped: self.net.data_drops[i] - drops0,
                    bytes_delivered: delivered,
                    bytes_sent: sent,
                    bytes_retransmitted: retx,
                    packets_retransmitted: s.packets_retransmitted - s0.packets_retransmitted,
                    dupacks_sent: r.dupacks_sent - r0.dupacks_sent,
                    throughput_bps: delivered as f64 * 8.0 / window_s,
                    goodput_bps: (sent - retx) as f64 * 8.0 / window_s,
                    timeouts: s.timeouts - s0.timeouts,
                    fast_retransmits: s.fast_retransmits - s0.fast_retransmits,
                    fast_retransmitted_segments: s.fast_retransmitted_segments - s0.fast_retransmitted_segments,
                    spurious_fast_retransmits: r.spurious_fast_retransmits - r0.spurious_fast_retransmits,
                    ecn_reductions: s.ecn_reductions - s0.ecn_reductions,
                    ce_received: r.ce_received - r0.ce_received,
                    rtt_min_s: f.sender.window_min_rtt_ns().map(ns_to_s),
                    rtt_mean_s: (samples > 0).then(|| ns_to_s((s.rtt_sum_ns - s0.rtt_sum_ns) / samples)),
                    final_cwnd_bytes: f.sender.cwnd(),
                    final_ssthresh_bytes: f.sender.ssthresh(),
                    final_rto_s: ns_to_s(f.sender.rto_ns()),
                }
            })
            .collect();
        let channels = self
            .net
            .channels
            .iter()
            .enumerate()
            .map(|(c, ch)| {
                let c0 = snap.channels.get(c).copied().unwrap_or_default();
                let q0 = snap.queues.get(c).copied().unwrap_or_default();
                let q = ch.queue.occupancy().at(now);
                let k = &ch.counters;
                let (g0, g) = (snap.signals.get(c).copied().unwrap_or_default(), ch.queue.signals());
                ChannelResult {
                    link: ch.link,
                    direction: if c % 2 == 0 { "ab" } else { "ba" },
                    from: ch.from,
                    to: ch.to,
                    rate_bps: ch.rate_bps,
                    utilization: (ch.busy_ns_at(now) - c0.busy_ns) as f64 / window_ns as f64,
                    tx_packets: k.tx_packets - c0.tx_packets,
                    tx_bytes: k.tx_bytes - c0.tx_bytes,
                    drops_queue: k.drops_queue - c0.drops_queue,
                    drops_early: g.drops_early - g0.drops_early,
                    marks_ecn: g.marks_ecn - g0.marks_ecn,
                    drops_error: k.drops_error - c0.drops_error,
                    queue_mean_pkts: (q.packet_ns - q0.packet_ns) as f64 / window_ns as f64,
                    queue_mean_bytes: (q.byte_ns - q0.byte_ns) as f64 / window_ns as f64,
                    queue_max_pkts: q.max_packets,
                    drops_shared_buffer: self.net.has_shared_buffer(c as u32).then(|| {
                        self.net.shared_buffer_drops[c] - snap.shared_buffer_drops.get(c).copied().unwrap_or_default()
                    }),
                    rd: ch.queue.rd().map(|rd| {
                        let [r0, d0] = snap.rd.get(c).copied().flatten().unwrap_or_default();
                        let [r, d] = rd.class_stats_at(now);
                        let mean = |a: &ClassQueueStats, a0: &ClassQueueStats| {
                            (a.occupancy.packet_ns - a0.occupancy.packet_ns) as f64 / window_ns as f64
                        };
                        let [r_flows, d_flows] = rd.flow_counts();
                        let count_mean = |a: &ClassQueueStats, a0: &ClassQueueStats| {
                            (a.flow_count_ns - a0.flow_count_ns) / window_ns as f64
                        };
                        let [r_limit, d_limit] = rd.limits();
                        RdQueueResult {
                            r_drops: r.drops - r0.drops,
                            d_drops: d.drops - d0.drops,
                            r_bytes_served: r.bytes_served - r0.bytes_served,
                            d_bytes_served: d.bytes_served - d0.bytes_served,
                            r_queue_mean_pkts: mean(&r, &r0),
                            d_queue_mean_pkts: mean(&d, &d0),
                            r_flows,
                            d_flows,
                            r_flows_mean: count_mean(&r, &r0),
                            d_flows_mean: count_mean(&d, &d0),
                            r_limit,
                            d_limit,
                        }
                    }),
                    dualpi2: ch.queue.dualpi2().map(|q| {
                        let [lq0, cq0] = snap.dualpi2.get(c).copied().flatten().unwrap_or_default();
                        let [lq, cq] = q.class_stats_at(now);
                        let mean = |a: &DualPi2ClassStats, a0: &DualPi2ClassStats| {
                            (a.occupancy.packet_ns - a0.occupancy.packet_ns) as f64 / window_ns as f64
                        };
                        DualPi2QueueResult {
                            l_marks_ecn: lq.marks_ecn - lq0.marks_ecn,
                            c_marks_ecn: cq.marks_ecn - cq0.marks_ecn,
                            l_drops_early: lq.drops_early - lq0.drops_early,
                            c_drops_early: cq.drops_early - cq0.drops_early,
                            l_bytes_served: lq.bytes_served - lq0.bytes_served,
                            c_bytes_served: cq.bytes_served - cq0.bytes_served,
                            l_queue_mean_pkts: mean(&lq, &lq0),
                            c_queue_mean_pkts: mean(&cq, &cq0),
                        }
                    }),
                }
            })
            .collect();
        let dropped: u64 = self.net.channels.iter().map(|c| c.counters.drops_queue + c.counters.drops_error).sum();
        let inside = self.net.packets_inside(&self.pool).count() as u64;
        let created = self.pool.created;
        if created != self.packets_delivered + dropped + inside || inside != self.pool.live() as u64 {
            return Err(format!(
                "packet conservation violated: created {created}, delivered {}, dropped {dropped}, \
                 inside the network {inside}, live in the pool {}",
                self.packets_delivered,
                self.pool.live()
            ));
        }
        let udp_flows = self
            .udp
            .iter()
            .zip(&self.udp_received)
            .enumerate()
            .map(|(i, (s, r))| {
                let u0 = snap.udp.get(i).copied().unwrap_or_default();
                let received = r.bytes_received - u0.bytes_received;
                UdpFlowResult {
                    id: i as u32,
                    packets_sent: s.counters.packets_sent - u0.packets_sent,
                    bytes_sent: s.counters.bytes_sent - u0.bytes_sent,
                    packets_received: r.packets_received - u0.packets_received,
                    bytes_received: received,
                    throughput_bps: received as f64 * 8.0 / window_s,
                }
            })
            .collect();
        let window = |i: usize| WindowCounts {
            packets_sent: self.flows[i].sender.counters().packets_sent
                - snap.senders.get(i).map_or(0, |s| s.packets_sent),
            bytes_delivered: self.flows[i].receiver.counters.bytes_delivered
                - snap.receivers.get(i).map_or(0, |r| r.bytes_delivered),
            packets_dropped: self.net.data_drops[i] - snap.data_drops.get(i).copied().unwrap_or_default(),
        };
        Ok(RunSummary {
            flows,
            udp_flows,
            web: self.web.results(window, self.warmup_ns, window_s),
            channels,
            events: self.sched.events,
            sim_ns: now,
            window_ns,
            packets_created: created,
            packets_delivered: self.packets_delivered,
            packets_dropped: dropped,
            packets_in_network: inside,
            packets_stale: self.packets_stale,
            connection_slots: self.web.slot_count() as u64,
            trace_truncated: self.trace.truncated_at_ns().is_some(),
            trace_truncated_at_s: self.trace.truncated_at_ns().map(ns_to_s),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{QueueConfig, RdConfig, RedConfig, SimConfig};
    use crate::results::RunSummary;
    use crate::sim::Sim;

    /// A busy mixed scenario: every recovery algorithm and congestion controller, a CBR
    /// source, random, bursty and scheduled losses in both directions, finite and persistent
    /// transfers, a warm-up and every trace.
    fn mixed() -> SimConfig {
        let tcp = |recovery: &str, cc: &str, delack: u32| {
            format!(
                r#"{{"mss_bytes": 1000, "header_bytes": 40, "init_cwnd_segments": 2, "init_ssthresh_bytes": 1073741824,
                "rwnd_bytes": 1073741824, "initial_rto_ns": 1000000000, "min_rto_ns": 200000000,
                "max_rto_ns": 60000000000, "clock_granularity_ns": 1000000, "rtt_tick_ns": 0, "dupack_threshold": 3,
                "recovery": "{recovery}", "avoid_repeated_fast_retransmit": true, "cc": {cc},
                "ca_increment": "exact", "delack_count": {delack}, "delack_timeout_ns": 200000000}}"#
            )
        };
        let flow = |name: &str, recovery: &str, cc: &str, bytes: &str| {
            format!(
                r#"{{"name": "{name}", "src": 0, "dst": 3, "tcp": {},
                "app": {{"kind": "bulk", "start_ns": 0, "start_jitter_ns": 2000000000, "stop_ns": null, "bytes": {bytes}}}}}"#,
                tcp(recovery, cc, 2)
            )
        };
        let aimd = r#"{"kind": "aimd"}"#;
        let westwood = r#"{"kind": "westwood", "tau_ns": 500000000, "null_sample_divisor": 2, "filter": {"kind": "tustin"}, "ns3_fast_recovery": false}"#;
        let westwood_plus = r#"{"kind": "westwood_plus", "filter": {"kind": "two_stage_ewma"}, "min_window_ns": 50000000, "min_decrease_half": true, "ns3_fast_recovery": false}"#;
        let queue =
            |packets: u32| format!(r#"{{"kind": "drop_tail", "limit_packets": {packets}, "limit_bytes": null}}"#);
        let json = format!(
            r#"{{"duration_ns": 40000000000, "warmup_ns": 5000000000, "nodes": ["s", "r1", "r2", "d"],
            "links": [
              {{"name": "access", "a": 0, "b": 1, "rate_bps": 100000000, "delay_ns": 2000000,
                "ab": {{"queue": {q1000}}}, "ba": {{"queue": {q1000}}}}},
              {{"name": "bottleneck", "a": 1, "b": 2, "rate_bps": 5000000, "delay_ns": 20000000,
                "ab": {{"queue": {q30}, "loss": [{{"kind": "bernoulli", "p": 0.002}},
                                                 {{"kind": "periodic_outage", "period_ns": 7000000000, "duration_ns": 100000000, "offset_ns": 1000000000}}]}},
                "ba": {{"queue": {q30}, "loss": [{{"kind": "gilbert_elliott", "good_mean_ns": 2000000000, "bad_mean_ns": 200000000,
                                                 "good_loss": 0.0, "bad_loss": 0.2, "initial": "stationary"}}]}}}},
              {{"name": "egress", "a": 2, "b": 3, "rate_bps": 100000000, "delay_ns": 2000000,
                "ab": {{"queue": {q1000}, "loss": [{{"kind": "bit_error", "ber": 0.000001}}]}}, "ba": {{"queue": {q1000}}}}}],
            "flows": [{}, {}, {}, {}, {}, {}],
            "udp_flows": [{{"name": "cbr", "src": 0, "dst": 3, "rate_bps": 1000000, "packet_bytes": 500,
                           "on": [[3000000000, 20000000000]]}}],
            "trace": {{"cwnd": true, "rtt": true, "queue": true, "interval_ns": 0, "throughput_bin_ns": 1000000000}}}}"#,
            flow("tahoe", "tahoe", aimd, "null"),
            flow("reno", "reno", aimd, "2000000"),
            flow("newreno", "newreno", aimd, "null"),
            flow("sack", "sack", aimd, "null"),
            flow("westwood", "reno", westwood, "null"),
            flow("westwood_plus", "newreno", westwood_plus, "null"),
            q1000 = queue(1000),
            q30 = queue(30),
        );
        serde_json::from_str(&json).expect("valid canonical scenario")
    }

    /// RED in packet mode with ns-2's thresholds (5, 15), max_p 0.1, w_q 0.002, gentle.
    fn red_queue(limit_packets: u64, mean_packet_bytes: u32, ecn: bool) -> QueueConfig {
        QueueConfig::Red(RedConfig { ecn, ..crate::queue::ns2_classic_red(limit_packets, mean_packet_bytes) })
    }

    /// RD with a 30-packet buffer, k = 1, D 10 %, recalculated every 100 ms, 64 counter slots, a
    /// counting window of 1 s + 2 × the class's queueing delay (the scenario layer's default).
    fn rd_queue() -> QueueConfig {
        QueueConfig::Rd(RdConfig {
            limit_packets: Some(30),
            limit_bytes: None,
            k: 1.0,
            d_share: Some(0.1),
            d_delay_bound_ns: None,
            interval_ns: 100_000_000,
            counter_slots: 64,
            counter_timeout_ns: 1_000_000_000,
            counter_delay_multiple: 2.0,
        })
    }

    /// How a test runs transmission ends and arrivals.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Ends {
        /// Every transmission end is an event (and no packet is handed over).
        Events,
        /// Links run their own ends; every arrival is an event.
        ByLinks,
        /// Links run their own ends and hand packets over where they can (the default).
        ByLinksWithHandovers,
        /// As `ByLinksWithHandovers`, but routers look every hop up when the packet arrives.
        HopsOnArrival,
    }

    /// The summary of `cfg` run with `seed`, the events run, and the queue trace's rows.
    fn run_summary(cfg: &SimConfig, seed: u64, ends: Ends) -> (serde_json::Value, u64, Vec<(u64, u32, u64)>) {
        let mut sim = Sim::new(cfg, seed).unwrap();
        match ends {
            Ends::Events => sim.net.set_eager(),
            Ends::ByLinks => sim.net.forbid_handovers(),
            Ends::ByLinksWithHandovers => {}
            Ends::HopsOnArrival => sim.net.forbid_hops_ahead(),
        }
        sim.run();
        let mut summary = serde_json::to_value(sim.summary().expect("packet conservation holds")).unwrap();
        let events = summary["events"].take().as_u64().unwrap();
        let q = &sim.trace.queue;
        let rows = (0..q.time_ns.len()).map(|i| (q.time_ns[i], q.channel[i], q.packets[i])).collect();
        (summary, events, rows)
    }

    #[test]
    fn results_are_the_same_whether_links_run_their_transmission_ends_or_the_heap_does() {
        let mut cfg = mixed();
        cfg.trace.interval_ns = 50_000_000;
        let red = red_queue(30, 1000, false);
        for queue in [None, Some(red), Some(rd_queue())] {
            let mut cfg = cfg.clone();
            if let Some(q) = &queue {
                cfg.links[1].ab.queue = q.clone();
            }
            let (lazy, lazy_events, lazy_rows) = run_summary(&cfg, 3, Ends::ByLinks);
            let (eager, eager_events, eager_rows) = run_summary(&cfg, 3, Ends::Events);
            assert_eq!(lazy, eager, "{queue:?}");
            assert_eq!(lazy_rows, eager_rows, "{queue:?}");
            assert!(lazy_rows.len() > 1000 && lazy["packets_dropped"].as_u64() > Some(0));
            assert!(lazy_events < eager_events * 9 / 10, "{lazy_events} events, {eager_events} eager");
        }
    }

    #[test]
    fn results_are_the_same_whether_packets_are_handed_over_or_arrive_by_event() {
        // On the line s–r1–r2–d every hop after the first is fed by one channel alone, so
        // packets are handed over twice each way: from the warm-up's end on (the packets then
        // propagating are handed over first), or from the start without a warm-up.
        for warmup_ns in [5_001_000_000, 0] {
            for queue in [None, Some(red_queue(30, 1000, true)), Some(rd_queue())] {
                let mut cfg = mixed();
                (cfg.warmup_ns, cfg.trace.queue, cfg.trace.interval_ns) = (warmup_ns, false, 0);
                if let Some(q) = &queue {
                    cfg.links[1].ab.queue = q.clone();
                }
                let run = |ends| {
                    let mut sim = Sim::new(&cfg, 11).unwrap();
                    if ends == Ends::ByLinks {
                        sim.net.forbid_handovers();
                    }
                    sim.run();
                    let mut summary = serde_json::to_value(sim.summary().expect("packet conservation holds")).unwrap();
                    let events = summary["events"].take().as_u64().unwrap();
                    let (c, r) = (&sim.trace.cwnd, &sim.trace.rtt);
                    let traces = (c.time_ns.clone(), c.cwnd_bytes.clone(), r.time_ns.clone(), r.rtt_ns.clone());
                    (summary, events, traces, sim.trace.delivered_bins.clone())
                };
                let (arrivals, arrival_events, arrival_traces, arrival_bins) = run(Ends::ByLinks);
                let (handed, handed_events, handed_traces, handed_bins) = run(Ends::ByLinksWithHandovers);
                assert_eq!(handed, arrivals, "warm-up {warmup_ns}, {queue:?}");
                assert!(handed_traces == arrival_traces && handed_bins == arrival_bins, "{queue:?}");
                assert!(arrival_traces.0.len() > 1000 && handed["packets_dropped"].as_u64() > Some(100));
                // Two of the three arrivals of every packet become hand-overs.
                assert!(handed_events < arrival_events * 7 / 10, "{handed_events} events, {arrival_events} without");
            }
        }
    }

    #[test]
    fn a_web_server_beside_the_path_keeps_its_hop_from_taking_hand_overs() {
        // A web server w on r2 sends to d: r2→d is fed by the bottleneck and by w's link, so
        // packets reach it by events; r1→s still takes hand-overs. Leaving the web connections
        // out of the routes that find hand-overs would hand the bottleneck's packets to r2→d
        // ahead of w's, and change the results.
        let mut cfg = serde_json::to_value(mixed()).unwrap();
        cfg["nodes"].as_array_mut().unwrap().push("w".into());
        let mut web_link = cfg["links"][2].clone();
        (web_link["name"], web_link["a"], web_link["b"]) = ("web".into(), 4.into(), 2.into());
        web_link["ab"]["loss"] = serde_json::json!([]);
        cfg["links"].as_array_mut().unwrap().push(web_link);
        cfg["web"] = serde_json::json!([{
            "name": "w", "class": "newreno", "server": 4, "clients": [3], "direction": "download",
            "tcp": cfg["flows"][2]["tcp"].clone(),
            "arrivals": {"process": "poisson", "rate_per_s": 20.0},
            "sizes": {"dist": "pareto", "mean_bytes": 30000, "shape": 1.3},
            "start_ns": 0, "stop_ns": null
        }]);
        (cfg["warmup_ns"], cfg["trace"]["queue"]) = (0.into(), false.into());
        let cfg: SimConfig = serde_json::from_value(cfg).unwrap();
        let (handed, handed_events, _) = run_summary(&cfg, 5, Ends::ByLinksWithHandovers);
        let (arrivals, arrival_events, _) = run_summary(&cfg, 5, Ends::ByLinks);
        assert_eq!(handed, arrivals);
        assert!(handed["web"][0]["transfers_completed"].as_u64() > Some(100), "{}", handed["web"]);
        assert!(handed_events < arrival_events * 9 / 10, "{handed_events} events, {arrival_events} without");
    }

    #[test]
    fn fq_codel_overflow_evictions_conserve_packets_and_repeat_whichever_way_ends_run() {
        // A 30-packet FQ-CoDel on the mixed bottleneck: six TCP flows and the CBR overflow it,
        // so packets are evicted from the fattest sub-queue at enqueue besides CoDel's drops.
        let mut cfg = mixed();
        cfg.links[1].ab.queue = QueueConfig::FqCodel(crate::queue::FqCodelConfig {
            limit_packets: 30,
            flows: 1024,
            quantum_bytes: 1514,
            drop_batch_size: 64,
            target_ns: 5_000_000,
            interval_ns: 100_000_000,
            ecn: false,
            mtu_bytes: 1514,
            maxpacket_backlog: Default::default(),
            classifier: crate::queue::FlowClassifier::Hash,
        });
        let (lazy, _, lazy_rows) = run_summary(&cfg, 3, Ends::ByLinks);
        let (eager, _, eager_rows) = run_summary(&cfg, 3, Ends::Events);
        assert_eq!(lazy, eager);
        assert_eq!(lazy_rows, eager_rows);
        let neck = &lazy["channels"][2];
        let (early, all) = (neck["drops_early"].as_u64().unwrap(), neck["drops_queue"].as_u64().unwrap());
        assert!(early > 0 && all > early, "CoDel drops and evictions: {neck}");
        assert!(neck["queue_max_pkts"].as_u64() <= Some(30), "{neck}");
        assert_ne!(lazy, run_summary(&cfg, 4, Ends::ByLinks).0);
    }

    #[test]
    fn ecmp_results_are_the_same_whether_packets_are_handed_over_or_arrive_by_event() {
        // The mixed scenario's bottleneck becomes two equal paths r1–m1–r2 and r1–m2–r2. A flow
        // hash is known before a packet reaches r1, so r1's hops still take hand-overs; a
        // sprayer draws when the packet arrives, so they do not, but m1→r2 and m2→r2 do.
        let mut cfg = serde_json::to_value(mixed()).unwrap();
        cfg["nodes"].as_array_mut().unwrap().extend(["m1".into(), "m2".into()]);
        let links = cfg["links"].as_array_mut().unwrap();
        let bottleneck = links.remove(1);
        for (l, (name, a, b)) in
            [("r1-m1", 1, 4), ("m1-r2", 4, 2), ("r1-m2", 1, 5), ("m2-r2", 5, 2)].into_iter().enumerate()
        {
            let mut link = bottleneck.clone();
            (link["name"], link["a"], link["b"]) = (name.into(), a.into(), b.into());
            links.insert(1 + l, link);
        }
        (cfg["trace"]["queue"], cfg["trace"]["interval_ns"]) = (false.into(), 0.into());
        for select in ["flow_hash", "packet_spray"] {
            cfg["routing"] = serde_json::json!({"mode": "ecmp", "select": select});
            for warmup_ns in [5_001_000_000u64, 0] {
                cfg["warmup_ns"] = warmup_ns.into();
                let cfg: SimConfig = serde_json::from_value(cfg.clone()).unwrap();
                let (handed, handed_events, _) = run_summary(&cfg, 11, Ends::ByLinksWithHandovers);
                let (arrivals, arrival_events, _) = run_summary(&cfg, 11, Ends::ByLinks);
                let (eager, _, _) = run_summary(&cfg, 11, Ends::Events);
                let (on_arrival, _, _) = run_summary(&cfg, 11, Ends::HopsOnArrival);
                assert_eq!(handed, arrivals, "{select}, warm-up {warmup_ns}");
                assert_eq!(handed, on_arrival, "{select}, warm-up {warmup_ns}: hops found ahead");
                assert_eq!(eager, arrivals, "{select}, warm-up {warmup_ns}");
                assert!(handed_events < arrival_events * 9 / 10, "{handed_events} events, {arrival_events} without");
                // Both paths carry data: r1→m1 is link 1's a→b, r1→m2 link 3's.
                let sent = |channel: usize| handed["channels"][channel]["tx_packets"].as_u64().unwrap();
                assert!(sent(2) > 1000 && sent(6) > 1000, "{select}: {} and {} packets", sent(2), sent(6));
            }
        }
        // Shortest-path routing takes the lower-numbered link alone.
        cfg["routing"] = serde_json::json!({"mode": "shortest"});
        let (shortest, _, _) = run_summary(&serde_json::from_value(cfg).unwrap(), 11, Ends::ByLinksWithHandovers);
        assert_eq!(shortest["channels"][6]["tx_packets"], 0);
    }

    /// Node r (1) forwards four bulk flows from s (0) to two 10 Mb/s ports, r→d1 and r→d2,
    /// with a 1000-packet queue each; `shared` makes r's ports share 60 000 bytes with α = 1.
    fn two_ports(shared: bool, flows_to_d2: usize) -> SimConfig {
        let mut cfg = serde_json::to_value(mixed()).unwrap();
        let flow = cfg["flows"][2].clone();
        let link = |name: &str, a: u32, b: u32, rate_bps: u64| {
            let queue = serde_json::json!({"kind": "drop_tail", "limit_packets": 1000, "limit_bytes": null});
            serde_json::json!({"name": name, "a": a, "b": b, "rate_bps": rate_bps, "delay_ns": 5_000_000,
                               "ab": {"queue": queue}, "ba": {"queue": queue}})
        };
        cfg["nodes"] = serde_json::json!(["s", "r", "d1", "d2"]);
        cfg["links"] = serde_json::json!([
            link("in", 0, 1, 1_000_000_000),
            link("p1", 1, 2, 10_000_000),
            link("p2", 1, 3, 10_000_000)
        ]);
        cfg["flows"] = (0..4)
            .map(|i| {
                let mut f = flow.clone();
                f["name"] = format!("f{i}").into();
                f["dst"] = if i < 4 - flows_to_d2 { 2 } else { 3 }.into();
                f["app"]["bytes"] = serde_json::Value::Null;
                f
            })
            .collect();
        (cfg["udp_flows"], cfg["duration_ns"], cfg["warmup_ns"]) =
            (serde_json::json!([]), 20_000_000_000u64.into(), 2_000_000_000u64.into());
        if shared {
            cfg["shared_buffers"] = serde_json::json!([{"node": 1, "size_bytes": 60_000, "alpha": 1.0}]);
        }
        serde_json::from_value(cfg).unwrap()
    }

    #[test]
    fn a_shared_buffer_holds_each_port_below_its_dynamic_threshold() {
        // Data packets are 1040 wire bytes. A port stays below αB/(1 + α) = 30 000 bytes
        // whatever the others hold: 29 packets, the 29th admitted at 28 · 1040 = 29 120 <
        // 60 000 − 29 120, and none at 29 · 1040 = 30 160. Alone it reaches that bound; beside
        // a second congested port the threshold falls as the other queue grows (both near B/3
        // when both are full), so its queue is shorter on average. Without the pool, each port
        // fills its own 1000-packet queue far beyond that.
        let (alone, _, _) = run_summary(&two_ports(true, 0), 3, Ends::ByLinksWithHandovers);
        let p1 = &alone["channels"][2];
        assert_eq!(p1["queue_max_pkts"].as_u64(), Some(29), "{p1}");
        assert!(p1["drops_shared_buffer"].as_u64() > Some(0), "{p1}");
        assert_eq!(p1["drops_shared_buffer"], p1["drops_queue"]);
        assert_eq!(alone["channels"][1]["drops_shared_buffer"], 0, "r's port back to s is in the pool");
        assert!(alone["channels"][0].get("drops_shared_buffer").is_none(), "s's port has its own memory");
        let (both, _, _) = run_summary(&two_ports(true, 2), 3, Ends::ByLinksWithHandovers);
        for port in [&both["channels"][2], &both["channels"][4]] {
            assert!(port["queue_max_pkts"].as_u64() <= Some(29), "{port}");
            assert!(port["drops_shared_buffer"].as_u64() > Some(0), "{port}");
            let mean = |p: &serde_json::Value| p["queue_mean_bytes"].as_f64().unwrap();
            assert!(mean(port) < 0.8 * mean(p1), "{port} against {p1}");
        }
        let (own, _, _) = run_summary(&two_ports(false, 2), 3, Ends::ByLinksWithHandovers);
        assert!(own["channels"][2]["queue_max_pkts"].as_u64() > Some(100), "{}", own["channels"][2]);
        assert!(own["channels"][2].get("drops_shared_buffer").is_none());
    }

    #[test]
    fn shared_buffer_results_are_the_same_whichever_way_ends_and_arrivals_run() {
        let cfg = two_ports(true, 2);
        let (handed, _, _) = run_summary(&cfg, 7, Ends::ByLinksWithHandovers);
        let (lazy, _, lazy_rows) = run_summary(&cfg, 7, Ends::ByLinks);
        let (eager, _, eager_rows) = run_summary(&cfg, 7, Ends::Events);
        assert_eq!(handed, lazy);
        assert_eq!(lazy, eager);
        assert_eq!(lazy_rows, eager_rows);
    }

    #[test]
    fn a_node_given_two_shared_buffers_is_refused() {
        let mut cfg = two_ports(true, 0);
        cfg.shared_buffers.push(cfg.shared_buffers[0].clone());
        let error = Sim::new(&cfg, 1).err().unwrap();
        assert_eq!(error, "shared_buffers[1].node: node 1 already has a shared buffer");
        cfg.shared_buffers[1].node = 9;
        assert_eq!(Sim::new(&cfg, 1).err().unwrap(), "shared_buffers[1].node: 9 must be a node < 4");
    }

    #[test]
    fn a_busy_mixed_run_conserves_packets_and_every_flow_makes_progress() {
        let mut sim = Sim::new(&mixed(), 7).unwrap();
        sim.run();
        let s = sim.summary().expect("packet conservation holds");
        assert!(s.packets_dropped > 0, "the scenario exercises losses");
        for f in &s.flows {
            assert!(f.bytes_delivered > 0, "flow {} delivered nothing", f.id);
            assert_eq!(f.spurious_fast_retransmits, 0, "flow {}", f.id);
        }
        assert!(s.udp_flows[0].packets_received > 0);
        assert!(s.flows[1].bytes_delivered <= 2_000_000, "a finite transfer stops at its size");
    }

    #[test]
    fn a_saturated_link_is_busy_throughout_a_window_shorter_than_one_packet() {
        // 5 Mb/s serializes a 1040-byte packet in 1.664 ms; the window is 10 µs.
        let mut cfg = mixed();
        cfg.warmup_ns = 20_000_000_000;
        cfg.duration_ns = cfg.warmup_ns + 10_000;
        let mut sim = Sim::new(&cfg, 7).unwrap();
        sim.run();
        let s = sim.summary().unwrap();
        let bottleneck = &s.channels[2];
        assert_eq!(bottleneck.rate_bps, 5_000_000);
        assert!(bottleneck.queue_mean_pkts > 1.0, "the bottleneck is saturated");
        assert_eq!(bottleneck.utilization, 1.0);
    }

    #[test]
    fn throughput_bins_that_cannot_be_allocated_are_an_error() {
        let mut cfg = mixed();
        cfg.trace.throughput_bin_ns = 1;
        cfg.duration_ns = crate::config::MAX_TIME_NS;
        let error = Sim::new(&cfg, 7).err().expect("10^18 bins per flow cannot be allocated");
        assert!(error.starts_with("trace.throughput_bin_ns: "), "{error}");
    }

    #[test]
    fn a_full_trace_stops_sampling_and_changes_no_summary() {
        let run = |max_rows| {
            let mut cfg = mixed();
            (cfg.trace.interval_ns, cfg.trace.max_rows) = (1_000_000, max_rows);
            let mut sim = Sim::new(&cfg, 7).unwrap();
            sim.run();
            (sim.summary().unwrap(), sim.trace)
        };
        let (full, full_trace) = run(crate::config::DEFAULT_MAX_TRACE_ROWS);
        let (capped, capped_trace) = run(1_000);
        assert!(!full.trace_truncated && full.trace_truncated_at_s.is_none());
        assert!(capped.trace_truncated);
        let rows = |t: &crate::trace::Trace| t.cwnd.time_ns.len() + t.rtt.time_ns.len() + t.queue.time_ns.len();
        assert_eq!(rows(&capped_trace), 1_000);
        assert!(rows(&full_trace) > 100_000);
        let at_ns = capped_trace.truncated_at_ns().unwrap();
        assert_eq!(capped.trace_truncated_at_s, Some(at_ns as f64 / 1e9));
        assert_eq!(capped_trace.cwnd.time_ns[..], full_trace.cwnd.time_ns[..capped_trace.cwnd.time_ns.len()]);
        assert!(capped.events < full.events, "no sampling events after the trace is full");
        let tables = |s: &crate::results::RunSummary| {
            serde_json::to_string(&(&s.flows, &s.channels, &s.udp_flows, s.packets_created)).unwrap()
        };
        assert_eq!(tables(&capped), tables(&full));
    }

    #[test]
    fn a_stop_request_ends_the_run_at_the_next_check() {
        let mut sim = Sim::new(&mixed(), 7).unwrap();
        let mut asked = 0;
        let finished = sim.run_unless_stopped(|| {
            asked += 1;
            asked == 2
        });
        assert!(!finished);
        assert_eq!(sim.sched.events, 2 * super::STOP_CHECK_EVENTS as u64);
        let mut never = Sim::new(&mixed(), 7).unwrap();
        assert!(never.run_unless_stopped(|| false));
        assert_eq!(never.sched.now(), 40_000_000_000);
    }

    /// Four NewReno flows (1000-byte segments, delayed ACKs) over a 10 Mb/s, 10 ms bottleneck
    /// with a RED queue (min_th 5, max_th 15 packets, max_p 0.1, w_q 0.002, gentle, 200-packet
    /// buffer), 40 s with 10 s of warm-up; `ecn` for the flows and the queue.
    fn red_dumbbell(ecn: bool) -> SimConfig {
        let mut cfg = mixed();
        cfg.udp_flows.clear();
        cfg.flows.truncate(4);
        for f in &mut cfg.flows {
            f.tcp = crate::tcp::tests::tcp_config(crate::config::RecoveryKind::Newreno, 2);
            f.tcp.ecn = ecn;
            f.app = crate::config::AppConfig::Bulk {
                start_ns: 0,
                start_jitter_ns: 1_000_000_000,
                stop_ns: None,
                bytes: None,
            };
        }
        for l in &mut cfg.links {
            l.ab.loss.clear();
            l.ba.loss.clear();
        }
        let bottleneck = &mut cfg.links[1];
        (bottleneck.rate_bps, bottleneck.delay_ns) = (10_000_000, 10_000_000);
        bottleneck.ab.queue = red_queue(200, 1040, ecn);
        (cfg.duration_ns, cfg.warmup_ns) = (40_000_000_000, 10_000_000_000);
        cfg
    }

    #[test]
    fn red_with_ecn_marks_instead_of_dropping_conserves_packets_and_repeats_per_seed() {
        let run = |ecn, seed| {
            let mut sim = Sim::new(&red_dumbbell(ecn), seed).unwrap();
            sim.run();
            sim.summary().expect("packet conservation holds")
        };
        let s = run(true, 5);
        let bottleneck = &s.channels[2];
        assert!(bottleneck.marks_ecn > 100, "{bottleneck:?}");
        assert_eq!(bottleneck.drops_queue, 0, "the average stays below the forced-drop region: {bottleneck:?}");
        assert!(
            (3.0..20.0).contains(&bottleneck.queue_mean_pkts),
            "RED holds the queue near its thresholds: {bottleneck:?}"
        );
        assert!(bottleneck.utilization > 0.9, "{bottleneck:?}");
        let ce: u64 = s.flows.iter().map(|f| f.ce_received).sum();
        assert!(ce > 0 && ce <= bottleneck.marks_ecn, "every CE segment was marked on the way: {ce}");
        for f in &s.flows {
            assert!(f.ecn_reductions > 0 && f.ecn_reductions <= f.ce_received, "{f:?}");
            assert_eq!((f.bytes_retransmitted, f.timeouts), (0, 0), "marks, not losses: {f:?}");
        }
        let json = |s: &RunSummary| serde_json::to_string(s).unwrap();
        assert_eq!(json(&s), json(&run(true, 5)), "bit-identical per seed");
        assert_ne!(json(&s), json(&run(true, 6)));
        let plain = run(false, 5);
        let bottleneck = &plain.channels[2];
        assert_eq!(bottleneck.marks_ecn, 0);
        assert!(bottleneck.drops_early > 0 && bottleneck.drops_early == bottleneck.drops_queue, "{bottleneck:?}");
        assert!(plain.flows.iter().all(|f| f.ecn_reductions == 0 && f.ce_received == 0));
    }

    /// The `mixed` scenario (every recovery and congestion control, CBR, losses, traces) with
    /// ECN on every flow and a byte-mode RED queue marking on the bottleneck: ECT segments are
    /// marked, the CBR datagrams and ACKs (not ECT) dropped early, and every invariant holds.
    #[test]
    fn ecn_flows_of_every_variant_over_byte_mode_red_conserve_packets_and_repeat_per_seed() {
        use crate::config::{QueueConfig, RedConfig, RedMode};
        let run = |seed| {
            let mut cfg = mixed();
            for f in &mut cfg.flows {
                f.tcp.ecn = true;
            }
            cfg.links[1].ab.queue = QueueConfig::Red(RedConfig {
                limit_packets: None,
                limit_bytes: Some(60_000),
                mode: RedMode::Byte,
                min_th: 5_000.0,
                max_th: 15_000.0,
                max_p: 0.1,
                w_q: 0.002,
                gentle: true,
                wait: false,
                mean_packet_bytes: 1040,
                ecn: true,
                mark_p: 1.0,
                count_bytes: false,
            });
            let mut sim = Sim::new(&cfg, seed).unwrap();
            sim.run();
            serde_json::to_string(&sim.summary().expect("packet conservation holds")).unwrap()
        };
        let first = run(3);
        assert_eq!(first, run(3));
        let s: serde_json::Value = serde_json::from_str(&first).unwrap();
        let bottleneck = &s["channels"][2];
        assert!(bottleneck["marks_ecn"].as_u64().unwrap() > 0, "{bottleneck}");
        assert!(bottleneck["drops_early"].as_u64().unwrap() > 0, "the CBR datagrams are not ECN-capable: {bottleneck}");
        let reductions: u64 =
            s["flows"].as_array().unwrap().iter().map(|f| f["ecn_reductions"].as_u64().unwrap()).sum();
        assert!(reductions > 0);
    }

    #[test]
    fn the_same_seed_gives_bit_identical_summaries_and_traces() {
        let run = |seed| {
            let mut sim = Sim::new(&mixed(), seed).unwrap();
            sim.run();
            (serde_json::to_string(&sim.summary().unwrap()).unwrap(), sim.trace.cwnd.cwnd_bytes.clone())
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3).0, run(4).0);
    }

    #[test]
    fn packets_of_the_previous_connection_in_a_reused_slot_are_discarded() {
        use crate::app::tests::{one_link, web, SLOW_START_FCT_NS};
        use crate::config::{ArrivalConfig, SizeConfig};
        use crate::context::Ctx;
        use crate::packet::{Packet, PacketKind};
        // Pareto gaps of shape 50 are at least 0.98 s: each transfer (0.3 s) is over before the
        // next one starts.
        let arrivals = ArrivalConfig::Pareto { rate_per_s: 1.0, shape: 50.0 };
        let g = web("w", 0, vec![1], arrivals, SizeConfig::Fixed { bytes: 14_000 });
        let mut sim = Sim::new(&one_link(g, 20 * 1_000_000_000), 1).unwrap();
        while sim.web.transfers.len() < 2 {
            let ev = sim.sched.pop_until(u64::MAX).unwrap();
            sim.dispatch(ev);
        }
        assert_eq!(sim.web.slot_count(), 1, "the second transfer reuses the first one's slot");
        let previous = sim.flows[0].sender.epoch() - 1;
        // From the previous connection: a segment claiming the whole transfer and an ACK of
        // the new connection's first round, both 50 ms early if they were taken.
        let mut data = Packet::new(PacketKind::Data, 0, 1, 14_000, 14_040);
        let mut ack = Packet::new(PacketKind::Ack, 0, 0, 0, 40);
        (data.epoch, ack.epoch, ack.ack) = (previous, previous, 2_000);
        let mut ctx = Ctx { sched: &mut sim.sched, net: &mut sim.net, pool: &mut sim.pool, trace: &mut sim.trace };
        ctx.transmit(0, data);
        ctx.transmit(1, ack);
        sim.run();
        let s = sim.summary().expect("the discarded packets count as delivered");
        assert_eq!(s.packets_stale, 2);
        let t = sim.transfers()[1];
        assert!(t.end_ns - t.start_ns >= SLOW_START_FCT_NS, "the new connection took neither");
    }
}
