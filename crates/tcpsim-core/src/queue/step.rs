//! Step marking: a FIFO that marks CE on an ECN-capable arrival when the instantaneous queue
//! exceeds a threshold K — the switch half of DCTCP (M. Alizadeh et al., "Data Center TCP
//! (DCTCP)", SIGCOMM 2010 ("DCTCP"), Sec. 3.1; RFC 8257 §3.1).
//!
//! Every arrival that finds the link busy:
//! 1. Hard limits: an arrival that does not fit the packet or byte limit is dropped, as
//!    drop-tail (`Verdict::Dropped`), whatever the threshold says.
//! 2. Threshold (DCTCP Sec. 3.1: "an arriving packet is marked with the CE codepoint if the
//!    queue occupancy is greater than K upon its arrival"; RFC 8257 §3.1: "if the queue
//!    length is greater than K"): the queue found on arrival — the packets (or wire bytes,
//!    `unit`) already waiting, not the arriving one and not the one being serialized, as every
//!    discipline here counts — is compared with K; strictly greater marks. The
//!    instantaneous queue, no average (DCTCP Sec. 3.1: "a very simple active queue management
//!    scheme"). Linux's `red` with min = max (the configuration the DCTCP authors give) and
//!    ns-3's `RedQueueDisc` with `QW` = 1 and `MinTh` = `MaxTh` mark when the queue on
//!    arrival is ≥ their threshold: that is K + 1 here in packet mode (the ns-3 twin,
//!    `peers/ns3/dctcp.cc`, sets its threshold to K + 1).
//! 3. Above K an ECN-capable packet is enqueued marked CE (`Verdict::Marked`); a packet that is
//!    not ECN-capable is dropped (`Verdict::DroppedEarly`, `non_ect = "drop"`) as Linux's
//!    `red … ecn` (`RED_HARD_MARK` without `INET_ECN_set_ce` drops) and ns-3's `RedQueueDisc`
//!    (a forced decision on a non-ECT packet drops, `UseHardDrop` or not) do, or enqueued
//!    unmarked (`non_ect = "enqueue"`, a pure marking switch that leaves non-ECN traffic to
//!    the hard limit). The paper does not say: its traffic is all ECN-capable.
//!
//! A packet arriving at an idle link finds an empty queue and is never marked (0 > K is false),
//! so the default `arrive_at_idle_link` suffices. No randomness.
//!
//! Counters (`Signals`): CE marks and the non-ECT drops above K; overflow is `Verdict::Dropped`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fifo::Fifo;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Signals, Verdict};
use crate::packet::PacketId;

/// The step-marking queue's parameters (`queue::step` cites each). Defaults users get are set
/// in the scenario layer (`StepQueue` in `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StepConfig {
    /// Hard limits: an arrival that does not fit is dropped (as drop-tail). At least one.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// K, the marking threshold in `unit`: an arrival that finds more than K waiting is marked
    /// (DCTCP Sec. 3.1). DCTCP Sec. 3.4 eq. (13): K > C·RTT/7 (C in packets per second); the
    /// paper uses K = 20 packets at 1 Gb/s and 65 at 10 Gb/s.
    pub threshold: u64,
    /// What the queue and K count: packets (the paper) or wire bytes (Linux `red` counts bytes).
    pub unit: StepUnit,
    /// What happens to a packet that is not ECN-capable and finds more than K waiting.
    pub non_ect: NonEct,
}

/// What the step queue's occupancy and threshold count (`StepConfig::unit`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum StepUnit {
    Packets,
    Bytes,
}

/// A non-ECN-capable arrival above the threshold (`StepConfig::non_ect`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum NonEct {
    /// Dropped (Linux `red` with `ecn`, ns-3 `RedQueueDisc` with `UseEcn`).
    Drop,
    /// Enqueued unmarked; only the hard limit drops it.
    Enqueue,
}

impl StepConfig {
    /// Check the parameters; errors are `<field>: message` (the limits are checked by
    /// `QueueConfig::validate`).
    pub fn validate(&self) -> Result<(), String> {
        let limit = match self.unit {
            StepUnit::Packets => self.limit_packets,
            StepUnit::Bytes => self.limit_bytes,
        };
        if let Some(limit) = limit {
            if self.threshold >= limit {
                return Err(format!(
                    "threshold: {} must be below the {} limit ({limit}), else it never marks",
                    self.threshold,
                    if self.unit == StepUnit::Packets { "packet" } else { "byte" }
                ));
            }
        }
        Ok(())
    }
}

pub struct Step {
    fifo: Fifo<(PacketId, u32)>,
    threshold: u64,
    bytes: bool,
    drop_non_ect: bool,
    signals: Signals,
}

impl Step {
    pub fn new(cfg: &StepConfig) -> Self {
        Step {
            fifo: Fifo::new(cfg.limit_packets, cfg.limit_bytes),
            threshold: cfg.threshold,
            bytes: cfg.unit == StepUnit::Bytes,
            drop_non_ect: cfg.non_ect == NonEct::Drop,
            signals: Signals::default(),
        }
    }
}

