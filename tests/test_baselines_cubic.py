"""validation.cubic's decisions as pure functions: data that makes each claim hold and fail."""

import math

from tcpsim.repro import select
from tcpsim.repro.baselines.cubic import cubic_fairer, throughput_ratio
from tcpsim.repro.validation import fills_link


def test_throughput_ratio_is_short_over_long():
    assert throughput_ratio(8e6, 2e6) == 4.0
    assert math.isinf(throughput_ratio(1e6, 0.0))


def test_cubic_fairer_needs_a_lower_ratio_at_every_rtt_ratio():
    assert cubic_fairer([1.8, 3.0, 5.5], [2.5, 4.2, 9.0])
    assert not cubic_fairer([1.8, 4.3, 5.5], [2.5, 4.2, 9.0])  # one RTT ratio worse
    assert not cubic_fairer([2.5], [2.5])  # equal is not fairer
    assert not cubic_fairer([], [])
    assert not cubic_fairer([1.0], [2.0, 3.0])


def test_fill_claim_uses_the_project_floor():
    assert fills_link(9.7e6, 10e6)
    assert not fills_link(8.9e6, 10e6)


def test_registered_as_a_validation_experiment():
    (experiment,) = select(["validation.cubic"])
    assert experiment.kind == "validation" and experiment.paper == "validation"
    assert len(experiment.runs(quick=True, seeds=None)) == 2 * 1 * 2 + 1
