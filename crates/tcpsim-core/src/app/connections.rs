//! The web generators' connections: every transfer is a new TCP connection (fresh cwnd, RTT
//! estimate and RTO, so it starts in slow start from the initial window), held in a slot of
//! the engine's flow table after the scenario's own flows. A slot is reclaimed once all its
//! data is acknowledged and reused by a later transfer of the same generator (a free list per
//! generator), so the table grows with the most transfers in progress at once, not with the
//! transfers of the run.
//!
//! A reused slot must not see what its previous connection left behind:
//! - timer events: the new connection's timers continue the old ones' generation counts, so an
//!   old retransmission or delayed-ACK event never matches (`TcpFlow::succeed`);
//! - packets still in flight (a spurious retransmission, the ACK it provokes): a connection
//!   stamps its packets with the slot's epoch, which moves on when the slot is reclaimed; the run
//!   loop discards a packet of another epoch at delivery (it still counts as delivered).
//!
//! A slot belongs to one generator for life, so its counters (packets sent, bytes delivered,
//! data packets dropped) accumulate over the connections it holds and a generator's totals are
//! sums over its slots.
//!
//! A transfer ends when its receiver holds all of its bytes in order: the flow completion time
//! runs from the transfer's first segment to its last byte's arrival (Dukkipati & McKeown, "Why
//! flow-completion time is the right metric for congestion control", SIGCOMM CCR 36(1), 2006).
//! With no handshake (docs/architecture.md, fidelity choices) it is one RTT shorter than a real
//! stack's. The slot is reclaimed later, when the sender has every byte acknowledged.
//!
//! A transfer's TCP counts (segments sent and resent, timeouts, fast retransmits) are its
//! connection's, from its start until its slot is reclaimed, or until the run's end for a
//! connection still open then: the slot's cumulative counters at both ends, subtracted.
//!
//! A barrier generator's round is the transfers one arrival started; when the last of them
//! ends, the generator is asked when its next round starts.

use super::web::WebGenerator;
use crate::config::WebConfig;
use crate::context::Ctx;
use crate::engine::MAX_COMPONENTS;
use crate::results::WebResult;
use crate::tcp::transmitter::SenderCounters;
use crate::tcp::TcpFlow;
use crate::time::ns_to_s;

/// One row of the transfers table.
#[derive(Clone, Copy, Debug)]
pub struct Transfer {
    pub generator: u32,
    /// The client served (with `all_to_all`: the sender).
    pub client: u32,
    pub src: u32,
    pub dst: u32,
    pub start_ns: u64,
    /// When the receiver held every byte (u64::MAX: not by the end of the run).
    pub end_ns: u64,
    pub bytes: u64,
    /// What its connection's sender did (see the module's header).
    pub tcp: TransferTcp,
}

/// A transfer's sender counts, over its connection's life (u32: a transfer's segments number
/// far below 2^32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransferTcp {
    /// Data segments put on the wire, retransmissions included.
    pub packets_sent: u32,
    /// Of those, retransmissions (fast, after a timeout, go-back-N).
    pub packets_retransmitted: u32,
    pub timeouts: u32,
    /// Fast-retransmit episodes.
    pub fast_retransmits: u32,
}

impl TransferTcp {
    /// The counts between two snapshots of one slot's cumulative counters.
    fn between(start: &SenderCounters, end: &SenderCounters) -> Self {
        let count = |f: fn(&SenderCounters) -> u64| u32::try_from(f(end) - f(start)).unwrap_or(u32::MAX);
        TransferTcp {
            packets_sent: count(|c| c.packets_sent),
            packets_retransmitted: count(|c| c.packets_retransmitted),
            timeouts: count(|c| c.timeouts),
            fast_retransmits: count(|c| c.fast_retransmits),
        }
    }
}

impl Transfer {
    pub fn completed(&self) -> bool {
        self.end_ns != u64::MAX
    }
}

/// What a connection slot counted inside the measurement window.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowCounts {
    pub packets_sent: u64,
    pub bytes_delivered: u64,
    pub packets_dropped: u64,
}

/// Which generator a slot serves, its current (or last) transfer, and the slot's cumulative
/// sender counters when that transfer started; `open` until the transfer's counts are taken.
struct Slot {
    generator: u32,
    transfer: usize,
    counters_at_start: SenderCounters,
    open: bool,
}

pub struct WebTraffic {
    pub generators: Vec<WebGenerator>,
    /// Flow index of slot 0: the scenario's own flows come first.
    first_flow: u32,
    slots: Vec<Slot>,
    /// Reclaimed slots of each generator, as flow indices.
    free: Vec<Vec<u32>>,
    /// Transfers of each barrier generator's current round not yet ended.
    round_open: Vec<usize>,
    pub transfers: Vec<Transfer>,
    /// Why a transfer could not start: an error of the run.
    pub error: Option<String>,
}

