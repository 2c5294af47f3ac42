//! Reno fast retransmit / fast recovery, RFC 5681 §3.2.
//!
//! Entry (step 2–3): retransmit the first unacknowledged segment, cwnd = ssthresh + 3·SMSS
//! (the three segments that left the network). Each further duplicate ACK inflates cwnd by
//! one SMSS (step 4). The first ACK of new data deflates cwnd to ssthresh and ends recovery
//! (step 6), even if it is only a partial ACK — which is why Reno needs another fast
//! retransmit or a timeout for each further loss in the window.
//! The retransmission timer is restarted on entry, as in ns-2 and BSD.
//! "ssthresh" in steps 3 and 6 is `restart_cwnd_bytes`, the congestion controller's restart
//! window: ssthresh for AIMD, min(cwnd, ssthresh) for Westwood (`casetti` Sec. 3.1, as ns-2's
//! window `cwnd_ + dupwnd_` of TCP-Westwood-NR). A controller may also set the entry window
//! itself (`Reduction::entry_cwnd_bytes`: ns-3's `TcpWestwood` starts from min(cwnd,
//! ssthresh) without the step 3 inflation).

use super::RecoveryOps;
use crate::tcp::cc::Reduction;
use crate::tcp::send_state::SendState;
use crate::tcp::transmitter::Transmitter;

#[derive(Default)]
pub struct Reno {
    in_recovery: bool,
    /// The window recovery inflates from and deflates back to, from the reduction.
    restart_cwnd_bytes: u64,
}

impl RecoveryOps for Reno {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn enter(&mut self, s: &mut SendState, r: &Reduction, tx: &mut Transmitter) {
        tx.retransmit_first_unacked(s);
        self.restart_cwnd_bytes = r.cwnd_bytes.unwrap_or(r.ssthresh_bytes);
        s.window.cwnd_bytes = r.entry_cwnd_bytes.unwrap_or(self.restart_cwnd_bytes + s.dupack_threshold as u64 * s.mss);
        self.in_recovery = true;
        tx.restart_rto_timer_at_fast_retransmit();
    }

    /// Step 4: inflate by one segment per duplicate ACK.
    fn on_duplicate_ack(&mut self, s: &mut SendState) {
        s.window.cwnd_bytes += s.mss;
    }

    /// Step 6: any ACK of new data ends Reno's recovery.
    fn recovery_complete(&self, _s: &SendState) -> bool {
        true
    }

    /// Step 6: deflate.
    fn exit(&mut self, s: &mut SendState) {
        s.window.cwnd_bytes = self.restart_cwnd_bytes;
        self.in_recovery = false;
    }

    fn on_timeout(&mut self, _s: &SendState) {
        self.in_recovery = false;
    }

    fn uninflated_cwnd(&self, s: &SendState) -> u64 {
        if self.in_recovery {
            s.window.cwnd_bytes.min(self.restart_cwnd_bytes)
        } else {
            s.window.cwnd_bytes
        }
    }
}
