//! Whole runs of the traffic sources: ON/OFF TCP, web generators and their connection slots,
//! per-flow loss accounting.

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
        web: vec![],
        routing: Default::default(),
        shared_buffers: vec![],
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

pub(crate) fn web(name: &str, server: u32, clients: Vec<u32>, arrivals: ArrivalConfig, sizes: SizeConfig) -> WebConfig {
    let mut tcp = tcp_config(RecoveryKind::Newreno, 1);
    tcp.init_cwnd_segments = 2;
    WebConfig {
        name: name.into(),
        class: name.into(),
        server: Some(server),
        clients,
        direction: WebDirection::Download,
        tcp,
        arrivals,
        sizes,
        start_ns: 0,
        stop_ns: None,
    }
}

/// A server and a client on one 1 Gb/s link of 50 ms, with `generator` between them.
pub(crate) fn one_link(generator: WebConfig, duration_ns: u64) -> SimConfig {
    let queue = QueueConfig::DropTail { limit_packets: Some(1000), limit_bytes: None };
    let dir = DirectionConfig { queue, loss: vec![] };
    SimConfig {
        duration_ns,
        warmup_ns: 0,
        nodes: vec!["server".into(), "client".into()],
        links: vec![LinkConfig {
            name: "l".into(),
            a: 0,
            b: 1,
            rate_bps: 1_000_000_000,
            delay_ns: 50 * MS,
            ab: dir.clone(),
            ba: dir,
        }],
        flows: vec![],
        udp_flows: vec![],
        web: vec![generator],
        routing: Default::default(),
        shared_buffers: vec![],
        trace: TraceConfig::default(),
    }
}

/// Completion time of 14 segments of 1000 B (2 + 4 + 8: three rounds of slow start from an
/// initial window of 2, one ACK per segment) over one link of propagation P = 50 ms,
/// serialization d = 1040·8 ns per segment and a = 40·8 ns per ACK: the first round's ACKs
/// are back at 2P + d + a; the second round's four segments leave back to back (each ACK,
/// d apart, releases two segments of 2d), so the third round's first ACK arrives at
/// 4P + 2d + 2a and its eight segments leave back to back: the last arrives 8d + P later.
pub(crate) const SLOW_START_FCT_NS: u64 = 5 * 50 * MS + 10 * 8_320 + 2 * 320;

/// The transfers that overlap no other one (start after the previous one's end + 60 ms, its
/// slot reclaimed by then; end before the next one starts).
fn alone(transfers: &[crate::app::connections::Transfer]) -> Vec<crate::app::connections::Transfer> {
    (1..transfers.len().saturating_sub(1))
        .filter(|&k| {
            let (prev, t, next) = (&transfers[k - 1], &transfers[k], &transfers[k + 1]);
            prev.completed()
                && t.start_ns > prev.end_ns + 60 * MS
                && t.completed()
                && next.start_ns > t.end_ns + 60 * MS
        })
        .map(|k| transfers[k])
        .collect()
}

#[test]
fn every_transfer_is_a_new_connection_that_starts_in_slow_start() {
    let g = web("w", 0, vec![1], ArrivalConfig::Poisson { rate_per_s: 1.0 }, SizeConfig::Fixed { bytes: 14_000 });
    let sim = run(&one_link(g, 60 * S));
    let s = sim.summary().unwrap();
    let lone = alone(sim.transfers());
    assert!(lone.len() >= 20, "{} transfers alone on the link", lone.len());
    for t in &lone {
        assert_eq!(t.end_ns - t.start_ns, SLOW_START_FCT_NS, "transfer at {} ns", t.start_ns);
    }
    assert!(s.connection_slots < 5 && (s.web[0].transfers_started as usize) > 10 * s.connection_slots as usize);
    assert_eq!(s.packets_stale, 0);
    let w = &s.web[0];
    assert_eq!(w.bytes_delivered, 14_000 * w.transfers_completed);
    assert_eq!(w.packets_sent, 14 * w.transfers_started, "no retransmission on an idle path");
    assert_eq!(w.fct_median_s, Some(SLOW_START_FCT_NS as f64 / 1e9));
}

