"""The loss models of issue 3 through `tcpsim.run`: measured loss rates against the analytical
ones, exact outage windows, determinism and independence from other links' traffic.

The time-based models (Gilbert–Elliott, deterministic two-state, outages) lose a fraction of
*time*; packets see that fraction only if they are sent independently of the channel state. A
TCP flow's data is not (it slows down in Bad periods), so these tests probe with its ACKs: the
models sit on the b → a direction of a single 10 Mb/s link whose a → b direction a bulk flow
keeps saturated (a 300-packet queue, 360 ms of backlog, outlasts every ACK outage used here).
With `delack_count = 1` the receiver returns one 40-byte ACK per 1500-byte data packet, so ACKs
leave every 1.2 ms whatever the state of the ACK channel: a constant-rate probe. Per-packet
models (bit errors) are unbiased on any traffic and are also checked on the data direction.
"""

import math

import pytest
import tcpsim

ACK_SPACING_S = 1500 * 8 / 10e6
"""One data packet (1460 + 40 bytes) every 1.2 ms at 10 Mb/s, hence one ACK."""


def probe(*loss, duration="1000s", warmup="5s", extra=None) -> dict:
    """A saturated x → y bulk flow; `loss` on the link x–y; `extra`: an unrelated link and flow."""
    scenario = {
        "duration": duration,
        "warmup": warmup,
        "links": [{"a": "x", "b": "y", "rate": "10Mbps", "delay": "1ms", "queue": "300pkt", "loss": list(loss)}],
        "flows": [{"name": "probe", "src": "x", "dst": "y", "tcp": {"delack_count": 1}}],
    }
    if extra is not None:
        scenario["links"].append(extra["link"])
        scenario["flows"] += extra["flows"]
    return scenario


def direction(result, name: str, link: str = "x-y"):
    links = result.links
    [row] = links[(links["name"] == link) & (links["direction"] == name)].itertuples()
    return row


def assert_rate(row, expected: float, sd: float) -> None:
    """drops_error / tx_packets within 4 standard deviations of `expected`."""
    measured = row.drops_error / row.tx_packets
    assert abs(measured - expected) < 4 * sd, f"measured {measured:.5f}, analytical {expected:.5f} (sd {sd:.5f})"


def binomial_sd(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n)


def test_bit_errors_lose_packets_by_their_size_on_the_wire():
    # Data packets (1500 B) at ber = 1e-6; ACKs (40 B) at one bit error per 4 KB (ber = 1/32000).
    result = tcpsim.run(
        probe(
            {"kind": "bit_error", "ber": 1e-6, "direction": "ab"},
            {"kind": "bit_error", "one_per": "4KB", "direction": "ba"},
        ),
        seed=1,
    )
    for name, ber, wire_bytes in (("ab", 1e-6, 1500), ("ba", 1 / 32_000, 40)):
        row = direction(result, name)
        p = 1 - (1 - ber) ** (8 * wire_bytes)  # 1.19 % and 0.995 %
        assert_rate(row, p, binomial_sd(p, row.tx_packets))


@pytest.mark.parametrize("seed", [1, 2])
def test_gilbert_elliott_loses_the_stationary_mix_of_its_state_loss_rates(seed):
    good_mean_s, bad_mean_s, good_loss, bad_loss = 0.1, 0.05, 0.01, 0.3
    result = tcpsim.run(
        probe(
            {
                "kind": "gilbert_elliott",
                "good_mean": "100ms",
                "bad_mean": "50ms",
                "good_loss": good_loss,
                "bad_loss": bad_loss,
                "initial": "stationary",
                "direction": "ba",
            }
        ),
        seed=seed,
    )
    row = direction(result, "ba")
    assert direction(result, "ab").utilization > 0.999, "the probe must stay at a constant rate"
    pi_bad = bad_mean_s / (good_mean_s + bad_mean_s)
    expected = (1 - pi_bad) * good_loss + pi_bad * bad_loss  # 0.1067
    # The Bad time fraction over L = 995 s varies with variance 2·π_G·π_B / (ν·L), ν = 1/0.1 s +
    # 1/0.05 s = 30/s (a two-state Markov chain's covariance decays as exp(−ν·t)); the
    # packets' own Bernoulli draws add the binomial variance.
    window_s = 995
    state_sd = math.sqrt(2 * pi_bad * (1 - pi_bad) / (30 * window_s)) * (bad_loss - good_loss)
    assert_rate(row, expected, math.hypot(state_sd, binomial_sd(expected, row.tx_packets)))


@pytest.mark.parametrize("seed", [1, 2])
def test_two_state_with_deterministic_sojourns_loses_the_time_weighted_mix(seed):
    good_s, bad_s, good_loss, bad_loss, p_bad = 0.1, 0.02, 0.01, 0.5, 0.5
    result = tcpsim.run(
        probe(
            {
                "kind": "two_state",
                "good_sojourn": "100ms",
                "bad_sojourn": "20ms",
                "good_loss": good_loss,
                "bad_loss": bad_loss,
                "p_bad": p_bad,
                "initial": "stationary",
                "direction": "ba",
            }
        ),
        seed=seed,
    )
    row = direction(result, "ba")
    assert direction(result, "ab").utilization > 0.999
    pi_bad = p_bad * bad_s / (p_bad * bad_s + (1 - p_bad) * good_s)  # 1/6
    expected = (1 - pi_bad) * good_loss + pi_bad * bad_loss  # 0.0917
    # Renewal-reward: a cycle is a Good run G = 0.1 s·K plus a Bad run B = 0.02 s·K', K, K'
    # geometric with mean 2 and variance 2; Var(Bad fraction) ≈ Var(B − π_B·(G + B)) / (E[G + B]·L).
    var_g, var_b, mean_cycle_s = good_s**2 * 2, bad_s**2 * 2, 2 * good_s + 2 * bad_s
    state_var = ((1 - pi_bad) ** 2 * var_b + pi_bad**2 * var_g) / (mean_cycle_s * 995)
    state_sd = math.sqrt(state_var) * (bad_loss - good_loss)
    assert_rate(row, expected, math.hypot(state_sd, binomial_sd(expected, row.tx_packets)))


