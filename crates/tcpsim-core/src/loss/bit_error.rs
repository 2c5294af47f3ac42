//! Independent bit errors at a constant bit error rate (BER): a packet is lost when any of its
//! bits is corrupted, so longer packets are lost more often.
//!
//! Paper: `casetti` Sec. 5.1 compares against Snoop and ELN "when the error rate is 1 bit in
//! 64 kBytes" and against BA-TCP at "1 bit in 100 KB"; this model turns such a rate into a
//! per-packet probability from the packet's size on the wire:
//!
//! ```text
//! p(wire_bytes) = 1 − (1 − BER)^(8 · wire_bytes)
//! ```
//!
//! computed as `−expm1(8 · wire_bytes · ln1p(−BER))` so that tiny rates (1e-9) keep their
//! precision. A 1500-byte packet at BER 1.9e-6 is lost with p ≈ 2.3 %, its 40-byte ACK with
//! p ≈ 0.06 %.
//!
//! State: the BER's log-survival per bit (`ln(1 − BER)`, ≤ 0) and the model's random stream;
//! one uniform draw per packet (none when the packet cannot be lost).
//!
//! Deviations: every bit on the wire counts (payload and headers, no link-layer framing or
//! FEC), and errors are independent, as `casetti` assumes; bursty errors are the two-state
//! models' job.

use crate::rng::RandomStream;

pub struct BitError {
    /// `ln(1 − BER)`: the log-probability that one bit survives (`−∞` when BER = 1).
    ln_bit_survival: f64,
    rng: RandomStream,
}

impl BitError {
    /// `ber` in [0, 1] (checked by `SimConfig::validate`).
    pub fn new(ber: f64, rng: RandomStream) -> Self {
        BitError { ln_bit_survival: (-ber).ln_1p(), rng }
    }

    /// Probability that a packet of `wire_bytes` has at least one bit error.
    #[inline]
    pub fn packet_loss_probability(&self, wire_bytes: u32) -> f64 {
        if wire_bytes == 0 {
            return 0.0;
        }
        -(8.0 * wire_bytes as f64 * self.ln_bit_survival).exp_m1()
    }

    #[inline]
    pub fn is_lost(&mut self, wire_bytes: u32) -> bool {
        let p = self.packet_loss_probability(wire_bytes);
        self.rng.bernoulli(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(ber: f64) -> BitError {
        BitError::new(ber, RandomStream::new(1, "test:bit_error"))
    }

    #[test]
    fn probability_follows_one_minus_survival_of_every_bit() {
        let ber = 1.0 / (8.0 * 65_536.0); // casetti: 1 bit in 64 KB
        let m = model(ber);
        for wire_bytes in [40u32, 576, 1500, 65_536] {
            let expected = 1.0 - (1.0 - ber).powf(8.0 * wire_bytes as f64);
            let p = m.packet_loss_probability(wire_bytes);
            assert!((p - expected).abs() < 1e-12, "{wire_bytes} B: {p} vs {expected}");
        }
        // One error per 64 KiB on average: a 64 KiB packet survives with (1 − 1/n)^n ≈ 1/e.
        assert!((m.packet_loss_probability(65_536) - (1.0 - (-1.0f64).exp())).abs() < 1e-6);
    }

    #[test]
    fn tiny_rates_keep_their_precision_and_edges_are_exact() {
        let p = model(1e-12).packet_loss_probability(1500);
        assert!((p / 1.2e-8 - 1.0).abs() < 1e-6, "{p}");
        assert_eq!(model(0.0).packet_loss_probability(1500), 0.0);
        assert_eq!(model(1.0).packet_loss_probability(1), 1.0);
        assert_eq!(model(1.0).packet_loss_probability(0), 0.0, "an empty packet has no bits to corrupt");
    }

    #[test]
    fn loss_frequency_matches_the_formula_per_size() {
        let mut m = model(2e-6);
        let n = 400_000;
        for wire_bytes in [40u32, 1500] {
            let p = m.packet_loss_probability(wire_bytes);
            let lost = (0..n).filter(|_| m.is_lost(wire_bytes)).count() as f64;
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            assert!((lost / n as f64 - p).abs() < 4.0 * sd, "{wire_bytes} B: {} vs {p}", lost / n as f64);
        }
    }

    #[test]
    fn same_seed_and_name_give_the_same_losses() {
        let pattern = |seed| {
            let mut m = BitError::new(1e-4, RandomStream::new(seed, "link:l:ab:loss:0"));
            (0..2000).map(|_| m.is_lost(1500)).collect::<Vec<_>>()
        };
        assert_eq!(pattern(3), pattern(3));
        assert_ne!(pattern(3), pattern(4));
    }
}