impl WebTraffic {
    pub fn new(cfgs: &[WebConfig], first_flow: u32, seed: u64) -> Self {
        WebTraffic {
            generators: cfgs.iter().map(|c| WebGenerator::new(c, seed)).collect(),
            first_flow,
            slots: Vec::new(),
            free: vec![Vec::new(); cfgs.len()],
            round_open: vec![0; cfgs.len()],
            transfers: Vec::new(),
            error: None,
        }
    }

    /// Flow index of the first connection slot (= the number of the scenario's own flows).
    #[inline]
    pub fn first_flow(&self) -> u32 {
        self.first_flow
    }

    /// Slots created: the most connections of each generator open at once, summed.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Generator `g`'s arrival now: start its next transfer (a barrier generator: one per
    /// client). Returns when its next arrival is due (a barrier generator's: none yet, it
    /// comes when the round ends, from `after_data`), and none if the flow table is full.
    pub fn arrive(&mut self, g: u32, series: u32, flows: &mut Vec<TcpFlow>, ctx: &mut Ctx) -> Option<u64> {
        let batch = self.generators[g as usize].batch();
        for _ in 0..batch {
            if !self.start_transfer(g, series, flows, ctx) {
                return None;
            }
        }
        let generator = &mut self.generators[g as usize];
        if generator.is_barrier() {
            self.round_open[g as usize] = batch;
            None
        } else {
            generator.after(ctx.now())
        }
    }

    /// Start generator `g`'s next transfer now: a new connection in one of its reclaimed slots
    /// or in a new slot, sending at once; its deliveries count in throughput series `series`.
    /// Returns false (and records the error) if the flow table is full or cannot grow.
    fn start_transfer(&mut self, g: u32, series: u32, flows: &mut Vec<TcpFlow>, ctx: &mut Ctx) -> bool {
        let generator = &mut self.generators[g as usize];
        let request = generator.request();
        let (src, dst) = (request.src, request.dst);
        let fresh = |flow| TcpFlow::connect(flow, src, dst, &generator.tcp, request.bytes);
        let transfer = self.transfers.len();
        // A forced run whose transfers outgrow memory (heavy-tailed sizes or arrivals) ends
        // with an error of the run when a table cannot grow, not with an allocation abort.
        let reused = self.free[g as usize].last().is_some();
        let room = self.transfers.try_reserve(1).is_ok()
            && (reused
                || (flows.try_reserve(1).is_ok()
                    && ctx.net.data_drops.try_reserve(1).is_ok()
                    && self.slots.try_reserve(1).is_ok()));
        if !room {
            let now = ctx.now();
            self.error.get_or_insert_with(|| {
                format!("web[{g}]: its transfers and open connections outgrow memory at {now} ns")
            });
            return false;
        }
        let flow = match self.free[g as usize].pop() {
            Some(flow) => {
                flows[flow as usize].succeed(fresh(flow));
                let counters_at_start = flows[flow as usize].sender.counters();
                self.slots[(flow - self.first_flow) as usize] =
                    Slot { generator: g, transfer, counters_at_start, open: true };
                flow
            }
            None if flows.len() < MAX_COMPONENTS => {
                let flow = flows.len() as u32;
                flows.push(fresh(flow));
                ctx.net.data_drops.push(0);
                let counters_at_start = SenderCounters::default();
                self.slots.push(Slot { generator: g, transfer, counters_at_start, open: true });
                flow
            }
            None => {
                let now = ctx.now();
                self.error.get_or_insert_with(|| {
                    format!("web[{g}]: more than {MAX_COMPONENTS} flows and open web connections at {now} ns")
                });
                return false;
            }
        };
        self.transfers.push(Transfer {
            generator: g,
            client: request.client,
            src,
            dst,
            start_ns: ctx.now(),
            end_ns: u64::MAX,
            bytes: request.bytes,
            tcp: TransferTcp::default(),
        });
        if let Some(pcap) = &mut ctx.trace.pcap {
            pcap.connect(flow, src, dst);
        }
        let connection = &mut flows[flow as usize];
        connection.receiver.series = series;
        connection.sender.start(ctx);
        true
    }

