//! Reno fast retransmit / fast recovery, RFC 5681 §3.2.
//!
//! Entry (step 2–3): retransmit the first unacknowledged segment, cwnd = ssthresh + 3·SMSS
//! (the three segments that left the network). Each further duplicate ACK inflates cwnd by
//! one SMSS (step 4, in `super::on_duplicate_ack`). The first ACK of new data deflates cwnd
//! to ssthresh and ends recovery (step 6), even if it is only a partial ACK — which is why
//! Reno needs another fast retransmit or a timeout for each further loss in the window.
//! The retransmission timer is restarted on entry, as in ns-2 and BSD.
//! "ssthresh" in steps 3 and 6 is `recovery_cwnd_bytes`, the congestion controller's restart
//! window: ssthresh for AIMD, min(cwnd, ssthresh) for Westwood (`casetti` Sec. 3.1, as ns-2's
//! window `cwnd_ + dupwnd_` of TCP-Westwood-NR). A controller may also set the entry window
//! itself (`Reduction::entry_cwnd_bytes`: ns-3's `TcpWestwood` starts from min(cwnd,
//! ssthresh) without the step 3 inflation).

use crate::context::Ctx;
use crate::tcp::sender::TcpSender;

pub fn enter_fast_recovery(s: &mut TcpSender, ctx: &mut Ctx) {
    s.retransmit_first_unacked(ctx);
    s.window.cwnd_bytes =
        s.recovery_entry_cwnd_bytes.unwrap_or(s.recovery_cwnd_bytes + s.dupack_threshold as u64 * s.mss as u64);
    s.in_fast_recovery = true;
    s.partial_ack_seen = false;
    s.restart_rto_timer(ctx);
}

/// Step 6: deflate and leave recovery.
pub fn on_new_ack(s: &mut TcpSender) -> bool {
    s.window.cwnd_bytes = s.recovery_cwnd_bytes;
    s.in_fast_recovery = false;
    s.dupacks = 0;
    true
}
