//! CoDel, Controlled Delay (RFC 8289; Nichols & Jacobson, "Controlling Queue Delay", 2012),
//! with the choices of Linux `include/net/codel_impl.h` where the RFC leaves one.
//!
//! Each packet's enqueue time is kept in its FIFO entry; at dequeue its sojourn time is
//! compared with `target` (RFC 8289 §4.2). Once the sojourn has stayed above target for a
//! whole `interval` (§4.3; "first_above_time"), CoDel enters the dropping state, drops the
//! head (or marks it CE when `ecn` and the packet is ECT, §4.1 / RFC 3168) and schedules the
//! next drop by the control law `drop_next = t + interval/√count` (§4.4, §5.5). It leaves
//! the dropping state as soon as a dequeued packet's sojourn is below target (§5.4). On
//! re-entering within 16·interval of the last drop schedule, count restarts from
//! `count − lastcount` rather than 1 (§5.6; the Linux/ns-3 heuristic). A packet whose
//! departure leaves at most `mtu_bytes` (Linux `mtu`, ns-3 `MinBytes`) queued never counts
//! as above target (§4.2's "maxpacket"). Arrivals beyond `limit_packets` are tail-dropped.
//!
//! Difference from Linux: `interval/√count` is computed exactly in f64, where Linux keeps a
//! 16.16 reciprocal square root updated by Newton steps (within 0.5 % for count ≥ 2).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fifo::Fifo;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Signals, Verdict};
use crate::packet::PacketId;

/// CoDel's parameters (RFC 8289 §4, §5). Defaults users get are set in the scenario layer
/// (`CodelQueue` in `tcpsim.scenario.network`): target 5 ms, interval 100 ms (RFC 8289 §4.2,
/// §4.3), limit 1000 packets and mtu 1514 bytes (Linux `codel` defaults).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CodelConfig {
    /// Buffer size, packets: arrivals beyond it are dropped (Linux `limit`), > 0.
    pub limit_packets: u64,
    /// Acceptable standing queue delay, ns (RFC 8289 §4.2: 5 ms), > 0.
    pub target_ns: u64,
    /// Sliding window over which the minimum sojourn must exceed target, ns (RFC 8289
    /// §4.3: 100 ms), > target.
    pub interval_ns: u64,
    /// Mark ECN-capable packets CE instead of dropping them (Linux `ecn`).
    pub ecn: bool,
    /// A queue holding at most this many bytes after a departure is never above target
    /// (RFC 8289 §4.2 "maxpacket"; Linux `mtu`, ns-3 `MinBytes`).
    pub mtu_bytes: u32,
}

impl CodelConfig {
    /// Check the parameters; errors are `<field>: message`.
    pub fn validate(&self) -> Result<(), String> {
        if self.limit_packets == 0 {
            return Err("limit_packets: must be > 0".into());
        }
        validate_times(self.target_ns, self.interval_ns)
    }
}

/// CoDel's two times, shared with FQ-CoDel: target > 0 and interval > target, small enough that
/// the control law's arithmetic cannot overflow. Errors are `<field>: message`.
pub fn validate_times(target_ns: u64, interval_ns: u64) -> Result<(), String> {
    if target_ns == 0 {
        return Err("target_ns: must be > 0".into());
    }
    if interval_ns <= target_ns || interval_ns > u64::MAX / 32 {
        return Err(format!(
            "interval_ns: {interval_ns} must be > target_ns ({target_ns}) and at most {}",
            u64::MAX / 32
        ));
    }
    Ok(())
}

/// The parameters CoDel's control law reads (`CodelConfig`'s, or FQ-CoDel's for each of its
/// sub-queues).
#[derive(Clone, Copy, Debug)]
pub(super) struct CodelParams {
    pub target_ns: u64,
    pub interval_ns: u64,
    pub ecn: bool,
    pub mtu_bytes: u32,
}

/// A packet leaving a FIFO that CoDel manages.
#[derive(Clone, Copy, Debug)]
pub(super) struct Departure {
    pub id: PacketId,
    pub wire_bytes: u32,
    pub enqueued_ns: u64,
    /// ECN-capable: may be marked CE instead of dropped.
    pub ect: bool,
}

