//! Loss recovery: what duplicate ACKs and ACKs during fast recovery do.
//!
//! The three algorithms share the entry condition (RFC 5681 §3.2 step 2 with the RFC 6582
//! §3.2 step 1 `recover` check when `avoid_repeated_fast_retransmit` is set) and differ in
//! what they do then:
//! - [`tahoe`]: fast retransmit, then slow start from one segment with go-back-N;
//! - [`reno`]: RFC 5681 fast recovery, left on the first ACK of new data;
//! - [`newreno`]: RFC 6582, left only when all data outstanding at entry is acknowledged;
//! - [`sack`]: RFC 6675, which also enters when the scoreboard shows the first unacknowledged
//!   segment lost, and then sends by pipe and NextSeg rather than by window inflation.
//!
//! The retransmission timeout is common to all and lives in the sender.
//! The reduction target comes from congestion control ([`super::cc::Reduction`]): ssthresh,
//! and optionally the window Reno/NewReno recovery inflates from and deflates back to
//! (`TcpSender::recovery_cwnd_bytes`; RFC 5681's is ssthresh, Westwood's min(cwnd, ssthresh)).

mod newreno;
mod reno;
pub(crate) mod sack;
mod tahoe;

use super::cc::LossSignal;
use super::sender::TcpSender;
use crate::config::RecoveryKind;
use crate::context::Ctx;

/// A duplicate ACK arrived (`s.dupacks` already counts it).
pub fn on_duplicate_ack(s: &mut TcpSender, ctx: &mut Ctx) {
    if s.in_fast_recovery {
        if s.recovery_kind != RecoveryKind::Sack {
            // RFC 5681 §3.2 step 4 / RFC 6582 §3.2 step 4: inflate by one segment per dup ACK.
            s.window.cwnd_bytes += s.mss as u64;
        }
        return;
    }
    let triggered = match s.recovery_kind {
        RecoveryKind::Sack => s.dupacks >= s.dupack_threshold || sack::first_unacked_is_lost(s),
        _ => s.dupacks == s.dupack_threshold,
    };
    if !triggered || !may_enter_fast_retransmit(s) {
        return;
    }
    s.counters.fast_retransmits += 1;
    let flight = s.flight_size();
    let r = s.cc.ops_mut().on_loss(&s.window, flight, LossSignal::DuplicateAcks, ctx.now());
    s.window.ssthresh_bytes = r.ssthresh_bytes;
    s.recovery_cwnd_bytes = r.cwnd_bytes.unwrap_or(r.ssthresh_bytes);
    s.recovery_entry_cwnd_bytes = r.entry_cwnd_bytes;
    s.window.ca_credit = 0;
    s.recover = Some(s.snd_max);
    match s.recovery_kind {
        RecoveryKind::Tahoe => tahoe::enter(s, ctx),
        RecoveryKind::Reno | RecoveryKind::Newreno => reno::enter_fast_recovery(s, ctx),
        RecoveryKind::Sack => sack::enter(s, ctx),
    }
}

/// An ACK of new data arrived during fast recovery. Returns whether the retransmission
/// timer is to be restarted.
pub fn on_new_ack_in_fast_recovery(s: &mut TcpSender, acked: u64, ctx: &mut Ctx) -> bool {
    match s.recovery_kind {
        RecoveryKind::Tahoe => unreachable!("Tahoe has no fast recovery"),
        RecoveryKind::Reno => reno::on_new_ack(s),
        RecoveryKind::Newreno => newreno::on_new_ack(s, acked, ctx),
        RecoveryKind::Sack => sack::on_new_ack(s),
    }
}

/// RFC 6582 §3.2 step 1: enter fast retransmit only if the cumulative ACK "covers more than
/// recover" (the highest sequence number sent when it was set, i.e. `r − 1` here: the ACK
/// must exceed `r`), so that duplicate ACKs caused by go-back-N after a timeout — which
/// arrive with ACK = `r` once the hole is filled — or by the same window's other losses do
/// not trigger a needless retransmission and cut the window again.
fn may_enter_fast_retransmit(s: &TcpSender) -> bool {
    !s.avoid_repeated_fast_retransmit || s.recover.is_none_or(|r| s.snd_una > r)
}

#[cfg(test)]
mod tests;
