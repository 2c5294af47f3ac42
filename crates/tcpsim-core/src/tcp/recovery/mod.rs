//! Loss recovery: what duplicate ACKs, ACKs during fast recovery and the sending of
//! segments do, shaped like ns-3's `TcpRecoveryOps`.
//!
//! The sender counts duplicate ACKs and, when [`RecoveryOps::loss_detected`] says so (and the
//! RFC 6582 §3.2 step 1 `recover` check allows it, see `TcpSender`), asks congestion control
//! for the reduction, sets ssthresh and `recover`, and calls [`RecoveryOps::enter`]. From
//! then on every duplicate ACK goes to [`RecoveryOps::on_duplicate_ack`] and every ACK of new
//! data either completes recovery ([`RecoveryOps::exit`]) or is partial
//! ([`RecoveryOps::on_partial_ack`]); after each ACK and timeout the sender asks
//! [`RecoveryOps::send`] what to send next. A timeout abandons recovery
//! ([`RecoveryOps::on_timeout`]); its go-back-N is the sender's, common to all.
//!
//! The algorithms act on [`SendState`] (sequence space, window, scoreboard) and send through
//! a [`Transmitter`]:
//! - [`Tahoe`]: fast retransmit, then slow start from one segment with go-back-N;
//! - [`Reno`]: RFC 5681 fast recovery, left on the first ACK of new data;
//! - [`NewReno`]: RFC 6582, left only when all data outstanding at entry is acknowledged;
//! - [`Sack`]: RFC 6675, which also enters when the scoreboard shows the first unacknowledged
//!   segment lost, and then sends by pipe and NextSeg rather than by window inflation;
//! - [`VegasNs2`]: ns-2.35's `Agent/TCP/Vegas` (`tcp/tcp-vegas.cc`): a fine-grained timeout
//!   that may retransmit on the first duplicate ACK, its own window cut, Reno-like inflation;
//! - [`WestwoodNs2`]: the ns-2 TCP Westwood agent's fast retransmit with no fast recovery.
//!
//! The reduction target comes from congestion control ([`super::cc::Reduction`]): ssthresh,
//! and optionally the window Reno/NewReno recovery inflates from and deflates back to
//! (RFC 5681's is ssthresh, Westwood's min(cwnd, ssthresh)).
//!
//! Adding an algorithm: a file with its struct and `impl RecoveryOps`, a variant in
//! `loss_recoveries!` below, and its `RecoveryKind` with the arm of
//! [`LossRecovery::from_kind`] that builds it.

mod newreno;
mod reno;
mod sack;
mod tahoe;
mod vegas_ns2;
mod westwood_ns2;

pub use newreno::NewReno;
pub use reno::Reno;
pub use sack::Sack;
pub use tahoe::Tahoe;
pub use vegas_ns2::VegasNs2;
pub use westwood_ns2::WestwoodNs2;

use super::cc::Reduction;
use super::send_state::SendState;
use super::transmitter::Transmitter;
use crate::config::RecoveryKind;
use crate::packet::Retransmission;

/// The hooks of a loss-recovery algorithm.
pub trait RecoveryOps {
    /// Between `enter` and the end of recovery (`exit` or a timeout).
    fn in_recovery(&self) -> bool;

    /// Whether the duplicate ACK just counted in `s.dupacks` signals a loss: by default the
    /// `dupack_threshold`-th (RFC 5681 §3.2 step 2).
    fn loss_detected(&self, s: &SendState) -> bool {
        s.dupacks == s.dupack_threshold
    }

    /// [`Self::loss_detected`] with the time of the duplicate ACK, for algorithms that also
    /// detect a loss by how long the first unacknowledged segment has been out (ns-2's Vegas,
    /// [`VegasNs2`]); by default the time is not looked at.
    fn loss_detected_at(&mut self, s: &SendState, _now_ns: u64) -> bool {
        self.loss_detected(s)
    }

    /// Whether fast retransmit may start, given whether RFC 6582 §3.2 step 1 (with
    /// `TcpConfig::avoid_repeated_fast_retransmit`) allows it: by default that answer.
    fn may_enter_fast_retransmit(&self, _s: &SendState, rfc6582_allows: bool) -> bool {
        rfc6582_allows
    }

