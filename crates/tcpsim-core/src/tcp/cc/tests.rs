//! Westwood and Westwood+ in whole simulations: the estimate against the bottleneck rate and
//! faster recovery against the trace, plus the canonical configuration's parsing and checks.
//!
//! Set-up (`casetti` Fig. 8 / `gangadhar` Fig. 3 without errors): sender —10 Mb/s, 45 ms—
//! router —2 Mb/s, 1 ms— sink, drop-tail 100 packets, 1000-byte segments with 40-byte headers,
//! NewReno recovery (ns-2's TCP-Westwood-NR, the `westwood+` preset).
//! The estimate counts acknowledged *payload* bytes per second (AckedCount credits segments'
//! payload), so a saturated bottleneck gives 2 Mb/s · 1000/1040 = 1.923 Mb/s, not the wire
//! rate: that is what it is compared with.

use crate::config::*;
use crate::sim::Sim;
use crate::tcp::cc::{
    AckedCountRule, AimdConfig, SilenceRule, WestwoodConfig, WestwoodFilter, WestwoodPlusConfig, WestwoodPlusFilter,
    WestwoodPlusSampling,
};
use crate::tcp::tests::tcp_config;

const MS: u64 = 1_000_000;
const S: u64 = 1_000_000_000;
const MSS: u64 = 1000;
/// Payload rate of a saturated 2 Mb/s bottleneck with 1000-byte segments and 40-byte headers.
const PAYLOAD_BPS: f64 = 2_000_000.0 * 1000.0 / 1040.0;

fn westwood() -> CcConfig {
    CcConfig::Westwood(WestwoodConfig {
        tau_ns: 500 * MS,
        null_sample_divisor: 2,
        filter: WestwoodFilter::Tustin {},
        ns3_fast_recovery: false,
        sample_tick_ns: 0,
        acked_count: AckedCountRule::Paper,
        silence: SilenceRule::WholeSilence,
        timeout_divisor: false,
    })
}

fn westwood_plus(min_decrease_half: bool) -> CcConfig {
    CcConfig::WestwoodPlus(WestwoodPlusConfig {
        filter: WestwoodPlusFilter::TwoStageEwma {},
        min_window_ns: 50 * MS,
        min_decrease_half,
        ns3_fast_recovery: false,
        sampling: WestwoodPlusSampling::AckClocked,
        ssthresh_in_bytes: false,
    })
}

fn scenario(cc: CcConfig, delack_count: u32, loss_p: f64, duration_ns: u64, trace_interval_ns: u64) -> SimConfig {
    let mut tcp = tcp_config(RecoveryKind::Newreno, delack_count);
    tcp.cc = cc;
    let queue = QueueConfig::DropTail { limit_packets: Some(100), limit_bytes: None };
    let dir = |loss: Vec<LossConfig>| DirectionConfig { queue: queue.clone(), loss };
    let bottleneck_loss = if loss_p > 0.0 { vec![LossConfig::Bernoulli { p: loss_p }] } else { vec![] };
    SimConfig {
        duration_ns,
        warmup_ns: 0,
        nodes: vec!["sender".into(), "router".into(), "sink".into()],
        links: vec![
            LinkConfig {
                name: "access".into(),
                a: 0,
                b: 1,
                rate_bps: 10_000_000,
                delay_ns: 45 * MS,
                ab: dir(vec![]),
                ba: dir(vec![]),
            },
            LinkConfig {
                name: "bottleneck".into(),
                a: 1,
                b: 2,
                rate_bps: 2_000_000,
                delay_ns: MS,
                ab: dir(bottleneck_loss),
                ba: dir(vec![]),
            },
        ],
        flows: vec![FlowConfig {
            name: "f".into(),
            src: 0,
            dst: 2,
            tcp,
            app: AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: None },
        }],
        udp_flows: vec![],
        web: vec![],
        routing: Default::default(),
        shared_buffers: vec![],
        trace: TraceConfig { cwnd: true, interval_ns: trace_interval_ns, ..Default::default() },
    }
}

/// Time average of the estimate (bits/s) over [from, end], from a trace sampled at a fixed
/// period, and the final value.
fn estimate_after(sim: &Sim, from_ns: u64) -> (f64, f64) {
    let t = &sim.trace.cwnd;
    let v: Vec<f64> = t.time_ns.iter().zip(&t.bwe_bps).filter(|(&at, _)| at >= from_ns).map(|(_, &b)| b).collect();
    (v.iter().sum::<f64>() / v.len() as f64, *t.bwe_bps.last().unwrap())
}

