"""Property: whatever the scenario layer accepts, the engine accepts (issue 13).

Hypothesis builds scenarios from every table of the format — chains of links with all loss
models and queue forms, flows of every variant with TCP overrides and Westwood parameters, UDP
sources, traces — with values from the ordinary to the extreme (1 b/s links, zero delays,
1-byte segments, whole-run outages). Each one ``validate`` accepts must run to the end with its
packets conserved. Runs are short (at most 2 s simulated) and the budget is fixed and
derandomized, so CI sees the same 60 scenarios every time.
"""

import pytest

hypothesis = pytest.importorskip("hypothesis")
import tcpsim  # noqa: E402
from hypothesis import HealthCheck, given, reject, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from tcpsim.scenario import VARIANTS, ScenarioError, load_scenario  # noqa: E402

# Generated scenarios are often physically odd on purpose; their advisories are not the subject here.
pytestmark = pytest.mark.filterwarnings("ignore::tcpsim.limits.ScenarioWarning")

DURATIONS = ["1ns", "1us", "1ms", "10ms", "100ms", "500ms", "1s", "2s"]
RATES = ["1bps", "1kbps", "64kbps", "1Mbps", "10Mbps", "100Mbps", "1Gbps"]
SIZES = [1, 40, 400, 1460, "1KB", "64KiB", "1MB"]
PROBABILITIES = st.sampled_from([0.0, 1e-6, 0.01, 0.5, 1.0]) | st.floats(0, 1)
SOJOURNS = ["1ms", "10ms", "100ms", "1s", "4s"]

duration = st.sampled_from(DURATIONS)
nonzero_duration = st.sampled_from([d for d in DURATIONS if d != "0s"])
direction = st.sampled_from(["ab", "ba", "both"])


def losses(flow_names: list[str]) -> st.SearchStrategy:
    scripted = (
        [
            st.fixed_dictionaries(
                {
                    "kind": st.just("scripted"),
                    "flow": st.sampled_from(flow_names),
                    "segments": st.lists(st.integers(1, 50), min_size=1, max_size=4),
                }
            )
        ]
        if flow_names
        else []
    )
    return st.one_of(
        st.fixed_dictionaries({"kind": st.just("bernoulli"), "p": PROBABILITIES, "direction": direction}),
        st.fixed_dictionaries({"kind": st.just("bit_error"), "ber": PROBABILITIES}),
        st.fixed_dictionaries({"kind": st.just("bit_error"), "one_per": st.sampled_from(SIZES)}),
        st.fixed_dictionaries(
            {
                "kind": st.just("gilbert_elliott"),
                "good_mean": st.sampled_from(SOJOURNS),
                "bad_mean": st.sampled_from(SOJOURNS),
                "bad_loss": PROBABILITIES,
            },
            optional={
                "good_loss": PROBABILITIES,
                "initial": st.sampled_from(["good", "bad", "stationary"]),
                "correlated": st.booleans(),
                "clock_rate": st.sampled_from(RATES),
            },
        ),
        st.fixed_dictionaries(
            {
                "kind": st.just("two_state"),
                "good_sojourn": st.sampled_from(SOJOURNS),
                "bad_sojourn": st.sampled_from(SOJOURNS),
                "bad_loss": PROBABILITIES,
            },
            optional={
                "good_loss": PROBABILITIES,
                "p_bad": PROBABILITIES,
                "direction": direction,
                "initial": st.sampled_from(["good", "bad", "stationary"]),
            },
        ),
        st.fixed_dictionaries(
            {"kind": st.just("outage"), "period": nonzero_duration, "duration": nonzero_duration},
            optional={"offset": duration},
        ),
        st.fixed_dictionaries(
            {
                "kind": st.just("outage"),
                "intervals": st.just([["100ms", "200ms"], ["1s", "3s"]]) | st.just([["0s", "10s"]]),
            }
        ),
        *scripted,
    )


queue = st.sampled_from(["1pkt", "2pkt", "100pkt", "1500B", "64KB", "0.5BDP", "1BDP", "10BDP"]) | st.fixed_dictionaries(
    {"kind": st.just("drop_tail")},
    optional={"packets": st.integers(1, 1000), "bytes": st.sampled_from([1500, "64KB", "2BDP"])},
)

