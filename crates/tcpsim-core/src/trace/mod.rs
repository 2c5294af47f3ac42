//! Time series, recorded only when the scenario asks for them, into columnar buffers that
//! reach Python as numpy arrays without conversion.
//!
//! The cwnd, rtt and queue traces hold at most `trace.max_rows` rows together, so a tiny
//! sampling interval cannot exhaust memory: past the cap rows are left out and the run says
//! so. Buffers grow with `try_reserve_exact`, so a failing allocation is an error of the run,
//! not an abort of the process.
//!
//! Packet captures (`trace.pcap`) are written to files as the run goes (`pcap`).

pub mod pcap;

use std::collections::TryReserveError;

use crate::config::TraceConfig;
use pcap::Pcap;

/// Rows a trace buffer first makes room for; later it doubles, up to what the cap allows.
const FIRST_RESERVE_ROWS: usize = 1024;

/// The columns of one trace, grown together.
trait Rows {
    fn len(&self) -> usize;
    /// Rows every column holds without reallocating.
    fn capacity(&self) -> usize;
    fn try_reserve_rows(&mut self, additional: usize) -> Result<(), TryReserveError>;
    /// Bytes one row takes over all columns.
    fn row_bytes(&self) -> usize;
}

fn element_bytes<T>(_: &Vec<T>) -> usize {
    size_of::<T>()
}

/// `Rows` for a trace struct, from its column names.
macro_rules! rows {
    ($trace:ty: $first:ident $(, $column:ident)*) => {
        impl Rows for $trace {
            fn len(&self) -> usize {
                self.$first.len()
            }
            fn capacity(&self) -> usize {
                self.$first.capacity()$(.min(self.$column.capacity()))*
            }
            fn try_reserve_rows(&mut self, additional: usize) -> Result<(), TryReserveError> {
                self.$first.try_reserve_exact(additional)?;
                $(self.$column.try_reserve_exact(additional)?;)*
                Ok(())
            }
            fn row_bytes(&self) -> usize {
                element_bytes(&self.$first)$( + element_bytes(&self.$column))*
            }
        }
    };
}

/// cwnd and ssthresh per flow, with the congestion controller's bandwidth estimate and the
/// sender's RTTmin at the same instant.
#[derive(Default)]
pub struct CwndTrace {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub cwnd_bytes: Vec<u64>,
    pub ssthresh_bytes: Vec<u64>,
    /// Bandwidth estimate, bits of payload per second (Westwood, Westwood+); NaN for
    /// algorithms without one (AIMD).
    pub bwe_bps: Vec<f64>,
    /// Smallest RTT sample so far, ns; 0 before the first.
    pub min_rtt_ns: Vec<u64>,
}
rows!(CwndTrace: time_ns, flow, cwnd_bytes, ssthresh_bytes, bwe_bps, min_rtt_ns);

/// Every Karn-valid RTT sample, with the estimator's state after it.
#[derive(Default)]
pub struct RttTrace {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub rtt_ns: Vec<u64>,
    pub srtt_ns: Vec<u64>,
    pub rto_ns: Vec<u64>,
}
rows!(RttTrace: time_ns, flow, rtt_ns, srtt_ns, rto_ns);

/// Queue length of link directions (`channel` = 2·link + direction, direction 0 = a→b).
#[derive(Default)]
pub struct QueueTrace {
    pub time_ns: Vec<u64>,
    pub channel: Vec<u32>,
    pub packets: Vec<u64>,
    pub bytes: Vec<u64>,
}
rows!(QueueTrace: time_ns, channel, packets, bytes);

/// The rows the cwnd, rtt and queue traces may still take together (`trace.max_rows`).
struct RowBudget {
    left: u64,
    /// Simulated time of the first row left out.
    truncated_at_ns: Option<u64>,
    /// A buffer that could not grow: the run is then an error.
    alloc_error: Option<String>,
}

