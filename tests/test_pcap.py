"""Packet captures (issue 17, item 6): `tcpsim run --pcap` / `trace.pcap` write pcap files that
Wireshark's own dissectors read as tcpsim meant them. tshark (Debian's package, installed by
scripts/setup-system.sh) analyses a scripted-loss run; its retransmission, duplicate-ACK and
packet counts must equal tcpsim's counters, with no malformed packet, bad checksum or warning."""

import json
import shutil
import struct
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import tcpsim
from tcpsim.api import pcap_file_names
from tcpsim.cli import app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
cli = CliRunner()

SCENARIO = """
duration = "20s"

[tcp]
mss = "1000B"
delack_count = 2
delack_timeout = "100ms"

[[links]]
name = "access"
a = "sender"
b = "r1"
rate = "100Mbps"
delay = "1ms"
queue = "1000pkt"

# 2 Mb/s: a flow's segments start transmission at least 4 ms apart on the captured link, over
# Wireshark's 3 ms out-of-order threshold, so each retransmission is classified as one.
[[links]]
name = "bottleneck"
a = "r1"
b = "r2"
rate = "2Mbps"
delay = "10ms"
queue = "1000pkt"   # no queue drops: every packet sent passes the capture point
loss = [
  # a burst (NewReno's partial ACKs), single losses (fast retransmit)
  { kind = "scripted", flow = "newreno", segments = [30, 31, 32, 33, 34, 35, 200, 400], direction = "ab" },
  # SACK blocks on the duplicate ACKs
  { kind = "scripted", flow = "sack", segments = [40, 42, 44, 300, 301], direction = "ab" },
  # the last segment of a transfer: no duplicate ACKs, a retransmission timeout
  { kind = "scripted", flow = "tail", segments = [50], direction = "ab" },
]

[[links]]
name = "egress"
a = "r2"
b = "receiver"
rate = "100Mbps"
delay = "1ms"
queue = "1000pkt"

[[flows]]
name = "newreno"
src = "sender"
dst = "receiver"
variant = "newreno"

[[flows]]
name = "sack"
src = "sender"
dst = "receiver"
variant = "sack"

[[flows]]
name = "tail"
src = "sender"
dst = "receiver"
variant = "newreno"
bytes = "50KB"
start = "1s"

[[udp]]
src = "sender"
dst = "receiver"
rate = "100kbps"
packet = "200B"
"""

