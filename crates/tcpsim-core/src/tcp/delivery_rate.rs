//! Delivery-rate estimation: draft-cheng-iccrg-delivery-rate-estimation-02 (Cheng, Cardwell,
//! Yeganeh, Jacobson), as Linux implements it in `net/ipv4/tcp_rate.c` (4.9 on).
//!
//! Each segment, when (re)sent, is stamped with the connection's `delivered` count, the time
//! that count last grew (`delivered_time`), the send time of the first segment of the flight
//! being acknowledged (`first_sent_time`) and whether the connection was application-limited
//! (draft §3.2, "Transmitting a data packet"; Linux `tcp_rate_skb_sent`). When a segment is
//! delivered — SACKed or cumulatively acknowledged, whichever comes first — the connection
//! counts its bytes and the ACK's sample takes the stamps of the most recently sent segment it
//! delivers (§3.3, `tcp_rate_skb_delivered`). Per ACK the sample is (§3.4, `tcp_rate_gen`):
//!
//! - delivered = C.delivered − P.delivered;
//! - interval = max(send_elapsed, ack_elapsed), send_elapsed = P.sent_time −
//!   P.first_sent_time, ack_elapsed = now − P.delivered_time;
//! - invalid if no segment was delivered, or if the interval is shorter than the minimum RTT
//!   (Linux's guard against ACK compression of a retransmission).
//!
//! Counts are in payload bytes (Linux counts packets). The stamps live in a deque parallel to
//! `SendState::segments`, filled only when the congestion control wants rate samples
//! (`CongestionOps::wants_rate_samples`): otherwise nothing here is touched. The deque grows to
//! the largest flight and is then reused, so the hot path allocates nothing.
//!
//! Application-limited periods (§3.1, Linux `tcp_rate_check_app_limited`): when the sender has
//! less than a segment of new data to send and the window is not full, `app_limited` becomes
//! C.delivered + inflight (at least 1), and samples of segments sent until that much has been
//! delivered are marked application-limited.

use std::collections::VecDeque;

/// A segment's stamps at its last transmission (Linux `tcp_skb_cb::tx`).
#[derive(Clone, Copy, Debug, Default)]
struct TxStamp {
    delivered: u64,
    delivered_ns: u64,
    first_sent_ns: u64,
    app_limited: bool,
}

/// One ACK's delivery-rate sample (Linux `struct rate_sample`), with the connection's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateSample {
    /// Bytes delivered over the sample's interval (C.delivered − P.delivered); valid only
    /// with `interval_ns`.
    pub delivered_bytes: u64,
    /// max(send_elapsed, ack_elapsed), ns; None: no valid sample from this ACK.
    pub interval_ns: Option<u64>,
    /// The segment the sample is taken from was sent while application-limited.
    pub is_app_limited: bool,
    /// P.delivered: the connection's `delivered` when that segment was sent; None if this ACK
    /// delivered nothing.
    pub prior_delivered: Option<u64>,
    /// Bytes newly delivered (SACKed or cumulatively ACKed) by this ACK.
    pub acked_sacked_bytes: u64,
    /// C.delivered after this ACK: every byte delivered so far.
    pub total_delivered_bytes: u64,
    /// Bytes in flight before this ACK (Linux `rs->prior_in_flight`) and after it
    /// (`tcp_packets_in_flight`): sent, not SACKed, not cumulatively ACKed, not lost.
    pub prior_in_flight_bytes: u64,
    pub in_flight_bytes: u64,
    /// RTT of the most recently sent segment this ACK delivers, if it was never retransmitted
    /// (Linux `rs->rtt_us`, from the last (S)ACKed segment).
    pub rtt_ns: Option<u64>,
    /// Bytes newly deemed lost by this ACK (Linux `rs->losses`), estimated as the fall of the
    /// bytes in flight that delivery does not explain: prior_in_flight − in_flight −
    /// acked_sacked, at least 0 (set by the sender).
    pub lost_bytes: u64,
    /// The time of the ACK.
    pub now_ns: u64,
    /// C.delivered_time after this ACK: when `total_delivered_bytes` last grew.
    pub delivered_ns: u64,
}

