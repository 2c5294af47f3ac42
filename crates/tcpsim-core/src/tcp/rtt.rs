//! Round-trip time estimation and the retransmission timeout, RFC 6298.
//!
//! State (all ns): `srtt`, `rttvar`, the current `rto` (backed off), and the bounds
//! `min_rto` (§2.4), `max_rto` (§2.5) and clock granularity `g` (§2.3). Karn's algorithm
//! (§3: no samples from retransmitted segments) is applied by the caller, which only passes
//! samples from segments sent once; the backed-off RTO is kept until such a sample arrives
//! (§5.7).

pub struct RttEstimator {
    pub srtt_ns: Option<u64>,
    pub rttvar_ns: u64,
    pub rto_ns: u64,
    min_rto_ns: u64,
    max_rto_ns: u64,
    granularity_ns: u64,
    /// Smallest raw sample seen (RTTmin of Westwood, Vegas' BaseRTT).
    pub min_rtt_ns: Option<u64>,
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
        }
    }

    /// Fold in a measurement `r` (§2.2 for the first, §2.3 afterwards, with α = 1/8, β = 1/4),
    /// then recompute RTO = SRTT + max(G, 4·RTTVAR), bounded (§2.4, §2.5).
    pub fn sample(&mut self, r: u64) {
        self.min_rtt_ns = Some(self.min_rtt_ns.map_or(r, |m| m.min(r)));
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

    /// §5.5: double the RTO after a timeout, up to the maximum.
    pub fn back_off(&mut self) {
        self.rto_ns = (self.rto_ns.saturating_mul(2)).min(self.max_rto_ns);
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
}
