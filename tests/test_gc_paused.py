"""The cyclic collector is paused while a scenario is loaded, compiled and run, and its state is
restored after (`tcpsim.gc_paused`)."""

from __future__ import annotations

import gc

import pytest
import tcpsim
import tcpsim.limits
from tcpsim.gc_paused import gc_paused
from tcpsim.scenario import load_scenario
from tcpsim.topologies import dumbbell


@gc_paused
def _collector_state_inside(inner: bool = False, fail: bool = False) -> list[bool]:
    states = [gc.isenabled()]
    if inner:
        states += _collector_state_inside()
        states.append(gc.isenabled())
    if fail:
        raise RuntimeError("boom")
    return states


def test_the_collector_is_off_inside_and_back_on_after_even_on_an_error():
    gc.enable()
    assert _collector_state_inside(inner=True) == [False, False, False], "an inner call leaves it off"
    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="boom"):
        _collector_state_inside(fail=True)
    assert gc.isenabled()
    assert _collector_state_inside.__name__ == "_collector_state_inside"


def test_a_collector_kept_off_by_the_caller_stays_off():
    gc.disable()
    try:
        assert _collector_state_inside() == [False]
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_scenario_is_validated_translated_run_and_tabled_with_the_collector_off(monkeypatch):
    import tcpsim.engine_run as engine_run
    import tcpsim.result.from_engine as from_engine
    import tcpsim.scenario as scenario_package
    import tcpsim.scenario.root as root

    collector_on: dict[str, bool] = {}

    def spy(module, name):
        original = getattr(module, name)

        def noting(*args, **kwargs):
            collector_on[name] = gc.isenabled()
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, noting)

    spy(scenario_package, "validate_plain")  # load_scenario's validation
    spy(root, "flow_instances")  # Scenario.to_engine's expansion of the flows
    spy(engine_run._core, "run")  # the engine: other threads may run meanwhile
    spy(engine_run, "build_result")  # run_compiled's reading of the engine's output
    spy(from_engine, "engine_rows")  # the result's tables
    gc.enable()
    scenario = load_scenario(dumbbell(forward=20, reverse=0, duration="1s"))
    assert collector_on == {"validate_plain": False} and gc.isenabled()
    scenario.to_engine()
    assert collector_on["flow_instances"] is False and gc.isenabled()
    with pytest.warns(tcpsim.limits.ScenarioWarning, match="measurement window") as warned:
        result = tcpsim.run(scenario, force=True)
    assert warned[0].filename == __file__, "run's warnings still name its caller's line"
    assert collector_on["build_result"] is False and gc.isenabled()
    assert collector_on["run"] is True, "the engine runs with the collector as the caller has it"
    assert len(result.flows) == 20
    assert collector_on["engine_rows"] is False and gc.isenabled()