/// The connection's delivery-rate state (draft §3.1; Linux `tcp_sock` delivered,
/// delivered_mstamp, first_tx_mstamp, app_limited) and the sample being built for this ACK.
#[derive(Default)]
pub struct DeliveryRate {
    enabled: bool,
    /// Stamps of the outstanding segments, parallel to `SendState::segments`.
    stamps: VecDeque<TxStamp>,
    /// C.delivered, bytes.
    pub delivered: u64,
    /// C.delivered_time.
    delivered_ns: u64,
    /// C.first_sent_time.
    first_sent_ns: u64,
    /// C.app_limited: the `delivered` count at which the application-limited period ends (0:
    /// not application-limited).
    app_limited: u64,
    // The sample of the ACK being processed.
    acked_sacked: u64,
    /// (P.delivered, P.delivered_time, send_elapsed, is_app_limited) of the chosen segment.
    prior: Option<(u64, u64, u64, bool)>,
    /// Newest send time among the never-retransmitted segments delivered by this ACK.
    newest_clean_sent_ns: Option<u64>,
}

impl DeliveryRate {
    pub fn new(enabled: bool) -> Self {
        DeliveryRate { enabled, ..Default::default() }
    }

    #[inline]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Segment `index` (of `SendState::segments`, `len` of them before this one was added if
    /// new) is put on the wire at `now_ns` (§3.2, `tcp_rate_skb_sent`): with nothing in flight
    /// the flight's clocks restart.
    pub(crate) fn on_sent(&mut self, index: usize, nothing_in_flight: bool, now_ns: u64) {
        if nothing_in_flight {
            self.first_sent_ns = now_ns;
            self.delivered_ns = now_ns;
        }
        let stamp = TxStamp {
            delivered: self.delivered,
            delivered_ns: self.delivered_ns,
            first_sent_ns: self.first_sent_ns,
            app_limited: self.app_limited != 0,
        };
        if index < self.stamps.len() {
            self.stamps[index] = stamp;
        } else {
            self.stamps.push_back(stamp);
        }
    }

    /// Segment `index`, of `len` bytes, last sent at `sent_ns`, ever `retransmitted`, is
    /// delivered for the first time (§3.3, `tcp_rate_skb_delivered`): counted, and its stamps
    /// become the sample's if it was sent after the sample's segment so far.
    pub(crate) fn on_delivered(&mut self, index: usize, len: u64, sent_ns: u64, retransmitted: bool) {
        let tx = self.stamps[index];
        self.delivered += len;
        self.acked_sacked += len;
        if self.prior.is_none_or(|(p, ..)| p == 0 || tx.delivered > p) {
            self.prior = Some((tx.delivered, tx.delivered_ns, sent_ns - tx.first_sent_ns, tx.app_limited));
            self.first_sent_ns = sent_ns;
        }
        if !retransmitted {
            self.newest_clean_sent_ns = Some(self.newest_clean_sent_ns.map_or(sent_ns, |t| t.max(sent_ns)));
        }
    }

    /// The front segment's stamps are dropped (it was cumulatively acknowledged).
    pub(crate) fn pop_front(&mut self) {
        self.stamps.pop_front();
    }

    /// The ACK has been processed: its sample (§3.4, `tcp_rate_gen`), with `min_rtt_ns` the
    /// connection's minimum RTT (samples over a shorter interval are invalid). Resets the
    /// per-ACK state.
    pub(crate) fn take_sample(&mut self, now_ns: u64, min_rtt_ns: Option<u64>) -> RateSample {
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        if self.acked_sacked > 0 {
            self.delivered_ns = now_ns;
        }
        let mut rs = RateSample {
            now_ns,
            delivered_ns: self.delivered_ns,
            acked_sacked_bytes: std::mem::take(&mut self.acked_sacked),
            total_delivered_bytes: self.delivered,
            rtt_ns: self.newest_clean_sent_ns.take().map(|t| now_ns - t),
            ..Default::default()
        };
        if let Some((prior_delivered, prior_ns, send_elapsed, app_limited)) = self.prior.take() {
            rs.prior_delivered = Some(prior_delivered);
            rs.delivered_bytes = self.delivered - prior_delivered;
            rs.is_app_limited = app_limited;
            let interval = send_elapsed.max(now_ns - prior_ns);
            rs.interval_ns = Some(interval).filter(|&i| min_rtt_ns.is_none_or(|m| i >= m));
        }
        rs
    }

