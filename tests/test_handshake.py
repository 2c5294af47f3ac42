"""The optional three-way handshake (`tcp.handshake`, RFC 9293 §3.5): data one round trip
later, counted in a transfer's FCT and its ideal, the SYN and SYN-ACK in captures, and nothing
changed for scenarios that leave it off."""

import copy
import json
import shutil
import subprocess

import pytest
import tcpsim
from tcpsim.scenario import load_scenario

# One 10 Mb/s, 20 ms link: a 40-byte SYN and SYN-ACK take 2 × (20 ms + 32 µs) = 40.064 ms.
WEB = {
    "duration": "3s",
    "links": [{"name": "l", "a": "s", "b": "c", "rate": "10Mbps", "delay": "20ms", "queue": "100pkt"}],
    "web": [
        {
            "name": "w",
            "server": "s",
            "clients": ["c"],
            "arrivals": {"process": "poisson", "rate": "5/s"},
            "sizes": {"dist": "fixed", "size": "20KB"},
        }
    ],
}
ROUND_TRIP_S = 2 * (0.020 + 40 * 8 / 10e6)


def with_handshake(scenario: dict) -> dict:
    changed = copy.deepcopy(scenario)
    changed["tcp"] = {"handshake": True}
    return changed


def test_each_transfer_takes_one_round_trip_longer_and_its_ideal_counts_it():
    without, with_ = tcpsim.run(WEB, seed=1).fct(), tcpsim.run(with_handshake(WEB), seed=1).fct()
    assert len(without) == len(with_) > 5
    # Transfers arrive far apart on an idle link: each is exactly one round trip longer.
    assert with_["fct_s"].to_numpy() - without["fct_s"].to_numpy() == pytest.approx(ROUND_TRIP_S, abs=1e-9)
    assert with_["ideal_fct_s"].to_numpy() - without["ideal_fct_s"].to_numpy() == pytest.approx(ROUND_TRIP_S, abs=1e-9)


def test_left_off_it_is_not_in_the_canonical_scenario_so_hashes_do_not_change():
    off, on = load_scenario(WEB), load_scenario(with_handshake(WEB))
    assert "handshake" not in off.to_engine()["web"][0]["tcp"]
    assert on.to_engine()["web"][0]["tcp"]["handshake"] is True
    assert off.hash() != on.hash()


def test_a_capture_shows_the_handshake_as_wireshark_expects_it(tmp_path):
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark is not installed (tests/test_pcap.py installs it with scripts/setup-system.sh)")
    scenario = with_handshake(WEB)
    scenario["duration"] = "1s"
    scenario["trace"] = {"pcap_nodes": ["s"]}
    result = tcpsim.run(scenario, seed=1, pcap_dir=tmp_path)
    capture = result.meta["pcap"][0]
    fields = ["frame.time_epoch", "tcp.flags.syn", "tcp.flags.ack", "tcp.seq", "tcp.ack", "tcp.len"]
    args = [tshark, "-n", "-r", capture, "-T", "fields", *(a for f in fields for a in ("-e", f))]
    rows = [
        line.split("\t")
        for line in subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()
    ]
    # Relative sequence numbers: the SYN at 0, its SYN-ACK one round trip later acking 1, the
    # first data segment from 1 at once.
    assert [row[1:] for row in rows[:1]] == [["1", "0", "0", "0", "0"]]
    first_syn_ack = next(row for row in rows if row[1:3] == ["1", "1"])
    assert first_syn_ack[3:] == ["0", "1", "0"]
    assert float(first_syn_ack[0]) - float(rows[0][0]) == pytest.approx(ROUND_TRIP_S, abs=1e-9)
    assert sum(row[1] == "1" for row in rows) == 2 * len(result.transfers)  # SYN and SYN-ACK each
    times = [float(row[0]) for row in rows]
    assert times == sorted(times), "a host's capture is in time order"
    problems = subprocess.run(
        [tshark, "-n", "-r", capture, "-Y", '_ws.expert.severity >= "Warning"'],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert problems == "", problems


def test_a_bad_value_names_the_field():
    scenario = copy.deepcopy(WEB)
    scenario["tcp"] = {"handshake": "yes"}
    with pytest.raises(tcpsim.ScenarioError, match=r"tcp\.handshake"):
        load_scenario(scenario)
    assert json.dumps(WEB)  # the module's scenario is left as it was
