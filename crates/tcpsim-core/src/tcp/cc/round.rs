//! Round-trip boundaries for `CongestionOps::on_round_end`: a round ends on the ACK that
//! covers every byte sent before it began, i.e. ACK ≥ the `snd_nxt` recorded when the
//! previous round ended (Brakmo & Peterson's Vegas: "beg_snd_nxt"; Linux `tcp_vegas.c`).

#[derive(Default)]
pub struct RoundCounter {
    /// snd_nxt when the current round began.
    end: u64,
}

impl RoundCounter {
    /// An ACK of new data with cumulative ACK `ack`, sent so far up to `snd_nxt`: whether it
    /// ends the round (and a new one starts, ending at `snd_nxt`).
    #[inline]
    pub fn on_ack(&mut self, ack: u64, snd_nxt: u64) -> bool {
        if ack < self.end {
            return false;
        }
        self.end = snd_nxt;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::RoundCounter;

    #[test]
    fn a_round_ends_once_per_window_of_data() {
        let mut r = RoundCounter::default();
        // The first ACK ends the empty round 0; the next round ends when all 4 000 bytes in
        // flight then are acknowledged, whatever was sent meanwhile.
        assert!(r.on_ack(1000, 4000));
        assert!(!r.on_ack(2000, 5000));
        assert!(!r.on_ack(3999, 6000));
        assert!(r.on_ack(4000, 7000));
        assert!(!r.on_ack(6500, 9000));
        assert!(r.on_ack(7000, 9000));
    }
}
