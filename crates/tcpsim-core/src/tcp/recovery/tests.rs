//! Recovery behaviour against hand-worked packet sequences.
//!
//! Set-up: sender —100 Mb/s, 10 ms— receiver (RTT 20 ms, serialization 83 µs), 1000-byte
//! segments, no delayed ACKs, initial window 10 segments, ssthresh unbounded.
//! Slow start: the ACK of segment k (k = 1..10) raises cwnd to 10+k segments and releases
//! segments 10+2k−1 and 10+2k, so segment 15 leaves on the ACK of segment 3. With segment 15
//! dropped, the ACKs of 11..14 take cwnd to 24 000 bytes and snd_max to 38 000; segments
//! 16, 17, 18 produce three duplicate ACKs: FlightSize = 24 000, ssthresh = 12 000.
//! Reno/NewReno: cwnd = 12 000 + 3·1000 = 15 000, then the 20 duplicate ACKs of segments
//! 19..38 inflate it to 35 000 (releasing segments 39..49); the retransmission of 15 brings
//! the ACK 38 000 that covers `recover`: cwnd = ssthresh = 12 000.
//! Tahoe: cwnd = 1000 and slow start; no inflation.

use crate::config::*;
use crate::sim::Sim;
use crate::tcp::cc::{AckedCountRule, SilenceRule, WestwoodConfig, WestwoodFilter};
use crate::tcp::tests::tcp_config;

const MS: u64 = 1_000_000;

fn scenario(recovery: RecoveryKind, lost_segments: &[u64], avoid_repeated: bool) -> SimConfig {
    let mut tcp = tcp_config(recovery, 1);
    tcp.init_cwnd_segments = 10;
    tcp.avoid_repeated_fast_retransmit = avoid_repeated;
    let queue = QueueConfig::DropTail { limit_packets: Some(1000), limit_bytes: None };
    SimConfig {
        duration_ns: 3000 * MS,
        warmup_ns: 0,
        nodes: vec!["s".into(), "r".into()],
        links: vec![LinkConfig {
            name: "l".into(),
            a: 0,
            b: 1,
            rate_bps: 100_000_000,
            delay_ns: 10 * MS,
            ab: DirectionConfig {
                queue: queue.clone(),
                loss: vec![LossConfig::Scripted { flow: 0, segments: lost_segments.to_vec() }],
            },
            ba: DirectionConfig { queue, loss: vec![] },
        }],
        flows: vec![FlowConfig {
            name: "f".into(),
            src: 0,
            dst: 1,
            tcp,
            app: AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: Some(200_000) },
        }],
        udp_flows: vec![],
        web: vec![],
        routing: Default::default(),
        shared_buffers: vec![],
        trace: TraceConfig { cwnd: true, ..Default::default() },
    }
}

struct Outcome {
    cwnd: Vec<u64>,
    /// When each cwnd row was recorded (ns).
    cwnd_times: Vec<u64>,
    ssthresh: Vec<u64>,
    timeouts: u64,
    fast_retransmits: u64,
    retransmitted_bytes: u64,
    spurious: u64,
    delivered: u64,
}

fn run(recovery: RecoveryKind, lost: &[u64], avoid_repeated: bool) -> Outcome {
    run_config(&scenario(recovery, lost, avoid_repeated))
}

fn run_config(cfg: &SimConfig) -> Outcome {
    let mut sim = Sim::new(cfg, 1).unwrap();
    sim.run();
    let s = sim.summary().unwrap();
    let f = &s.flows[0];
    Outcome {
        cwnd: sim.trace.cwnd.cwnd_bytes.clone(),
        cwnd_times: sim.trace.cwnd.time_ns.clone(),
        ssthresh: sim.trace.cwnd.ssthresh_bytes.clone(),
        timeouts: f.timeouts,
        fast_retransmits: f.fast_retransmits,
        retransmitted_bytes: f.bytes_retransmitted,
        spurious: f.spurious_fast_retransmits,
        delivered: f.bytes_delivered,
    }
}

fn kb(v: &[u64]) -> Vec<u64> {
    v.iter().map(|b| b * 1000).collect()
}

/// The hand-worked prefix shared by Reno and NewReno with segment 15 lost.
fn reno_family_single_loss_prefix() -> Vec<u64> {
    let mut expected = kb(&(11..=24).collect::<Vec<_>>()); // slow start on ACKs 1..14
    expected.extend(kb(&(15..=35).collect::<Vec<_>>())); // entry at 15, inflation to 35
    expected.push(12_000); // full ACK: deflate to ssthresh
    expected
}

