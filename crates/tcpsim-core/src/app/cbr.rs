//! Constant-bit-rate UDP source with an ON/OFF schedule (the UDP sources of `casetti`
//! Sec. 4, Fig. 3: 1 Mb/s CBR switched on and off at given times).
//!
//! State: the packet size on the wire (bytes), the spacing `interval_ns` = size · 8 / rate
//! (rounded up to whole ns, so the rate is never exceeded), the sorted ON intervals
//! [start, end) and the index of the current one. The first packet of an interval leaves at
//! its start; a packet is sent only if it starts before the interval ends. No congestion
//! control and no feedback: the receiver only counts.

use crate::config::UdpFlowConfig;
use crate::context::Ctx;
use crate::packet::{Packet, PacketKind};
use crate::time::tx_time_ns;

/// Cumulative counters of a UDP flow (snapshotted at the start of the measurement window).
#[derive(Clone, Copy, Debug, Default)]
pub struct UdpCounters {
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub packets_received: u64,
    pub bytes_received: u64,
}

pub struct CbrSource {
    flow: u32,
    src: u32,
    dst: u32,
    packet_bytes: u32,
    interval_ns: u64,
    on: Vec<(u64, u64)>,
    period: usize,
    pub counters: UdpCounters,
}

impl CbrSource {
    pub fn new(index: u32, cfg: &UdpFlowConfig) -> Self {
        let mut on = cfg.on.clone();
        on.sort_unstable();
        CbrSource {
            flow: index,
            src: cfg.src,
            dst: cfg.dst,
            packet_bytes: cfg.packet_bytes,
            interval_ns: tx_time_ns(cfg.packet_bytes, cfg.rate_bps),
            on,
            period: 0,
            counters: UdpCounters::default(),
        }
    }

    /// When the first packet leaves, if ever.
    pub fn first_send_ns(&self) -> Option<u64> {
        self.on.iter().find(|(start, end)| start < end).map(|(start, _)| *start)
    }

    /// Send one packet now; returns when the next one leaves, if any.
    pub fn send(&mut self, ctx: &mut Ctx) -> Option<u64> {
        let p = Packet::new(PacketKind::Udp, self.flow, self.dst, self.packet_bytes, self.packet_bytes);
        ctx.transmit(self.src, p);
        self.counters.packets_sent += 1;
        self.counters.bytes_sent += self.packet_bytes as u64;
        let next = ctx.now() + self.interval_ns;
        while let Some(&(start, end)) = self.on.get(self.period) {
            let t = next.max(start);
            if t < end {
                return Some(t);
            }
            self.period += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::config::*;
    use crate::sim::Sim;

    const S: u64 = 1_000_000_000;

    fn scenario(on: Vec<(u64, u64)>) -> SimConfig {
        let queue = QueueConfig::DropTail { limit_packets: Some(100), limit_bytes: None };
        let dir = DirectionConfig { queue, loss: vec![] };
        SimConfig {
            duration_ns: 5 * S,
            warmup_ns: 0,
            nodes: vec!["a".into(), "b".into()],
            links: vec![LinkConfig {
                name: "l".into(),
                a: 0,
                b: 1,
                rate_bps: 10_000_000,
                delay_ns: S / 100,
                ab: dir.clone(),
                ba: dir,
            }],
            flows: vec![],
            udp_flows: vec![UdpFlowConfig {
                name: "u".into(),
                src: 0,
                dst: 1,
                rate_bps: 1_000_000,
                packet_bytes: 1000,
                on,
            }],
            web: vec![],
            routing: Default::default(),
            shared_buffers: vec![],
            trace: TraceConfig::default(),
        }
    }

    #[test]
    fn sends_at_its_rate_only_while_on() {
        // 1000-byte packets at 1 Mb/s leave every 8 ms: 125 in [1 s, 2 s), 63 in [3 s, 3.5 s).
        let mut sim = Sim::new(&scenario(vec![(3 * S, 3 * S + S / 2), (S, 2 * S)]), 1).unwrap();
        sim.run();
        let u = &sim.summary().unwrap().udp_flows[0];
        assert_eq!((u.packets_sent, u.packets_received), (188, 188));
        assert_eq!(u.bytes_received, 188_000);
    }

    #[test]
    fn an_empty_schedule_sends_nothing() {
        let mut sim = Sim::new(&scenario(vec![(S, S)]), 1).unwrap();
        sim.run();
        assert_eq!(sim.summary().unwrap().udp_flows[0].packets_sent, 0);
    }
}