PROBLEMS = (
    '_ws.malformed || _ws.expert.severity >= "Warning" || ip.checksum.status == "Bad"'
    ' || tcp.checksum.status == "Bad" || udp.checksum.status == "Bad"'
)
"""Frames tshark finds wrong: malformed, a bad checksum (checked where the capture holds the whole
segment), or any expert info of severity Warning or Error ("previous segment not captured",
"ACKed unseen segment", out-of-order...). The analysis' Notes and Chats (retransmission,
duplicate ACK) are expected."""
CHECKSUMS = ["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]


def _tool(name: str) -> str:
    """The path of a Wireshark tool, installed by the project's script if missing."""
    if shutil.which(name) is None:
        subprocess.run([str(ROOT / "scripts" / "setup-system.sh")], check=False)
    path = shutil.which(name)
    if path is None:
        pytest.skip(
            f"{name} is not installed and scripts/setup-system.sh could not install it (needs apt-get and root)"
        )
    return path


def _frames(capture: Path, display_filter: str, *fields: str, options: tuple[str, ...] = ()) -> list[str]:
    """One line per frame of `capture` matching `display_filter` (its `fields`, tab-separated)."""
    args = [_tool("tshark"), "-n", "-r", str(capture), *options, "-Y", display_filter]
    if fields:
        args += ["-T", "fields", *(a for f in fields for a in ("-e", f))]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return out.splitlines()


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    """The scenario run with both directions of the bottleneck captured: (output dir, result
    tables as saved, the two directions merged into one capture)."""
    tmp = tmp_path_factory.mktemp("pcap")
    scenario = tmp / "s.toml"
    scenario.write_text(SCENARIO)
    out = tmp / "out"
    result = cli.invoke(app, ["run", str(scenario), "--pcap", "bottleneck", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    merged = tmp / "both.pcap"
    ab, ba = out / "bottleneck-ab.pcap", out / "bottleneck-ba.pcap"
    subprocess.run([_tool("mergecap"), "-F", "pcap", "-w", str(merged), str(ab), str(ba)], check=True)
    return out, report, merged


def test_files_are_nanosecond_pcaps_of_raw_ipv4_named_in_the_result(captured):
    out, report, _ = captured
    assert report["meta"]["pcap"] == [str(out / "bottleneck-ab.pcap"), str(out / "bottleneck-ba.pcap")]
    header = (out / "bottleneck-ab.pcap").read_bytes()[:24]
    magic, major, minor, _, _, _, linktype = struct.unpack("<IHHiIII", header)
    assert (magic, major, minor, linktype) == (0xA1B23C4D, 2, 4, 228)


def test_packet_counts_are_the_link_directions_transmissions(captured):
    out, report, _ = captured
    links = {(row["name"], row["direction"]): row for row in report["links"]}
    for direction in ("ab", "ba"):
        frames = _frames(out / f"bottleneck-{direction}.pcap", "frame")
        assert len(frames) == links[("bottleneck", direction)]["tx_packets"] > 1000
    datagrams = _frames(out / "bottleneck-ab.pcap", "udp")
    udp = report["udp"][0]
    # Sent before the end minus those still queued at r1 at the end; all that arrived passed.
    assert 0 < udp["packets_received"] <= len(datagrams) <= udp["packets_sent"]


def test_tshark_counts_retransmissions_and_duplicate_acks_as_tcpsim_does(captured):
    out, _, merged = captured
    flows = pd.read_csv(out / "flows.csv").set_index("name").to_dict("index")
    retransmitted = _frames(merged, "tcp.analysis.retransmission", "tcp.srcport")
    dupacks = _frames(merged, "tcp.analysis.duplicate_ack", "tcp.dstport")
    # A flow's sender port is 10000 + its index (trace::pcap).
    for index, name in enumerate(("newreno", "sack", "tail")):
        flow = flows[name]
        port = str(10000 + index)
        assert retransmitted.count(port) == flow["packets_retransmitted"] > 0, name
        assert dupacks.count(port) == flow["dupacks_sent"], name
    assert flows["newreno"]["dupacks_sent"] > 10 and flows["sack"]["dupacks_sent"] > 10
    assert flows["tail"]["timeouts"] == 1 and flows["tail"]["dupacks_sent"] == 0


def test_sack_blocks_reach_the_capture_in_the_senders_sequence_space(captured):
    _, _, merged = captured
    blocks = _frames(
        merged, "tcp.options.sack_le && tcp.dstport == 10001", "tcp.options.sack_le", "tcp.options.sack_re"
    )
    assert blocks, "the SACK flow's duplicate ACKs carry SACK blocks"
    # Relative sequence numbers: segment n holds bytes [(n - 1)·1000, n·1000) + 1 (the ISN).
    first_left, first_right = (int(v.split(",")[0]) for v in blocks[0].split("\t"))
    assert (first_left, first_right) == (40 * 1000 + 1, 41 * 1000 + 1)


def test_nothing_is_malformed_no_checksum_is_wrong_and_no_warning_is_raised(captured):
    out, _, merged = captured
    for capture in (merged, out / "bottleneck-ab.pcap", out / "bottleneck-ba.pcap"):
        assert _frames(capture, PROBLEMS, options=tuple(CHECKSUMS)) == [], capture
    acks_checked = _frames(merged, 'tcp.checksum.status == "Good"', options=tuple(CHECKSUMS))
    assert len(acks_checked) > 1000, "pure ACKs are captured whole, so tshark verifies their checksums"


def test_ecn_marks_echoes_and_window_reductions_are_in_the_headers(tmp_path):
    """RED marks ECN-capable segments CE on the bottleneck (RFC 3168): tshark reads ECT(0) on new
    data, Not-ECT on retransmissions, CE on the marked ones and CWR after each reduction."""
    overrides = {"duration": "20s", "warmup": "0s", "trace.pcap": ["bottleneck:ab"]}
    r = tcpsim.run(ROOT / "scenarios" / "red_ecn.toml", pcap_dir=tmp_path, **overrides)
    capture = tmp_path / "bottleneck-ab.pcap"
    marks = int(r.links.set_index(["name", "direction"]).loc[("bottleneck", "ab"), "marks_ecn"])
    ce = len(_frames(capture, "ip.dsfield.ecn == 3"))
    # Marked at the queue's entry: all that reached a receiver were captured, some may still wait.
    assert 0 < r.flows["ce_received"].sum() <= ce <= marks
    # Retransmissions leave Not-ECT, so RED drops rather than marks them: all are captured but
    # those the bottleneck queue dropped before the tap.
    retransmitted, not_ect = r.flows["packets_retransmitted"].sum(), len(_frames(capture, "ip.dsfield.ecn == 0"))
    queue_drops = int(r.links.set_index(["name", "direction"]).loc[("bottleneck", "ab"), "drops_queue"])
    assert retransmitted - queue_drops <= not_ect <= retransmitted and not_ect > 0
    assert len(_frames(capture, "ip.dsfield.ecn == 2")) > 10_000
    reductions, cwr = r.flows["ecn_reductions"].sum(), len(_frames(capture, "tcp.flags.cwr == 1"))
    assert reductions - len(r.flows) <= cwr <= reductions, "a reduction at the very end may not have sent CWR yet"


def test_captures_repeat_byte_for_byte_and_do_not_change_results(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO)
    first = tcpsim.run(scenario, seed=3, pcap_dir=tmp_path / "a", **{"trace.pcap": ["bottleneck:ab"]})
    again = tcpsim.run(scenario, seed=3, pcap_dir=tmp_path / "b", **{"trace.pcap": ["bottleneck:ab"]})
    plain = tcpsim.run(scenario, seed=3)
    assert (tmp_path / "a" / "bottleneck-ab.pcap").read_bytes() == (tmp_path / "b" / "bottleneck-ab.pcap").read_bytes()
    assert first.flows.equals(plain.flows) and first.links.equals(plain.links) and again.flows.equals(plain.flows)
    assert "pcap" not in plain.meta
    not_written = tcpsim.run(scenario, seed=3, **{"trace.pcap": ["bottleneck:ab"]})
    assert "pcap" not in not_written.meta, "without pcap_dir nothing is captured"


@pytest.mark.parametrize(
    ("capture", "expected"),
    [
        ("nowhere:ab", "trace.pcap[0]: no link named 'nowhere'; the links are access, bottleneck, egress"),
        ("bottleneck:up", "trace.pcap[0]: 'bottleneck:up': direction 'up' is not ab or ba"),
        (":ab", "trace.pcap[0]: ':ab' names no link"),
    ],
)
def test_a_bad_capture_is_one_error_line_naming_the_field(tmp_path, capture, expected):
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO)
    result = cli.invoke(app, ["run", str(scenario), "--pcap", capture, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {expected}"), result.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pcap"))


def test_file_names_are_safe_and_distinct():
    taps = [(0, "a b", "ab"), (1, "a/b", "ab"), (2, "bottleneck", "ba")]
    assert pcap_file_names(taps) == ["a_b-0-ab.pcap", "a_b-1-ab.pcap", "bottleneck-ba.pcap"]


def test_a_capture_that_fails_leaves_the_previous_files_and_no_partial_one(tmp_path, monkeypatch):
    """The engine writes captures under temporary names, renamed when the run is done: a full
    disk mid-capture (issue 27) leaves the previous captures whole and no partial file, and
    the error names the file the user asked for."""
    import tcpsim.api

    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO)
    out = tmp_path / "out"
    out.mkdir()
    (out / "bottleneck-ab.pcap").write_bytes(b"the previous capture")

    def disk_full(config_json, seed, pcap_paths):
        for path in pcap_paths:
            Path(path).write_bytes(b"half")
        raise ValueError(f"trace.pcap: writing {pcap_paths[0]} failed: No space left on device (os error 28)")

    monkeypatch.setattr(tcpsim._core, "run", disk_full)
    with pytest.raises(tcpsim.api.SimulationError, match=f"writing {out / 'bottleneck-ab.pcap'} failed: No space"):
        tcpsim.run(scenario, pcap_dir=out, **{"trace.pcap": ["bottleneck:ab"]})
    assert sorted(p.name for p in out.iterdir()) == ["bottleneck-ab.pcap"]
    assert (out / "bottleneck-ab.pcap").read_bytes() == b"the previous capture"


def test_results_too_large_for_memory_are_a_simulation_error(tmp_path, monkeypatch):
    """A forced run with a 1 ns trace interval fills memory when its traces are handed to
    Python (issue 27): a SimulationError, which the CLI prints as an `error:` line."""
    import tcpsim.api

    def out_of_memory(config_json, seed, pcap_paths):
        raise MemoryError

    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO)
    monkeypatch.setattr(tcpsim._core, "run", out_of_memory)
    with pytest.raises(tcpsim.api.SimulationError, match="do not fit in memory"):
        tcpsim.run(scenario)
    result = cli.invoke(app, ["run", str(scenario)])
    assert result.exit_code == 2 and result.stderr.startswith("error: the run's results"), result.output