#[test]
fn newreno_single_loss_follows_the_hand_worked_sequence() {
    let o = run(RecoveryKind::Newreno, &[15], true);
    let expected = reno_family_single_loss_prefix();
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!(o.ssthresh[14], 12_000);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes, o.spurious), (0, 1, 1000, 0));
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn reno_single_loss_follows_the_same_sequence_as_newreno() {
    let o = run(RecoveryKind::Reno, &[15], true);
    let expected = reno_family_single_loss_prefix();
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000));
}

#[test]
fn tahoe_single_loss_returns_to_slow_start_from_one_segment() {
    let o = run(RecoveryKind::Tahoe, &[15], true);
    let mut expected = kb(&(11..=24).collect::<Vec<_>>());
    expected.push(1000); // third duplicate ACK: one segment
    expected.extend(kb(&[2, 3, 4])); // slow start resumes on the ACKs of the go-back-N segments
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!(o.ssthresh[14], 12_000);
    assert_eq!((o.timeouts, o.fast_retransmits), (0, 1));
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn newreno_recovers_two_and_three_losses_in_one_window_without_a_timeout() {
    for lost in [&[15, 17][..], &[15, 17, 19][..]] {
        let o = run(RecoveryKind::Newreno, lost, true);
        assert_eq!(o.timeouts, 0, "losses {lost:?}");
        assert_eq!(o.fast_retransmits, 1, "one recovery episode for {lost:?}");
        assert_eq!(o.retransmitted_bytes, 1000 * lost.len() as u64, "each loss resent once: {lost:?}");
        assert_eq!(o.spurious, 0);
        assert_eq!(*o.ssthresh.iter().min().unwrap(), 12_000, "the window is halved once");
        assert_eq!(o.delivered, 200_000);
    }
}

#[test]
fn reno_with_two_losses_times_out_when_repeated_fast_retransmit_is_avoided() {
    let o = run(RecoveryKind::Reno, &[15, 17], true);
    assert_eq!(o.fast_retransmits, 1);
    assert_eq!(o.timeouts, 1);
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn reno_with_two_losses_halves_twice_without_the_recover_check() {
    let o = run(RecoveryKind::Reno, &[15, 17], false);
    assert_eq!(o.fast_retransmits, 2);
    let distinct: std::collections::BTreeSet<_> = o.ssthresh.iter().filter(|&&s| s < 1 << 30).collect();
    assert_eq!(distinct.len(), 2, "two reductions: {distinct:?}");
    assert_eq!(o.delivered, 200_000);
}

/// Reno, segments 15 and 17 lost, `recover` guard on: fast retransmit halves the window
/// (ssthresh 12 000, see the module docs); the partial ACK for 15 ends recovery with cwnd =
/// 12 000 and the duplicate ACKs for 17 are ignored, so 17 times out with cwnd still 12 000.
fn reno_two_losses_timeout_ssthresh(rule: TimeoutSsthresh) -> Outcome {
    let mut cfg = scenario(RecoveryKind::Reno, &[15, 17], true);
    cfg.flows[0].tcp.timeout_ssthresh = rule;
    run_config(&cfg)
}

fn reductions(o: &Outcome) -> Vec<u64> {
    let mut out: Vec<u64> = o.ssthresh.iter().copied().filter(|&s| s < 1 << 30).collect();
    out.dedup();
    out
}

#[test]
fn rfc5681_timeout_after_fast_retransmit_keeps_ssthresh() {
    let o = reno_two_losses_timeout_ssthresh(TimeoutSsthresh::FirstOfEpisode);
    assert_eq!((o.fast_retransmits, o.timeouts), (1, 1));
    assert_eq!(reductions(&o), vec![12_000], "one reduction per loss episode");
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn ns2_timeout_after_fast_retransmit_halves_the_window_again() {
    let o = reno_two_losses_timeout_ssthresh(TimeoutSsthresh::Every);
    assert_eq!((o.fast_retransmits, o.timeouts), (1, 1));
    assert_eq!(reductions(&o), vec![12_000, 6_000], "the timeout halves cwnd = 12 000 again");
    assert_eq!(o.delivered, 200_000);
}

/// An outage of [30 ms, 1.5 s) swallows the window and the first retransmission (RTO 1 s after
/// the last ACK near 40 ms); the backed-off one (2 s later) gets through.
fn outage_timeouts(rule: TimeoutSsthresh) -> Outcome {
    let mut cfg = scenario(RecoveryKind::Newreno, &[], true);
    cfg.links[0].ab.loss = vec![LossConfig::OutageIntervals { intervals_ns: vec![(30 * MS, 1500 * MS)] }];
    cfg.duration_ns = 10_000 * MS;
    cfg.flows[0].tcp.timeout_ssthresh = rule;
    run_config(&cfg)
}

#[test]
fn rfc5681_back_off_timeout_keeps_ssthresh() {
    let o = outage_timeouts(TimeoutSsthresh::FirstOfEpisode);
    assert_eq!(o.timeouts, 2);
    let r = reductions(&o);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0] > 2000, "{r:?}");
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn ns2_back_off_timeout_leaves_ssthresh_at_two_segments() {
    let o = outage_timeouts(TimeoutSsthresh::Every);
    assert_eq!(o.timeouts, 2);
    let r = reductions(&o);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r[0] > 2000, "{r:?}");
    assert_eq!(r[1], 2000, "the second expiry halves cwnd = 1 segment, floored at 2");
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn tahoe_recovers_three_losses_by_slow_start_without_a_timeout() {
    let o = run(RecoveryKind::Tahoe, &[15, 17, 19], true);
    assert_eq!(o.timeouts, 0);
    assert_eq!(o.fast_retransmits, 1);
    assert_eq!(o.delivered, 200_000);
}

/// The `validation.single_flow` set-up in miniature: slow start overshoots a 2 Mb/s,
/// 250 ms path with a BDP buffer, losing dozens of segments; NewReno recovers, times out,
/// and go-back-N resends data the receiver holds. Those resends produce duplicate ACKs
/// equal to `recover`, which must not trigger a fast retransmit (RFC 6582 §3.2 step 1).
#[test]
fn newreno_never_fast_retransmits_data_that_had_arrived() {
    let mut cfg = scenario(RecoveryKind::Newreno, &[], true);
    cfg.duration_ns = 60_000 * MS;
    cfg.links[0].rate_bps = 2_000_000;
    cfg.links[0].delay_ns = 125 * MS;
    cfg.links[0].ab.queue = QueueConfig::DropTail { limit_packets: None, limit_bytes: Some(62_500) };
    cfg.flows[0].tcp.init_cwnd_segments = 2;
    cfg.flows[0].tcp.delack_count = 2;
    cfg.flows[0].app = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: None };
    let mut sim = Sim::new(&cfg, 1).unwrap();
    sim.run();
    let f = &sim.summary().unwrap().flows[0];
    assert!(f.fast_retransmitted_segments > 0 && f.timeouts > 0, "the scenario exercises both: {f:?}");
    assert_eq!(f.spurious_fast_retransmits, 0, "{f:?}");
}

/// SACK (RFC 6675), same set-up, segment 15 lost. The third duplicate ACK (segment 18,
/// SACKing 16–18) enters recovery: ssthresh = cwnd = 12 000 — no inflation. pipe counts the
/// retransmitted 15 once (below HighRxt) and the 20 unSACKed segments 19..38 once each:
/// 21 000. Each further duplicate ACK SACKs one segment, so after ten of them pipe = 11 000
/// and every later one releases a new segment (39..49, as NewReno). The ACK of the
/// retransmission covers RecoveryPoint: recovery ends with cwnd = ssthresh = 12 000, and
/// congestion avoidance adds 1000²/12 000 = 83 bytes on the next ACK.
#[test]
fn sack_single_loss_follows_the_hand_worked_sequence() {
    let o = run(RecoveryKind::Sack, &[15], true);
    let mut expected = kb(&(11..=24).collect::<Vec<_>>());
    expected.extend([12_000, 12_083]);
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes, o.spurious), (0, 1, 1000, 0));
    assert_eq!(o.delivered, 200_000);
}

