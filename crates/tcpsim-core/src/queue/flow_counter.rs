//! Active-flow counting with a timestamp vector (Kim & O'Hallaron, "Counting network flows in
//! real time", GLOBECOM 2003; `podlesny` Sec. II-C and III, refs. [11], [12]).
//!
//! Each arriving packet hashes its flow to one of `size` slots and writes the current time
//! there. At an estimate, a slot is *empty* when it was never written or not written for
//! longer than `timeout`; with z empty slots out of b, the number of active flows is the
//! linear-counting estimate n̂ = b·ln(b/z) (Whang, Vander-Zanden & Taylor, ACM TODS 1990),
//! which corrects for flows that share a slot. A vector with no empty slot is saturated:
//! the estimate is then b·ln(b), the largest the vector can tell, and more flows than about
//! b·ln(b) need a larger vector. Memory is `size` timestamps; the per-packet work is one hash
//! and one store; an estimate scans the vector, so it is made once per recalculation interval,
//! not per packet.

/// A hashed vector of last-seen times of the flows crossing one queue.
pub struct FlowCounter {
    last_seen_ns: Vec<u64>,
    timeout_ns: u64,
    /// Mixed into the hash so that two queues (two links) do not collide on the same flows.
    salt: u64,
}

/// Marks a slot never written.
const NEVER: u64 = u64::MAX;

impl FlowCounter {
    /// A counter of `size` slots (> 0) forgetting flows silent for more than `timeout_ns`.
    pub fn new(size: usize, timeout_ns: u64, salt: u64) -> Self {
        assert!(size > 0, "a flow counter needs at least one slot");
        FlowCounter { last_seen_ns: vec![NEVER; size], timeout_ns, salt }
    }

    /// A packet of connection `flow` arrived at `now_ns`.
    #[inline]
    pub fn record(&mut self, flow: u64, now_ns: u64) {
        let slot = self.slot(flow);
        self.last_seen_ns[slot] = now_ns;
    }

    /// The estimated number of flows seen within the timeout before `now_ns`.
    #[cfg(test)]
    pub fn estimate(&self, now_ns: u64) -> f64 {
        self.estimate_within(now_ns, self.timeout_ns)
    }

    /// The estimated number of flows seen within `window_ns` before `now_ns`: the timestamp
    /// vector answers for any window up to the age of its oldest entry (Kim & O'Hallaron's
    /// point against bitmaps cleared at fixed interval boundaries), so the window may change
    /// from one estimate to the next.
    pub fn estimate_within(&self, now_ns: u64, window_ns: u64) -> f64 {
        let b = self.last_seen_ns.len() as f64;
        let empty = self.last_seen_ns.iter().filter(|&&t| t == NEVER || now_ns.saturating_sub(t) > window_ns).count();
        if empty == 0 {
            b * b.ln()
        } else {
            b * (b / empty as f64).ln()
        }
    }

    /// The fixed window of [`FlowCounter::estimate`].
    pub fn timeout_ns(&self) -> u64 {
        self.timeout_ns
    }

    /// Slot of `flow`: a 64-bit mix (SplitMix64's finalizer) of the flow and the salt, mapped
    /// onto [0, size) by a multiply-high, which is unbiased enough for any size.
    #[inline]
    fn slot(&self, flow: u64) -> usize {
        let mut x = (flow ^ self.salt).wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        ((x as u128 * self.last_seen_ns.len() as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_within_ten_percent_of_the_true_count_from_10_to_2000_flows() {
        for salt in [1, 2, 3, 0xdead_beef] {
            for n in [10u32, 20, 50, 100, 200, 500, 1000, 1600, 2000] {
                let mut c = FlowCounter::new(4096, 1_000_000_000, salt);
                for flow in 0..n {
                    c.record(flow as u64 * 7 + 3, 5_000);
                }
                let estimate = c.estimate(10_000);
                let error = (estimate - n as f64).abs() / n as f64;
                assert!(error <= 0.10, "salt {salt}, {n} flows: estimate {estimate:.1}");
            }
        }
    }

    #[test]
    fn a_flow_silent_longer_than_the_timeout_is_no_longer_counted() {
        let mut c = FlowCounter::new(1024, 100, 9);
        c.record(1, 0);
        c.record(2, 50);
        assert!((c.estimate(100) - 2.0).abs() < 0.01, "both seen within 100 ns");
        assert!((c.estimate(101) - 1.0).abs() < 0.01, "flow 1 expired at 101 ns");
        assert_eq!(c.estimate(151), 0.0);
        c.record(1, 200);
        assert!((c.estimate(200) - 1.0).abs() < 0.01);
    }

    #[test]
    fn a_longer_window_still_counts_a_flow_the_fixed_timeout_has_forgotten() {
        let mut c = FlowCounter::new(1024, 100, 9);
        c.record(1, 0);
        c.record(2, 250);
        assert!((c.estimate(300) - 1.0).abs() < 0.01, "flow 1 silent 300 ns > 100 ns");
        assert!((c.estimate_within(300, 300) - 2.0).abs() < 0.01, "a 300 ns window still holds it");
        assert!((c.estimate_within(300, 299) - 1.0).abs() < 0.01);
    }

    #[test]
    fn many_packets_of_one_flow_count_once() {
        let mut c = FlowCounter::new(64, 1_000, 5);
        for t in 0..500 {
            c.record(42, t);
        }
        // One slot of 64 written: 64·ln(64/63).
        assert!((c.estimate(500) - 64.0 * (64.0f64 / 63.0).ln()).abs() < 1e-12);
    }

    #[test]
    fn a_saturated_vector_reports_its_ceiling() {
        let mut c = FlowCounter::new(4, 1_000, 5);
        for flow in 0..1000 {
            c.record(flow, 0);
        }
        assert_eq!(c.estimate(0), 4.0 * 4f64.ln());
    }
}