impl RowBudget {
    /// Take one row for `t` at `now_ns`, growing `t` if it is full; false (and the row is
    /// left out) once the budget is spent or memory ran out.
    #[inline]
    fn take<T: Rows>(&mut self, t: &mut T, now_ns: u64) -> bool {
        if self.left == 0 {
            self.truncated_at_ns.get_or_insert(now_ns);
            return false;
        }
        if t.len() == t.capacity() && !self.grow(t, now_ns) {
            return false;
        }
        self.left -= 1;
        true
    }

    /// Double `t`'s room (at least `FIRST_RESERVE_ROWS`, at most what the budget has left).
    #[cold]
    #[inline(never)]
    fn grow<T: Rows>(&mut self, t: &mut T, now_ns: u64) -> bool {
        let rows = t.len().max(FIRST_RESERVE_ROWS).min(usize::try_from(self.left).unwrap_or(usize::MAX));
        match t.try_reserve_rows(rows) {
            Ok(()) => true,
            Err(e) => {
                self.alloc_error = Some(format!(
                    "trace.max_rows: growing a trace from {} to {} rows ({} bytes each) failed at {now_ns} ns ({e}); \
                     lower the cap or record fewer series",
                    t.len(),
                    t.len() as u128 + rows as u128,
                    t.row_bytes()
                ));
                self.left = 0;
                self.truncated_at_ns.get_or_insert(now_ns);
                false
            }
        }
    }
}

/// What is recorded and the buffers.
pub struct Trace {
    pub cwnd_on: bool,
    pub rtt_on: bool,
    pub queue_on: bool,
    /// Record cwnd/queue at every change (false: sampled every `interval_ns`).
    pub on_change: bool,
    pub interval_ns: u64,
    pub throughput_bin_ns: u64,
    /// Flows whose cwnd and RTT are traced: the scenario's own (0..traced_flows), not the
    /// web generators' connection slots, whose flow index changes owner.
    traced_flows: u32,
    pub cwnd: CwndTrace,
    pub rtt: RttTrace,
    pub queue: QueueTrace,
    /// Bytes delivered in order, `[series][bin]`: one series per flow, then one per web
    /// generator.
    pub delivered_bins: Vec<Vec<u64>>,
    budget: RowBudget,
    /// The packet captures, once their files are open (`Pcap::create`); None: no capture,
    /// and the engine's one test per transmission start fails.
    pub pcap: Option<Box<Pcap>>,
}

impl Trace {
    /// The buffers for a run of `flows` TCP flows and `generators` web generators; errors if
    /// the throughput bins cannot be allocated (the scenario layer refuses such runs first
    /// unless forced).
    pub fn new(cfg: &TraceConfig, flows: usize, generators: usize, duration_ns: u64) -> Result<Self, String> {
        let bins = if cfg.throughput_bin_ns > 0 { duration_ns.div_ceil(cfg.throughput_bin_ns) } else { 0 };
        let series = flows + generators;
        let mut delivered_bins = Vec::new();
        if bins > 0 {
            let too_big = || {
                format!(
                    "trace.throughput_bin_ns: {bins} bins for each of {series} flows and web generators ({} bytes) cannot be allocated",
                    (bins as u128) * (series as u128) * 8
                )
            };
            // The bins are written at once (zeroed): a hostile bin width must meet the rows budget
            // before any allocation, or an overcommitting OS grants the memory and the process is
            // killed while zeroing it.
            if bins as u128 * series as u128 > cfg.max_rows as u128 {
                return Err(format!(
                    "trace.throughput_bin_ns: {bins} bins for each of {series} flows and web generators are more than \
                     trace.max_rows ({}); widen the bins or raise the cap",
                    cfg.max_rows
                ));
            }
            let per_flow = usize::try_from(bins).map_err(|_| too_big())?;
            delivered_bins.try_reserve_exact(series).map_err(|_| too_big())?;
            for _ in 0..series {
                let mut flow_bins = Vec::new();
                flow_bins.try_reserve_exact(per_flow).map_err(|_| too_big())?;
                flow_bins.resize(per_flow, 0);
                delivered_bins.push(flow_bins);
            }
        }
        Ok(Trace {
            cwnd_on: cfg.cwnd,
            rtt_on: cfg.rtt,
            queue_on: cfg.queue,
            on_change: cfg.interval_ns == 0,
            interval_ns: cfg.interval_ns,
            throughput_bin_ns: cfg.throughput_bin_ns,
            traced_flows: flows as u32,
            cwnd: CwndTrace::default(),
            rtt: RttTrace::default(),
            queue: QueueTrace::default(),
            delivered_bins,
            budget: RowBudget { left: cfg.max_rows, truncated_at_ns: None, alloc_error: None },
            pcap: None,
        })
    }

