//! Web-like and data-centre traffic: a flow generator that starts finite TCP transfers between a
//! server and its clients, or between two hosts of a list (`all_to_all`) (`WebConfig`).
//!
//! Transfers arrive as a Poisson process (exponential gaps, the classic model of user-initiated
//! session arrivals, Paxson & Floyd, "Wide-area traffic: the failure of Poisson modeling",
//! IEEE/ACM ToN 1995, Sec. III) or a Pareto renewal process (heavy-tailed gaps, ibid. Sec. VI);
//! sizes are Pareto (heavy-tailed file sizes, Crovella & Bestavros, IEEE/ACM ToN 1997; the
//! SURGE model of Barford & Crovella, SIGMETRICS 1998), fixed, drawn uniformly from a list, or
//! drawn from an empirical CDF (below).
//! A Pareto with shape a > 1 and mean m has scale x_m = m·(a − 1)/a (its mean is a·x_m/(a − 1)).
//! Gaps are rounded to the nearest nanosecond and sizes to the nearest byte (at least one, at
//! most [`MAX_TRANSFER_BYTES`]).
//!
//! Empirical sizes are drawn by inverse transform of the piecewise-linear CDF through the given
//! points, as HPCC's traffic generator does (alibaba-edu/High-Precision-Congestion-Control,
//! `traffic_gen/custom_rand.py`, `getValueFromPercentile`): for u uniform in [0, 1), the first
//! point i ≥ 1 with u ≤ p_i, and x_{i−1} + (x_i − x_{i−1})·(u − p_{i−1})/(p_i − p_{i−1}). Sizes
//! are uniform between two points, a repeated size is a point mass, u = 0 gives the first size;
//! the draw is rounded to the nearest byte and made at least one (HPCC truncates, then makes a
//! draw of 0 one byte).
//!
//! Transfers go from the server to a client (download) or back (upload); `all_to_all`
//! generators draw the sender uniformly among their hosts and the receiver uniformly among the
//! others, as HPCC's generator does. Barrier arrivals (incast, Vasudevan et al., "Safe and
//! effective fine-grained TCP retransmissions for datacenter communication", SIGCOMM 2009,
//! Sec. 2; DCTCP, Alizadeh et al., SIGCOMM 2010, Sec. 4.2.1) start one transfer per client at
//! once, in client order, and the next round when all of them completed (`app::connections`
//! counts them).
//!
//! The arrival process, the sizes and the choice of ends each draw from their own stream
//! (`web:<name>:arrivals`, `web:<name>:sizes`, `web:<name>:clients`), so changing the sizes
//! never moves an arrival. Arrivals happen in [start, stop): the first one gap after start (a
//! barrier's first round at start). Each transfer is a new connection (`app::connections`).

use crate::config::{ArrivalConfig, SizeConfig, TcpConfig, WebConfig, WebDirection, MAX_TRANSFER_BYTES};
use crate::rng::RandomStream;

/// How far apart transfers start.
#[derive(Clone, Copy, Debug)]
enum Arrivals {
    /// Exponential gaps of this mean, ns.
    Poisson { mean_ns: f64 },
    /// Pareto gaps.
    Pareto { shape: f64, scale_ns: f64 },
    /// Rounds of one transfer per client, each `gap_ns` after the last one completed.
    Barrier { rounds_left: u32, gap_ns: u64 },
}

/// How large transfers are.
#[derive(Clone, Debug)]
enum Sizes {
    Pareto {
        shape: f64,
        scale_bytes: f64,
    },
    Fixed(u64),
    List(Vec<u64>),
    /// (bytes, cumulative probability), as validated by the config.
    Empirical(Vec<(f64, f64)>),
}

/// The inverse of the piecewise-linear CDF through `cdf` at `u` in [0, 1] (module doc).
fn inverse_cdf(cdf: &[(f64, f64)], u: f64) -> f64 {
    let i = cdf.partition_point(|&(_, p)| p < u).clamp(1, cdf.len() - 1);
    let ((x0, p0), (x1, p1)) = (cdf[i - 1], cdf[i]);
    x0 + (x1 - x0) * (u - p0) / (p1 - p0)
}