#[test]
fn packets_of_a_reclaimed_connection_never_reach_the_next_one_in_its_slot() {
    // An RTO of 1 ms on a 100 ms round trip: every segment is retransmitted spuriously many
    // times, so copies of each transfer are still in flight when its slot is reused.
    let mut g = web("w", 0, vec![1], ArrivalConfig::Poisson { rate_per_s: 20.0 }, SizeConfig::Fixed { bytes: 5_000 });
    (g.tcp.initial_rto_ns, g.tcp.min_rto_ns, g.tcp.max_rto_ns) = (MS, MS, MS);
    g.stop_ns = Some(28 * S);
    let sim = run(&one_link(g, 30 * S));
    let s = sim.summary().expect("packets are conserved");
    assert!(s.packets_stale > 1_000, "{} stale packets", s.packets_stale);
    let transfers = sim.transfers();
    assert!(transfers.iter().all(|t| t.completed()), "every transfer completes");
    let w = &s.web[0];
    assert_eq!(w.transfers_completed as usize, transfers.len());
    assert_eq!(w.bytes_delivered, 5_000 * w.transfers_completed, "no stale byte is delivered to a later transfer");
    for t in transfers.iter().filter(|t| t.completed()) {
        assert!(t.end_ns - t.start_ns >= 50 * MS + 5 * 8_320, "no transfer ends before its own data can arrive");
    }
}

#[test]
fn slots_are_reused_so_many_short_transfers_need_few() {
    let g = web("w", 0, vec![1], ArrivalConfig::Poisson { rate_per_s: 200.0 }, SizeConfig::Fixed { bytes: 1_000 });
    let mut cfg = one_link(g, 100 * S);
    cfg.links[0].delay_ns = MS;
    let s = run(&cfg).summary().unwrap();
    assert!(s.web[0].transfers_started > 19_000);
    assert!(s.connection_slots <= 10, "{} slots", s.connection_slots);
    assert_eq!(s.web[0].connection_slots, s.connection_slots);
}

#[test]
fn a_generator_counts_the_drops_of_its_connections_and_uploads_send_from_the_clients() {
    // Web traffic to c1 over the lossy router → c1 link and a bulk flow to c2: the link's
    // drops are the generator's; an upload generator sends from c2 to the server.
    let mut cfg = topology(10, vec![LossConfig::Bernoulli { p: 0.01 }]);
    let big = QueueConfig::DropTail { limit_packets: Some(1000), limit_bytes: None };
    (cfg.links[0].ab.queue, cfg.links[0].ba.queue) = (big.clone(), big); // no drop on the access link
    let sizes = SizeConfig::List { bytes: vec![20_000, 200_000] };
    let mut up = web("up", 0, vec![3], ArrivalConfig::Poisson { rate_per_s: 5.0 }, sizes.clone());
    up.direction = WebDirection::Upload;
    cfg.web = vec![web("down", 0, vec![2], ArrivalConfig::Pareto { rate_per_s: 5.0, shape: 1.5 }, sizes), up];
    cfg.flows = vec![flow("bulk", 3, AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: None })];
    cfg.trace.throughput_bin_ns = S;
    let sim = run(&cfg);
    let s = sim.summary().unwrap();
    let to_c1 = &s.channels[2];
    assert!(to_c1.drops_error > 0);
    assert_eq!(s.web[0].packets_dropped, to_c1.drops_queue + to_c1.drops_error);
    // router → c2 also carries the uploads' ACKs, whose drops are no one's data drops.
    let bulk = s.flows[0].packets_dropped;
    assert!(bulk > 0 && bulk <= s.channels[4].drops_queue, "the bulk flow's drops stay its own");
    assert!(s.channels[5].tx_bytes > 1_000_000, "uploads cross c2 → router");
    for (series, w) in [(1, &s.web[0]), (2, &s.web[1])] {
        assert_eq!(sim.trace.delivered_bins[series].iter().sum::<u64>(), w.bytes_delivered, "series {series}");
    }
}

