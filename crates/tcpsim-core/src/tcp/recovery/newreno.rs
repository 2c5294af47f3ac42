//! NewReno fast recovery, RFC 6582 §3.2 (entry as Reno, see `super::reno`).
//!
//! Full ACK (covers `recover`, step 3): cwnd = ssthresh (option 2 of the RFC, as ns-2 and
//! ns-3 do) and recovery ends — precisely cwnd = `recovery_cwnd_bytes`, the congestion
//! controller's restart window (ssthresh unless it says otherwise, see `super::reno`).
//! Partial ACK (step 4): retransmit the first unacknowledged segment, deflate cwnd by the
//! amount acknowledged, add back one SMSS if that amount was at least one SMSS, and stay in
//! recovery. The retransmission timer is reset on the first partial ACK only (the
//! "Impatient" variant the RFC recommends, §4.1).

use crate::context::Ctx;
use crate::tcp::sender::TcpSender;

pub fn on_new_ack(s: &mut TcpSender, acked: u64, ctx: &mut Ctx) -> bool {
    let recover = s.recover.expect("recover is set on entering fast recovery");
    if s.snd_una >= recover {
        s.window.cwnd_bytes = s.recovery_cwnd_bytes;
        s.in_fast_recovery = false;
        s.dupacks = 0;
        return true;
    }
    s.retransmit_first_unacked(ctx);
    let mss = s.mss as u64;
    s.window.cwnd_bytes = s.window.cwnd_bytes.saturating_sub(acked).max(mss);
    if acked >= mss {
        s.window.cwnd_bytes += mss;
    }
    let first = !s.partial_ack_seen;
    s.partial_ack_seen = true;
    first
}