#[test]
fn sack_recovers_two_and_three_losses_in_one_episode_resending_only_the_holes() {
    for lost in [&[15, 17][..], &[15, 17, 19][..]] {
        let o = run(RecoveryKind::Sack, lost, true);
        assert_eq!((o.timeouts, o.fast_retransmits, o.spurious), (0, 1, 0), "losses {lost:?}");
        assert_eq!(o.retransmitted_bytes, 1000 * lost.len() as u64, "each hole resent once: {lost:?}");
        assert_eq!(*o.ssthresh.iter().min().unwrap(), 12_000, "the window is halved once");
        assert_eq!(o.delivered, 200_000);
    }
}

#[test]
fn sack_never_inflates_the_window_during_recovery() {
    let o = run(RecoveryKind::Sack, &[15, 17, 19], true);
    // Slow start takes 14 values (11 000 … 24 000); recovery starts at 12 000 and the window
    // only grows again by congestion avoidance after it.
    assert_eq!(o.cwnd[14], 12_000);
    assert!(o.cwnd[14..20].iter().all(|&c| c < 12_500), "{:?}", &o.cwnd[14..20]);
}

/// ns-3 `TcpWestwood` over Reno recovery (`ns3_fast_recovery`), segment 15 lost. The
/// third duplicate ACK sets ssthresh = BWE·RTTmin and cwnd = min(cwnd, ssthresh) with no
/// three-segment inflation (`DupAck`); each of the 20 further duplicate ACKs adds one
/// segment; the ACK of the retransmission sets cwnd = ssthresh (`NewAck`). The casetti
/// reading instead inflates min(cwnd, ssthresh) by three segments and deflates back to it.
#[test]
fn ns3_westwood_recovery_starts_uninflated_and_ends_at_ssthresh() {
    for ns3 in [true, false] {
        let mut cfg = scenario(RecoveryKind::Reno, &[15], true);
        cfg.flows[0].tcp.cc = CcConfig::Westwood(WestwoodConfig {
            tau_ns: 500 * MS,
            null_sample_divisor: 0,
            filter: WestwoodFilter::TustinFixed { alpha: 0.9 },
            ns3_fast_recovery: ns3,
            sample_tick_ns: 0,
            acked_count: AckedCountRule::Paper,
            silence: SilenceRule::WholeSilence,
            timeout_divisor: false,
        });
        let mut sim = Sim::new(&cfg, 1).unwrap();
        sim.run();
        let (cwnd, ssthresh) = (&sim.trace.cwnd.cwnd_bytes, &sim.trace.cwnd.ssthresh_bytes);
        assert_eq!(&cwnd[..14], &kb(&(11..=24).collect::<Vec<_>>())[..], "slow start");
        let s = ssthresh[14];
        let clamped = s.min(24_000);
        let entry = if ns3 { clamped } else { clamped + 3000 };
        let inflated: Vec<u64> = (0..=20).map(|k| entry + k * 1000).collect();
        assert_eq!(&cwnd[14..35], &inflated[..], "ns3 = {ns3}, ssthresh {s}");
        assert_eq!(cwnd[35], if ns3 { s } else { clamped }, "ns3 = {ns3}: the window after recovery");
    }
}

