//! Packet captures: the packets that start serialization on chosen link directions, or that
//! chosen nodes send and receive, written as pcap files Wireshark and tshark read, with
//! IPv4/TCP (or UDP) headers synthesized from the simulated packets.
//!
//! File format: pcap with nanosecond timestamps (magic 0xa1b23c4d, version 2.4), link type
//! LINKTYPE_IPV4 (228); time 0 is the Unix epoch.
//! - A link direction's capture (`trace.pcap`) is its sender-side tap: a record's timestamp
//!   is the simulated time the packet starts serialization. Packets a queue drops never start
//!   serialization, so they are not in the capture; packets a loss model drops are (the loss
//!   models act at the end of serialization: the packet was on the wire and did not arrive).
//! - A node's capture (`trace.pcap_nodes`) is what `tcpdump -i any` on that host shows: each
//!   packet it sends when it starts serialization on one of its links (after its own output
//!   queue, where Linux taps outgoing packets), each packet that reaches it when its last bit
//!   arrives. RTTs read from it are the host's own: from a segment leaving to its ACK arriving.
//!   Packets lost on the way in are not in it. At a router it shows a forwarded packet twice,
//!   in and out.
//!
//! Each record holds the headers only (IPv4 20 bytes, TCP 20 + options, UDP 8; no payload):
//! its captured length is the headers, its original length the simulated packet size, as a
//! `tcpdump -s` capture would record. Headers (RFC 791, RFC 9293, RFC 768):
//! - addresses: node `n` (its index in the scenario) is 10.0.0.0 + n + 1;
//! - TCP ports: the data receiver listens on [`TCP_RECEIVER_PORT`]; the sender of flow `f`,
//!   connection epoch `e` (web connections reuse flow slots), uses port 10000 +
//!   (f + 7919·e) mod 55536, unique while fewer than 55 536 connections are open at once;
//!   a UDP flow `u` uses 20000 + u mod 45536 at both ends;
//! - sequence numbers: each connection's two initial sequence numbers are a fixed hash of
//!   (flow, epoch, end), so captures are identical run to run; the data's first byte is
//!   ISN + 1, as after a SYN. The SYN and SYN-ACK are written when the handshake is modelled
//!   (`TcpConfig::handshake`); no FIN is;
//! - flags: ACK on every segment, CWR on data and ECE on ACKs as the model sets them; the ECN
//!   field of the IP header as the packet carries it (Not-ECT, ECT(0), CE);
//! - SACK blocks as a SACK option (RFC 2018 §3) after two NOPs, which the model charges 4 + 8
//!   bytes per block on the wire; the advertised window is a constant 65535 (the model does not
//!   carry one);
//! - the configured header size: TCP options are padded (End of Option List, then zeros) so
//!   the IP total length equals the simulated size. A header a TCP header cannot encode (under
//!   40 bytes, over 80, or 40 + a number not a multiple of 4) gets the nearest encodable
//!   option length; the record's original length stays the simulated size (or the IP total
//!   length when that is larger);
//! - checksums: IPv4 header and TCP/UDP checksums are computed as if the payload were zeros.
//!
//! Cost: the engine asks `Trace::pcap` once per transmission start and once per arrival (one
//! predictable branch when no capture is on); a capture writes through a buffer and allocates
//! nothing per packet. Arrivals at a captured node are never handed over (`net::handover`),
//! so each is an event the capture sees, and with a node captured every transmission end is an
//! event (`Network`'s eager mode), so a node's records, from several link directions and its
//! arrivals, are written in time order.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::config::{LinkDirection, SimConfig};
use crate::packet::{Ecn, Packet, PacketKind, SackBlock, MAX_SACK_BLOCKS};

/// The port the receiver of every TCP flow listens on.
pub const TCP_RECEIVER_PORT: u16 = 5001;
/// Bytes of the pcap file header.
const FILE_HEADER_BYTES: usize = 24;
/// Bytes of a record header.
const RECORD_HEADER_BYTES: usize = 16;
/// Largest headers written: IPv4 (20) + TCP with 40 bytes of options (60).
const MAX_HEADER_BYTES: usize = 80;
/// LINKTYPE_IPV4: raw IPv4 packets, no link-layer header.
const LINKTYPE_IPV4: u32 = 228;
/// Bytes a capture file buffers before writing.
const BUFFER_BYTES: usize = 1 << 20;