fn run(cfg: &SimConfig) -> Sim {
    let mut sim = Sim::new(cfg, 1).unwrap();
    sim.run();
    sim
}

#[test]
fn westwood_and_westwood_plus_estimates_converge_to_the_bottleneck_payload_rate() {
    for (name, cc) in [("westwood", westwood()), ("westwood+", westwood_plus(false))] {
        for delack in [1, 2] {
            let sim = run(&scenario(cc.clone(), delack, 0.0, 60 * S, 100 * MS));
            let s = sim.summary().unwrap();
            let (mean, last) = estimate_after(&sim, 20 * S);
            eprintln!(
                "{name} delack {delack}: mean BWE after 20 s {:.4} Mb/s, final {:.4} Mb/s, payload rate {:.4} Mb/s, \
                 throughput {:.4} Mb/s, fast retransmits {}, timeouts {}",
                mean / 1e6,
                last / 1e6,
                PAYLOAD_BPS / 1e6,
                s.flows[0].throughput_bps / 1e6,
                s.flows[0].fast_retransmits,
                s.flows[0].timeouts
            );
            let err = (mean - PAYLOAD_BPS).abs() / PAYLOAD_BPS;
            assert!(err < 0.05, "{name}, delayed ACK count {delack}: {mean} vs {PAYLOAD_BPS} ({:.1}%)", 100.0 * err);
            assert!(s.flows[0].timeouts <= 1, "{name}: {:?}", s.flows[0]);
        }
    }
}

#[test]
fn aimd_has_no_estimate_in_the_trace() {
    let sim = run(&scenario(CcConfig::Aimd(AimdConfig {}), 1, 0.0, 2 * S, 100 * MS));
    let t = &sim.trace.cwnd;
    assert!(t.bwe_bps.iter().all(|b| b.is_nan()));
    assert_eq!(t.bwe_bps.len(), t.cwnd_bytes.len());
    assert!(*t.min_rtt_ns.last().unwrap() >= 92 * MS);
}

/// One fast-retransmit entry read from an on-change trace.
#[derive(Debug)]
struct Entry {
    cwnd_before: u64,
    cwnd: u64,
    ssthresh: u64,
    /// max(2, ⌊BWE·RTTmin/seg_size⌋)·seg_size from the trace's columns at the entry.
    ideal: u64,
    /// The cwnd values recorded until the next reduction.
    later: Vec<u64>,
}

impl Entry {
    /// The episode ended in a timeout (cwnd = 1 segment) before the next reduction.
    fn timed_out(&self) -> bool {
        self.later.contains(&MSS)
    }
}

fn fast_retransmit_entries(sim: &Sim) -> Vec<Entry> {
    let t = &sim.trace.cwnd;
    let mut out = Vec::new();
    for i in 1..t.time_ns.len() {
        if t.ssthresh_bytes[i] == t.ssthresh_bytes[i - 1] || t.cwnd_bytes[i] == MSS {
            continue; // not a reduction, or a timeout (cwnd = 1 segment)
        }
        let bwe = t.bwe_bps[i] / 8.0;
        let segments = (bwe * t.min_rtt_ns[i] as f64 / (1e9 * MSS as f64)).floor() as u64;
        let ssthresh = t.ssthresh_bytes[i];
        let later = (i + 1..t.time_ns.len())
            .take_while(|&j| t.ssthresh_bytes[j] == ssthresh)
            .map(|j| t.cwnd_bytes[j])
            .collect();
        out.push(Entry {
            cwnd_before: t.cwnd_bytes[i - 1],
            cwnd: t.cwnd_bytes[i],
            ssthresh,
            ideal: segments.max(2) * MSS,
            later,
        });
    }
    out
}