/// ns-2's `Agent/TCP/Westwood` recovery (`westwood_ns2`), AIMD's cut, segment 15 lost: the
/// third duplicate ACK (segment 18) sets cwnd = ssthresh = 12 000 with no inflation, so the
/// 20 further duplicate ACKs (segments 19..38) change nothing and release nothing (24
/// segments are out); the ACK 38 000 of the retransmission ends the episode and, as any ACK
/// of new data in the agent (`recv_newack_helper`), grows cwnd by congestion avoidance:
/// 12 000 + 1000²/12 000 = 12 083. That ACK comes one round trip of the retransmission after
/// the cut: 10 ms each way, 2 × 83.2 µs of 1040-byte packets at 100 Mb/s (its own and that of
/// segment 38, still being serialized) and 3.2 µs of the ACK; without the growth the first
/// increase would wait for the ACK of segment 39, a round trip later still (40.3 ms).
#[test]
fn westwood_ns2_recovery_cuts_once_never_inflates_and_grows_on_the_ack_that_ends_it() {
    let o = run(RecoveryKind::WestwoodNs2, &[15], false);
    let mut expected = kb(&(11..=24).collect::<Vec<_>>());
    expected.extend([12_000, 12_083]);
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!(o.cwnd_times[15] - o.cwnd_times[14], 20 * MS + 2 * 83_200 + 3_200);
    assert_eq!(o.ssthresh[14], 12_000);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes, o.spurious), (0, 1, 1000, 0));
    assert_eq!(o.delivered, 200_000);
}

/// RFC 6582 §4.1, the two timers: seven losses (15, 17, …, 27) in one window. NewReno resends
/// one per round trip, so recovery takes seven RTTs (about 140 ms); the RTO is the 50 ms floor
/// (srtt ≈ 21 ms, rttvar decayed by the slow-start samples). The impatient timer, restarted only
/// at the first partial ACK, expires 50 ms later, two partial ACKs on: one timeout, and go-back-N
/// resends the rest. Slow-but-steady restarts it on every partial ACK, 20 ms apart: no timeout,
/// the seven segments resent one per partial ACK in a single recovery.
#[test]
fn the_impatient_timer_cuts_a_long_recovery_short_and_slow_but_steady_lets_it_finish() {
    for timer in [PartialAckTimer::Impatient, PartialAckTimer::SlowButSteady] {
        let mut cfg = scenario(RecoveryKind::Newreno, &[15, 17, 19, 21, 23, 25, 27], true);
        cfg.flows[0].tcp.min_rto_ns = 50 * MS;
        cfg.flows[0].tcp.partial_ack_timer = timer;
        let o = run_config(&cfg);
        assert_eq!(o.delivered, 200_000);
        match timer {
            PartialAckTimer::Impatient => assert_eq!((o.timeouts, o.fast_retransmits), (1, 1), "{timer:?}"),
            PartialAckTimer::SlowButSteady => {
                assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 7000), "{timer:?}")
            }
        }
    }
}

