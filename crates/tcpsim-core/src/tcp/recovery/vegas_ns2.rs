//! ns-2.35's Vegas loss recovery (`Agent/TCP/Vegas`, `tcp/tcp-vegas.cc`,
//! `VegasTcpAgent::recv`, `vegas_expire`, `timeout`), which replaces TcpAgent's Reno-style
//! duplicate-ACK handling with Brakmo & Peterson's fine-grained checks. Rule by rule:
//!
//! - Fine-grained timeout `v_timeout_` (`recv`, the RTT block after a new ACK): Jacobson's
//!   estimator on the exact RTT samples, `sa` (8·srtt) and `sd` (4·mdev); timeout =
//!   (sa/4 + sd)/2 · 17/16. Before the first ACK it is 1000 s; the first ACK sets sa = 8·r,
//!   sd = r, timeout = 1.5·r from r = the time since the first segment left (`firstrecv_`).
//!   ns-2 takes a sample only if the newest acknowledged segment was sent once; here Karn's
//!   rule over all the acknowledged segments (the sender's sample) is used.
//! - `vegas_expire`: the first unacknowledged segment has been out (since its last
//!   transmission) at least `v_timeout_`.
//! - Each duplicate ACK: if it expired, or this is the `dupack_threshold`-th, and unless a
//!   timeout came last and the ACK has not passed `recover` (`bug_fix_`): `recover` = highest
//!   sent; two "worried" checks armed (`v_worried_` = min(2, t_seqno_ − last_ack_));
//!   `v_timeout_` doubled if the segment was already resent, else +1/8; the window cut (below)
//!   only if the window has not been cut since the segment left (`t_cwnd_changed_ <
//!   sendTime`); the retransmission timer backed off (RTO doubled until the next RTT sample)
//!   and restarted (`reset_rtx_timer(1)`); the segment resent; and, if it had been
//!   sent once, `dupacks` set to the threshold (so an expiry on the first duplicate ACK counts
//!   as the third). Otherwise each duplicate ACK beyond the threshold adds one segment.
//! - The window cut, from win = ⌊min(cwnd, rwnd)⌋ segments (`window()`): win ≤ 3 → 2; a
//!   segment resent before → win/2; else win − ⌊win/4⌋. That is `v_newcwnd_`; cwnd =
//!   v_newcwnd_ + dupacks (inflation). ssthresh is left alone.
//! - The first ACK of new data: if `dupacks` > threshold and cwnd > v_newcwnd_, cwnd =
//!   v_newcwnd_ and ssthresh = 2 segments (Vegas uses ssthresh only for slow start). Recovery
//!   then ends, as Reno's.
//! - The (up to) two ACKs of new data after a fast retransmit (`v_worried_`): if the new
//!   first unacknowledged segment has expired, resend it (no window change) and set
//!   `dupacks` to the threshold, so further duplicate ACKs inflate and the next new ACK
//!   deflates; else stop checking.
//! - Timeout (`VegasTcpAgent::timeout`): `v_newcwnd_` = 0, the window counts as changed now,
//!   and a timeout is the last action for the `bug_fix_` guard. The restart window (2
//!   segments) and ssthresh are the congestion controller's (`timeout_cwnd`), the halving the
//!   sender's `TimeoutSsthresh::Every`.
//!
//! Fitting tcpsim's split: the sender still asks the congestion controller for a reduction
//! on entry (the Vegas controller uses it to know that recovery started), but ns-2 does not
//! touch ssthresh on duplicate ACKs, so `enter` puts back the ssthresh seen just before
//! (recorded in `loss_detected_at`) and sets cwnd by the cut above; the controller's answer
//! is otherwise ignored. As in ns-2, a segment that left at the very first instant (time 0 of
//! `vegastime()`, like `t_cwnd_changed_`'s initial 0) is never cut for.
//!
//! Differences left: ns-2 keeps the RTO back-off until a segment timed after the fast
//! retransmit is acknowledged; here the next RTT sample (Karn's rule) ends it. A duplicate ACK
//! beyond the threshold that is not in recovery (the guard refused it) inflates cwnd as in
//! ns-2, but deflation happens only when recovery ends, and never to a v_newcwnd_ of 0 (ns-2
//! would set cwnd to 0 after a timeout, or to an uninitialised value before any cut). ns-2
//! grows the window on the ACK that deflates it; here, as for Reno, that ACK does not. A second
//! fast retransmit inside one recovery counts as a fast-retransmitted segment, not an episode.