impl QueueDiscipline for Step {
    #[inline(never)]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        // Step 1: the hard limits.
        if !self.fifo.fits(a.wire_bytes) {
            return Verdict::Dropped;
        }
        // Step 2: the queue found on arrival against K.
        let o = self.fifo.occupancy();
        let queue = if self.bytes { o.bytes } else { o.packets };
        let verdict = if queue <= self.threshold {
            Verdict::Enqueued
        } else if a.ect {
            self.signals.marks_ecn += 1;
            Verdict::Marked
        } else if self.drop_non_ect {
            self.signals.drops_early += 1;
            return Verdict::DroppedEarly;
        } else {
            Verdict::Enqueued
        };
        self.fifo.push((a.id, a.wire_bytes), now_ns);
        verdict
    }

    /// A plain FIFO.
    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, _sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        self.fifo.pop(now_ns)
    }

    fn occupancy(&self) -> &Occupancy {
        self.fifo.occupancy()
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        self.fifo.occupancy_mut()
    }

    fn signals(&self) -> Signals {
        self.signals
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        self.fifo.next_out()
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.fifo.ids())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::PacketKind;

    fn step(threshold: u64, unit: StepUnit, non_ect: NonEct) -> Step {
        Step::new(&StepConfig { limit_packets: Some(5), limit_bytes: Some(10_000), threshold, unit, non_ect })
    }

    fn offer(q: &mut Step, id: PacketId, wire_bytes: u32, ect: bool) -> Verdict {
        q.enqueue(Arrival { id, wire_bytes, ect, l4s: false, kind: PacketKind::Data, flow: 0, rd_class: RdMark::R }, 0)
    }

    #[test]
    fn an_arrival_finding_more_than_k_packets_is_marked() {
        // K = 2: arrivals find 0, 1, 2 waiting (not marked), then 3 and 4 (> K: marked); the
        // sixth finds 5 = the limit and is dropped as drop-tail, ECN-capable or not.
        let mut q = step(2, StepUnit::Packets, NonEct::Drop);
        let verdicts: Vec<Verdict> = (0..6).map(|id| offer(&mut q, id, 1000, true)).collect();
        use Verdict::*;
        assert_eq!(verdicts, vec![Enqueued, Enqueued, Enqueued, Marked, Marked, Dropped]);
        assert_eq!(q.signals().marks_ecn, 2);
        // Two leave: the queue is 3 > K, so the next is still marked; two more leave: 2, not.
        q.dequeue(0, &mut DequeueSink::default());
        q.dequeue(0, &mut DequeueSink::default());
        assert_eq!(offer(&mut q, 10, 1000, true), Marked);
        q.dequeue(0, &mut DequeueSink::default());
        q.dequeue(0, &mut DequeueSink::default());
        assert_eq!(offer(&mut q, 11, 1000, true), Enqueued);
        assert_eq!(q.dequeue(0, &mut DequeueSink::default()), Some((4, 1000)), "FIFO order");
    }

    #[test]
    fn non_ect_packets_above_k_are_dropped_or_enqueued_as_configured() {
        let mut q = step(1, StepUnit::Packets, NonEct::Drop);
        assert_eq!(offer(&mut q, 0, 40, false), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 1, 40, false), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 2, 40, false), Verdict::DroppedEarly, "finds 2 > K = 1");
        assert_eq!(q.signals().drops_early, 1);
        assert_eq!(q.occupancy().packets, 2);
        let mut q = step(1, StepUnit::Packets, NonEct::Enqueue);
        for id in 0..5 {
            assert_eq!(offer(&mut q, id, 40, false), Verdict::Enqueued);
        }
        assert_eq!(offer(&mut q, 5, 40, false), Verdict::Dropped, "only the hard limit");
        assert_eq!(q.signals().drops_early + q.signals().marks_ecn, 0);
    }

    #[test]
    fn byte_mode_compares_the_bytes_waiting() {
        // K = 1500 bytes: 1000 waiting (≤ K), then 2000 (> K) marks; a 40-byte ACK that finds
        // 3000 is not ECN-capable and is dropped.
        let mut q = step(1500, StepUnit::Bytes, NonEct::Drop);
        assert_eq!(offer(&mut q, 0, 1000, true), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 1, 1000, true), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 2, 1000, true), Verdict::Marked);
        assert_eq!(offer(&mut q, 3, 40, false), Verdict::DroppedEarly);
        assert_eq!(q.occupancy().bytes, 3000);
    }

    #[test]
    fn a_threshold_at_or_above_the_limit_is_refused() {
        let cfg = |threshold| StepConfig {
            limit_packets: Some(100),
            limit_bytes: None,
            threshold,
            unit: StepUnit::Packets,
            non_ect: NonEct::Drop,
        };
        assert!(cfg(99).validate().is_ok());
        assert!(cfg(100).validate().unwrap_err().starts_with("threshold: 100"));
    }
}
