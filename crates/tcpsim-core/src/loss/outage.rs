//! Scheduled outages: every packet that finishes serialization inside an outage window is lost,
//! every other packet passes. No randomness.
//!
//! Paper: `casetti` Sec. 5.3 (LEO satellite): "During handoff, we assume all packets are lost.
//! In our model, the handoff from one satellite to another needs 100 ms to complete, and the
//! period between handoffs is 4 s." [`PeriodicOutage`] models that with windows
//! [offset + k·period, offset + k·period + duration) for k = 0, 1, 2, ...; [`OutageIntervals`]
//! takes an explicit list of windows [start, end) (a blackout at a known time, a scripted
//! hand-off sequence). The paper's 0.1 % background error rate is a separate model on the same
//! link direction (`bernoulli`), since a direction may carry several.
//!
//! State: the schedule in ns; the interval list keeps a cursor to the first window not yet
//! over, so each packet costs O(1) amortized (time never goes back).
//!
//! Choices: windows are half-open, so a packet finishing exactly at a window's end passes; the
//! time a packet finishes serialization decides (a packet that started before a window and ends
//! inside it is lost, one that started inside and ends after it passes). Nothing is lost
//! before `offset`.

/// Outages of `duration_ns` every `period_ns`, the first starting at `offset_ns`.
pub struct PeriodicOutage {
    period_ns: u64,
    duration_ns: u64,
    offset_ns: u64,
}

impl PeriodicOutage {
    /// `0 < duration_ns <= period_ns` (checked by `SimConfig::validate`).
    pub fn new(period_ns: u64, duration_ns: u64, offset_ns: u64) -> Self {
        PeriodicOutage { period_ns, duration_ns, offset_ns }
    }

    #[inline]
    pub fn is_lost(&self, now_ns: u64) -> bool {
        now_ns >= self.offset_ns && (now_ns - self.offset_ns) % self.period_ns < self.duration_ns
    }
}

/// Outages over explicit windows `[start_ns, end_ns)`, sorted and disjoint.
pub struct OutageIntervals {
    intervals_ns: Vec<(u64, u64)>,
    /// Index of the first window whose end is after the last time asked.
    next: usize,
}

impl OutageIntervals {
    /// Windows with `start < end`, sorted, not overlapping (checked by `SimConfig::validate`).
    pub fn new(intervals_ns: Vec<(u64, u64)>) -> Self {
        OutageIntervals { intervals_ns, next: 0 }
    }

    /// `now_ns` never decreases between calls.
    #[inline]
    pub fn is_lost(&mut self, now_ns: u64) -> bool {
        while self.next < self.intervals_ns.len() && self.intervals_ns[self.next].1 <= now_ns {
            self.next += 1;
        }
        self.intervals_ns.get(self.next).is_some_and(|&(start_ns, _)| start_ns <= now_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn periodic_windows_are_exact_and_half_open() {
        // casetti Sec. 5.3: a 100 ms hand-off every 4 s, here starting at 1 s.
        let m = PeriodicOutage::new(4_000 * MS, 100 * MS, 1_000 * MS);
        for k in 0..5 {
            let start = 1_000 * MS + k * 4_000 * MS;
            assert!(!m.is_lost(start - 1), "just before window {k}");
            assert!(m.is_lost(start), "first ns of window {k}");
            assert!(m.is_lost(start + 100 * MS - 1), "last ns of window {k}");
            assert!(!m.is_lost(start + 100 * MS), "the end of window {k} is outside it");
        }
        assert!(!m.is_lost(0), "nothing before the offset");
        // One packet per ms over 400 s: exactly 100 of every 4000 lost.
        let lost = (0..400_000u64).filter(|i| m.is_lost(1_000 * MS + i * MS)).count();
        assert_eq!(lost, 100 * 100);
    }

    #[test]
    fn duration_equal_to_period_is_a_permanent_outage_after_the_offset() {
        let m = PeriodicOutage::new(10, 10, 5);
        assert!(!m.is_lost(4));
        assert!((5..1000).all(|t| m.is_lost(t)));
    }

    #[test]
    fn packets_inside_listed_windows_are_lost_and_no_others() {
        let windows = vec![(10 * MS, 12 * MS), (12 * MS, 13 * MS), (20 * MS, 20 * MS + 1)];
        let mut m = OutageIntervals::new(windows.clone());
        for t in (0..30 * MS).step_by(1000).chain([20 * MS, 20 * MS + 1]).collect::<std::collections::BTreeSet<_>>() {
            let inside = windows.iter().any(|&(s, e)| s <= t && t < e);
            assert_eq!(m.is_lost(t), inside, "at {t} ns");
        }
        assert!(!m.is_lost(u64::MAX), "after the last window");
    }

    #[test]
    fn sparse_queries_skip_windows_that_ended() {
        let mut m = OutageIntervals::new(vec![(1, 2), (3, 4), (5, 6), (100, 200)]);
        assert!(!m.is_lost(50));
        assert!(m.is_lost(150));
        assert!(!m.is_lost(200));
        assert!(!OutageIntervals::new(Vec::new()).is_lost(0));
    }
}
