//! TCP Tahoe (4.3BSD-Tahoe as modelled by ns-2's `TcpAgent`): after `dupack_threshold`
//! duplicate ACKs, retransmit the lost segment, set cwnd to one segment and slow-start,
//! resending everything after the lost segment (go-back-N). No fast recovery. A restart
//! window proposed by congestion control (`Reduction::cwnd_bytes`) is ignored: Tahoe always
//! restarts from one segment, as Westwood does after a timeout.

use crate::context::Ctx;
use crate::tcp::sender::TcpSender;

pub fn enter(s: &mut TcpSender, ctx: &mut Ctx) {
    s.window.cwnd_bytes = s.mss as u64;
    s.snd_nxt = s.snd_una;
    s.retransmit_first_unacked(ctx);
    s.restart_rto_timer(ctx);
}