#[test]
fn a_client_the_server_cannot_reach_is_an_error_naming_it() {
    let mut cfg = topology(10, vec![]);
    cfg.nodes.push("island".into());
    let fixed = SizeConfig::Fixed { bytes: 1 };
    cfg.web = vec![web("w", 0, vec![2, 4], ArrivalConfig::Poisson { rate_per_s: 1.0 }, fixed)];
    let error = Sim::new(&cfg, 1).err().unwrap();
    assert_eq!(error, "web[0].clients[1]: no route from node 'server' to node 'island'");
}

#[test]
fn a_run_with_web_and_on_off_traffic_conserves_packets_and_is_bit_identical_per_seed() {
    let mixed = || {
        let mut cfg = topology(15, vec![LossConfig::Bernoulli { p: 0.01 }]);
        cfg.links[2].ba.loss = vec![LossConfig::GilbertElliott {
            good_mean_ns: S,
            bad_mean_ns: 100 * MS,
            good_loss: 0.0,
            bad_loss: 0.3,
            initial: InitialChannelState::Good,
            shared_state: None,
            clock_rate_bps: None,
        }];
        cfg.duration_ns = 20 * S;
        cfg.warmup_ns = 2 * S;
        let pareto = SizeConfig::Pareto { mean_bytes: 30_000, shape: 1.3 };
        let mut up = web("up", 0, vec![2, 3], ArrivalConfig::Poisson { rate_per_s: 10.0 }, pareto.clone());
        up.direction = WebDirection::Upload;
        let mut down = web("down", 0, vec![2, 3], ArrivalConfig::Pareto { rate_per_s: 20.0, shape: 1.5 }, pareto);
        down.tcp.recovery = RecoveryKind::Sack;
        down.tcp.delack_count = 2;
        cfg.web = vec![down, up];
        let bulk = AppConfig::Bulk { start_ns: 0, start_jitter_ns: S, stop_ns: None, bytes: None };
        cfg.flows =
            vec![flow("bulk", 2, bulk), flow("onoff", 3, on_off(vec![(S, 5 * S), (8 * S, 9 * S), (12 * S, 30 * S)]))];
        cfg.trace = TraceConfig { cwnd: true, rtt: true, throughput_bin_ns: 500 * MS, ..Default::default() };
        cfg
    };
    let run_seed = |seed| {
        let mut sim = Sim::new(&mixed(), seed).unwrap();
        sim.run();
        let s = sim.summary().expect("packets are conserved");
        assert!(s.packets_dropped > 0 && s.web.iter().all(|w| w.transfers_completed > 10));
        assert!(s.flows.iter().all(|f| f.bytes_delivered > 0));
        let traces = (&sim.trace.delivered_bins, &sim.trace.cwnd.cwnd_bytes, &sim.trace.rtt.rtt_ns);
        (serde_json::to_string(&s).unwrap(), format!("{:?} {traces:?}", sim.transfers()))
    };
    let (a, b) = (run_seed(3), run_seed(3));
    assert!(a == b, "the same seed gives the same run");
    assert_ne!(a.0, run_seed(4).0);
}