use super::{send_by_window, RecoveryOps};
use crate::tcp::cc::Reduction;
use crate::tcp::send_state::SendState;
use crate::tcp::transmitter::Transmitter;

pub struct VegasNs2 {
    in_recovery: bool,
    /// When the first segment left (`firstsent_`); times are compared to it.
    first_sent_ns: Option<u64>,
    /// The first ACK has initialised the estimator (`firstrecv_ >= 0`).
    initialised: bool,
    /// `v_sa_`, `v_sd_`, `v_timeout_`, in ns.
    sa: f64,
    sd: f64,
    timeout_ns: f64,
    /// `v_worried_`: ACKs of new data still to check for an expired segment.
    worried: u32,
    /// `v_newcwnd_`: the cut window recovery inflates from (bytes).
    newcwnd_bytes: u64,
    /// `t_cwnd_changed_` (None: at the first send, ns-2's 0).
    cwnd_changed_ns: Option<u64>,
    /// `last_cwnd_action_ == CWND_ACTION_TIMEOUT`.
    after_timeout: bool,
    /// ssthresh just before the congestion controller's reduction on entry.
    ssthresh_before_bytes: u64,
    /// The last duplicate ACK found the first unacknowledged segment expired.
    expired: bool,
    /// A fast retransmit asked for the coarse RTO to be backed off.
    back_off_rto: bool,
}

impl Default for VegasNs2 {
    fn default() -> Self {
        VegasNs2 {
            in_recovery: false,
            first_sent_ns: None,
            initialised: false,
            sa: 0.0,
            sd: 0.0,
            timeout_ns: 1000e9,
            worried: 0,
            newcwnd_bytes: 0,
            cwnd_changed_ns: None,
            after_timeout: false,
            ssthresh_before_bytes: 0,
            expired: false,
            back_off_rto: false,
        }
    }
}

impl VegasNs2 {
    /// The fine-grained timeout `v_timeout_` (ns).
    pub fn fine_timeout_ns(&self) -> f64 {
        self.timeout_ns
    }

    /// `recv`'s first lines: initialise the estimator on the first ACK.
    fn first_ack(&mut self, now_ns: u64) {
        if self.initialised {
            return;
        }
        self.initialised = true;
        let r = now_ns.saturating_sub(self.first_sent_ns.unwrap_or(now_ns)) as f64;
        self.sa = 8.0 * r;
        self.sd = r;
        self.timeout_ns = (self.sa / 4.0 + self.sd) / 2.0;
    }

    /// An RTT sample (the `transmits == 1` block).
    fn sample(&mut self, rtt_ns: u64) {
        if rtt_ns == 0 {
            return;
        }
        let mut n = rtt_ns as f64 - self.sa / 8.0;
        self.sa += n;
        n = n.abs() - self.sd / 4.0;
        self.sd += n;
        self.timeout_ns = (self.sa / 4.0 + self.sd) / 2.0;
        self.timeout_ns += self.timeout_ns / 16.0;
    }

    /// `vegas_expire`: the first unacknowledged segment has been out `v_timeout_` or longer.
    fn is_expired(&self, s: &SendState, now_ns: u64) -> bool {
        s.snd_una < s.snd_max && (now_ns - s.segment_at(s.snd_una).sent_ns) as f64 >= self.timeout_ns
    }