westwood_filter = st.sampled_from(["tustin", "tustin_latest"]) | st.fixed_dictionaries(
    {"kind": st.sampled_from(["tustin_fixed", "ewma"]), "alpha": st.sampled_from([0.0, 0.5, 0.9, 0.999])}
)
cc = (
    st.sampled_from(["aimd"])
    | st.fixed_dictionaries(
        {"kind": st.just("westwood")},
        optional={
            "tau": st.sampled_from(["10ms", "500ms", "2s"]),
            "null_sample_divisor": st.sampled_from([0, 2, 3, 100]),
            "filter": westwood_filter,
            "ns3_fast_recovery": st.booleans(),
            "sample_tick": st.sampled_from(["0s", "10ms"]),
        },
    )
    | st.fixed_dictionaries(
        {"kind": st.just("westwood_plus")},
        optional={
            "filter": st.sampled_from(["two_stage_ewma", {"kind": "ewma", "alpha": 0.9}]),
            "min_window": st.sampled_from(["0s", "50ms", "1s"]),
            "min_decrease_half": st.booleans(),
            "ns3_fast_recovery": st.booleans(),
            "sampling": st.sampled_from(["ack_clocked", "ns3_timer"]),
            "ssthresh_in_bytes": st.booleans(),
        },
    )
)
tcp = st.fixed_dictionaries(
    {},
    optional={
        "mss": st.sampled_from([1, 41, 536, 1460, "9000B"]),
        "header": st.sampled_from([0, 40, 1000]),
        "ack": st.sampled_from([0, 40]),
        "init_cwnd": st.integers(1, 100),
        "init_ssthresh": st.sampled_from([1, 1460, "64KB", "1GiB"]),
        "rwnd": st.sampled_from(["1460B", "64KB", "1GiB"]),
        "initial_rto": st.sampled_from(["1ms", "200ms", "1s", "3s"]),
        "min_rto": st.sampled_from(["1ms", "200ms", "1s"]),
        "max_rto": st.sampled_from(["1s", "60s"]),
        "clock_granularity": st.sampled_from(["0s", "1ms", "500ms"]),
        "rtt_tick": st.sampled_from(["0s", "1ms", "100ms"]),
        "dupack_threshold": st.integers(1, 10),
        "delack_count": st.integers(1, 4),
        "delack_timeout": st.sampled_from(["0s", "1ms", "200ms", "500ms"]),
        "recovery": st.sampled_from(["tahoe", "reno", "newreno", "sack"]),
        "cc": cc,
        "avoid_repeated_fast_retransmit": st.booleans(),
        "limited_transmit": st.booleans(),
        "timeout_ssthresh": st.sampled_from(["first_of_episode", "every"]),
        "ca_increment": st.sampled_from(["exact", "ns3", "linux"]),
    },
)


@st.composite
def scenarios(draw) -> dict:
    nodes = [f"n{i}" for i in range(draw(st.integers(2, 4)))]
    flow_count = draw(st.integers(0, 3))
    flows = []
    for i in range(flow_count):
        src, dst = draw(st.permutations(nodes))[:2]
        flow = {"name": f"f{i}", "src": src, "dst": dst, "variant": draw(st.sampled_from(sorted(VARIANTS)))}
        flow |= draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "start": st.sampled_from(["0s", "1ms", "500ms"]),
                    "start_jitter": st.sampled_from(["0s", "100ms"]),
                    "stop": st.sampled_from(["600ms", "5s"]),
                    "bytes": st.sampled_from([1, 1460, "100KB"]),
                    "count": st.integers(1, 3),
                    "tcp": tcp,
                },
            )
        )
        flows.append(flow)
    flow_names = [
        name
        for flow in flows
        for name in (
            [flow["name"]] if flow.get("count", 1) == 1 else [f"{flow['name']}.{r}" for r in range(flow["count"])]
        )
    ]
    links = []
    for a, b in zip(nodes, nodes[1:]):
        link = {"a": a, "b": b, "rate": draw(st.sampled_from(RATES)), "delay": draw(duration), "queue": draw(queue)}
        link["loss"] = draw(st.lists(losses(flow_names), max_size=2))
        if draw(st.booleans()):
            link["ab"] = {"queue": draw(queue)}
        links.append(link)
    scenario = {
        "duration": draw(st.sampled_from(["10ms", "500ms", "1s", "2s"])),
        "bdp_rtt": draw(st.sampled_from(["1ms", "100ms"])),
        "tcp": draw(tcp),
        "links": links,
        "flows": flows,
        "trace": draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "cwnd": st.booleans(),
                    "rtt": st.booleans(),
                    "queue": st.booleans(),
                    "interval": st.sampled_from(["0s", "1ms", "100ms"]),
                    "throughput_bin": st.sampled_from(["0s", "10ms", "1s"]),
                },
            )
        ),
    }
    if draw(st.booleans()):
        src, dst = draw(st.permutations(nodes))[:2]
        scenario["udp"] = [
            {
                "src": src,
                "dst": dst,
                "rate": draw(st.sampled_from(RATES[:5])),
                "packet": draw(st.sampled_from([1, 1000, "1500B"])),
                **draw(st.fixed_dictionaries({}, optional={"on": st.just([["0s", "300ms"], ["1s", "2s"]])})),
            }
        ]
    if draw(st.booleans()):
        scenario["warmup"] = draw(st.sampled_from(["0s", "1ms", "5ms"]))
    return scenario


@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(scenarios())
def test_what_validate_accepts_the_engine_runs(raw):
    try:
        scenario = load_scenario(raw)
    except ScenarioError:
        reject()
    result = tcpsim.run(scenario, seed=1)
    packets = result.meta["packets"]
    assert packets["created"] == packets["delivered"] + packets["dropped"] + packets["in_network"]
    assert len(result.flows) == len(scenario.flow_table())