#[test]
fn a_barrier_round_starts_a_gap_after_the_previous_rounds_last_transfer_ended() {
    // Incast on the three-host topology: c1 and c2 each answer the server with 30 000 B per
    // round, 4 rounds 1 ms apart.
    let barrier = ArrivalConfig::Barrier { rounds: 4, gap_ns: MS };
    let mut g = web("incast", 0, vec![2, 3], barrier, SizeConfig::Fixed { bytes: 30_000 });
    g.direction = WebDirection::Upload;
    g.start_ns = 100 * MS;
    let mut cfg = topology(100, vec![]);
    cfg.web = vec![g];
    let sim = run(&cfg);
    let t = sim.transfers();
    assert_eq!(t.len(), 8, "two transfers per round, four rounds");
    assert!(t.iter().all(|t| t.completed() && t.dst == 0 && t.src == t.client));
    assert_eq!(t[0].start_ns, 100 * MS, "the first round at start");
    for round in t.chunks(2) {
        assert_eq!((round[0].src, round[1].src), (2, 3), "every client once per round, in order");
        assert_eq!(round[0].start_ns, round[1].start_ns);
    }
    for k in 1..4 {
        let last_end = t[2 * k - 2].end_ns.max(t[2 * k - 1].end_ns);
        assert_eq!(t[2 * k].start_ns, last_end + MS, "round {k} starts 1 ms after round {} ended", k - 1);
    }
    assert_eq!(sim.summary().unwrap().web[0].transfers_completed, 8);
}

#[test]
fn all_to_all_transfers_join_distinct_hosts_and_complete() {
    let mut g =
        web("a2a", 0, vec![0, 2, 3], ArrivalConfig::Poisson { rate_per_s: 50.0 }, SizeConfig::Fixed { bytes: 5_000 });
    (g.server, g.direction) = (None, WebDirection::AllToAll);
    let mut cfg = topology(100, vec![]);
    cfg.web = vec![g];
    let sim = run(&cfg);
    let t = sim.transfers();
    assert!(t.len() > 400, "{} transfers in 10 s at 50/s", t.len());
    assert!(t.iter().all(|t| t.src != t.dst && [0, 2, 3].contains(&t.src) && [0, 2, 3].contains(&t.dst)));
    for (src, dst) in [(0, 2), (2, 0), (2, 3), (3, 2), (0, 3), (3, 0)] {
        assert!(t.iter().any(|t| (t.src, t.dst) == (src, dst)), "no transfer {src} -> {dst}");
    }
    assert!(t.iter().filter(|t| t.start_ns < 9 * S).all(|t| t.completed()));
}

#[test]
fn bad_cdfs_and_patterns_are_refused_by_path() {
    let check = |g: WebConfig| {
        let mut cfg = topology(100, vec![]);
        cfg.web = vec![g];
        cfg.validate().err().unwrap()
    };
    let empirical = |cdf: Vec<(u64, f64)>| {
        web("w", 0, vec![2], ArrivalConfig::Poisson { rate_per_s: 1.0 }, SizeConfig::Empirical { cdf })
    };
    assert_eq!(check(empirical(vec![(5, 0.0)])), "web[0].sizes.cdf: needs at least two points, has 1");
    assert_eq!(
        check(empirical(vec![(0, 0.0), (10, 0.5), (10, 0.5), (20, 1.0)])),
        "web[0].sizes.cdf[2]: probability 0.5 must be > the previous point's (0.5)"
    );
    assert_eq!(
        check(empirical(vec![(0, 0.0), (10, 0.5), (5, 1.0)])),
        "web[0].sizes.cdf[2]: size 5 must be >= the previous point's (10)"
    );
    assert_eq!(
        check(empirical(vec![(0, 0.0), (10, 0.5), (20, 0.9)])),
        "web[0].sizes.cdf: probabilities must run from 0 to 1, not 0 to 0.9"
    );
    let mut a2a = web("w", 0, vec![2, 2], ArrivalConfig::Poisson { rate_per_s: 1.0 }, SizeConfig::Fixed { bytes: 1 });
    a2a.direction = WebDirection::AllToAll;
    assert_eq!(check(a2a.clone()), "web[0].server: must be null with direction all_to_all");
    a2a.server = None;
    assert_eq!(check(a2a.clone()), "web[0].clients[1]: 2 is listed twice; all_to_all hosts must be distinct");
    a2a.clients = vec![2, 3];
    a2a.arrivals = ArrivalConfig::Barrier { rounds: 1, gap_ns: 0 };
    assert_eq!(check(a2a), "web[0].arrivals.process: barrier needs a server and clients, not all_to_all");
}