    /// The sender has less than a segment of new data and `in_flight_bytes` below its window
    /// (§3.1, `tcp_rate_check_app_limited`): application-limited until what is in flight now
    /// has been delivered.
    pub(crate) fn mark_app_limited(&mut self, in_flight_bytes: u64) {
        self.app_limited = (self.delivered + in_flight_bytes).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Draft §3 worked by hand: 4 segments of 1000 bytes sent 1 ms apart from t = 0 (nothing
    /// in flight: first_sent = delivered_time = 0), ACKed one by one 100 ms after sending.
    #[test]
    fn a_flight_acked_in_order_gives_one_sample_per_ack() {
        let mut r = DeliveryRate::new(true);
        for i in 0..4 {
            r.on_sent(i, i == 0, i as u64 * MS);
        }
        // ACK of segment 0 at 100 ms: P = segment 0 (delivered 0, delivered_time 0, sent 0).
        r.on_delivered(0, 1000, 0, false);
        r.pop_front();
        let s = r.take_sample(100 * MS, Some(100 * MS));
        assert_eq!(s.delivered_bytes, 1000);
        assert_eq!(s.interval_ns, Some(100 * MS), "max(send 0, ack 100 ms)");
        assert_eq!(s.rtt_ns, Some(100 * MS));
        assert_eq!((s.acked_sacked_bytes, s.total_delivered_bytes), (1000, 1000));
        // ACK of segment 1 at 101 ms: its stamps are delivered 0, delivered_time 0, first_sent
        // 0 (sent while the flight was out) → delivered 2000 over max(1 ms, 101 ms).
        r.on_delivered(0, 1000, MS, false);
        r.pop_front();
        let s = r.take_sample(101 * MS, Some(100 * MS));
        assert_eq!((s.delivered_bytes, s.interval_ns), (2000, Some(101 * MS)));
        assert_eq!(s.prior_delivered, Some(0));
        // Segment 4 sent at 101 ms carries delivered 2000, delivered_time 101 ms, first_sent 1
        // ms (segment 1's send time, taken when it was delivered).
        r.on_sent(2, false, 101 * MS);
        r.on_delivered(0, 1000, 2 * MS, false);
        r.on_delivered(1, 1000, 3 * MS, false);
        r.pop_front();
        r.pop_front();
        let s = r.take_sample(103 * MS, Some(100 * MS));
        assert_eq!((s.delivered_bytes, s.interval_ns), (4000, Some(103 * MS)), "one ACK, two segments");
        assert_eq!(s.rtt_ns, Some(100 * MS), "from the newest segment delivered");
        r.on_delivered(0, 1000, 101 * MS, false);
        let s = r.take_sample(201 * MS, Some(100 * MS));
        // P = segment 4: delivered 2000 → 5000 − 2000 = 3000 bytes over max(101 − 1 ms,
        // 201 − 101 ms) = 100 ms.
        assert_eq!((s.delivered_bytes, s.interval_ns, s.prior_delivered), (3000, Some(100 * MS), Some(2000)));
    }

    #[test]
    fn an_interval_shorter_than_the_minimum_rtt_is_no_sample_nor_is_an_ack_that_delivers_nothing() {
        let mut r = DeliveryRate::new(true);
        r.on_sent(0, true, 0);
        r.on_sent(1, false, 0);
        let s = r.take_sample(5 * MS, Some(10 * MS));
        assert_eq!((s.interval_ns, s.prior_delivered, s.acked_sacked_bytes), (None, None, 0), "nothing delivered");
        r.on_delivered(1, 1000, 0, true); // SACKed, retransmitted: no RTT
        let s = r.take_sample(5 * MS, Some(10 * MS));
        assert_eq!(s.interval_ns, None, "5 ms < min RTT 10 ms");
        assert_eq!((s.delivered_bytes, s.rtt_ns, s.total_delivered_bytes), (1000, None, 1000));
    }

    #[test]
    fn segments_sent_while_application_limited_give_app_limited_samples_until_the_bubble_is_delivered() {
        let mut r = DeliveryRate::new(true);
        r.on_sent(0, true, 0);
        r.mark_app_limited(1000); // 1000 in flight: limited until delivered > 1000
        r.on_sent(1, false, MS);
        r.on_delivered(0, 1000, 0, false);
        r.pop_front();
        assert!(!r.take_sample(10 * MS, None).is_app_limited, "segment 0 was sent before");
        r.on_sent(1, false, 10 * MS); // segment 2: the limit is still 1000, stamped app-limited
        r.on_delivered(0, 1000, MS, false); // segment 1
        r.on_delivered(1, 1000, 10 * MS, false); // segment 2
        let s = r.take_sample(20 * MS, None);
        assert!(s.is_app_limited);
        assert_eq!(r.app_limited, 0, "3000 delivered > 1000: the period is over");
    }
}
