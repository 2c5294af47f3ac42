"""Line up ns-2's Agent/TCP/Westwood and tcpsim's emulation of it under the same losses.

    .venv/bin/python peers/ns2/westwood/trace/compare.py RTT DROPS DURATION NS_TRACE [CONFIG]

Runs `agent_trace.tcl` with the tracing ns (NS_TRACE, from build.sh) and tcpsim's Fig. 8 path
(casetti fig9's scenario with the wired delay for RTT, no random loss, the flow started at
0.1 s) with a `scripted` loss of the same sequence numbers (DROPS: a file of whitespace-
separated numbers; ns-2's seqno k is tcpsim's segment k, ns-2's 0 being its SYN), and prints
the segments each acknowledged and their window events (cuts, timeouts) side by side, with the
first event where they part. ns-2's times are shifted back by its SYN's round trip (tcpsim's
flow has no handshake); ns-2's line is the first ACK after an event (cwnd is printed before
that ACK grows it).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import tcpsim
from tcpsim.repro.casetti.common import CONFIGS, wireless_scenario

HERE = Path(__file__).resolve().parent
ACK = re.compile(r"sc\S*: ack\. no\. (-?\d+) at time ([\d.]+), bwe=([\d.]+), cwnd = (\d+), ssthresh_ = (\d+)")
MSS = 360


def ns2_events(ns: str, rtt: float, drops: str, duration: float) -> tuple[list[tuple], int]:
    out = subprocess.run(
        [ns, str(HERE / "agent_trace.tcl"), str(rtt), drops, str(duration)], capture_output=True, text=True, check=True
    ).stdout
    rows = [(float(m[2]), int(m[1]), int(m[4]), int(m[5])) for m in ACK.finditer(out)]
    syn_rtt = rows[0][0] - 0.1
    events, prev = [], rows[0]
    for t, ack, cwnd, ssthresh in rows[1:]:
        if ssthresh != prev[3] or cwnd < prev[2]:
            events.append((round(t - syn_rtt, 4), cwnd, ssthresh))
        prev = (t, ack, cwnd, ssthresh)
    return events, rows[-1][1]


def tcpsim_events(rtt: float, segments: list[int], duration: float, config: str) -> tuple[list[tuple], int]:
    scenario = wireless_scenario(config, loss=[], duration_s=duration, warmup_s=0.0, wired_delay_s=rtt / 2 - 0.00001)
    scenario["links"][1]["loss"] = [{"kind": "scripted", "flow": "tcp", "segments": segments, "direction": "ab"}]
    flow = scenario["flows"][0]
    del flow["start_jitter"]
    flow["start"] = "0.1s"
    scenario["trace"] = {"cwnd": True, "interval": "0s"}
    result = tcpsim.run(scenario, seed=1)
    trace = result.trace("cwnd")
    events, prev = [], None
    for t, cwnd_bytes, ssthresh_bytes in zip(trace["time_s"], trace["cwnd_bytes"], trace["ssthresh_bytes"]):
        cwnd, ssthresh = int(cwnd_bytes) // MSS, int(ssthresh_bytes) // MSS
        if prev is not None and (ssthresh != prev[1] or cwnd < prev[0]):
            events.append((round(float(t), 4), cwnd, ssthresh))
        prev = (cwnd, ssthresh)
    return events, int(result.flows["bytes_delivered"].iloc[0]) // MSS


def main() -> None:
    rtt, drops, duration, ns = float(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
    config = sys.argv[5] if len(sys.argv) > 5 else "westwood[ns2_agent]"
    assert config in CONFIGS, config
    segments = [int(s) for s in Path(drops).read_text().split()]
    ns_events, ns_acked = ns2_events(ns, rtt, drops, duration)
    ts_events, ts_acked = tcpsim_events(rtt, segments, duration, config)
    print(f"segments acknowledged: ns-2 {ns_acked}, tcpsim {ts_acked}")
    print("events (time s, cwnd, ssthresh in segments): ns-2 | tcpsim")
    first = next(
        (i for i, (a, b) in enumerate(zip(ns_events, ts_events)) if abs(a[0] - b[0]) > 0.005 or a[2] != b[2]), None
    )
    shown = len(ns_events) if first is None else first + 6
    for i, (a, b) in enumerate(zip(ns_events[:shown], ts_events[:shown])):
        print(f"{i:4d}  {a} | {b}" + ("   <- first difference" if i == first else ""))
    if first is None:
        print("no difference in the events")


if __name__ == "__main__":
    main()
