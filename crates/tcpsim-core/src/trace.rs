//! Time series, recorded only when the scenario asks for them, into columnar buffers that
//! reach Python as numpy arrays without conversion.

use crate::config::TraceConfig;

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

/// Every Karn-valid RTT sample, with the estimator's state after it.
#[derive(Default)]
pub struct RttTrace {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub rtt_ns: Vec<u64>,
    pub srtt_ns: Vec<u64>,
    pub rto_ns: Vec<u64>,
}

/// Queue length of link directions (`channel` = 2·link + direction, direction 0 = a→b).
#[derive(Default)]
pub struct QueueTrace {
    pub time_ns: Vec<u64>,
    pub channel: Vec<u32>,
    pub packets: Vec<u64>,
    pub bytes: Vec<u64>,
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
    pub cwnd: CwndTrace,
    pub rtt: RttTrace,
    pub queue: QueueTrace,
    /// Bytes delivered in order, `[flow][bin]`.
    pub delivered_bins: Vec<Vec<u64>>,
}

impl Trace {
    /// The buffers for a run of `flows` TCP flows; errors if the throughput bins cannot be
    /// allocated (the scenario layer refuses such runs first unless forced).
    pub fn new(cfg: &TraceConfig, flows: usize, duration_ns: u64) -> Result<Self, String> {
        let bins = if cfg.throughput_bin_ns > 0 { duration_ns.div_ceil(cfg.throughput_bin_ns) } else { 0 };
        let mut delivered_bins = Vec::new();
        if bins > 0 {
            let too_big = || {
                format!(
                    "trace.throughput_bin_ns: {bins} bins for each of {flows} flows ({} bytes) cannot be allocated",
                    (bins as u128) * (flows as u128) * 8
                )
            };
            let per_flow = usize::try_from(bins).map_err(|_| too_big())?;
            delivered_bins.try_reserve_exact(flows).map_err(|_| too_big())?;
            for _ in 0..flows {
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
            cwnd: CwndTrace::default(),
            rtt: RttTrace::default(),
            queue: QueueTrace::default(),
            delivered_bins,
        })
    }

    #[inline]
    pub fn record_cwnd(&mut self, now_ns: u64, flow: u32, cwnd: u64, ssthresh: u64, bwe_bps: f64, min_rtt_ns: u64) {
        let t = &mut self.cwnd;
        t.time_ns.push(now_ns);
        t.flow.push(flow);
        t.cwnd_bytes.push(cwnd);
        t.ssthresh_bytes.push(ssthresh);
        t.bwe_bps.push(bwe_bps);
        t.min_rtt_ns.push(min_rtt_ns);
    }

    #[inline]
    pub fn record_rtt(&mut self, now_ns: u64, flow: u32, rtt: u64, srtt: u64, rto: u64) {
        if self.rtt_on {
            let t = &mut self.rtt;
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
        t.time_ns.push(now_ns);
        t.channel.push(channel);
        t.packets.push(packets);
        t.bytes.push(bytes);
    }

    /// Count `bytes` delivered to `flow`'s application at `now_ns`.
    #[inline]
    pub fn record_delivery(&mut self, now_ns: u64, flow: u32, bytes: u64) {
        if let Some(bin) = now_ns.checked_div(self.throughput_bin_ns) {
            let bins = &mut self.delivered_bins[flow as usize];
            let last = bins.len() - 1;
            bins[(bin as usize).min(last)] += bytes;
        }
    }
}