/// The Pareto scale x_m that gives `mean` with `shape` > 1.
fn pareto_scale(mean: f64, shape: f64) -> f64 {
    mean * (shape - 1.0) / shape
}

/// One flow generator: what its transfers look like and when the next one starts.
pub struct WebGenerator {
    server: Option<u32>,
    clients: Vec<u32>,
    /// The client of a barrier round's next transfer.
    next_client: usize,
    pub direction: WebDirection,
    pub tcp: TcpConfig,
    arrivals: Arrivals,
    sizes: Sizes,
    start_ns: u64,
    stop_ns: u64,
    arrival_rng: RandomStream,
    size_rng: RandomStream,
    client_rng: RandomStream,
}

/// A transfer about to start: its client (with `all_to_all`: its sender), its ends and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransferRequest {
    pub client: u32,
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
}

impl WebGenerator {
    pub fn new(cfg: &WebConfig, seed: u64) -> Self {
        let stream = |purpose: &str| RandomStream::new(seed, &format!("web:{}:{purpose}", cfg.name));
        let arrivals = match cfg.arrivals {
            ArrivalConfig::Poisson { rate_per_s } => Arrivals::Poisson { mean_ns: 1e9 / rate_per_s },
            ArrivalConfig::Pareto { rate_per_s, shape } => {
                Arrivals::Pareto { shape, scale_ns: pareto_scale(1e9 / rate_per_s, shape) }
            }
            ArrivalConfig::Barrier { rounds, gap_ns } => Arrivals::Barrier { rounds_left: rounds, gap_ns },
        };
        let sizes = match &cfg.sizes {
            SizeConfig::Pareto { mean_bytes, shape } => {
                Sizes::Pareto { shape: *shape, scale_bytes: pareto_scale(*mean_bytes as f64, *shape) }
            }
            SizeConfig::Fixed { bytes } => Sizes::Fixed(*bytes),
            SizeConfig::List { bytes } => Sizes::List(bytes.clone()),
            SizeConfig::Empirical { cdf } => Sizes::Empirical(cdf.iter().map(|&(b, p)| (b as f64, p)).collect()),
        };
        WebGenerator {
            server: cfg.server,
            clients: cfg.clients.clone(),
            next_client: 0,
            direction: cfg.direction,
            tcp: cfg.tcp.clone(),
            arrivals,
            sizes,
            start_ns: cfg.start_ns,
            stop_ns: cfg.stop_ns.unwrap_or(u64::MAX),
            arrival_rng: stream("arrivals"),
            size_rng: stream("sizes"),
            client_rng: stream("clients"),
        }
    }

    /// When the first transfer (or round) starts, if before the generator stops.
    pub fn first_arrival(&mut self) -> Option<u64> {
        match self.arrivals {
            Arrivals::Barrier { .. } => (self.start_ns < self.stop_ns).then_some(self.start_ns),
            _ => self.after(self.start_ns),
        }
    }

    /// When the transfer after one starting at `now_ns` starts, if before the generator stops;
    /// for a barrier generator, when the round after one whose last transfer completed at
    /// `now_ns` starts, if any is left.
    pub fn after(&mut self, now_ns: u64) -> Option<u64> {
        let gap = match &mut self.arrivals {
            Arrivals::Poisson { mean_ns } => self.arrival_rng.exponential(*mean_ns),
            Arrivals::Pareto { shape, scale_ns } => self.arrival_rng.pareto(*shape, *scale_ns),
            Arrivals::Barrier { rounds_left, gap_ns } => {
                *rounds_left -= 1;
                let at = now_ns.saturating_add(*gap_ns);
                return (*rounds_left > 0 && at < self.stop_ns).then_some(at);
            }
        };
        // A gap too long for a u64 saturates: it is past any stop.
        let at = now_ns.saturating_add(gap.round() as u64);
        (at < self.stop_ns).then_some(at)
    }

