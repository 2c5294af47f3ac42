//! Simulated time and rates as integers.
//!
//! Time is a `u64` count of nanoseconds since the start of the run (names end in `_ns`);
//! 2^64 ns is 584 years, so no run overflows. Rates are bits per second (`_bps`). All
//! conversions round up so that a packet never leaves a link earlier than physics allows.

/// Nanoseconds in one second.
pub const NS_PER_S: u64 = 1_000_000_000;

/// Time to serialize `bytes` onto a link of `rate_bps`, rounded up to whole nanoseconds.
#[inline]
pub fn tx_time_ns(bytes: u32, rate_bps: u64) -> u64 {
    // bytes · 8·10⁹ fits in 64 bits below 2.3 GB: every real packet divides in 64 bits,
    // several times faster than in 128.
    match (bytes as u64).checked_mul(8 * NS_PER_S) {
        Some(bits) => bits.div_ceil(rate_bps),
        None => (bytes as u128 * 8 * NS_PER_S as u128).div_ceil(rate_bps as u128) as u64,
    }
}

/// Seconds as a float, for results only (never for scheduling).
#[inline]
pub fn ns_to_s(ns: u64) -> f64 {
    ns as f64 / NS_PER_S as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_time_of_a_1500_byte_packet_at_10_mbps_is_1_2_ms() {
        assert_eq!(tx_time_ns(1500, 10_000_000), 1_200_000);
    }

    #[test]
    fn serialization_time_rounds_up() {
        // 1 byte at 3 bps = 2.666.. s
        assert_eq!(tx_time_ns(1, 3), 2_666_666_667);
    }

    #[test]
    fn sizes_too_large_for_64_bit_arithmetic_are_exact_too() {
        // u32::MAX bytes = 34 359 738 360 bits at 7 bps: 4 908 534 051.43 s, rounded up.
        assert_eq!(tx_time_ns(u32::MAX, 7), 4_908_534_051_428_571_429);
        assert_eq!(tx_time_ns(2_305_843_009, 1), 2_305_843_009 * 8 * NS_PER_S);
    }
}