#[test]
fn westwood_faster_recovery_sets_the_window_to_bwe_times_rtt_min_under_random_loss() {
    let sim = run(&scenario(westwood(), 1, 0.01, 120 * S, 0));
    let s = sim.summary().unwrap();
    let entries = fast_retransmit_entries(&sim);
    assert!(entries.len() >= 20, "{} episodes: {:?}", entries.len(), s.flows[0]);
    for e in &entries {
        // casetti Sec. 3.1: ssthresh = BWE·RTTmin/seg_size (≥ 2); cwnd = ssthresh if larger;
        // Reno/NewReno recovery then inflates by 3 segments.
        assert_eq!(e.ssthresh, e.ideal, "{e:?}");
        assert_eq!(e.cwnd, e.cwnd_before.min(e.ssthresh) + 3 * MSS, "{e:?}");
    }
    // Recovery ends at that window (the full ACK deflates to it), not at half the flight.
    let recovered: Vec<&Entry> = entries.iter().filter(|e| !e.timed_out()).collect();
    assert!(recovered.len() * 10 >= entries.len() * 8, "{} of {} without a timeout", recovered.len(), entries.len());
    for e in &recovered {
        assert!(e.later.contains(&e.cwnd_before.min(e.ssthresh)), "{e:?}");
    }
    let mean = |f: &dyn Fn(&Entry) -> u64| entries.iter().map(|e| f(e) as f64).sum::<f64>() / entries.len() as f64;
    let (ideal, before) = (mean(&|e| e.ideal), mean(&|e| e.cwnd_before));
    let pipe = PAYLOAD_BPS / 8.0 * 0.092 / MSS as f64;
    eprintln!(
        "{} episodes: mean ssthresh {:.1} segments (pipe ≈ {pipe:.1}), mean cwnd before {:.1}, half {:.1}; \
         throughput {:.3} Mb/s, timeouts {}",
        entries.len(),
        ideal / 1e3,
        before / 1e3,
        before / 2e3,
        s.flows[0].throughput_bps / 1e6,
        s.flows[0].timeouts
    );
    // With random losses the window rarely exceeds the pipe: BWE·RTTmin keeps it, where
    // halving would cut it.
    assert!(ideal > 0.75 * before, "ssthresh {ideal} vs cwnd before {before}");
    // And the estimate is close to the pipe (≈ 22 segments of 2 Mb/s × 92 ms).
    assert!(ideal / 1e3 > 0.6 * pipe, "ssthresh {ideal} vs pipe {pipe}");
}

#[test]
fn westwood_outperforms_aimd_under_random_loss() {
    let tput = |cc| run(&scenario(cc, 1, 0.01, 120 * S, 0)).summary().unwrap().flows[0].throughput_bps;
    let (w, r) = (tput(westwood()), tput(CcConfig::Aimd(AimdConfig {})));
    eprintln!("1% loss: Westwood {:.3} Mb/s, NewReno {:.3} Mb/s", w / 1e6, r / 1e6);
    assert!(w > 1.2 * r, "Westwood {w} vs NewReno {r}");
}

#[test]
fn modified_westwood_plus_never_cuts_below_half() {
    // A lone flow fills the 100-packet buffer (≈ 4.5 BDP): plain Westwood+ cuts to
    // BWE·RTTmin ≈ the pipe, far below half the window; the modified one keeps half.
    for modified in [false, true] {
        let sim = run(&scenario(westwood_plus(modified), 1, 0.0, 60 * S, 0));
        let entries = fast_retransmit_entries(&sim);
        assert!(!entries.is_empty());
        for e in &entries {
            let half = (e.cwnd_before / 2).max(2 * MSS);
            if modified {
                assert!(e.ssthresh >= half - MSS, "{e:?}");
            }
            assert!(e.ssthresh >= e.ideal, "{e:?}");
            eprintln!(
                "modified {modified}: cwnd before {}, ssthresh {}, BWE·RTTmin {}",
                e.cwnd_before, e.ssthresh, e.ideal
            );
        }
        if !modified {
            assert!(entries.iter().any(|e| e.ssthresh < e.cwnd_before / 3), "{entries:?}");
        }
    }
}

#[test]
fn westwood_grows_the_window_as_aimd_until_the_first_loss() {
    // Sec. 3: slow start and congestion avoidance are Reno's; only the reduction differs.
    let a = run(&scenario(CcConfig::Aimd(AimdConfig {}), 2, 0.0, 3 * S, 0));
    let w = run(&scenario(westwood(), 2, 0.0, 3 * S, 0));
    let first_cut = |sim: &Sim| sim.trace.cwnd.ssthresh_bytes.iter().position(|&s| s < 1 << 30).unwrap();
    let n = first_cut(&a);
    assert!(n > 100);
    assert_eq!(first_cut(&w), n);
    assert_eq!(a.trace.cwnd.cwnd_bytes[..n], w.trace.cwnd.cwnd_bytes[..n]);
    // Then AIMD restarts from half the flight and Westwood from BWE·RTTmin ≈ the pipe.
    assert!(w.trace.cwnd.ssthresh_bytes[n] < a.trace.cwnd.ssthresh_bytes[n] / 2);
}