    /// Whether every change of a queue's length is recorded as it happens.
    #[inline]
    pub fn records_queue_changes(&self) -> bool {
        self.queue_on && self.on_change
    }

    /// Simulated time of the first cwnd, rtt or queue row left out (cap reached or memory
    /// exhausted); None if every row was recorded.
    pub fn truncated_at_ns(&self) -> Option<u64> {
        self.budget.truncated_at_ns
    }

    /// Why a trace buffer could not grow, if one could not.
    pub fn alloc_error(&self) -> Option<&str> {
        self.budget.alloc_error.as_deref()
    }

    #[inline]
    pub fn record_cwnd(&mut self, now_ns: u64, flow: u32, cwnd: u64, ssthresh: u64, bwe_bps: f64, min_rtt_ns: u64) {
        let t = &mut self.cwnd;
        if flow >= self.traced_flows || !self.budget.take(t, now_ns) {
            return;
        }
        t.time_ns.push(now_ns);
        t.flow.push(flow);
        t.cwnd_bytes.push(cwnd);
        t.ssthresh_bytes.push(ssthresh);
        t.bwe_bps.push(bwe_bps);
        t.min_rtt_ns.push(min_rtt_ns);
    }

    #[inline]
    pub fn record_rtt(&mut self, now_ns: u64, flow: u32, rtt: u64, srtt: u64, rto: u64) {
        if self.rtt_on && flow < self.traced_flows {
            let t = &mut self.rtt;
            if !self.budget.take(t, now_ns) {
                return;
            }
            t.time_ns.push(now_ns);
            t.flow.push(flow);
            t.rtt_ns.push(rtt);
            t.srtt_ns.push(srtt);
            t.rto_ns.push(rto);
        }
    }

    #[inline]
    pub fn record_queue(&mut self, now_ns: u64, channel: u32, packets: u64, bytes: u64) {
        let t = &mut self.queue;
        if !self.budget.take(t, now_ns) {
            return;
        }
        t.time_ns.push(now_ns);
        t.channel.push(channel);
        t.packets.push(packets);
        t.bytes.push(bytes);
    }