/// RFC 3042 set-up: a window of 3 segments in congestion avoidance (ssthresh = cwnd), 10
/// segments to send, the first lost. Only segments 2 and 3 can answer, so only two duplicate
/// ACKs come back unless limited transmit sends more.
fn limited_transmit_scenario(recovery: RecoveryKind, limited_transmit: bool) -> SimConfig {
    let mut cfg = scenario(recovery, &[1], true);
    let tcp = &mut cfg.flows[0].tcp;
    (tcp.init_cwnd_segments, tcp.init_ssthresh_bytes, tcp.limited_transmit) = (3, 3000, limited_transmit);
    cfg.flows[0].app = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: Some(10_000) };
    cfg
}

/// Hand-worked: the duplicate ACKs of segments 2 and 3 each release one new segment (4, then
/// 5: outstanding 4000 ≤ cwnd + 1·SMSS, then 5000 ≤ cwnd + 2·SMSS) with cwnd unchanged; the
/// ACK of 4 is the third duplicate. ssthresh = max(FlightSize/2, 2·SMSS) with the two
/// limited-transmit segments left out of FlightSize (3000, not 5000: 2000 either way here, so
/// the cut is checked against the 2500 it would be with them counted). NewReno: cwnd =
/// 2000 + 3·1000 = 5000, the ACK of 5 inflates it to 6000 (segment 6 leaves), the
/// retransmission of 1 brings the full ACK 5000: cwnd = 2000, then +500 per ACK.
#[test]
fn limited_transmit_turns_a_timeout_into_a_fast_retransmit_with_a_window_of_three() {
    let o = run_config(&limited_transmit_scenario(RecoveryKind::Newreno, true));
    assert_eq!(&o.cwnd[..4], &[5000, 6000, 2000, 2500]);
    assert_eq!(o.ssthresh[0], 2000);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000));
    assert_eq!(o.delivered, 10_000);

    let without = run_config(&limited_transmit_scenario(RecoveryKind::Newreno, false));
    assert_eq!((without.timeouts, without.fast_retransmits), (1, 0), "two duplicate ACKs only: the RTO");
    assert_eq!((without.cwnd[0], without.ssthresh[0]), (1000, 2000));
}

/// FlightSize without the limited-transmit segments: with a window of 6 segments the flight at
/// the third duplicate ACK is 8000 bytes, of which 2000 were sent by limited transmit, so
/// ssthresh = 6000 / 2 = 3000 (4000 if they were counted).
#[test]
fn limited_transmit_segments_do_not_count_in_the_flight_fast_retransmit_halves() {
    let mut cfg = limited_transmit_scenario(RecoveryKind::Newreno, true);
    let tcp = &mut cfg.flows[0].tcp;
    (tcp.init_cwnd_segments, tcp.init_ssthresh_bytes) = (6, 6000);
    tcp.ssthresh_from = SsthreshFrom::FlightSize;
    let o = run_config(&cfg);
    assert_eq!((o.cwnd[0], o.ssthresh[0]), (3000 + 3000, 3000));
    assert_eq!((o.timeouts, o.fast_retransmits), (0, 1));
}

/// `ssthresh_from`: a window of 6 segments in congestion avoidance, segment 2 lost. The ACK of
/// segment 1 adds 1000²/6000 = 166 bytes (cwnd 6166) and releases segment 7; segments 3–7
/// bring duplicate ACKs, the first two releasing segments 8 and 9 by limited transmit. At the
/// third, "cwnd" halves 6166 into ssthresh 3083, keeping the fraction of a segment (ns-2's
/// `windowd() / 2`); "flight_size" halves the 6000 bytes outstanding without the two
/// limited-transmit segments (RFC 5681 eq. 4): 3000. NewReno's full ACK then sets cwnd to it.
#[test]
fn fast_retransmit_halves_cwnd_with_its_fraction_or_the_flight_size() {
    for (from, halved) in [(SsthreshFrom::Cwnd, 3083), (SsthreshFrom::FlightSize, 3000)] {
        let mut cfg = scenario(RecoveryKind::Newreno, &[2], true);
        let tcp = &mut cfg.flows[0].tcp;
        (tcp.init_cwnd_segments, tcp.init_ssthresh_bytes, tcp.limited_transmit) = (6, 6000, true);
        tcp.ssthresh_from = from;
        cfg.flows[0].app = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: Some(12_000) };
        let o = run_config(&cfg);
        assert_eq!(o.ssthresh.iter().find(|&&s| s < 6000), Some(&halved), "{from:?}: {:?}", o.ssthresh);
        assert!(o.cwnd.contains(&halved), "{from:?}: the full ACK sets cwnd = ssthresh: {:?}", o.cwnd);
        assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000), "{from:?}");
    }
}

