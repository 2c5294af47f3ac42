//! The loss recovery of the ns-2 TCP Westwood agent the `casetti` authors distributed
//! (`Agent/TCP/Westwood`, `tcp/tcp-westwood.cc` v1.3 of 2002-06-21, `WestwoodTcpAgent::recv`
//! and `dupack_action`): a fast retransmit with no fast recovery after it.
//!
//! - The agent's `recv` replaces Reno's: it counts duplicate ACKs and, on exactly the
//!   `dupack_threshold`-th (`NUMDUPACKS`), calls `dupack_action`, which sets ssthresh from the
//!   bandwidth estimate, lowers cwnd to it if larger, restarts the retransmission timer
//!   without back-off (`reset_rtx_timer(1,0)`) and resends the first unacknowledged segment.
//!   The window it leaves is the congestion controller's `Reduction::cwnd_bytes` (ssthresh if
//!   none is given).
//! - Nothing inflates the window: `dupwnd_` is never set, so further duplicate ACKs send
//!   nothing the window does not already allow, and there is no limited transmit (`recv` never
//!   calls `send_one`; run it with `TcpConfig::limited_transmit` off).
//! - The next ACK of new data ends the episode (`newack` clears `dupacks_`) and, being an ACK
//!   of new data like any other, grows the window (`recv_newack_helper` → `opencwnd`: one
//!   segment in slow start, 1/cwnd in congestion avoidance) from where the cut left it.
//!   One segment more after a cut in slow start is one packet more in a drop-tail buffer the
//!   window already fills: on `casetti`'s batcp path (buffer = BDP) it is the first
//!   divergence of tcpsim from the agent under identical losses.
//! - No `recover` guard: a partial ACK followed by n more duplicate ACKs is another fast
//!   retransmit (run it with `TcpConfig::avoid_repeated_fast_retransmit` off).

use super::RecoveryOps;
use crate::tcp::cc::Reduction;
use crate::tcp::send_state::SendState;
use crate::tcp::transmitter::Transmitter;

#[derive(Default)]
pub struct WestwoodNs2 {
    in_recovery: bool,
}

impl RecoveryOps for WestwoodNs2 {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    /// `dupack_action`: the window cut, the timer restarted, the segment resent.
    fn enter(&mut self, s: &mut SendState, r: &Reduction, tx: &mut Transmitter) {
        tx.retransmit_first_unacked(s);
        s.window.cwnd_bytes = r.entry_cwnd_bytes.or(r.cwnd_bytes).unwrap_or(r.ssthresh_bytes);
        self.in_recovery = true;
        tx.restart_rto_timer();
    }

    /// Any ACK of new data ends the episode (`newack`).
    fn recovery_complete(&self, _s: &SendState) -> bool {
        true
    }

    /// cwnd stays where `enter` left it, then grows on this ACK (`grows_on_exit`).
    fn exit(&mut self, _s: &mut SendState) {
        self.in_recovery = false;
    }

    /// `WestwoodTcpAgent::recv` calls `recv_newack_helper` on every ACK of new data.
    fn grows_on_exit(&self) -> bool {
        true
    }

    fn on_timeout(&mut self, _s: &SendState) {
        self.in_recovery = false;
    }
}