/// A FIFO CoDel manages: the plain queue, or one FQ-CoDel sub-queue.
pub(super) trait CodelFifo {
    /// Remove the head at `now_ns` (updating the occupancy), with the bytes still queued that
    /// §4.2's "maxpacket" test compares with `mtu_bytes`; `None` if the FIFO is empty.
    fn pop_head(&mut self, now_ns: u64) -> Option<(Departure, u64)>;
}

/// CoDel's control state (RFC 8289 §5.1's variables) for one FIFO, and its dequeue (§5.3,
/// §5.4); FQ-CoDel keeps one per sub-queue (RFC 8290 §4.2).
#[derive(Clone, Debug, Default)]
pub(super) struct CodelState {
    /// Sojourn first seen above target + interval (0: not above target), ns.
    first_above_ns: u64,
    /// When the next drop is due in the dropping state, ns.
    drop_next_ns: u64,
    /// Drops (or marks) since entering the dropping state.
    count: u32,
    /// `count` when the dropping state was last entered.
    lastcount: u32,
    dropping: bool,
}

/// `t + interval/√count` (RFC 8289 §5.5).
#[inline]
fn control_law(t: u64, interval_ns: u64, count: u32) -> u64 {
    t + (interval_ns as f64 / (count.max(1) as f64).sqrt()) as u64
}

impl CodelState {
    /// Drops (or marks) since the dropping state was entered.
    #[cfg(test)]
    pub(super) fn count(&self) -> u32 {
        self.count
    }

    /// In the dropping state.
    #[cfg(test)]
    pub(super) fn dropping(&self) -> bool {
        self.dropping
    }

    /// Raise the drop count by `n` (Linux `fq_codel_drop` does so for the packets its overflow
    /// batch drops, so the next CoDel drops come faster).
    #[inline]
    pub(super) fn add_to_count(&mut self, n: u32) {
        self.count = self.count.saturating_add(n);
    }

    /// Pop the head, returning it and whether its sojourn is above target (RFC 8289 §5.3
    /// `dodeque`/`should_drop`; Linux `codel_should_drop`).
    #[inline]
    fn pop(&mut self, fifo: &mut impl CodelFifo, p: &CodelParams, now_ns: u64) -> Option<(Departure, bool)> {
        let Some((head, backlog_bytes)) = fifo.pop_head(now_ns) else {
            self.first_above_ns = 0;
            return None;
        };
        let sojourn = now_ns - head.enqueued_ns;
        if sojourn < p.target_ns || backlog_bytes <= p.mtu_bytes as u64 {
            self.first_above_ns = 0;
            return Some((head, false));
        }
        if self.first_above_ns == 0 {
            self.first_above_ns = now_ns + p.interval_ns;
            return Some((head, false));
        }
        Some((head, now_ns >= self.first_above_ns))
    }

    /// RFC 8289 §5.4 (Linux `codel_dequeue`): take the next packet of `fifo`; head drops go to
    /// `sink.dropped`, a CE mark of the returned packet to `sink.mark`, and both are counted in
    /// `signals`.
    #[inline]
    pub(super) fn dequeue(
        &mut self,
        fifo: &mut impl CodelFifo,
        p: &CodelParams,
        now_ns: u64,
        sink: &mut DequeueSink,
        signals: &mut Signals,
    ) -> Option<Departure> {
        let interval = p.interval_ns;
        let Some((mut head, drop)) = self.pop(fifo, p, now_ns) else {
            self.dropping = false;
            return None;
        };
        if self.dropping {
            if !drop {
                self.dropping = false; // §5.4: sojourn below target, leave
            } else {
                while self.dropping && now_ns >= self.drop_next_ns {
                    self.count += 1;
                    if p.ecn && head.ect {
                        sink.mark = true;
                        signals.marks_ecn += 1;
                        self.drop_next_ns = control_law(self.drop_next_ns, interval, self.count);
                        return Some(head);
                    }
                    sink.dropped.push(head.id);
                    signals.drops_early += 1;
                    match self.pop(fifo, p, now_ns) {
                        Some((h, true)) => {
                            head = h;
                            self.drop_next_ns = control_law(self.drop_next_ns, interval, self.count);
                        }
                        Some((h, false)) => {
                            head = h;
                            self.dropping = false;
                        }
                        None => {
                            self.dropping = false;
                            return None;
                        }
                    }
                }
            }
            return Some(head);
        }
        if !drop {
            return Some(head);
        }
        let mut out = Some(head);
        if p.ecn && head.ect {
            sink.mark = true;
            signals.marks_ecn += 1;
        } else {
            sink.dropped.push(head.id);
            signals.drops_early += 1;
            out = self.pop(fifo, p, now_ns).map(|(h, _)| h);
        }
        self.dropping = true;
        // §5.6: re-entering soon after the last dropping state resumes its rate.
        let delta = self.count.wrapping_sub(self.lastcount);
        // Signed, as Linux's `codel_time_before`: a drop_next still ahead counts as recent.
        let recent = (now_ns as i128 - self.drop_next_ns as i128) < 16 * interval as i128;
        self.count = if delta > 1 && recent { delta } else { 1 };
        self.lastcount = self.count;
        self.drop_next_ns = control_law(now_ns, interval, self.count);
        out
    }
}

