//! Web-like traffic: a flow generator that starts finite TCP transfers between a server and
//! its clients (`WebConfig`).
//!
//! Transfers arrive as a Poisson process (exponential gaps, the classic model of user-initiated
//! session arrivals, Paxson & Floyd, "Wide-area traffic: the failure of Poisson modeling",
//! IEEE/ACM ToN 1995, Sec. III) or a Pareto renewal process (heavy-tailed gaps, ibid. Sec. VI);
//! sizes are Pareto (heavy-tailed file sizes, Crovella & Bestavros, IEEE/ACM ToN 1997; the
//! SURGE model of Barford & Crovella, SIGMETRICS 1998), fixed, or drawn uniformly from a list.
//! A Pareto with shape a > 1 and mean m has scale x_m = m·(a − 1)/a (its mean is a·x_m/(a − 1)).
//! Gaps are rounded to the nearest nanosecond and sizes to the nearest byte (at least one, at
//! most [`MAX_TRANSFER_BYTES`]).
//!
//! The arrival process, the sizes and the choice of client each draw from their own stream
//! (`web:<name>:arrivals`, `web:<name>:sizes`, `web:<name>:clients`), so changing the sizes
//! never moves an arrival. Arrivals happen in [start, stop): the first one gap after start.
//! Each transfer is a new connection (`app::connections`).

use crate::config::{ArrivalConfig, SizeConfig, TcpConfig, WebConfig, WebDirection, MAX_TRANSFER_BYTES};
use crate::rng::RandomStream;

/// How far apart transfers start.
#[derive(Clone, Copy, Debug)]
enum Arrivals {
    /// Exponential gaps of this mean, ns.
    Poisson { mean_ns: f64 },
    /// Pareto gaps.
    Pareto { shape: f64, scale_ns: f64 },
}

/// How large transfers are.
#[derive(Clone, Debug)]
enum Sizes {
    Pareto { shape: f64, scale_bytes: f64 },
    Fixed(u64),
    List(Vec<u64>),
}

/// The Pareto scale x_m that gives `mean` with `shape` > 1.
fn pareto_scale(mean: f64, shape: f64) -> f64 {
    mean * (shape - 1.0) / shape
}

/// One flow generator: what its transfers look like and when the next one starts.
pub struct WebGenerator {
    pub server: u32,
    clients: Vec<u32>,
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

/// A transfer about to start: the client it serves and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransferRequest {
    pub client: u32,
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
        };
        let sizes = match &cfg.sizes {
            SizeConfig::Pareto { mean_bytes, shape } => {
                Sizes::Pareto { shape: *shape, scale_bytes: pareto_scale(*mean_bytes as f64, *shape) }
            }
            SizeConfig::Fixed { bytes } => Sizes::Fixed(*bytes),
            SizeConfig::List { bytes } => Sizes::List(bytes.clone()),
        };
        WebGenerator {
            server: cfg.server,
            clients: cfg.clients.clone(),
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

    /// When the first transfer starts, if before the generator stops.
    pub fn first_arrival(&mut self) -> Option<u64> {
        self.after(self.start_ns)
    }

    /// When the transfer after one starting at `now_ns` starts, if before the generator stops.
    pub fn after(&mut self, now_ns: u64) -> Option<u64> {
        let gap = match self.arrivals {
            Arrivals::Poisson { mean_ns } => self.arrival_rng.exponential(mean_ns),
            Arrivals::Pareto { shape, scale_ns } => self.arrival_rng.pareto(shape, scale_ns),
        };
        // A gap too long for a u64 saturates: it is past any stop.
        let at = now_ns.saturating_add(gap.round() as u64);
        (at < self.stop_ns).then_some(at)
    }

    /// The next transfer's client and size.
    pub fn request(&mut self) -> TransferRequest {
        let bytes = match &self.sizes {
            Sizes::Pareto { shape, scale_bytes } => {
                (self.size_rng.pareto(*shape, *scale_bytes).round() as u64).clamp(1, MAX_TRANSFER_BYTES)
            }
            Sizes::Fixed(bytes) => *bytes,
            Sizes::List(list) => list[self.size_rng.below_or_equal(list.len() as u64 - 1) as usize],
        };
        let client = self.clients[self.client_rng.below_or_equal(self.clients.len() as u64 - 1) as usize];
        TransferRequest { client, bytes }
    }

    /// (sender node, receiver node) of a transfer for `client`.
    pub fn ends(&self, client: u32) -> (u32, u32) {
        match self.direction {
            WebDirection::Download => (self.server, client),
            WebDirection::Upload => (client, self.server),
        }
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
            server: 0,
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
        assert!((0..100).all(|_| fixed.request() == TransferRequest { client: 1, bytes: 7 }));
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