def _records(capture: Path) -> list[tuple[int, str, str, int]]:
    """(time ns, source address, destination address, IP total length) of each record."""
    data = capture.read_bytes()
    out, at = [], 24
    while at < len(data):
        seconds, nanoseconds, length, _ = struct.unpack_from("<IIII", data, at)
        ip = data[at + 16 : at + 16 + length]
        address = lambda b: ".".join(map(str, b))  # noqa: E731
        out.append((seconds * 10**9 + nanoseconds, address(ip[12:16]), address(ip[16:20]), int.from_bytes(ip[2:4])))
        at += 16 + length
    return out


def test_a_hosts_capture_is_what_that_host_sends_and_receives_with_its_own_round_trip(tmp_path):
    """`--pcap-node` captures at a host, where Wireshark users look (issue 26): lossy_link's
    first two 440-byte segments and their one delayed ACK, hand-worked. source —10 Mb/s, 45 ms—
    router —2 Mb/s, 10 µs— sink. Segment 2 starts at 0.352 ms (segment 1's serialization at
    10 Mb/s), reaches the router at 45.704 ms, waits for segment 1 (on the 2 Mb/s wire until
    45.352 + 1.760) and reaches the sink at 47.112 + 1.760 + 0.010 = 48.882 ms; the ACK (40 B)
    leaves the sink then and reaches the source at 48.882 + 0.160 + 0.010 + 0.032 + 45 =
    94.084 ms: the source sees a round trip of 93.732 ms, as its own stack would."""
    out = tmp_path / "out"
    args = ["run", str(ROOT / "scenarios" / "lossy_link.toml"), "--set", "duration=1s", "--seed", "1"]
    result = cli.invoke(app, [*args, "--pcap-node", "source", "--pcap-node", "sink", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["meta"]["pcap"] == [str(out / "source.pcap"), str(out / "sink.pcap")]
    source, sink = "10.0.0.1", "10.0.0.3"
    at_source, at_sink = _records(out / "source.pcap"), _records(out / "sink.pcap")
    assert at_source[:3] == [(0, source, sink, 440), (352_000, source, sink, 440), (94_084_000, sink, source, 40)]
    assert at_sink[:3] == [
        (47_122_000, source, sink, 440),
        (48_882_000, source, sink, 440),
        (48_882_000, sink, source, 40),
    ]
    # Every packet of each capture is the host's own: it sends it or it is addressed to it.
    assert all(source in (s, d) for _, s, d, _ in at_source) and all(sink in (s, d) for _, s, d, _ in at_sink)
    rtt = _frames(out / "source.pcap", "tcp.analysis.ack_rtt", "tcp.analysis.ack_rtt")
    assert rtt[0] == "0.093732000"


def test_a_routers_capture_shows_each_forwarded_packet_twice(tmp_path):
    """A router's capture holds each packet it forwards as it arrives and as it leaves: the
    first segment arrives at 45.352 ms and, the 2 Mb/s wire being idle, leaves at once."""
    out = tmp_path / "out"
    args = ["run", str(ROOT / "scenarios" / "lossy_link.toml"), "--set", "duration=1s", "--seed", "1"]
    result = cli.invoke(app, [*args, "--pcap-node", "router", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    links = {(row["name"], row["direction"]): row["tx_packets"] for row in json.loads(result.stdout)["links"]}
    at_router = _records(out / "router.pcap")
    assert at_router[:2] == [(45_352_000, "10.0.0.1", "10.0.0.3", 440)] * 2
    # Out: what the router sent on both links. In: what reached it, at least all it forwarded,
    # at most all the source and the sink sent it (some is still on the wire at the end).
    sent = links[("lossy", "ab")] + links[("access", "ba")]
    arrived = len(at_router) - sent
    assert 100 < sent <= arrived <= links[("access", "ab")] + links[("lossy", "ba")]


def test_a_node_capture_needs_a_node_of_the_scenario(tmp_path):
    result = cli.invoke(app, ["run", str(ROOT / "scenarios" / "lossy_link.toml"), "--pcap-node", "host"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: trace.pcap_nodes[0]: no node named 'host'; the nodes are source, router, sink"
    )


def test_a_node_file_that_would_be_a_links_gets_the_nodes_index():
    assert pcap_file_names([(0, "x", "ab")], [(3, "x-ab"), (4, "h 1")]) == ["x-ab.pcap", "x-ab-node3.pcap", "h_1.pcap"]


def test_wireshark_reads_the_flows_own_round_trip_from_a_host_capture(tmp_path):
    """Issue 26's check: at the sender's host Wireshark's `tcp.analysis.ack_rtt` is the flow's
    RTT (a link's merged capture gave 48 ms or 1.8 ms for this 92 ms path). Medians compared:
    Wireshark also times ACKs of retransmitted segments from their first sending (seconds, after
    a timeout), which Karn's rule keeps out of tcpsim's samples, so the means differ."""
    out = tmp_path / "out"
    args = ["run", str(ROOT / "scenarios" / "lossy_link.toml"), "--set", "duration=20s", "--set", "trace.rtt=true"]
    result = cli.invoke(app, [*args, "--pcap-node", "source", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    seen = [float(x) for x in _frames(out / "source.pcap", "tcp.analysis.ack_rtt", "tcp.analysis.ack_rtt")]
    samples = pd.read_parquet(out / "trace_rtt.parquet")["rtt_s"]
    assert len(seen) > 500 and len(samples) > 500
    assert sorted(seen)[len(seen) // 2] == pytest.approx(samples.median(), rel=0.05)