def test_ns2_multistate_transitions_make_every_bad_state_judge_packets():
    """A Bad sojourn of 10 µs between ACKs 1.2 ms apart: in simulated time it almost never holds
    an ACK; with ns-2's per-packet transitions it judges the ACK that entered it and, on average,
    one more (each packet after the period redraws, Bad with probability 1/2), and a Good
    sojourn holds its 100 ms (84 ACKs) and one more on average: 2 of 87 ACKs lost."""
    channel = {"kind": "two_state", "good_sojourn": "100ms", "bad_sojourn": "10us", "bad_loss": 1.0, "direction": "ba"}
    timed = direction(tcpsim.run(probe(channel), seed=1), "ba")
    assert timed.drops_error / timed.tx_packets < 5e-4
    ns2 = direction(tcpsim.run(probe({**channel, "transitions": "ns2_multistate"}), seed=1), "ba")
    assert ns2.drops_error / ns2.tx_packets == pytest.approx(2 / 87, rel=0.05)


def test_an_outage_window_loses_exactly_the_packets_inside_it():
    outage = {"kind": "outage", "intervals": [["10s", "10.2s"]], "direction": "ba"}
    # Measured over exactly [10 s, 10.2 s]: every ACK sent is lost, and 200 ms hold 166 or 167
    # ACKs at one per 1.2 ms.
    inside = direction(tcpsim.run(probe(outage, duration="10.2s", warmup="10s")), "ba")
    assert inside.drops_error in (166, 167)
    assert abs(inside.tx_packets - inside.drops_error) <= 1, "only an ACK straddling a window edge may differ"
    # Before and after: nothing lost.
    assert direction(tcpsim.run(probe(outage, duration="10s", warmup="1s")), "ba").drops_error == 0
    after = direction(tcpsim.run(probe(outage, duration="30s", warmup="10.2s")), "ba")
    assert after.drops_error == 0 and after.tx_packets > 16_000


def test_periodic_outages_lose_their_share_of_time():
    # casetti Sec. 5.3: a 100 ms hand-off every 4 s, here from 4 s on (once the queue is full).
    result = tcpsim.run(
        probe({"kind": "outage", "period": "4s", "duration": "100ms", "offset": "4s", "direction": "ba"}, warmup="4s"),
        seed=1,
    )
    row = direction(result, "ba")
    outages = 249  # at 4 s, 8 s, ..., 996 s
    # ACKs are at least 1.2 ms apart, so a 100 ms window holds at most 84 of them.
    assert row.drops_error <= outages * math.ceil(0.1 / ACK_SPACING_S)
    # With the probe at its constant rate the lost share is the time share 100 ms / 4 s, up to
    # one ACK per window edge (±1.2 % of 83) and the few idle moments after queue overflows.
    assert abs(row.drops_error / row.tx_packets - 0.025) < 0.025 * 0.015


def test_same_seed_same_losses_other_seed_other_losses():
    scenario = probe(
        {"kind": "gilbert_elliott", "good_mean": "1s", "bad_mean": "100ms", "bad_loss": 0.5, "direction": "both"},
        {"kind": "bit_error", "ber": 1e-7},
        duration="60s",
    )
    first, again, other = (tcpsim.run(scenario, seed=seed) for seed in (3, 3, 4))
    assert first.links.equals(again.links) and first.flows.equals(again.flows)
    assert not first.links["drops_error"].equals(other.links["drops_error"])


def test_a_flow_on_another_link_does_not_change_this_links_losses():
    # docs/architecture.md, "Randomness": streams are named after their link, so a second link with its own
    # random loss and a jittered flow draws nothing from the probe link's streams.
    models = [
        {"kind": "gilbert_elliott", "good_mean": "200ms", "bad_mean": "50ms", "good_loss": 0.001, "bad_loss": 0.2},
        {"kind": "two_state", "good_sojourn": "300ms", "bad_sojourn": "10ms", "bad_loss": 0.5, "direction": "ab"},
        {"kind": "bernoulli", "p": 0.002},
    ]
    extra = {
        "link": {
            "a": "p",
            "b": "q",
            "rate": "5Mbps",
            "delay": "10ms",
            "queue": "50pkt",
            "loss": [
                {"kind": "bernoulli", "p": 0.01},
                {"kind": "gilbert_elliott", "good_mean": "1s", "bad_mean": "1s", "bad_loss": 0.1},
            ],
        },
        "flows": [{"name": "other", "src": "p", "dst": "q", "start_jitter": "1s"}],
    }
    alone = tcpsim.run(probe(*models, duration="60s"), seed=5)
    together = tcpsim.run(probe(*models, duration="60s", extra=extra), seed=5)
    columns = ["direction", "tx_packets", "drops_queue", "drops_error"]
    assert together.links[together.links["name"] == "p-q"]["drops_error"].sum() > 0
    mine = together.links[together.links["name"] == "x-y"][columns].reset_index(drop=True)
    assert mine.equals(alone.links[columns])
    assert (mine["drops_error"] > 0).all()
