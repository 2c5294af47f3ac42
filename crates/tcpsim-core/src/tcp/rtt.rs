//! Round-trip time estimation and the retransmission timeout, RFC 6298.
//!
//! State (all ns): `srtt`, `rttvar`, the current `rto` (backed off), and the bounds
//! `min_rto` (§2.4), `max_rto` (§2.5) and clock granularity `g` (§2.3). Karn's algorithm
//! (§3: no samples from retransmitted segments) is applied by the caller, which only passes
//! samples from segments sent once; the backed-off RTO is kept until such a sample arrives
//! (§5.7). `RtoEstimator::Ns2Ticks` runs the same estimator in ns-2's fixed-point arithmetic
//! ([`Ns2Ticks`]).

use crate::config::RtoEstimator;

pub struct RttEstimator {
    pub srtt_ns: Option<u64>,
    pub rttvar_ns: u64,
    pub rto_ns: u64,
    min_rto_ns: u64,
    max_rto_ns: u64,
    granularity_ns: u64,
    /// Smallest raw sample seen (RTTmin of Westwood, Vegas' BaseRTT).
    pub min_rtt_ns: Option<u64>,
    /// ns-2's fixed-point state; None: RFC 6298's exact arithmetic.
    ns2: Option<Ns2Ticks>,
}

/// ns-2's `TcpAgent` estimator (tcp/tcp.cc `rtt_update`, `rtt_backoff`): `t_srtt_` in 1/8
/// and `t_rttvar_` in 1/4 of a tick (0: no sample yet), `t_backoff_` the RTO multiplier.
struct Ns2Ticks {
    tick_ns: u64,
    srtt_8: i64,
    rttvar_4: i64,
    backoff: u64,
}

impl Ns2Ticks {
    /// Jacobson's update on a sample of `ticks` whole ticks; returns the RTO in ticks,
    /// ⌊SRTT + 4·RTTVAR⌋ (`t_rtxcur_`).
    fn sample(&mut self, ticks: i64) -> u64 {
        if self.srtt_8 == 0 {
            self.srtt_8 = ticks << 3;
            self.rttvar_4 = ticks << 1;
        } else {
            let delta = ticks - (self.srtt_8 >> 3);
            self.srtt_8 = (self.srtt_8 + delta).max(1);
            self.rttvar_4 = (self.rttvar_4 + delta.abs() - (self.rttvar_4 >> 2)).max(1);
        }
        self.backoff = 1;
        (((self.rttvar_4 << 3) + self.srtt_8) >> 3) as u64
    }
}

impl RttEstimator {
    pub fn new(initial_rto_ns: u64, min_rto_ns: u64, max_rto_ns: u64, granularity_ns: u64) -> Self {
        RttEstimator {
            srtt_ns: None,
            rttvar_ns: 0,
            rto_ns: initial_rto_ns.clamp(min_rto_ns, max_rto_ns),
            min_rto_ns,
            max_rto_ns,
            granularity_ns,
            min_rtt_ns: None,
            ns2: None,
        }
    }

    /// With `RtoEstimator::Ns2Ticks`, ns-2's arithmetic on samples in ticks of `tick_ns`.
    pub fn with_arithmetic(mut self, estimator: RtoEstimator, tick_ns: u64) -> Self {
        if estimator == RtoEstimator::Ns2Ticks {
            self.ns2 = Some(Ns2Ticks { tick_ns, srtt_8: 0, rttvar_4: 0, backoff: 1 });
        }
        self
    }

    /// Fold in a measurement `r` (§2.2 for the first, §2.3 afterwards, with α = 1/8, β = 1/4),
    /// then recompute RTO = SRTT + max(G, 4·RTTVAR), bounded (§2.4, §2.5). In ns-2's arithmetic
    /// `r` is a whole number of ticks (`quantize_rtt`).
    pub fn sample(&mut self, r: u64) {
        self.min_rtt_ns = Some(self.min_rtt_ns.map_or(r, |m| m.min(r)));
        if let Some(n) = self.ns2.as_mut() {
            let rto_ticks = n.sample((r / n.tick_ns) as i64);
            self.srtt_ns = Some(n.srtt_8 as u64 * n.tick_ns / 8);
            self.rttvar_ns = n.rttvar_4 as u64 * n.tick_ns / 4;
            self.rto_ns = (rto_ticks * n.tick_ns).clamp(self.min_rto_ns, self.max_rto_ns);
            return;
        }
        match self.srtt_ns {
            None => {
                self.srtt_ns = Some(r);
                self.rttvar_ns = r / 2;
            }
            Some(srtt) => {
                let err = srtt.abs_diff(r);
                self.rttvar_ns = (3 * self.rttvar_ns + err) / 4;
                self.srtt_ns = Some((7 * srtt + r) / 8);
            }
        }
        let srtt = self.srtt_ns.expect("set above");
        let rto = srtt + self.granularity_ns.max(4 * self.rttvar_ns);
        self.rto_ns = rto.clamp(self.min_rto_ns, self.max_rto_ns);
    }

    /// §5.7: the SYN was retransmitted and no sample came of it: data starts with an RTO of at
    /// least 3 s (within the bounds).
    pub fn reinitialize_after_syn_timeout(&mut self) {
        self.rto_ns = self.rto_ns.max(3_000_000_000).clamp(self.min_rto_ns, self.max_rto_ns);
    }