/// `ssthresh_from = "ns3_pipe"`, the same loss as above. At the third duplicate ACK segments
/// 2–9 are outstanding (8000 bytes, limited transmit's 8 and 9 included). Without SACK each of
/// the three duplicate ACKs takes one segment out and the lost segment 2 stays in: 5000, so
/// ssthresh 2500. With SACK the SACKed 3, 4 and 5 and the presumed-lost 2 come out: 4000,
/// ssthresh 2000 (ns-3.44 `TcpSocketBase::EnterRecovery`).
#[test]
fn ns3_pipe_halves_the_flight_less_what_the_duplicate_acks_report() {
    for (recovery, halved) in [(RecoveryKind::Newreno, 2500), (RecoveryKind::Sack, 2000)] {
        let mut cfg = scenario(recovery, &[2], true);
        let tcp = &mut cfg.flows[0].tcp;
        (tcp.init_cwnd_segments, tcp.init_ssthresh_bytes, tcp.limited_transmit) = (6, 6000, true);
        tcp.ssthresh_from = SsthreshFrom::Ns3Pipe;
        cfg.flows[0].app = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: Some(12_000) };
        let o = run_config(&cfg);
        assert_eq!(o.ssthresh.iter().find(|&&s| s < 6000), Some(&halved), "{recovery:?}: {:?}", o.ssthresh);
        assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000), "{recovery:?}");
    }
}

/// RFC 6675 (1.c): with SACK, limited transmit goes by pipe. The first duplicate ACK SACKs
/// segment 2: pipe = segments 1 and 3 = 2000, cwnd − pipe = 1 SMSS, segment 4 leaves; the
/// second SACKs 3: pipe = 1 and 4, segment 5 leaves — the same two segments as by the window.
/// The third (SACKing 4) enters recovery at cwnd = ssthresh = 2000, without inflation; the ACK
/// of 5 takes pipe to 1000 (only the retransmission) and releases segment 6 by NextSeg rule 2.
#[test]
fn sack_limited_transmit_sends_by_pipe_then_recovers_without_a_timeout() {
    let o = run_config(&limited_transmit_scenario(RecoveryKind::Sack, true));
    assert_eq!(&o.cwnd[..2], &[2000, 2500]);
    assert_eq!(o.ssthresh[0], 2000);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000));
    assert_eq!(o.delivered, 10_000);
    let without = run_config(&limited_transmit_scenario(RecoveryKind::Sack, false));
    assert_eq!((without.timeouts, without.fast_retransmits), (1, 0));
}

/// Tahoe too: the third duplicate ACK, made possible by limited transmit, retransmits with
/// cwnd = 1 segment instead of waiting for the RTO.
#[test]
fn tahoe_limited_transmit_reaches_the_third_duplicate_ack() {
    let o = run_config(&limited_transmit_scenario(RecoveryKind::Tahoe, true));
    assert_eq!((o.cwnd[0], o.ssthresh[0]), (1000, 2000));
    assert_eq!((o.timeouts, o.fast_retransmits), (0, 1));
}

/// `ack_bytes`: ns-2's Vegas data carry no header while its sink's ACKs are 40 bytes. 200
/// segments of 1000 bytes with no header and no loss: the data direction carries 200 000
/// bytes, the ACK direction 200 ACKs (no delayed ACKs) of 40 bytes each.
#[test]
fn acks_take_their_own_size_when_data_carry_no_header() {
    let mut cfg = scenario(RecoveryKind::Newreno, &[], true);
    cfg.flows[0].tcp.header_bytes = 0;
    cfg.flows[0].tcp.ack_bytes = Some(40);
    let mut sim = Sim::new(&cfg, 1).unwrap();
    sim.run();
    let s = sim.summary().unwrap();
    let bytes = |direction: &str| s.channels.iter().find(|c| c.direction == direction).unwrap().tx_bytes;
    assert_eq!((bytes("ab"), bytes("ba")), (200_000, 200 * 40));
}