    /// Data reached the receiver of slot `flow`: its transfer ends when it holds every byte.
    /// Returns (generator, time) of a barrier generator's next round if this ended its round.
    #[inline]
    pub fn after_data(&mut self, flow: u32, connection: &TcpFlow, now_ns: u64) -> Option<(u32, u64)> {
        let t = &mut self.transfers[self.slots[(flow - self.first_flow) as usize].transfer];
        if t.completed() || connection.receiver.rcv_nxt < t.bytes {
            return None;
        }
        t.end_ns = now_ns;
        let g = t.generator;
        let generator = &mut self.generators[g as usize];
        if !generator.is_barrier() {
            return None;
        }
        let open = &mut self.round_open[g as usize];
        *open -= 1;
        if *open > 0 {
            return None;
        }
        generator.after(now_ns).map(|at| (g, at))
    }

    /// An ACK reached the sender of slot `flow`: once every byte is acknowledged the slot is
    /// reclaimed and the connection's packets still in flight become stale (so no later ACK
    /// of this connection gets here).
    #[inline]
    pub fn after_ack(&mut self, flow: u32, connection: &mut TcpFlow) {
        if connection.sender.all_acked() {
            connection.retire();
            self.close(flow, connection);
            let free = &mut self.free[self.slots[(flow - self.first_flow) as usize].generator as usize];
            debug_assert!(!free.contains(&flow), "slot {flow} reclaimed twice");
            free.push(flow);
        }
    }

    /// Slot `flow`'s transfer has its last counts: take them from its connection.
    fn close(&mut self, flow: u32, connection: &TcpFlow) {
        let slot = &mut self.slots[(flow - self.first_flow) as usize];
        debug_assert!(slot.open, "slot {flow} closed twice");
        slot.open = false;
        self.transfers[slot.transfer].tcp =
            TransferTcp::between(&slot.counters_at_start, &connection.sender.counters());
    }

    /// The run has ended: the transfers whose connections are still open take their counts
    /// so far (`flows` is the whole flow table).
    pub fn close_open(&mut self, flows: &[TcpFlow]) {
        for k in 0..self.slots.len() {
            if self.slots[k].open {
                let flow = self.first_flow + k as u32;
                self.close(flow, &flows[flow as usize]);
            }
        }
    }

    /// Per generator: the sums of its slots' `window` counts, and the transfers that started
    /// at or after `warmup_ns`: how many, how many completed, and their completion times.
    pub fn results(&self, window: impl Fn(usize) -> WindowCounts, warmup_ns: u64, window_s: f64) -> Vec<WebResult> {
        let mut totals = vec![(WindowCounts::default(), 0u64); self.generators.len()];
        for (k, slot) in self.slots.iter().enumerate() {
            let c = window(self.first_flow as usize + k);
            let (t, slots) = &mut totals[slot.generator as usize];
            t.packets_sent += c.packets_sent;
            t.bytes_delivered += c.bytes_delivered;
            t.packets_dropped += c.packets_dropped;
            *slots += 1;
        }
        let mut started = vec![0u64; self.generators.len()];
        let mut fcts = vec![Vec::new(); self.generators.len()];
        for t in self.transfers.iter().filter(|t| t.start_ns >= warmup_ns) {
            started[t.generator as usize] += 1;
            if t.completed() {
                fcts[t.generator as usize].push(ns_to_s(t.end_ns - t.start_ns));
            }
        }
        totals
            .into_iter()
            .zip(started)
            .zip(fcts)
            .enumerate()
            .map(|(g, (((c, slots), started), mut fct))| {
                fct.sort_by(f64::total_cmp);
                let stat = |f: fn(&[f64]) -> f64| (!fct.is_empty()).then(|| f(&fct));
                WebResult {
                    id: g as u32,
                    transfers_started: started,
                    transfers_completed: fct.len() as u64,
                    bytes_delivered: c.bytes_delivered,
                    throughput_bps: c.bytes_delivered as f64 * 8.0 / window_s,
                    packets_sent: c.packets_sent,
                    packets_dropped: c.packets_dropped,
                    fct_mean_s: stat(|v| v.iter().sum::<f64>() / v.len() as f64),
                    fct_median_s: stat(|v| quantile(v, 0.5)),
                    fct_p95_s: stat(|v| quantile(v, 0.95)),
                    connection_slots: slots,
                }
            })
            .collect()
    }
}

/// The `q`-quantile of non-empty sorted `v`, interpolating linearly between the order
/// statistics around rank q·(n − 1) (Hyndman & Fan's definition 7, numpy's default).
fn quantile(v: &[f64], q: f64) -> f64 {
    let rank = q * (v.len() - 1) as f64;
    let (low, high) = (rank.floor() as usize, rank.ceil() as usize);
    v[low] + (v[high] - v[low]) * (rank - low as f64)
}