    /// Whether the retransmission timeout is to be backed off (doubled, and the timer restarted
    /// with it) after the duplicate ACK just handled, as ns-2's Vegas does on each fast
    /// retransmit (`reset_rtx_timer(1)`); asking clears the request. By default never.
    fn take_rto_back_off(&mut self) -> bool {
        false
    }

    /// A duplicate ACK outside recovery that does not start it (before any limited transmit).
    fn on_ignored_duplicate_ack(&mut self, _s: &mut SendState) {}

    /// Start recovery: ssthresh and `recover` are already set from the congestion
    /// controller's reduction `r`; retransmit and set the window.
    fn enter(&mut self, s: &mut SendState, r: &Reduction, tx: &mut Transmitter);

    /// A duplicate ACK during recovery.
    fn on_duplicate_ack(&mut self, _s: &mut SendState) {}

    /// [`Self::on_duplicate_ack`] for algorithms that may send on it: by default that hook.
    fn on_duplicate_ack_tx(&mut self, s: &mut SendState, _tx: &mut Transmitter) {
        self.on_duplicate_ack(s);
    }

    /// RFC 3042 limited transmit, on a duplicate ACK that does not start recovery and is one
    /// of the first `dupack_threshold − 1` (asked only with `TcpConfig::limited_transmit`): one
    /// previously unsent segment if the receiver's window allows it and FlightSize then stays
    /// within cwnd + `dupacks`·SMSS — the RFC's "cwnd plus 2 segments" reached one segment per
    /// duplicate ACK, as ns-2's `TcpAgent::send_one` (`singledup_`: outstanding ≤ cwnd +
    /// dupacks) and Linux (each duplicate ACK taken out of the packets in flight) do. cwnd is
    /// not changed. Unlike ns-2, which sends its next sequence number even while going back
    /// after a timeout, only new data is sent, as the RFC says.
    fn limited_transmit(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        let limit = (s.window.cwnd_bytes + s.dupacks as u64 * s.mss).min(s.rwnd_bytes);
        send_new_segment(s, limit, tx);
    }

    /// Whether the ACK of new data just taken (`snd_una` advanced) ends recovery: by default
    /// when it covers `recover` (RFC 6582 §3.2 step 3, a "full acknowledgment").
    fn recovery_complete(&self, s: &SendState) -> bool {
        s.snd_una >= s.recover.expect("recover is set on entering recovery")
    }

    /// Leave recovery after a full acknowledgment (the sender then clears `dupacks`).
    fn exit(&mut self, s: &mut SendState);

    /// Whether the ACK that ends recovery also grows the window, as any ACK of new data outside
    /// recovery does: by default not (RFC 5681 §3.2 step 6 sets cwnd and stops there).
    fn grows_on_exit(&self) -> bool {
        false
    }

    /// A partial acknowledgment: new data acknowledged, `recover` not yet. Returns whether
    /// the retransmission timer is to be restarted; by default it is, as on every new ACK
    /// (RFC 6298 §5.3), and nothing else happens.
    fn on_partial_ack(&mut self, _s: &mut SendState, _acked: u64, _tx: &mut Transmitter) -> bool {
        true
    }

    /// After each ACK of new data has been taken (recovery left or continued, the timer
    /// restarted), with its RTT sample if it has one (exact, Karn's rule applied): by default
    /// nothing.
    fn after_new_ack(&mut self, _s: &mut SendState, _rtt_ns: Option<u64>, _tx: &mut Transmitter) {}

    /// What to send next, after each ACK and timeout: by default what the window allows.
    fn send(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        send_by_window(s, tx);
    }

    /// A retransmission timeout abandons recovery (the sender then resets the window and
    /// goes back to `snd_una`).
    fn on_timeout(&mut self, _s: &SendState) {}

    /// [`Self::on_timeout`] with the time of the timeout: by default that hook.
    fn on_timeout_at(&mut self, s: &SendState, _now_ns: u64) {
        self.on_timeout(s);
    }