/// Largest IPv4 packet (the total length field is 16 bits).
pub const MAX_IPV4_BYTES: u64 = 65_535;

/// The IPv4 address of node `node` (10.0.0.0 + node + 1).
pub fn node_address(node: u32) -> u32 {
    0x0a00_0000 + node + 1
}

/// The port of the sending end of TCP flow `flow`, connection `epoch`.
pub fn tcp_sender_port(flow: u32, epoch: u32) -> u16 {
    (10_000 + (flow as u64 + 7919 * epoch as u64) % 55_536) as u16
}

/// The port of both ends of UDP flow `flow`.
pub fn udp_port(flow: u32) -> u16 {
    (20_000 + flow % 45_536) as u16
}

/// A connection end's initial sequence number: a fixed hash of (flow, epoch, end), end 0 for
/// the data sender and 1 for the receiver (the splitmix64 finalizer).
pub fn initial_sequence_number(flow: u32, epoch: u32, end: u32) -> u32 {
    let mut z = ((flow as u64) << 32 | epoch as u64) ^ (end as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u32
}

/// The nodes at the two ends of each flow: the TCP data sender and receiver, the UDP source
/// and destination.
#[derive(Clone, Debug, Default)]
struct Endpoints {
    /// (sender, receiver) per TCP flow index; web connection slots are set as they connect.
    tcp: Vec<(u32, u32)>,
    /// (source, destination) per UDP flow.
    udp: Vec<(u32, u32)>,
}

impl Endpoints {
    #[inline]
    fn of(&self, p: &Packet) -> (u32, u32) {
        match p.kind {
            PacketKind::Data => self.tcp[p.flow as usize],
            PacketKind::Ack => {
                let (sender, receiver) = self.tcp[p.flow as usize];
                (receiver, sender)
            }
            PacketKind::Udp => self.udp[p.flow as usize],
        }
    }
}

/// One's-complement sum of 16-bit big-endian words (RFC 1071), not yet folded.
fn sum_words(bytes: &[u8]) -> u32 {
    let mut sum = 0u32;
    let mut words = bytes.chunks_exact(2);
    for w in &mut words {
        sum += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = words.remainder() {
        sum += (*last as u32) << 8;
    }
    sum
}

/// Fold a one's-complement sum to 16 bits and complement it (RFC 1071).
fn checksum(mut sum: u32) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// The IPv4 header and TCP/UDP header of `p` (with its SACK blocks `sack`, as
/// `PacketPool::sack` gives them), sent from node `ends.0` to node `ends.1`, written into `buf`
/// as this module's doc says; returns (bytes written, the IP total length).
pub fn encode_headers(
    p: &Packet,
    sack: &[SackBlock],
    ends: (u32, u32),
    buf: &mut [u8; MAX_HEADER_BYTES],
) -> (usize, u32) {
    let (src, dst) = (node_address(ends.0), node_address(ends.1));
    // A UDP datagram's size includes its headers; a TCP segment's payload is its own field.
    let payload = if p.kind == PacketKind::Udp { p.wire_bytes.saturating_sub(28) } else { p.payload_bytes };
    let (protocol, transport_len) = match p.kind {
        PacketKind::Udp => (17u8, 8usize),
        PacketKind::Data | PacketKind::Ack => {
            let sack_len = if sack.is_empty() { 0 } else { 4 + 8 * sack.len() };
            // Option bytes the configured header leaves, as many as a TCP header holds.
            let room = (p.wire_bytes as i64 - payload as i64 - 40).clamp(0, 40) as usize;
            (6u8, 20 + (room & !3).max(sack_len))
        }
    };
    let header_len = 20 + transport_len;
    let ip_total = header_len as u32 + payload;
    buf[..header_len].fill(0);
    // IPv4 (RFC 791): version 4, IHL 5; DSCP 0 and the ECN field (RFC 3168 §5); no fragment, DF.
    let ip = &mut buf[..20];
    ip[0] = 0x45;
    ip[1] = match p.ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect0 => 0b10,
        Ecn::Ect1 => 0b01,
        Ecn::Ce => 0b11,
    };
    ip[2..4].copy_from_slice(&(ip_total.min(MAX_IPV4_BYTES as u32) as u16).to_be_bytes());
    ip[6] = 0x40;
    ip[8] = 64;
    ip[9] = protocol;
    ip[12..16].copy_from_slice(&src.to_be_bytes());
    ip[16..20].copy_from_slice(&dst.to_be_bytes());
    let ip_sum = checksum(sum_words(ip));
    ip[10..12].copy_from_slice(&ip_sum.to_be_bytes());
    let segment_len = ip_total - 20;
    let t = &mut buf[20..header_len];
    match p.kind {
        PacketKind::Udp => {
            let port = udp_port(p.flow).to_be_bytes();
            t[0..2].copy_from_slice(&port);
            t[2..4].copy_from_slice(&port);
            t[4..6].copy_from_slice(&(segment_len as u16).to_be_bytes());
        }
        PacketKind::Data | PacketKind::Ack => {
            let sender_isn = initial_sequence_number(p.flow, p.epoch, 0).wrapping_add(1);
            let receiver_isn = initial_sequence_number(p.flow, p.epoch, 1).wrapping_add(1);
            let sender_port = tcp_sender_port(p.flow, p.epoch).to_be_bytes();
            let receiver_port = TCP_RECEIVER_PORT.to_be_bytes();
            let data = p.kind == PacketKind::Data;
            // The SYN carries the ISN and acknowledges nothing; the SYN-ACK its own ISN and the
            // SYN's (RFC 9293 §3.5). Data then starts at ISN + 1 whether or not they were sent.
            let (sport, dport, seq, ack) = match (data, p.syn) {
                (true, false) => (sender_port, receiver_port, sender_isn.wrapping_add(p.seq as u32), receiver_isn),
                (true, true) => (sender_port, receiver_port, sender_isn.wrapping_sub(1), 0),
                (false, false) => (receiver_port, sender_port, receiver_isn, sender_isn.wrapping_add(p.ack as u32)),
                (false, true) => (receiver_port, sender_port, receiver_isn.wrapping_sub(1), sender_isn),
            };
            t[0..2].copy_from_slice(&sport);
            t[2..4].copy_from_slice(&dport);
            t[4..8].copy_from_slice(&seq.to_be_bytes());
            t[8..12].copy_from_slice(&ack.to_be_bytes());
            t[12] = ((transport_len / 4) as u8) << 4;
            // CWR 0x80, ECE 0x40, ACK 0x10, SYN 0x02 (RFC 3168 §6.1, RFC 9293 §3.1); a SYN
            // alone has no ACK.
            let ack_flag = if data && p.syn { 0 } else { 0x10 };
            t[13] =
                ack_flag | if p.syn { 0x02 } else { 0 } | if p.cwr { 0x80 } else { 0 } | if p.ece { 0x40 } else { 0 };
            t[14..16].copy_from_slice(&u16::MAX.to_be_bytes());
            if !sack.is_empty() {
                // NOP, NOP, SACK (kind 5, length 2 + 8n); the rest of the options stay zero:
                // End of Option List and padding.
                let o = &mut t[20..];
                o[0] = 1;
                o[1] = 1;
                o[2] = 5;
                o[3] = 2 + 8 * sack.len() as u8;
                for (i, b) in sack.iter().enumerate() {
                    let at = 4 + 8 * i;
                    o[at..at + 4].copy_from_slice(&sender_isn.wrapping_add(b.start as u32).to_be_bytes());
                    o[at + 4..at + 8].copy_from_slice(&sender_isn.wrapping_add(b.end as u32).to_be_bytes());
                }
            }
        }
    }
    // The transport checksum covers a pseudo-header (RFC 9293 §3.1, RFC 768); the payload is
    // zeros, which add nothing to the sum.
    let pseudo = sum_words(&src.to_be_bytes()) + sum_words(&dst.to_be_bytes()) + protocol as u32 + segment_len;
    let sum = checksum(pseudo + sum_words(&buf[20..header_len]));
    // A UDP checksum that computes to 0 is sent as all ones (RFC 768).
    let sum = if protocol == 17 && sum == 0 { 0xffff } else { sum };
    let at = if protocol == 17 { 26 } else { 36 };
    buf[at..at + 2].copy_from_slice(&sum.to_be_bytes());
    (header_len, ip_total)
}

/// One capture file.
struct Tap {
    out: BufWriter<File>,
    path: PathBuf,
}

/// The link directions and nodes captured and their files (see the module doc).
pub struct Pcap {
    /// Per channel (2·link + direction), its capture if it has one.
    taps: Vec<Option<Tap>>,
    /// Per node, its capture if it has one.
    node_taps: Vec<Option<Tap>>,
    /// Per channel, the node it leaves.
    channel_from: Vec<u32>,
    ends: Endpoints,
    /// The first write that failed: capturing stops and the run reports it.
    error: Option<String>,
}

/// The channel (2·link + direction) of a capture entry.
pub fn channel_of(link: u32, direction: LinkDirection) -> u32 {
    2 * link
        + match direction {
            LinkDirection::Ab => 0,
            LinkDirection::Ba => 1,
        }
}

impl Pcap {
    /// Create one file per entry of `cfg.trace.pcap`, then of `cfg.trace.pcap_nodes`, at
    /// `paths` (one each, in that order).
    pub fn create(cfg: &SimConfig, paths: &[PathBuf]) -> Result<Pcap, String> {
        let (links, nodes) = (&cfg.trace.pcap, &cfg.trace.pcap_nodes);
        if paths.len() != links.len() + nodes.len() {
            return Err(format!("trace.pcap: {} captures but {} file paths", links.len() + nodes.len(), paths.len()));
        }
        let open = |path: &PathBuf| -> Result<Tap, String> {
            let file = File::create(path).map_err(|e| format!("trace.pcap: cannot create {}: {e}", path.display()))?;
            let mut out = BufWriter::with_capacity(BUFFER_BYTES, file);
            out.write_all(&file_header()).map_err(|e| write_error(path, &e))?;
            Ok(Tap { out, path: path.clone() })
        };
        let mut taps: Vec<Option<Tap>> = (0..2 * cfg.links.len()).map(|_| None).collect();
        for (tap, path) in links.iter().zip(paths) {
            taps[channel_of(tap.link, tap.direction) as usize] = Some(open(path)?);
        }
        let mut node_taps: Vec<Option<Tap>> = (0..cfg.nodes.len()).map(|_| None).collect();
        for (&node, path) in nodes.iter().zip(&paths[links.len()..]) {
            node_taps[node as usize] = Some(open(path)?);
        }
        let channel_from = cfg.links.iter().flat_map(|l| [l.a, l.b]).collect();
        let ends = Endpoints {
            tcp: cfg.flows.iter().map(|f| (f.src, f.dst)).collect(),
            udp: cfg.udp_flows.iter().map(|u| (u.src, u.dst)).collect(),
        };
        Ok(Pcap { taps, node_taps, channel_from, ends, error: None })
    }

    /// Record `p` starting serialization on `channel` at `now_ns`, if that channel or the node
    /// it leaves is captured.
    #[inline(never)]
    pub fn record(&mut self, channel: u32, now_ns: u64, p: &Packet, sack: ([SackBlock; MAX_SACK_BLOCKS], usize)) {
        let from = self.channel_from[channel as usize] as usize;
        if self.taps[channel as usize].is_some() {
            self.write(Capture::Channel(channel as usize), now_ns, p, &sack.0[..sack.1]);
        }
        if self.node_taps[from].is_some() {
            self.write(Capture::Node(from), now_ns, p, &sack.0[..sack.1]);
        }
    }

    /// Record `p` arriving at `node` at `now_ns`, if that node is captured.
    #[inline(never)]
    pub fn arrive(&mut self, node: u32, now_ns: u64, p: &Packet, sack: ([SackBlock; MAX_SACK_BLOCKS], usize)) {
        if self.node_taps[node as usize].is_some() {
            self.write(Capture::Node(node as usize), now_ns, p, &sack.0[..sack.1]);
        }
    }

    /// Append `p`'s record to a capture; on a failed write, stop capturing.
    fn write(&mut self, capture: Capture, now_ns: u64, p: &Packet, sack: &[SackBlock]) {
        let mut headers = [0u8; MAX_HEADER_BYTES];
        let (len, ip_total) = encode_headers(p, sack, self.ends.of(p), &mut headers);
        let mut record = [0u8; RECORD_HEADER_BYTES];
        record[0..4].copy_from_slice(&((now_ns / 1_000_000_000) as u32).to_le_bytes());
        record[4..8].copy_from_slice(&((now_ns % 1_000_000_000) as u32).to_le_bytes());
        record[8..12].copy_from_slice(&(len as u32).to_le_bytes());
        record[12..16].copy_from_slice(&p.wire_bytes.max(ip_total).to_le_bytes());
        let tap = match capture {
            Capture::Channel(c) => self.taps[c].as_mut(),
            Capture::Node(n) => self.node_taps[n].as_mut(),
        };
        let Some(tap) = tap else { return };
        let written = tap.out.write_all(&record).and_then(|()| tap.out.write_all(&headers[..len]));
        if let Err(e) = written {
            self.error = Some(write_error(&tap.path, &e));
            self.taps.iter_mut().chain(self.node_taps.iter_mut()).for_each(|t| *t = None);
        }
    }

    /// Web connection `flow` now runs from `sender` to `receiver` (`app::connections`).
    pub fn connect(&mut self, flow: u32, sender: u32, receiver: u32) {
        let tcp = &mut self.ends.tcp;
        if tcp.len() <= flow as usize {
            tcp.resize(flow as usize + 1, (0, 0));
        }
        tcp[flow as usize] = (sender, receiver);
    }

    /// Write out what is buffered; the first write error of the run, if any.
    pub fn finish(&mut self) -> Result<(), String> {
        for tap in self.taps.iter_mut().chain(self.node_taps.iter_mut()).flatten() {
            if let Err(e) = tap.out.flush() {
                self.error.get_or_insert_with(|| write_error(&tap.path, &e));
            }
        }
        self.error.clone().map_or(Ok(()), Err)
    }
}

/// Which capture a record goes to.
#[derive(Clone, Copy)]
enum Capture {
    /// The capture of a channel (2·link + direction).
    Channel(usize),
    /// The capture of a node.
    Node(usize),
}

fn write_error(path: &Path, e: &std::io::Error) -> String {
    format!("trace.pcap: writing {} failed: {e}", path.display())
}

/// The pcap file header: nanosecond magic, version 2.4, GMT, snaplen, LINKTYPE_IPV4.
fn file_header() -> [u8; FILE_HEADER_BYTES] {
    let mut h = [0u8; FILE_HEADER_BYTES];
    h[0..4].copy_from_slice(&0xa1b2_3c4du32.to_le_bytes());
    h[4..6].copy_from_slice(&2u16.to_le_bytes());
    h[6..8].copy_from_slice(&4u16.to_le_bytes());
    h[16..20].copy_from_slice(&(MAX_HEADER_BYTES as u32).to_le_bytes());
    h[20..24].copy_from_slice(&LINKTYPE_IPV4.to_le_bytes());
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one's-complement sum over `bytes` folds to 0xffff when the checksum in it is right
    /// (RFC 1071 §1), computed here word by word independently of `sum_words`.
    fn verifies(bytes: &[u8]) -> bool {
        let mut sum: u64 = 0;
        for i in (0..bytes.len()).step_by(2) {
            let hi = bytes[i] as u64;
            let lo = bytes.get(i + 1).copied().unwrap_or(0) as u64;
            sum += hi << 8 | lo;
        }
        while sum >> 16 != 0 {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        sum == 0xffff
    }

    /// The TCP/UDP segment with its zero payload, behind its pseudo-header.
    fn pseudo_and_segment(buf: &[u8], len: usize, ip_total: u32) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&buf[12..20]);
        v.extend_from_slice(&[0, buf[9]]);
        v.extend_from_slice(&((ip_total - 20) as u16).to_be_bytes());
        v.extend_from_slice(&buf[20..len]);
        v.resize(12 + ip_total as usize - 20, 0);
        v
    }

    fn be32(b: &[u8]) -> u32 {
        u32::from_be_bytes(b.try_into().unwrap())
    }

    fn data(seq: u64) -> Packet {
        let mut p = Packet::new(PacketKind::Data, 3, 7, 1000, 1040);
        p.seq = seq;
        p
    }

    /// The ECN field (RFC 3168 §5, RFC 9331 §4): not-ECT 00, ECT(1) 01, ECT(0) 10, CE 11, with a
    /// header checksum that covers it.
    #[test]
    fn each_ecn_codepoint_has_its_two_bits() {
        for (ecn, bits) in [(Ecn::NotEct, 0b00), (Ecn::Ect1, 0b01), (Ecn::Ect0, 0b10), (Ecn::Ce, 0b11)] {
            let mut buf = [0u8; MAX_HEADER_BYTES];
            let p = Packet { ecn, ..data(0) };
            encode_headers(&p, &[], (2, 7), &mut buf);
            assert_eq!((buf[1] >> 2, buf[1] & 3), (0, bits), "{ecn:?}: DSCP 0, then the ECN field");
            assert!(verifies(&buf[..20]), "{ecn:?}: IPv4 header checksum");
        }
    }

    #[test]
    fn a_data_segment_has_valid_checksums_real_sequence_numbers_and_the_simulated_size() {
        let mut buf = [0u8; MAX_HEADER_BYTES];
        let mut p = data(5000);
        p.ecn = Ecn::Ce;
        p.cwr = true;
        let (len, total) = encode_headers(&p, &[], (2, 7), &mut buf);
        assert_eq!((len, total), (40, 1040));
        assert_eq!(buf[0], 0x45);
        assert_eq!(buf[1] & 3, 0b11, "CE in the ECN field");
        assert_eq!(u16::from_be_bytes([buf[2], buf[3]]), 1040);
        assert_eq!(buf[9], 6);
        assert_eq!(be32(&buf[12..16]), 0x0a00_0003, "node 2 is 10.0.0.3");
        assert_eq!(be32(&buf[16..20]), 0x0a00_0008);
        assert!(verifies(&buf[..20]), "IPv4 header checksum");
        assert!(verifies(&pseudo_and_segment(&buf, len, total)), "TCP checksum");
        assert_eq!(u16::from_be_bytes([buf[20], buf[21]]), tcp_sender_port(3, 0));
        assert_eq!(u16::from_be_bytes([buf[22], buf[23]]), TCP_RECEIVER_PORT);
        let isn = initial_sequence_number(3, 0, 0);
        assert_eq!(be32(&buf[24..28]), isn.wrapping_add(1 + 5000));
        assert_eq!(be32(&buf[28..32]), initial_sequence_number(3, 0, 1).wrapping_add(1));
        assert_eq!(buf[32] >> 4, 5, "20-byte TCP header");
        assert_eq!(buf[33], 0x90, "ACK and CWR");
    }

    #[test]
    fn an_ack_with_sack_blocks_carries_them_in_the_sender_sequence_space() {
        let mut buf = [0u8; MAX_HEADER_BYTES];
        let mut a = Packet::new(PacketKind::Ack, 3, 2, 0, 40 + 4 + 16);
        a.ack = 2000;
        a.ece = true;
        let sack = [SackBlock { start: 5000, end: 6000 }, SackBlock { start: 3000, end: 4000 }];
        a.sack_count = 2;
        let (len, total) = encode_headers(&a, &sack, (7, 2), &mut buf);
        assert_eq!((len, total), (60, 60), "IP total length = the simulated 60 bytes");
        assert!(verifies(&buf[..20]));
        assert!(verifies(&pseudo_and_segment(&buf, len, total)));
        assert_eq!((be32(&buf[12..16]), be32(&buf[16..20])), (0x0a00_0008, 0x0a00_0003), "receiver to sender");
        let sender_isn = initial_sequence_number(3, 0, 0).wrapping_add(1);
        assert_eq!(be32(&buf[28..32]), sender_isn.wrapping_add(2000));
        assert_eq!(buf[32] >> 4, 10, "40-byte TCP header");
        assert_eq!(buf[33], 0x50, "ACK and ECE");
        assert_eq!(&buf[40..44], &[1, 1, 5, 18]);
        let edges: Vec<u32> = (0..4).map(|i| be32(&buf[44 + 4 * i..48 + 4 * i]).wrapping_sub(sender_isn)).collect();
        assert_eq!(edges, [5000, 6000, 3000, 4000]);
    }

    #[test]
    fn a_larger_configured_header_is_filled_with_options_and_an_odd_one_stays_in_the_frame_length() {
        let mut buf = [0u8; MAX_HEADER_BYTES];
        let mut p = data(0);
        p.wire_bytes = 1052;
        let (len, total) = encode_headers(&p, &[], (0, 1), &mut buf);
        assert_eq!((len, total), (52, 1052));
        assert!(buf[40..52].iter().all(|&b| b == 0), "End of Option List and padding");
        assert!(verifies(&pseudo_and_segment(&buf, len, total)));
        p.wire_bytes = 1042;
        assert_eq!(encode_headers(&p, &[], (0, 1), &mut buf), (40, 1040), "42 bytes: the frame is 2 bytes longer");
        p.wire_bytes = 1000;
        assert_eq!(encode_headers(&p, &[], (0, 1), &mut buf), (40, 1040), "under 40 bytes of header: 40 are written");
    }

    #[test]
    fn a_udp_datagram_has_a_valid_checksum_and_length() {
        let mut buf = [0u8; MAX_HEADER_BYTES];
        let u = Packet::new(PacketKind::Udp, 1, 4, 500, 500);
        let (len, total) = encode_headers(&u, &[], (0, 4), &mut buf);
        assert_eq!((len, total), (28, 500));
        assert_eq!(buf[9], 17);
        assert_eq!(u16::from_be_bytes([buf[24], buf[25]]), 480, "UDP length");
        assert!(verifies(&buf[..20]));
        assert!(verifies(&pseudo_and_segment(&buf, len, total)));
    }

    /// A capture's records: (timestamp ns, captured bytes, original length) each.
    type Records = Vec<(u64, Vec<u8>, u32)>;

    /// The records of a capture file.
    fn records(file: &[u8]) -> Records {
        let le = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap());
        assert_eq!(le(&file[0..4]), 0xa1b2_3c4d);
        let (mut at, mut out) = (FILE_HEADER_BYTES, Vec::new());
        while at < file.len() {
            let h = &file[at..at + RECORD_HEADER_BYTES];
            let len = le(&h[8..12]) as usize;
            let body = file[at + RECORD_HEADER_BYTES..at + RECORD_HEADER_BYTES + len].to_vec();
            out.push((le(&h[0..4]) as u64 * 1_000_000_000 + le(&h[4..8]) as u64, body, le(&h[12..16])));
            at += RECORD_HEADER_BYTES + len;
        }
        out
    }

    #[test]
    fn a_web_run_captures_every_transmission_between_each_connections_own_ends() {
        use crate::app::tests::{one_link, web};
        use crate::config::{ArrivalConfig, PcapTapConfig, SizeConfig};
        let arrivals = ArrivalConfig::Pareto { rate_per_s: 5.0, shape: 1.5 };
        let mut cfg = one_link(web("w", 0, vec![1], arrivals, SizeConfig::Fixed { bytes: 20_000 }), 5_000_000_000);
        cfg.trace.pcap = vec![
            PcapTapConfig { link: 0, direction: LinkDirection::Ab },
            PcapTapConfig { link: 0, direction: LinkDirection::Ba },
        ];
        let dir = std::env::temp_dir().join(format!("tcpsim-pcap-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let paths = [dir.join("ab.pcap"), dir.join("ba.pcap")];
        let json = serde_json::to_string(&cfg).unwrap();
        let mut sim = crate::sim_from_json(&json, 1, Some(&paths)).unwrap();
        sim.run();
        sim.trace.pcap.as_mut().unwrap().finish().unwrap();
        let s = sim.summary().unwrap();
        assert!(sim.transfers().len() > 10);
        let mut sender_ports = std::collections::HashSet::new();
        for (c, path) in paths.iter().enumerate() {
            let recs = records(&std::fs::read(path).unwrap());
            assert_eq!(recs.len() as u64, s.channels[c].tx_packets, "every transmission start, nothing else");
            assert!(recs.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
            let (from, to) =
                if c == 0 { (node_address(0), node_address(1)) } else { (node_address(1), node_address(0)) };
            for (_, h, orig) in &recs {
                assert_eq!((be32(&h[12..16]), be32(&h[16..20])), (from, to), "the connection's own ends");
                assert_eq!(
                    *orig as usize,
                    u16::from_be_bytes([h[2], h[3]]) as usize,
                    "40-byte headers: IP length = size"
                );
                let port = if c == 0 { &h[20..22] } else { &h[22..24] };
                sender_ports.insert(u16::from_be_bytes([port[0], port[1]]));
            }
        }
        assert!(sender_ports.len() > 1, "a reused slot's next connection has a port of its own");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Run a bulk flow server (0) → router (1) → c1 (2) for 1 s (`app::tests::topology`:
    /// 100 Mb/s 1 ms, then 10 Mb/s 10 ms) capturing `to_c1` both ways, then `nodes`; returns
    /// the records of each capture and the run's channel counters (tx_packets).
    fn capture_chain(nodes: Vec<u32>) -> (Vec<Records>, Vec<u64>) {
        use crate::app::tests::{flow, topology};
        use crate::config::{AppConfig, PcapTapConfig};
        let mut cfg = topology(100, vec![]);
        cfg.duration_ns = 1_000_000_000;
        let bulk = AppConfig::Bulk { start_ns: 0, start_jitter_ns: 0, stop_ns: None, bytes: None };
        cfg.flows = vec![flow("f", 2, bulk)];
        cfg.trace.pcap = vec![
            PcapTapConfig { link: 1, direction: LinkDirection::Ab },
            PcapTapConfig { link: 1, direction: LinkDirection::Ba },
        ];
        cfg.trace.pcap_nodes = nodes;
        // Tests run in parallel: each call writes into a folder of its own.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("tcpsim-pcap-nodes-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<PathBuf> = (0..2 + cfg.trace.pcap_nodes.len()).map(|i| dir.join(format!("{i}.pcap"))).collect();
        let mut sim = crate::sim_from_json(&serde_json::to_string(&cfg).unwrap(), 1, Some(&paths)).unwrap();
        sim.run();
        sim.trace.pcap.as_mut().unwrap().finish().unwrap();
        let tx = sim.summary().unwrap().channels.iter().map(|c| c.tx_packets).collect();
        let recs = paths.iter().map(|p| records(&std::fs::read(p).unwrap())).collect();
        std::fs::remove_dir_all(&dir).unwrap();
        (recs, tx)
    }

    fn from_to(h: &[u8]) -> (u32, u32) {
        (be32(&h[12..16]), be32(&h[16..20]))
    }

    #[test]
    fn a_hosts_capture_holds_what_it_sends_as_it_leaves_and_what_reaches_it_as_it_arrives() {
        let (recs, tx) = capture_chain(vec![2]);
        let (link_ab, link_ba, host) = (&recs[0], &recs[1], &recs[2]);
        let (server, client) = (node_address(0), node_address(2));
        let sent: Vec<_> = host.iter().filter(|r| from_to(&r.1) == (client, server)).cloned().collect();
        let received: Vec<_> = host.iter().filter(|r| from_to(&r.1) == (server, client)).cloned().collect();
        assert_eq!(sent.len() + received.len(), host.len(), "nothing but the connection's packets");
        // Its ACKs leave as they start serialization on to_c1 b→a: the link tap's records.
        assert_eq!(&sent, link_ba);
        // Each data segment arrives its serialization (800 ns a byte at 10 Mb/s) and the 10 ms
        // delay after it started on to_c1 a→b; those still on the wire at the end are not in.
        assert!(received.len() <= link_ab.len() && link_ab.len() - received.len() <= 20);
        for (arrival, start) in received.iter().zip(link_ab) {
            assert_eq!((&arrival.1, arrival.2), (&start.1, start.2), "the same segment, in order");
            assert_eq!(arrival.0, start.0 + 800 * start.2 as u64 + 10_000_000);
        }
        assert!(received.len() > 500 && tx[2] == link_ab.len() as u64);
        assert!(host.windows(2).all(|w| w[0].0 <= w[1].0), "in time order, as tcpdump writes");
    }

    #[test]
    fn a_routers_capture_shows_each_forwarded_packet_arriving_and_leaving() {
        // Without the capture the router → c1 hop is a hand-over: no arrival event at the
        // router. With it every arrival is an event the capture records.
        let (recs, tx) = capture_chain(vec![1]);
        let (link_ab, router) = (&recs[0], &recs[2]);
        let data: Vec<_> = router.iter().filter(|r| from_to(&r.1) == (node_address(0), node_address(2))).collect();
        // Every segment that left on to_c1, as its tap saw it, is in the router's capture ...
        let mut unmatched = data.clone();
        for l in link_ab {
            let at = unmatched.iter().position(|r| **r == *l).expect("each departure is in the router's capture");
            unmatched.remove(at);
        }
        // ... and the rest are the arrivals from the server: all it sent on the access link
        // (channel 0) but those still on that 1 ms wire at the end.
        let arrivals = unmatched.len() as u64;
        assert!(arrivals <= tx[0] && tx[0] - arrivals <= 10, "{arrivals} arrivals of {} sent", tx[0]);
        assert!(arrivals >= link_ab.len() as u64, "a segment arrives before it leaves");
        assert!(router.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
        // Captures change nothing the run counts.
        let (_, alone) = capture_chain(vec![]);
        assert_eq!(tx, alone);
    }

    #[test]
    fn initial_sequence_numbers_differ_per_flow_epoch_and_end() {
        let isns: std::collections::HashSet<u32> = (0..100)
            .flat_map(|f| (0..3).flat_map(move |e| (0..2).map(move |end| (f, e, end))))
            .map(|(f, e, end)| initial_sequence_number(f, e, end))
            .collect();
        assert_eq!(isns.len(), 600);
        assert_ne!(tcp_sender_port(0, 0), tcp_sender_port(0, 1));
    }
}
