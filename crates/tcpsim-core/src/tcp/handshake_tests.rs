//! The three-way handshake (`TcpConfig::handshake`, RFC 9293 §3.5) against hand-worked times,
//! read from the server's own packet capture, on `app::tests::topology`'s path: server
//! —100 Mb/s, 1 ms— router —10 Mb/s, 10 ms— c1. A 40-byte SYN reaches c1 after
//! 3.2 µs + 1 ms + 32 µs + 10 ms = 11.0352 ms and its 40-byte SYN-ACK is as long on the way
//! back, so the first data segment leaves at 22.0704 ms, one round trip after the flow starts.

use crate::app::tests::{flow, topology};
use crate::config::{AppConfig, LossConfig, SimConfig};
use crate::results::RunSummary;

const MS: u64 = 1_000_000;
const SYN: u8 = 0x02;
const ACK: u8 = 0x10;

/// A bulk flow server → c1 for `duration_ns`, handshake on, `loss` on server → router.
fn scenario(loss: Vec<LossConfig>, duration_ns: u64) -> SimConfig {
    let mut cfg = topology(100, vec![]);
    cfg.duration_ns = duration_ns;
    let bulk = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: None };
    cfg.flows = vec![flow("f", 2, bulk)];
    cfg.flows[0].tcp.handshake = true;
    cfg.links[0].ab.loss = loss;
    cfg.trace.pcap_nodes = vec![0];
    cfg.trace.rtt = true;
    cfg
}

/// The server's capture: (time ns, TCP flags, IP length) per packet.
type Capture = Vec<(u64, u8, u32)>;

/// Run `cfg`; the server's capture, the summary, and the RTT trace's (time, sample) rows.
fn run(cfg: &SimConfig) -> (Capture, RunSummary, Vec<(u64, u64)>) {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("tcpsim-handshake-{}-{call}.pcap", std::process::id()));
    let mut sim =
        crate::sim_from_json(&serde_json::to_string(cfg).unwrap(), 1, Some(std::slice::from_ref(&path))).unwrap();
    sim.run();
    sim.trace.pcap.as_mut().unwrap().finish().unwrap();
    let file = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let (mut at, mut packets) = (24, Vec::new());
    while at < file.len() {
        let word = |i: usize| u32::from_le_bytes(file[at + i..at + i + 4].try_into().unwrap());
        let (time, len) = (word(0) as u64 * 1_000_000_000 + word(4) as u64, word(8) as usize);
        let ip = &file[at + 16..at + 16 + len];
        packets.push((time, ip[33], u16::from_be_bytes([ip[2], ip[3]]) as u32));
        at += 16 + len;
    }
    let r = &sim.trace.rtt;
    let rtt = r.time_ns.iter().zip(&r.rtt_ns).map(|(&t, &x)| (t, x)).collect();
    (packets, sim.summary().unwrap(), rtt)
}

#[test]
fn data_leaves_one_round_trip_after_the_syn_whose_round_trip_is_the_first_rtt_sample() {
    let (packets, summary, rtt) = run(&scenario(vec![], 100 * MS));
    assert_eq!(packets[..3], [(0, SYN, 40), (22_070_400, SYN | ACK, 40), (22_070_400, ACK, 1040)]);
    assert_eq!(rtt[0], (22_070_400, 22_070_400), "the SYN-ACK's round trip");
    let f = &summary.flows[0];
    let data = packets.iter().filter(|p| p.2 == 1040).count() as u64;
    assert_eq!((f.packets_sent, f.packets_dropped, f.timeouts), (data, 0, 0), "the SYN is not data");
}

#[test]
fn a_lost_syn_is_sent_again_after_the_initial_rto_and_gives_no_rtt_sample() {
    // The server's link loses everything whose serialization ends in the first millisecond.
    let outage = LossConfig::OutageIntervals { intervals_ns: vec![(0, MS)] };
    let (packets, summary, rtt) = run(&scenario(vec![outage], 1_100 * MS));
    let second = 1_000 * MS; // the initial RTO, 1 s
    assert_eq!(
        packets[..4],
        [(0, SYN, 40), (second, SYN, 40), (second + 22_070_400, SYN | ACK, 40), (second + 22_070_400, ACK, 1040)]
    );
    assert!(rtt[0].0 > second + 22_070_400, "Karn: the resent SYN's SYN-ACK is no sample");
    assert_eq!((summary.flows[0].timeouts, summary.flows[0].packets_dropped), (1, 0));
}
