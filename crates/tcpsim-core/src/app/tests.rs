//! Whole runs of the traffic sources: ON/OFF TCP and per-flow loss accounting.

use crate::config::*;
use crate::sim::Sim;
use crate::tcp::tests::tcp_config;

const MS: u64 = 1_000_000;
const S: u64 = 1_000_000_000;

/// server — router at 100 Mb/s, 1 ms; router — c1 and router — c2 at 10 Mb/s, 10 ms, with
/// `queue_packets` per direction and `loss` on router → c1; no flows yet.
pub(crate) fn topology(queue_packets: u64, loss: Vec<LossConfig>) -> SimConfig {
    let queue = QueueConfig::DropTail { limit_packets: Some(queue_packets), limit_bytes: None };
    let dir = |loss: Vec<LossConfig>| DirectionConfig { queue: queue.clone(), loss };
    let link = |name: &str, a, b, rate_bps, delay_ns, ab_loss| LinkConfig {
        name: name.into(),
        a,
        b,
        rate_bps,
        delay_ns,
        ab: dir(ab_loss),
        ba: dir(vec![]),
    };
    SimConfig {
        duration_ns: 10 * S,
        warmup_ns: 0,
        nodes: vec!["server".into(), "router".into(), "c1".into(), "c2".into()],
        links: vec![
            link("access", 0, 1, 100_000_000, MS, vec![]),
            link("to_c1", 1, 2, 10_000_000, 10 * MS, loss),
            link("to_c2", 1, 3, 10_000_000, 10 * MS, vec![]),
        ],
        flows: vec![],
        udp_flows: vec![],
        trace: TraceConfig::default(),
    }
}

pub(crate) fn flow(name: &str, dst: u32, app: AppConfig) -> FlowConfig {
    FlowConfig { name: name.into(), src: 0, dst, tcp: tcp_config(RecoveryKind::Newreno, 1), app }
}

fn on_off(on_ns: Vec<(u64, u64)>) -> AppConfig {
    AppConfig::OnOff { on_ns, bytes: None }
}

fn run(cfg: &SimConfig) -> Sim {
    let mut sim = Sim::new(cfg, 1).unwrap();
    sim.run();
    sim
}

#[test]
fn an_on_off_flow_delivers_only_inside_its_intervals_and_resumes_with_its_window() {
    // A receiver window of 60 KB (more than the path's 27.5 KB BDP, less than BDP + queue)
    // keeps the link busy without a loss, so all data sent is delivered within 100 ms.
    let mut cfg = topology(100, vec![]);
    cfg.flows = vec![flow("f", 2, on_off(vec![(S, 3 * S), (6 * S, 8 * S)]))];
    cfg.flows[0].tcp.rwnd_bytes = 60_000;
    cfg.trace = TraceConfig { cwnd: true, throughput_bin_ns: 100 * MS, ..Default::default() };
    let sim = run(&cfg);
    let s = sim.summary().unwrap();
    let bins = &sim.trace.delivered_bins[0];
    // Data sent before an interval's end is delivered within the next 100 ms; nothing is
    // delivered before the first start or while OFF.
    for (b, &bytes) in bins.iter().enumerate() {
        let t = b as u64 * 100 * MS;
        let off = t < S || (3 * S + 100 * MS..6 * S).contains(&t) || t >= 8 * S + 100 * MS;
        assert!(!off || bytes == 0, "{bytes} bytes delivered in the OFF bin at {t} ns");
    }
    let on_bins = |from: u64, to: u64| bins[(from / (100 * MS)) as usize..(to / (100 * MS)) as usize].to_vec();
    assert!(on_bins(S, 3 * S).iter().chain(&on_bins(6 * S, 8 * S)).all(|&b| b > 0), "busy while ON");
    // Slow start from one segment fills the first 100 ms bin only partly; after the OFF period
    // the window it had (far above one segment) is sent at once and fills the link.
    let (first, resumed) = (on_bins(S, S + 100 * MS)[0], on_bins(6 * S, 6 * S + 100 * MS)[0]);
    assert!(first < 60_000 && resumed > 100_000, "first bin {first} B, first bin after OFF {resumed} B");
    let c = &sim.trace.cwnd;
    let idle = c.time_ns.iter().filter(|&&t| (3 * S + 100 * MS..6 * S).contains(&t)).count();
    assert_eq!(idle, 0, "nothing changes the window while OFF");
    let before = c.time_ns.iter().rposition(|&t| t < 6 * S).unwrap();
    assert!(c.cwnd_bytes[before] >= 50_000, "cwnd kept across OFF: {}", c.cwnd_bytes[before]);
    assert_eq!(s.flows[0].bytes_delivered, bins.iter().sum::<u64>());
}

#[test]
fn an_empty_on_list_never_sends_and_intervals_past_the_end_are_ignored() {
    let mut cfg = topology(100, vec![]);
    cfg.flows = vec![flow("never", 2, on_off(vec![])), flow("late", 3, on_off(vec![(20 * S, 30 * S)]))];
    let s = run(&cfg).summary().unwrap();
    assert!(s.flows.iter().all(|f| f.packets_sent == 0 && f.bytes_delivered == 0));
    assert_eq!(s.packets_created, 0);
}

#[test]
fn unsorted_or_empty_on_intervals_are_refused_by_path() {
    for (on, error) in [
        (vec![(2 * S, S)], "flows[0].app.on_ns[0]: start 2000000000 must be < end 1000000000"),
        (vec![(S, 3 * S), (2 * S, 4 * S)], "flows[0].app.on_ns[1]: start 2000000000 must be >= the previous"),
    ] {
        let mut cfg = topology(100, vec![]);
        cfg.flows = vec![flow("f", 2, on_off(on))];
        let e = Sim::new(&cfg, 1).err().unwrap();
        assert!(e.starts_with(error), "{e}");
    }
}

#[test]
fn each_flow_counts_its_own_data_packets_dropped_by_queues_and_loss_models() {
    // Flow a crosses the lossy, small-queued router → c1 link; flow b does not.
    let mut cfg = topology(10, vec![LossConfig::Bernoulli { p: 0.002 }]);
    cfg.links[1].ba.loss = vec![LossConfig::Bernoulli { p: 0.05 }]; // ACKs of a: not data drops
    let bulk = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: None };
    cfg.flows = vec![flow("a", 2, bulk.clone()), flow("b", 3, bulk)];
    let s = run(&cfg).summary().unwrap();
    let to_c1 = &s.channels[2];
    assert!(to_c1.drops_queue > 0 && to_c1.drops_error > 0, "both kinds of drop happen");
    assert_eq!(s.flows[0].packets_dropped, to_c1.drops_queue + to_c1.drops_error);
    assert_eq!(s.flows[1].packets_dropped, s.channels[4].drops_queue);
    for f in &s.flows {
        assert_eq!(f.packets_sent * 1000, f.bytes_sent, "full-sized segments, retransmissions included");
    }
}