    /// How many transfers an arrival starts: one, or one per client for a barrier round.
    pub fn batch(&self) -> usize {
        match self.arrivals {
            Arrivals::Barrier { .. } => self.clients.len(),
            _ => 1,
        }
    }

    /// Whether the next arrival waits for the current round's transfers (`after` is called
    /// when the last one completed) rather than following the previous arrival.
    pub fn is_barrier(&self) -> bool {
        matches!(self.arrivals, Arrivals::Barrier { .. })
    }

    /// The next transfer's ends and size.
    pub fn request(&mut self) -> TransferRequest {
        let bytes = match &self.sizes {
            Sizes::Pareto { shape, scale_bytes } => self.size_rng.pareto(*shape, *scale_bytes),
            Sizes::Fixed(bytes) => *bytes as f64,
            Sizes::List(list) => list[self.size_rng.below_or_equal(list.len() as u64 - 1) as usize] as f64,
            Sizes::Empirical(cdf) => inverse_cdf(cdf, self.size_rng.uniform()),
        };
        let bytes = (bytes.round() as u64).clamp(1, MAX_TRANSFER_BYTES);
        let n = self.clients.len();
        let pick = |rng: &mut RandomStream, n: usize| rng.below_or_equal(n as u64 - 1) as usize;
        let (client, src, dst) = match (self.direction, self.server) {
            (WebDirection::AllToAll, _) => {
                let src = pick(&mut self.client_rng, n);
                let other = pick(&mut self.client_rng, n - 1);
                let dst = other + (other >= src) as usize;
                (self.clients[src], self.clients[src], self.clients[dst])
            }
            (direction, Some(server)) => {
                let client = if self.is_barrier() {
                    let k = self.next_client;
                    self.next_client = (k + 1) % n;
                    self.clients[k]
                } else {
                    self.clients[pick(&mut self.client_rng, n)]
                };
                match direction {
                    WebDirection::Upload => (client, client, server),
                    _ => (client, server, client),
                }
            }
            (_, None) => unreachable!("validated: only all_to_all has no server"),
        };
        TransferRequest { client, src, dst, bytes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::tests::tcp_config;

    fn generator(arrivals: ArrivalConfig, sizes: SizeConfig, clients: Vec<u32>) -> WebGenerator {
        let cfg = WebConfig {
            name: "w".into(),
            class: "w".into(),
            server: Some(0),
            clients,
            direction: WebDirection::Download,
            tcp: tcp_config(crate::config::RecoveryKind::Newreno, 1),
            arrivals,
            sizes,
            start_ns: 5_000_000_000,
            stop_ns: None,
        };
        WebGenerator::new(&cfg, 11)
    }

    /// Transfers per second and mean size over the first `n` transfers.
    fn empirical(g: &mut WebGenerator, n: usize) -> (f64, f64) {
        let first = g.first_arrival().unwrap();
        let mut last = first;
        let mut bytes = 0u64;
        for _ in 0..n {
            bytes += g.request().bytes;
            last = g.after(last).unwrap();
        }
        (n as f64 / ((last - first) as f64 / 1e9), bytes as f64 / n as f64)
    }

    #[test]
    fn rate_and_mean_size_are_within_five_percent_over_10000_transfers() {
        let pareto_sizes = SizeConfig::Pareto { mean_bytes: 30_000, shape: 2.5 };
        for arrivals in
            [ArrivalConfig::Poisson { rate_per_s: 50.0 }, ArrivalConfig::Pareto { rate_per_s: 50.0, shape: 2.5 }]
        {
            let (rate, mean) = empirical(&mut generator(arrivals.clone(), pareto_sizes.clone(), vec![1]), 10_000);
            assert!((rate / 50.0 - 1.0).abs() < 0.05, "{arrivals:?}: {rate} transfers/s");
            assert!((mean / 30_000.0 - 1.0).abs() < 0.05, "{arrivals:?}: mean size {mean} B");
        }
    }

    #[test]
    fn pareto_draws_have_the_scale_that_gives_the_mean_and_a_heavy_tail() {
        assert_eq!(pareto_scale(30_000.0, 1.5), 10_000.0);
        let mut g = generator(
            ArrivalConfig::Poisson { rate_per_s: 1.0 },
            SizeConfig::Pareto { mean_bytes: 30_000, shape: 1.2 },
            vec![1],
        );
        let sizes: Vec<u64> = (0..10_000).map(|_| g.request().bytes).collect();
        let scale = 30_000 / 6; // x_m = m·(a − 1)/a
        assert!(sizes.iter().all(|&b| b >= scale), "no draw below the scale");
        let median = {
            let mut s = sizes.clone();
            s.sort_unstable();
            s[5_000] as f64
        };
        // Median x_m·2^(1/a) = 8909 B, far below the mean; the largest draws are huge.
        assert!((median / 8909.0 - 1.0).abs() < 0.05, "median {median}");
        assert!(*sizes.iter().max().unwrap() > 100 * 30_000);
    }

    #[test]
    fn fixed_and_listed_sizes_and_clients_are_drawn_uniformly() {
        let list = SizeConfig::List { bytes: vec![10_000, 1_000_000] };
        let mut g = generator(ArrivalConfig::Poisson { rate_per_s: 1.0 }, list, vec![1, 2, 3]);
        let mut per_client = [0u32; 4];
        let mut small = 0;
        for _ in 0..30_000 {
            let r = g.request();
            per_client[r.client as usize] += 1;
            small += (r.bytes == 10_000) as u32;
        }
        assert_eq!(per_client[0], 0, "never the server");
        assert!(per_client[1..].iter().all(|&n| (9_500..10_500).contains(&n)), "{per_client:?}");
        assert!((14_500..15_500).contains(&small), "{small}");
        let mut fixed = generator(ArrivalConfig::Poisson { rate_per_s: 1.0 }, SizeConfig::Fixed { bytes: 7 }, vec![1]);
        assert!((0..100).all(|_| fixed.request() == TransferRequest { client: 1, src: 0, dst: 1, bytes: 7 }));
    }

    #[test]
    fn arrivals_start_one_gap_after_start_and_end_before_stop() {
        let mut g = generator(ArrivalConfig::Poisson { rate_per_s: 100.0 }, SizeConfig::Fixed { bytes: 1 }, vec![1]);
        g.stop_ns = 6_000_000_000;
        let mut t = g.first_arrival().unwrap();
        assert!(t > 5_000_000_000);
        let mut n = 0;
        while let Some(next) = g.after(t) {
            assert!(next >= t && next < 6_000_000_000);
            (t, n) = (next, n + 1);
        }
        assert!((80..120).contains(&n), "{n} arrivals in one second at 100/s");
    }

    #[test]
    fn the_inverse_cdf_interpolates_between_points_and_keeps_point_masses() {
        // 0..100 B uniform with probability 1/2, 100 B with 1/4, 100..300 B uniform with 1/4.
        let cdf = [(0.0, 0.0), (100.0, 0.5), (100.0, 0.75), (300.0, 1.0)];
        let at = |u| inverse_cdf(&cdf, u);
        assert_eq!(at(0.0), 0.0, "u = 0: the first size");
        assert_eq!(at(0.25), 50.0);
        assert_eq!(at(0.5), 100.0);
        assert_eq!(at(0.6), 100.0, "inside the point mass");
        assert_eq!(at(0.875), 200.0);
        assert_eq!(at(1.0), 300.0, "u = 1: the last size");
        // A first point above 0 B: u = 0 gives it, not 0.
        assert_eq!(inverse_cdf(&[(6.0, 0.0), (6.0, 0.15), (13.0, 1.0)], 0.0), 6.0);
    }

    #[test]
    fn empirical_draws_have_the_cdfs_mean_and_quantiles_and_repeat_per_seed() {
        // Mean of the piecewise-linear CDF: 50·0.5 + 100·0.25 + 200·0.25 = 100 B.
        let cdf = vec![(0, 0.0), (100, 0.5), (100, 0.75), (300, 1.0)];
        let draws = || {
            let mut g = generator(
                ArrivalConfig::Poisson { rate_per_s: 1.0 },
                SizeConfig::Empirical { cdf: cdf.clone() },
                vec![1],
            );
            (0..40_000).map(|_| g.request().bytes).collect::<Vec<u64>>()
        };
        let sizes = draws();
        assert_eq!(sizes, draws(), "same seed, same sizes");
        let mean = sizes.iter().sum::<u64>() as f64 / sizes.len() as f64;
        assert!((mean / 100.0 - 1.0).abs() < 0.02, "mean {mean} B");
        assert!(sizes.iter().all(|&b| (1..=300).contains(&b)), "a draw of 0 B is made 1 B");
        let at_100 = sizes.iter().filter(|&&b| b == 100).count() as f64 / sizes.len() as f64;
        assert!((at_100 - 0.25).abs() < 0.01, "P(100 B) = {at_100}");
    }

    #[test]
    fn all_to_all_draws_every_ordered_pair_of_distinct_hosts_uniformly() {
        let mut g =
            generator(ArrivalConfig::Poisson { rate_per_s: 1.0 }, SizeConfig::Fixed { bytes: 1 }, vec![4, 5, 6]);
        g.server = None;
        g.direction = WebDirection::AllToAll;
        let mut count = [[0u32; 3]; 3];
        for _ in 0..60_000 {
            let r = g.request();
            assert_eq!(r.client, r.src);
            count[r.src as usize - 4][r.dst as usize - 4] += 1;
        }
        for (a, row) in count.iter().enumerate() {
            for (b, &n) in row.iter().enumerate() {
                if a == b {
                    assert_eq!(n, 0, "never to itself");
                } else {
                    assert!((9_500..10_500).contains(&n), "{a} -> {b}: {n} of 60 000");
                }
            }
        }
    }

    #[test]
    fn barrier_rounds_serve_every_client_in_order_and_end_after_the_last_round() {
        let barrier = ArrivalConfig::Barrier { rounds: 2, gap_ns: 7 };
        let mut g = generator(barrier, SizeConfig::Fixed { bytes: 3 }, vec![1, 2, 3]);
        g.direction = WebDirection::Upload;
        assert_eq!(g.first_arrival(), Some(5_000_000_000), "the first round at start");
        assert_eq!(g.batch(), 3);
        let clients: Vec<(u32, u32, u32)> = (0..6).map(|_| g.request()).map(|r| (r.client, r.src, r.dst)).collect();
        assert_eq!(clients, [(1, 1, 0), (2, 2, 0), (3, 3, 0), (1, 1, 0), (2, 2, 0), (3, 3, 0)]);
        assert_eq!(g.after(100), Some(107), "round 2: gap after round 1 ended");
        assert_eq!(g.after(300), None, "no third round");
    }

    #[test]
    fn the_streams_are_separate_so_sizes_never_move_arrivals() {
        let arrivals = |sizes| {
            let mut g = generator(ArrivalConfig::Poisson { rate_per_s: 10.0 }, sizes, vec![1, 2]);
            let mut t = g.first_arrival().unwrap();
            (0..100)
                .map(|_| {
                    g.request();
                    t = g.after(t).unwrap();
                    t
                })
                .collect::<Vec<_>>()
        };
        let pareto = SizeConfig::Pareto { mean_bytes: 1000, shape: 1.5 };
        assert_eq!(arrivals(SizeConfig::Fixed { bytes: 5 }), arrivals(pareto));
    }
}