/// The plain CoDel queue's FIFO: (packet, wire bytes, enqueue time ns, ECN-capable).
impl CodelFifo for Fifo<(PacketId, u32, u64, bool)> {
    #[inline]
    fn pop_head(&mut self, now_ns: u64) -> Option<(Departure, u64)> {
        let (id, wire_bytes, enqueued_ns, ect) = self.pop(now_ns)?;
        Some((Departure { id, wire_bytes, enqueued_ns, ect }, self.occupancy().bytes))
    }
}

pub struct Codel {
    /// (packet, wire bytes, enqueue time ns, ECN-capable); limited in packets only.
    fifo: Fifo<(PacketId, u32, u64, bool)>,
    params: CodelParams,
    state: CodelState,
    signals: Signals,
}

impl Codel {
    pub fn new(cfg: &CodelConfig) -> Self {
        Codel {
            fifo: Fifo::new(Some(cfg.limit_packets), None),
            params: CodelParams {
                target_ns: cfg.target_ns,
                interval_ns: cfg.interval_ns,
                ecn: cfg.ecn,
                mtu_bytes: cfg.mtu_bytes,
            },
            state: CodelState::default(),
            signals: Signals::default(),
        }
    }
}

impl QueueDiscipline for Codel {
    #[inline]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        if !self.fifo.fits(a.wire_bytes) {
            return Verdict::Dropped;
        }
        self.fifo.push((a.id, a.wire_bytes, now_ns, a.ect), now_ns);
        Verdict::Enqueued
    }

    /// RFC 8289 §5.4 (`CodelState::dequeue`): head drops go to `sink.dropped`, a CE mark of
    /// the returned packet to `sink.mark`.
    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        let out = self.state.dequeue(&mut self.fifo, &self.params, now_ns, sink, &mut self.signals)?;
        Some((out.id, out.wire_bytes))
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

    const MS: u64 = 1_000_000;

    fn config(ecn: bool) -> CodelConfig {
        CodelConfig { limit_packets: 100, target_ns: 5 * MS, interval_ns: 100 * MS, ecn, mtu_bytes: 0 }
    }

    fn codel(ecn: bool) -> Codel {
        Codel::new(&config(ecn))
    }

    fn offer(q: &mut Codel, id: PacketId, ect: bool, now_ns: u64) -> Verdict {
        q.enqueue(
            Arrival { id, wire_bytes: 1000, ect, l4s: false, kind: PacketKind::Data, flow: 0, rd_class: RdMark::R },
            now_ns,
        )
    }

    /// Dequeue at `now_ns`: (the packet returned, the head drops, whether it is to be marked).
    fn take(q: &mut Codel, now_ns: u64) -> (Option<PacketId>, Vec<PacketId>, bool) {
        let mut sink = DequeueSink::default();
        let out = q.dequeue(now_ns, &mut sink).map(|(id, _)| id);
        (out, sink.dropped, sink.mark)
    }

    #[test]
    fn drops_after_an_interval_above_target_then_at_interval_over_sqrt_count() {
        // Ten packets at 0. 10 ms: sojourn 10 ms > 5 ms, first_above = 110 ms (§5.3).
        let mut q = codel(false);
        (1..=10).for_each(|id| assert_eq!(offer(&mut q, id, false, 0), Verdict::Enqueued));
        assert_eq!(take(&mut q, 10 * MS), (Some(1), vec![], false));
        assert_eq!(take(&mut q, 50 * MS), (Some(2), vec![], false));
        // 110 ms: above target for an interval: drop 3, count = 1, drop_next = 210 ms.
        assert_eq!(take(&mut q, 110 * MS), (Some(4), vec![3], false));
        assert_eq!(take(&mut q, 150 * MS), (Some(5), vec![], false));
        // 210 ms: count 2, drop 6; drop_next = 210 + 100/√2 = 280.710678 ms.
        assert_eq!(take(&mut q, 210 * MS), (Some(7), vec![6], false));
        assert_eq!(q.state.drop_next_ns, 280_710_678);
        assert_eq!((q.state.count, q.signals.drops_early), (2, 2));
        assert_eq!(offer(&mut q, 11, false, 215 * MS), Verdict::Enqueued);
        assert_eq!(take(&mut q, 216 * MS), (Some(8), vec![], false));
        assert_eq!(take(&mut q, 217 * MS), (Some(9), vec![], false));
        assert_eq!(take(&mut q, 218 * MS), (Some(10), vec![], false));
        // 11 waited 6 ms, but leaves the queue empty (≤ mtu): not above target, leave (§5.4).
        assert_eq!(take(&mut q, 221 * MS), (Some(11), vec![], false));
        assert!(!q.state.dropping);
        assert_eq!(take(&mut q, 222 * MS), (None, vec![], false));
        assert_eq!(q.occupancy().packets, 0);
    }

    #[test]
    fn ect_packets_are_marked_instead_of_dropped_and_re_entry_resumes_the_count() {
        let mut q = codel(true);
        (1..=10).for_each(|id| assert_eq!(offer(&mut q, id, true, 0), Verdict::Enqueued));
        assert_eq!(take(&mut q, 10 * MS), (Some(1), vec![], false));
        assert_eq!(take(&mut q, 110 * MS), (Some(2), vec![], true));
        assert_eq!(take(&mut q, 210 * MS), (Some(3), vec![], true));
        assert_eq!(take(&mut q, 281 * MS), (Some(4), vec![], true));
        // count 3, lastcount 1; drop_next = 280.710678 + 100/√3 = 338.445704 ms (truncated to ns).
        assert_eq!((q.state.count, q.state.drop_next_ns), (3, 338_445_704));
        assert_eq!(q.signals.marks_ecn, 3);
        // Leave (sojourn below target), then re-enter within 16 intervals: count = 3 − 1 = 2.
        assert_eq!(offer(&mut q, 20, true, 300 * MS), Verdict::Enqueued);
        (5..=10).for_each(|id| assert_eq!(take(&mut q, 300 * MS).0, Some(id)));
        assert_eq!(take(&mut q, 301 * MS), (Some(20), vec![], false));
        assert!(!q.state.dropping);
        (21..=23).for_each(|id| assert_eq!(offer(&mut q, id, true, 400 * MS), Verdict::Enqueued));
        assert_eq!(take(&mut q, 410 * MS), (Some(21), vec![], false)); // first_above = 510 ms
        assert_eq!(take(&mut q, 510 * MS), (Some(22), vec![], true));
        assert_eq!((q.state.count, q.state.lastcount), (2, 2));
        assert_eq!(q.state.drop_next_ns, 510 * MS + 70_710_678);
    }

    #[test]
    fn arrivals_beyond_the_limit_are_dropped_and_validation_names_the_field() {
        let mut q = Codel::new(&CodelConfig { limit_packets: 1, ..config(false) });
        assert_eq!(offer(&mut q, 1, false, 0), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 2, false, 0), Verdict::Dropped);
        let bad = CodelConfig { interval_ns: 5 * MS, ..config(false) };
        assert!(bad.validate().unwrap_err().starts_with("interval_ns:"));
    }
}