/// ns-2 Vegas recovery (`vegas_ns2`) in the same set-up, segment 30 lost. Segment 30 is the
/// last of slow start's second burst (released by the ACK of 10 at ≈ 20.8 ms); segment 31
/// leaves only on the ACK of 11 (≈ 40.2 ms), so its duplicate ACK comes ≈ 60.3 ms, when 30
/// has been out ≈ 39.5 ms, more than the fine-grained timeout (≈ 22 ms: RTT ≈ 20.1–20.9 ms,
/// (sa/4 + sd)/2·17/16). So the FIRST duplicate ACK retransmits: win = 39 (ACKs 1..29 took
/// cwnd to 39 segments), 39 − ⌊39/4⌋ = 30, cwnd = 30 + 1 duplicate ACK = 31 000 (the third
/// duplicate ACK would have given 33 000), and `dupacks` becomes 3. The other 37 duplicate
/// ACKs (segments 32..68) inflate by one each to 68 000; the ACK of the retransmission
/// deflates to v_newcwnd_ = 30 000 with ssthresh = 2 segments (congestion avoidance).
#[test]
fn vegas_ns2_retransmits_on_the_first_duplicate_ack_once_the_segment_has_expired() {
    let o = run(RecoveryKind::VegasNs2, &[30], true);
    let mut expected = kb(&(11..=39).collect::<Vec<_>>());
    expected.extend(kb(&(31..=68).collect::<Vec<_>>()));
    expected.push(30_000);
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!(o.ssthresh[expected.len() - 2], 1 << 30, "ssthresh untouched by the duplicate ACKs");
    assert_eq!(o.ssthresh[expected.len() - 1], 2000, "deflation: ssthresh = 2 segments");
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes, o.spurious), (0, 1, 1000, 0));
    assert_eq!(o.delivered, 200_000);
}

/// Segment 15 lost (the module docs' set-up): 15 and 16 leave together, so the first
/// duplicate ACK finds 15 out ≈ one RTT, below the fine-grained timeout, and the third
/// (segment 18) retransmits. Window cut, default rule: win = 24, 24 − ⌊24/4⌋ = 18 =
/// v_newcwnd_, cwnd = 18 + 3 = 21 000; the 20 duplicate ACKs of 19..38 inflate to 41 000;
/// the ACK of the retransmission (`dupacks` 23 > 3, cwnd > 18 000) deflates to 18 000 with
/// ssthresh 2000, then congestion avoidance (+1000²/18 000 = 55 bytes).
#[test]
fn vegas_ns2_cuts_a_quarter_inflates_and_deflates_to_the_recorded_window() {
    let o = run(RecoveryKind::VegasNs2, &[15], true);
    let mut expected = kb(&(11..=24).collect::<Vec<_>>());
    expected.extend(kb(&(21..=41).collect::<Vec<_>>()));
    expected.extend([18_000, 18_055]);
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!(o.ssthresh[34], 1 << 30);
    assert_eq!(o.ssthresh[35], 2000);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000));
}

/// Window cut, win ≤ 3 → 2. Initial window 2, ssthresh 2000 (congestion avoidance, +1000²/cwnd
/// per ACK): the ACKs of 1, 2, 3 take cwnd to 2500, 2900, 3244; segment 4, the last of the
/// second round (sent on the ACK of 2 at ≈ 20.2 ms) is lost; segment 5 leaves on the ACK of 3
/// (≈ 40.2 ms), and its duplicate ACK (≈ 60.3 ms) finds 4 out ≈ 40 ms > the timeout (≈ 25 ms
/// this early): retransmit on that first duplicate ACK, win = ⌊3244/1000⌋ = 3 → 2, cwnd = 2 +
/// 1 = 3000. The duplicate ACK of 6 inflates to 4000 (segment 7 leaves); the ACK of the
/// retransmission deflates to 2000, ssthresh 2000.
#[test]
fn vegas_ns2_cuts_a_window_of_three_to_two_segments() {
    let mut cfg = scenario(RecoveryKind::VegasNs2, &[4], true);
    let tcp = &mut cfg.flows[0].tcp;
    (tcp.init_cwnd_segments, tcp.init_ssthresh_bytes) = (2, 2000);
    cfg.flows[0].app = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: Some(10_000) };
    let o = run_config(&cfg);
    assert_eq!(&o.cwnd[..7], &[2500, 2900, 3244, 3000, 4000, 2000, 2500]);
    assert!(o.ssthresh[..7].iter().all(|&s| s == 2000));
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes), (0, 1, 1000));
    assert_eq!(o.delivered, 10_000);
}

