//! NewReno fast recovery, RFC 6582 §3.2: entry, inflation and deflation as Reno
//! (`super::reno`), but recovery ends only on a full ACK.
//!
//! Full ACK (covers `recover`, step 3): cwnd = ssthresh (option 2 of the RFC, as ns-2 and
//! ns-3 do) and recovery ends — precisely cwnd = the congestion controller's restart window
//! (ssthresh unless it says otherwise, see `super::reno`).
//! Partial ACK (step 4): retransmit the first unacknowledged segment, deflate cwnd by the
//! amount acknowledged, add back one SMSS if that amount was at least one SMSS, and stay in
//! recovery. The retransmission timer is reset on the first partial ACK only (the
//! "Impatient" variant the RFC recommends, §4.1).

use super::{RecoveryOps, Reno};
use crate::tcp::cc::Reduction;
use crate::tcp::send_state::SendState;
use crate::tcp::transmitter::Transmitter;

#[derive(Default)]
pub struct NewReno {
    reno: Reno,
    /// The "impatient" timer: reset only on the first partial ACK of a recovery.
    partial_ack_seen: bool,
}

impl RecoveryOps for NewReno {
    fn in_recovery(&self) -> bool {
        self.reno.in_recovery()
    }

    fn enter(&mut self, s: &mut SendState, r: &Reduction, tx: &mut Transmitter) {
        self.reno.enter(s, r, tx);
        self.partial_ack_seen = false;
    }

    fn on_duplicate_ack(&mut self, s: &mut SendState) {
        self.reno.on_duplicate_ack(s);
    }

    fn exit(&mut self, s: &mut SendState) {
        self.reno.exit(s);
    }

    fn on_partial_ack(&mut self, s: &mut SendState, acked: u64, tx: &mut Transmitter) -> bool {
        tx.retransmit_first_unacked(s);
        s.window.cwnd_bytes = s.window.cwnd_bytes.saturating_sub(acked).max(s.mss);
        if acked >= s.mss {
            s.window.cwnd_bytes += s.mss;
        }
        let first = !self.partial_ack_seen;
        self.partial_ack_seen = true;
        first
    }

    fn on_timeout(&mut self, s: &SendState) {
        self.reno.on_timeout(s);
    }

    fn uninflated_cwnd(&self, s: &SendState) -> u64 {
        self.reno.uninflated_cwnd(s)
    }
}