    /// The body of the duplicate-ACK branch once the `bug_fix_` guard has let it through.
    fn fast_retransmit(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        let now = tx.now();
        let seg = *s.segment_at(s.snd_una);
        let mut win = s.window.cwnd_bytes.min(s.rwnd_bytes) / s.mss;
        self.after_timeout = false;
        s.recover = Some(s.snd_max);
        self.worried = 2.min((s.snd_nxt - s.snd_una).div_ceil(s.mss) as u32 + 1);
        if seg.retransmitted {
            self.timeout_ns *= 2.0;
        } else {
            self.timeout_ns += self.timeout_ns / 8.0;
        }
        let changed = self.cwnd_changed_ns.or(self.first_sent_ns).unwrap_or(0);
        if changed < seg.sent_ns {
            win = if win <= 3 {
                2
            } else if seg.retransmitted {
                win / 2
            } else {
                win - win / 4
            };
            self.newcwnd_bytes = win * s.mss;
            s.window.cwnd_bytes = self.newcwnd_bytes + s.dupacks as u64 * s.mss;
            self.cwnd_changed_ns = Some(now);
        }
        self.back_off_rto = true; // reset_rtx_timer(1): back off and restart the timer
        tx.retransmit_first_unacked(s);
        if !seg.retransmitted {
            s.dupacks = s.dupack_threshold;
        }
        self.in_recovery = true;
    }
}

impl RecoveryOps for VegasNs2 {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn loss_detected_at(&mut self, s: &SendState, now_ns: u64) -> bool {
        self.first_ack(now_ns);
        self.ssthresh_before_bytes = s.window.ssthresh_bytes;
        self.expired = self.is_expired(s, now_ns);
        self.expired || s.dupacks == s.dupack_threshold
    }

    /// The `bug_fix_` guard: refused only after a timeout until an ACK passes `recover`.
    fn may_enter_fast_retransmit(&self, s: &SendState, _rfc6582_allows: bool) -> bool {
        !self.after_timeout || s.recover.is_none_or(|r| s.snd_una > r)
    }

    fn take_rto_back_off(&mut self) -> bool {
        std::mem::take(&mut self.back_off_rto)
    }

    fn on_ignored_duplicate_ack(&mut self, s: &mut SendState) {
        if !self.expired && s.dupacks > s.dupack_threshold {
            s.window.cwnd_bytes += s.mss;
        }
    }

    fn enter(&mut self, s: &mut SendState, _r: &Reduction, tx: &mut Transmitter) {
        s.window.ssthresh_bytes = self.ssthresh_before_bytes;
        self.fast_retransmit(s, tx);
    }

    fn on_duplicate_ack_tx(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        let now = tx.now();
        if self.is_expired(s, now) || s.dupacks == s.dupack_threshold {
            self.fast_retransmit(s, tx);
        } else if s.dupacks > s.dupack_threshold {
            s.window.cwnd_bytes += s.mss;
        }
    }

    fn recovery_complete(&self, _s: &SendState) -> bool {
        true
    }

    /// Deflation on the first ACK of new data.
    fn exit(&mut self, s: &mut SendState) {
        if s.dupacks > s.dupack_threshold && s.window.cwnd_bytes > self.newcwnd_bytes && self.newcwnd_bytes > 0 {
            s.window.cwnd_bytes = self.newcwnd_bytes;
            s.window.ssthresh_bytes = 2 * s.mss;
        }
        self.in_recovery = false;
    }

    fn after_new_ack(&mut self, s: &mut SendState, rtt_ns: Option<u64>, tx: &mut Transmitter) {
        let now = tx.now();
        self.first_ack(now);
        if let Some(r) = rtt_ns {
            self.sample(r);
        }
        if self.worried > 0 {
            self.worried -= 1;
            if self.is_expired(s, now) {
                s.dupacks = s.dupack_threshold;
                tx.retransmit_first_unacked(s);
                self.in_recovery = true;
            } else {
                self.worried = 0;
            }
        }
    }

    fn send(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        let before = s.snd_max;
        send_by_window(s, tx);
        if self.first_sent_ns.is_none() && s.snd_max > before {
            self.first_sent_ns = Some(tx.now());
        }
    }

    fn on_timeout_at(&mut self, _s: &SendState, now_ns: u64) {
        self.in_recovery = false;
        self.after_timeout = true;
        self.newcwnd_bytes = 0;
        self.cwnd_changed_ns = Some(now_ns);
    }
}