    /// §5.5: double the RTO after a timeout, up to the maximum. ns-2 (`rtt_backoff`): past a
    /// multiplier of 8 SRTT is dropped, so the next sample starts the estimator afresh.
    pub fn back_off(&mut self) {
        self.rto_ns = (self.rto_ns.saturating_mul(2)).min(self.max_rto_ns);
        if let Some(n) = self.ns2.as_mut() {
            n.backoff = (n.backoff * 2).min(64);
            if n.backoff > 8 {
                n.srtt_8 = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn first_sample_sets_srtt_and_half_variance() {
        let mut e = RttEstimator::new(1000 * MS, 200 * MS, 60_000 * MS, MS);
        e.sample(100 * MS);
        assert_eq!(e.srtt_ns, Some(100 * MS));
        assert_eq!(e.rttvar_ns, 50 * MS);
        assert_eq!(e.rto_ns, 300 * MS); // 100 + 4·50
    }

    #[test]
    fn later_samples_use_the_rfc_gains_and_rto_respects_the_minimum() {
        let mut e = RttEstimator::new(1000 * MS, 1000 * MS, 60_000 * MS, MS);
        e.sample(100 * MS);
        e.sample(180 * MS);
        // rttvar = 3/4·50 + 1/4·80 = 57.5; srtt = 7/8·100 + 1/8·180 = 110
        assert_eq!(e.rttvar_ns, 57_500_000);
        assert_eq!(e.srtt_ns, Some(110 * MS));
        assert_eq!(e.rto_ns, 1000 * MS, "clamped to min_rto");
        assert_eq!(e.min_rtt_ns, Some(100 * MS));
    }

    #[test]
    fn back_off_doubles_up_to_the_maximum() {
        let mut e = RttEstimator::new(1000 * MS, 1000 * MS, 3000 * MS, MS);
        e.back_off();
        assert_eq!(e.rto_ns, 2000 * MS);
        e.back_off();
        assert_eq!(e.rto_ns, 3000 * MS);
    }

    /// ns-2's arithmetic, 100 ms ticks, worked by hand from `rtt_update`:
    /// 1 tick: t_srtt_ = 8, t_rttvar_ = 2, RTO ⌊(16 + 8)/8⌋ = 3 ticks;
    /// 2 ticks: δ = 2 − 1 = 1, t_srtt_ = 9, t_rttvar_ = 2 + 1 − 0 = 3, RTO ⌊(24 + 9)/8⌋ = 4;
    /// then 1 tick, forty times: δ = 1 − ⌊9/8⌋ = 0 leaves t_srtt_ = 9 and t_rttvar_ = 3 − ⌊3/4⌋ = 3,
    /// so the RTO stays 4 ticks, where RFC 6298's falls to SRTT + G.
    #[test]
    fn ns2_ticks_keep_rttvar_at_its_truncation_fixed_point() {
        let tick = 100 * MS;
        let mut e =
            RttEstimator::new(3000 * MS, 200 * MS, 60_000 * MS, tick).with_arithmetic(RtoEstimator::Ns2Ticks, tick);
        e.sample(tick);
        assert_eq!(e.rto_ns, 300 * MS);
        e.sample(2 * tick);
        assert_eq!((e.srtt_ns, e.rttvar_ns, e.rto_ns), (Some(112_500_000), 75 * MS, 400 * MS));
        let mut rfc = RttEstimator::new(3000 * MS, 200 * MS, 60_000 * MS, tick);
        rfc.sample(tick);
        rfc.sample(2 * tick);
        for _ in 0..40 {
            e.sample(tick);
            rfc.sample(tick);
        }
        assert_eq!((e.srtt_ns, e.rttvar_ns, e.rto_ns), (Some(112_500_000), 75 * MS, 400 * MS));
        assert!(rfc.rto_ns < 201 * MS, "RFC 6298: SRTT + G → 200 ms");
    }

    /// ns-2's `rtt_backoff`: the fourth back-off (multiplier 16) drops SRTT; the next sample of
    /// 1 tick starts afresh (t_srtt_ = 8, t_rttvar_ = 2: RTO 3 ticks) instead of folding into 9/8.
    #[test]
    fn ns2_ticks_restart_after_a_multiplier_beyond_eight() {
        let tick = 100 * MS;
        let mut e =
            RttEstimator::new(3000 * MS, 200 * MS, 60_000 * MS, tick).with_arithmetic(RtoEstimator::Ns2Ticks, tick);
        e.sample(tick);
        e.sample(2 * tick);
        for _ in 0..3 {
            e.back_off();
        }
        assert_eq!(e.rto_ns, 3200 * MS);
        e.sample(tick);
        assert_eq!((e.srtt_ns, e.rto_ns), (Some(112_500_000), 400 * MS), "three back-offs keep SRTT (9/8 tick)");
        for _ in 0..4 {
            e.back_off();
        }
        e.sample(tick);
        assert_eq!((e.srtt_ns, e.rttvar_ns, e.rto_ns), (Some(100 * MS), 50 * MS, 300 * MS));
    }
}