    /// Count `bytes` delivered in order at `now_ns` to series `series` (a flow or a web
    /// generator).
    #[inline]
    pub fn record_delivery(&mut self, now_ns: u64, series: u32, bytes: u64) {
        if let Some(bin) = now_ns.checked_div(self.throughput_bin_ns) {
            let bins = &mut self.delivered_bins[series as usize];
            let last = bins.len() - 1;
            bins[(bin as usize).min(last)] += bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_bins_beyond_the_rows_budget_are_refused_before_any_allocation() {
        // 1 ns bins over 3 s for 3 flows: 9·10^9 bins, 72 GB if zeroed.
        let cfg = TraceConfig { throughput_bin_ns: 1, max_rows: 1_000_000, ..TraceConfig::default() };
        let err = Trace::new(&cfg, 3, 0, 3_000_000_000).err().expect("refused");
        assert!(err.starts_with("trace.throughput_bin_ns: 3000000000 bins for each of 3 flows"), "{err}");
        let fits = TraceConfig { throughput_bin_ns: 1_000_000_000, max_rows: 9, ..TraceConfig::default() };
        assert!(Trace::new(&fits, 3, 0, 3_000_000_000).is_ok(), "3 bins × 3 series = 9 rows fit");
    }

    fn trace(max_rows: u64) -> Trace {
        let cfg = TraceConfig { cwnd: true, rtt: true, queue: true, max_rows, ..TraceConfig::default() };
        Trace::new(&cfg, 1, 0, 1_000).unwrap()
    }

    /// Record one row in each of the cwnd, rtt and queue traces at times t, t + 1, t + 2 for
    /// t = 0, 3, 6, … (`rounds` times).
    fn record_rounds(t: &mut Trace, rounds: u64) {
        for r in 0..rounds {
            let now = 3 * r;
            t.record_cwnd(now, 0, 10 + r, 20 + r, f64::NAN, 5);
            t.record_rtt(now + 1, 0, 30 + r, 40 + r, 50 + r);
            t.record_queue(now + 2, 1, r, 100 * r);
        }
    }

    fn lengths(t: &Trace) -> [usize; 3] {
        [t.cwnd.time_ns.len(), t.rtt.time_ns.len(), t.queue.time_ns.len()]
    }

    #[test]
    fn the_cap_counts_rows_of_all_three_traces_and_stops_exactly_at_it() {
        let mut t = trace(10);
        record_rounds(&mut t, 5);
        assert_eq!(lengths(&t), [4, 3, 3], "rows 1..=10 in the order recorded: c r q c r q c r q c");
        assert_eq!(t.truncated_at_ns(), Some(10), "the 11th row, rtt at 3·3 + 1 ns, was the first left out");
        let c = &t.cwnd;
        for column in [c.flow.len(), c.cwnd_bytes.len(), c.ssthresh_bytes.len(), c.bwe_bps.len(), c.min_rtt_ns.len()] {
            assert_eq!(column, 4, "every column of a trace stops at the same row");
        }
        assert_eq!(c.cwnd_bytes, [10, 11, 12, 13]);
        assert_eq!(t.rtt.rto_ns.len(), 3);
        assert_eq!(t.queue.bytes, [0, 100, 200]);
        assert_eq!(t.alloc_error(), None);
    }

    #[test]
    fn below_or_at_the_cap_every_row_is_recorded() {
        let mut t = trace(15);
        record_rounds(&mut t, 5);
        assert_eq!(lengths(&t), [5, 5, 5]);
        assert_eq!(t.truncated_at_ns(), None);
        assert_eq!(t.rtt.srtt_ns, [40, 41, 42, 43, 44]);
        assert_eq!(t.queue.time_ns, [2, 5, 8, 11, 14]);
        t.record_queue(99, 0, 0, 0);
        assert_eq!(t.truncated_at_ns(), Some(99), "the 16th row is over the cap");
    }

    #[test]
    fn buffers_never_make_room_for_more_rows_than_the_cap() {
        let mut t = trace(3_000);
        for now in 0..5_000 {
            t.record_cwnd(now, 0, 1, 1, 0.0, 0);
        }
        assert_eq!(t.cwnd.time_ns.len(), 3_000);
        assert!(t.cwnd.bwe_bps.capacity() <= 3_000, "capacity {}", t.cwnd.bwe_bps.capacity());
        assert_eq!(t.truncated_at_ns(), Some(3_000));
    }

    /// A trace whose buffers can never grow.
    struct Unallocatable;

    impl Rows for Unallocatable {
        fn len(&self) -> usize {
            0
        }
        fn capacity(&self) -> usize {
            0
        }
        fn try_reserve_rows(&mut self, _: usize) -> Result<(), TryReserveError> {
            Vec::<u64>::new().try_reserve(usize::MAX).map(|_| ())
        }
        fn row_bytes(&self) -> usize {
            8
        }
    }

    #[test]
    fn a_buffer_that_cannot_grow_is_an_error_and_stops_recording() {
        let mut budget = RowBudget { left: 10, truncated_at_ns: None, alloc_error: None };
        assert!(!budget.take(&mut Unallocatable, 7));
        let error = budget.alloc_error.clone().expect("the failure is kept for the summary");
        assert!(
            error.starts_with("trace.max_rows: growing a trace from 0 to 10 rows (8 bytes each) failed at 7 ns"),
            "{error}"
        );
        assert_eq!((budget.left, budget.truncated_at_ns), (0, Some(7)));
    }
}
