"""CUBIC (RFC 9438) end to end: alone on a drop-tail, one-BDP path it fills the link and every
loss cuts ssthresh to β = 0.7 of the window (RFC 5681 AIMD halves it); the run is
deterministic; HyStart++ tames the start-up overshoot; its parameters are validated by path."""

from pathlib import Path

import numpy as np
import pytest
import tcpsim
from tcpsim.scenario import ScenarioError, load_scenario

# scenarios/cubic.toml: 10 Mb/s bottleneck, 40 ms round-trip propagation, 1 BDP drop-tail,
# 1460-byte segments, delayed ACKs, 60 s.
SCENARIO = Path(__file__).resolve().parent.parent / "python" / "tcpsim" / "scenarios" / "cubic.toml"
LINK_BPS = 10e6


def run(**overrides):
    return tcpsim.run(SCENARIO, seed=1, **{"trace.cwnd": True, **overrides})


def reductions(result):
    """(window before, ssthresh after) of every reduction after the start-up's."""
    cwnd = result.trace("cwnd")
    ss, w, t = cwnd["ssthresh_bytes"].to_numpy(), cwnd["cwnd_bytes"].to_numpy(), cwnd["time_s"].to_numpy()
    changed = np.nonzero(np.diff(ss))[0] + 1
    return [(int(w[i - 1]), int(ss[i])) for i in changed if t[i] > 2.0]


def test_alone_cubic_fills_the_link_and_cuts_to_beta():
    r = run()
    flow = r.flows.iloc[0]
    assert flow["throughput_bps"] >= 0.9 * LINK_BPS
    assert flow["timeouts"] == 0
    cuts = reductions(r)
    assert len(cuts) >= 10
    # RFC 9438 §4.6: ssthresh = β_cubic · cwnd (ssthresh_from = cwnd), to the byte.
    assert all(after == int(before * 0.7) for before, after in cuts), cuts


def test_aimd_on_the_same_path_halves():
    cuts = reductions(run(**{"flows[*].variant": "sack"}))
    assert cuts and all(after == before // 2 for before, after in cuts), cuts


def test_beta_is_a_parameter_and_runs_repeat_exactly():
    a = run(**{"tcp.cc": {"kind": "cubic", "beta": 0.5}})
    assert all(after == before // 2 for before, after in reductions(a))
    b = run(**{"tcp.cc": {"kind": "cubic", "beta": 0.5}})
    assert a.flows.equals(b.flows)


@pytest.mark.parametrize(
    ("cc", "path"),
    [
        ({"kind": "cubic", "beta": 1.0}, "tcp.cc.beta"),
        ({"kind": "cubic", "c": 0}, "tcp.cc.c"),
        ({"kind": "cubic", "target_rtt": "latest"}, "tcp.cc.target_rtt"),
    ],
)
def test_bad_parameters_are_reported_by_path(cc, path):
    with pytest.raises(ScenarioError) as caught:
        load_scenario(SCENARIO, {"tcp.cc": cc})
    assert path in str(caught.value)


def test_hystart_plus_plus_tames_the_start_up_overshoot():
    """RFC 9406: the queueing delay of the first slow start's overshoot switches to Conservative
    Slow Start before the buffer overflows by a whole window: a lower peak, fewer drops."""
    runs = {hs: run(duration="10s", **{"tcp.cc": {"kind": "cubic", "hystart": hs}}) for hs in (False, True)}

    def drops(r):
        return int(r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]["drops_queue"])

    def peak(r):
        return int(r.trace("cwnd")["cwnd_bytes"].max())

    assert drops(runs[True]) < drops(runs[False]) / 2
    assert peak(runs[True]) < peak(runs[False])
    assert runs[True].flows.iloc[0]["timeouts"] == 0
