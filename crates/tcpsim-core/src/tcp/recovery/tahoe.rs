//! TCP Tahoe (4.3BSD-Tahoe as modelled by ns-2's `TcpAgent`): after `dupack_threshold`
//! duplicate ACKs, retransmit the lost segment, set cwnd to one segment and slow-start,
//! resending everything after the lost segment (go-back-N). No fast recovery. A restart
//! window proposed by congestion control (`Reduction::cwnd_bytes`) is ignored: Tahoe always
//! restarts from one segment, as Westwood does after a timeout.

use super::RecoveryOps;
use crate::tcp::cc::Reduction;
use crate::tcp::send_state::SendState;
use crate::tcp::transmitter::Transmitter;

pub struct Tahoe;

impl RecoveryOps for Tahoe {
    /// Tahoe never is in fast recovery: it is back in slow start at once.
    fn in_recovery(&self) -> bool {
        false
    }

    fn enter(&mut self, s: &mut SendState, _r: &Reduction, tx: &mut Transmitter) {
        s.window.cwnd_bytes = s.mss;
        s.snd_nxt = s.snd_una;
        tx.retransmit_first_unacked(s);
        tx.restart_rto_timer_at_fast_retransmit();
    }

    fn exit(&mut self, _s: &mut SendState) {}
}