#[test]
fn the_canonical_form_parses_and_is_checked() {
    let json = r#"{"kind": "westwood", "tau_ns": 500000000, "null_sample_divisor": 2, "filter": {"kind": "tustin"},
                   "ns3_fast_recovery": false}"#;
    let cc: CcConfig = serde_json::from_str(json).unwrap();
    assert!(matches!(
        cc,
        CcConfig::Westwood(WestwoodConfig {
            tau_ns: 500_000_000,
            null_sample_divisor: 2,
            filter: WestwoodFilter::Tustin {},
            ns3_fast_recovery: false,
            sample_tick_ns: 0,
            acked_count: AckedCountRule::Paper,
            silence: SilenceRule::WholeSilence,
            timeout_divisor: false,
        })
    ));
    let json = r#"{"kind": "westwood_plus", "filter": {"kind": "tustin_fixed", "alpha": 0.9}, "min_window_ns": 0,
                   "min_decrease_half": true, "ns3_fast_recovery": true}"#;
    let cc: CcConfig = serde_json::from_str(json).unwrap();
    assert!(matches!(
        cc,
        CcConfig::WestwoodPlus(WestwoodPlusConfig { min_decrease_half: true, ns3_fast_recovery: true, .. })
    ));
    let unknown = r#"{"kind": "westwood_plus", "filter": {"kind": "two_stage_ewma"}, "min_window_ns": 0,
                      "min_decrease_half": false, "ns3_fast_recovery": false, "tau_ns": 1}"#;
    assert!(serde_json::from_str::<CcConfig>(unknown).is_err());

    let mut cfg = scenario(westwood(), 1, 0.0, S, 0);
    assert!(cfg.validate().is_ok());
    let check = |cfg: &mut SimConfig, cc: CcConfig| {
        cfg.flows[0].tcp.cc = cc;
        cfg.validate().unwrap_err()
    };
    let tustin = WestwoodFilter::Tustin {};
    assert_eq!(
        check(
            &mut cfg,
            CcConfig::Westwood(WestwoodConfig {
                tau_ns: 0,
                null_sample_divisor: 2,
                filter: tustin,
                ns3_fast_recovery: false,
                sample_tick_ns: 0,
                acked_count: AckedCountRule::Paper,
                silence: SilenceRule::WholeSilence,
                timeout_divisor: false,
            })
        ),
        "flows[0].tcp.cc.tau_ns: must be > 0"
    );
    assert_eq!(
        check(
            &mut cfg,
            CcConfig::Westwood(WestwoodConfig {
                tau_ns: S,
                null_sample_divisor: 1,
                filter: tustin,
                ns3_fast_recovery: false,
                sample_tick_ns: 0,
                acked_count: AckedCountRule::Paper,
                silence: SilenceRule::WholeSilence,
                timeout_divisor: false,
            })
        ),
        "flows[0].tcp.cc.null_sample_divisor: 1 must be 0 (no virtual samples) or >= 2"
    );
    assert_eq!(
        check(
            &mut cfg,
            CcConfig::Westwood(WestwoodConfig {
                tau_ns: S,
                null_sample_divisor: 0,
                filter: tustin,
                ns3_fast_recovery: false,
                sample_tick_ns: 0,
                acked_count: AckedCountRule::Paper,
                silence: SilenceRule::WholeSilence,
                timeout_divisor: false,
            })
        ),
        "flows[0].tcp.cc.null_sample_divisor: 0 must be >= 2 with the tustin filters"
    );
    assert_eq!(
        check(
            &mut cfg,
            CcConfig::Westwood(WestwoodConfig {
                tau_ns: S,
                null_sample_divisor: 0,
                filter: WestwoodFilter::Ewma { alpha: 1.0 },
                ns3_fast_recovery: false,
                sample_tick_ns: 0,
                acked_count: AckedCountRule::Paper,
                silence: SilenceRule::WholeSilence,
                timeout_divisor: false,
            })
        ),
        "flows[0].tcp.cc.filter.alpha: 1 must be in [0, 1)"
    );
    assert_eq!(
        check(
            &mut cfg,
            CcConfig::WestwoodPlus(WestwoodPlusConfig {
                filter: WestwoodPlusFilter::TustinFixed { alpha: f64::NAN },
                min_window_ns: 0,
                min_decrease_half: false,
                ns3_fast_recovery: false,
                sampling: WestwoodPlusSampling::AckClocked,
                ssthresh_in_bytes: false,
            })
        ),
        "flows[0].tcp.cc.filter.alpha: NaN must be in [0, 1)"
    );
}