/// The worried checks and the "window unchanged since the segment left" condition. Segments
/// 15, 17, 19 and 38 lost. 15: the third duplicate ACK (of 20; 17 and 19 are lost) cuts to
/// 18 + 3 = 21 000 at ≈ 60 ms; 17 duplicate ACKs (20..37 but not 19, 38) inflate to 38 000.
/// The ACK of 15's retransmission (16 000, partial) deflates to 18 000; the first worried check
/// finds 17 (sent ≈ 20.3 ms) out ≈ 40 ms > the timeout (≈ 25 ms after the 1/8 back-off) and
/// resends it without a cut; the duplicate ACKs of the 14 segments sent during the inflation
/// take cwnd to 32 000; the ACK of 17 (18 000) deflates to 18 000 again and the second check
/// resends 19. Its ACK (37 000, 38 missing) leaves 15 segments out of cwnd = 18: three new ones
/// leave, and the first of their duplicate ACKs finds 38 (sent ≈ 40.4 ms) expired: a second
/// fast retransmit — but 38 left before the cut at ≈ 60 ms, so the window is not cut (stays
/// 18 000); the other two duplicate ACKs inflate to 20 000 and the ACK of 38 deflates to the
/// 18 000 recorded at the first cut. Four losses, four retransmissions, no timeout.
#[test]
fn vegas_ns2_worried_checks_resend_later_losses_and_a_window_cut_since_is_not_repeated() {
    let o = run(RecoveryKind::VegasNs2, &[15, 17, 19, 38], true);
    let mut expected = kb(&(11..=24).collect::<Vec<_>>());
    expected.extend(kb(&(21..=38).collect::<Vec<_>>()));
    expected.push(18_000);
    expected.extend(kb(&(19..=32).collect::<Vec<_>>()));
    expected.extend(kb(&[18, 19, 20, 18]));
    expected.push(18_055);
    assert_eq!(&o.cwnd[..expected.len()], &expected[..]);
    assert_eq!((o.timeouts, o.fast_retransmits, o.retransmitted_bytes, o.spurious), (0, 2, 4000, 0));
    assert_eq!(o.delivered, 200_000);
    // Without the worried checks (Reno's recovery), 17 would wait for duplicate ACKs that never come.
    let reno = run(RecoveryKind::Reno, &[15, 17, 19, 38], true);
    assert!(reno.timeouts > 0);
}

/// `FastRetransmitTimer`, hand-worked on the module's set-up with a 10 Mb/s link (a 1040-byte
/// packet takes 0.832 ms) and the RTO pinned at 23 ms (min = max): Reno, segment 15 lost. The
/// ACK of 14 arrives at 44.224 ms and restarts the timer; the third duplicate ACK (of 18) at
/// 47.552 ms triggers the fast retransmission, whose ACK returns at 69.248 ms (it queued
/// behind segments 19..38). Restarted at the fast retransmit the timer would expire at 70.552
/// ms: no timeout. Kept running from the ACK of 14, it expires at 67.224 ms, 2 ms before the
/// retransmission's ACK: a spurious timeout, cwnd back to one segment.
#[test]
fn a_timer_kept_running_at_fast_retransmit_expires_one_rto_after_the_last_new_ack() {
    for rule in [FastRetransmitTimer::Restart, FastRetransmitTimer::Keep] {
        let mut cfg = scenario(RecoveryKind::Reno, &[15], true);
        cfg.links[0].rate_bps = 10_000_000;
        let tcp = &mut cfg.flows[0].tcp;
        (tcp.min_rto_ns, tcp.max_rto_ns, tcp.fast_retransmit_timer) = (23 * MS, 23 * MS, rule);
        let o = run_config(&cfg);
        let at = |t: u64| o.cwnd_times.iter().position(|&x| x == t).map(|i| o.cwnd[i]);
        assert_eq!((at(44_224_000), at(47_552_000)), (Some(24_000), Some(15_000)), "{rule:?}");
        assert_eq!(o.delivered, 200_000, "{rule:?}");
        match rule {
            FastRetransmitTimer::Restart => {
                assert_eq!((o.timeouts, o.fast_retransmits), (0, 1));
                assert_eq!(at(69_248_000), Some(12_000), "the retransmission's ACK ends the recovery");
            }
            FastRetransmitTimer::Keep => {
                assert!(o.timeouts >= 1 && o.fast_retransmits >= 1, "{} {}", o.timeouts, o.fast_retransmits);
                assert_eq!(at(67_224_000), Some(1000), "timeout 23 ms after the ACK of 14");
            }
        }
    }
}