    /// Bytes in flight (Linux `tcp_packets_in_flight`): sent, neither SACKed nor cumulatively
    /// acknowledged, nor deemed lost without having been retransmitted. By default (no loss
    /// marked) FlightSize less the SACKed bytes.
    fn pipe_bytes(&self, s: &SendState) -> u64 {
        s.flight_size().saturating_sub(s.sacked_count() * s.mss)
    }

    /// The window as it would be without fast-recovery inflation (the window ns-2 halves on
    /// a timeout, `TimeoutSsthresh::Every`).
    fn uninflated_cwnd(&self, s: &SendState) -> u64 {
        s.window.cwnd_bytes
    }
}

/// Send new (or go-back-N) segments while the window allows (RFC 5681 §3.1: at most
/// min(cwnd, rwnd) bytes outstanding) and pacing does not hold the next back. Go-back-N skips SACKed segments: our receiver never
/// reneges, so they need no resending (as Linux does after a timeout).
pub fn send_by_window(s: &mut SendState, tx: &mut Transmitter) {
    let wnd = s.window.cwnd_bytes.min(s.rwnd_bytes);
    while s.snd_nxt < s.data_end {
        let len = s.segment_len(s.snd_nxt);
        if s.snd_nxt + len > s.snd_una + wnd {
            break;
        }
        let resend = s.snd_nxt < s.snd_max;
        if !(resend && s.segment_at(s.snd_nxt).sacked) {
            if tx.paced() {
                break;
            }
            let kind = if resend { Retransmission::GoBackN } else { Retransmission::No };
            tx.send(s, s.snd_nxt, kind);
        }
        s.snd_nxt += len;
        s.snd_max = s.snd_max.max(s.snd_nxt);
    }
}

/// Send the next previously unsent segment by limited transmit if the receiver's window has
/// room and at most `limit` bytes are then outstanding; returns its length if it was sent.
fn send_new_segment(s: &mut SendState, limit: u64, tx: &mut Transmitter) -> Option<u64> {
    if s.snd_nxt != s.snd_max || s.snd_max >= s.data_end {
        return None; // going back after a timeout, or nothing new to send
    }
    let len = s.segment_len(s.snd_max);
    if s.snd_max + len > s.snd_una + limit.min(s.rwnd_bytes) || tx.paced() {
        return None;
    }
    tx.send(s, s.snd_max, Retransmission::No);
    s.snd_max += len;
    s.snd_nxt = s.snd_max;
    s.limited_transmit_bytes += len;
    Some(len)
}

/// Declares [`LossRecovery`], one variant per algorithm (named after its type), and the
/// single match that dispatches to it.
macro_rules! loss_recoveries {
    ($($algorithm:ident),+ $(,)?) => {
        /// A loss-recovery algorithm. Each hook call matches once, in `ops`/`ops_mut`.
        pub enum LossRecovery {
            $($algorithm($algorithm)),+
        }

        impl LossRecovery {
            #[inline]
            pub fn ops(&self) -> &dyn RecoveryOps {
                match self {
                    $(LossRecovery::$algorithm(a) => a),+
                }
            }

            #[inline]
            pub fn ops_mut(&mut self) -> &mut dyn RecoveryOps {
                match self {
                    $(LossRecovery::$algorithm(a) => a),+
                }
            }
        }
    };
}

loss_recoveries!(Tahoe, Reno, NewReno, Sack, VegasNs2, WestwoodNs2);

impl LossRecovery {
    pub fn from_kind(kind: RecoveryKind) -> Self {
        match kind {
            RecoveryKind::Tahoe => LossRecovery::Tahoe(Tahoe),
            RecoveryKind::Reno => LossRecovery::Reno(Reno::default()),
            RecoveryKind::Newreno => LossRecovery::NewReno(NewReno::default()),
            RecoveryKind::Sack => LossRecovery::Sack(Sack::default()),
            RecoveryKind::VegasNs2 => LossRecovery::VegasNs2(VegasNs2::default()),
            RecoveryKind::WestwoodNs2 => LossRecovery::WestwoodNs2(WestwoodNs2::default()),
        }
    }
}

#[cfg(test)]
mod tests;
