"""What `tcpsim run` does with a loaded scenario before running it: print its warnings, refuse it
if its estimated cost exceeds its [limits] (unless forced), compile it and keep it in the cache
of compiled scenarios (`tcpsim.scenario_cache`). The full command line (`tcpsim.cli.run`) and
the console script's fast path for a first run (`tcpsim.fast_run`) both call these, so either
prints, refuses and keeps the same. Nothing here imports typer."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tcpsim.gc_paused import gc_paused
from tcpsim.scenario_cache import CachedScenario, keep

if TYPE_CHECKING:
    from tcpsim.scenario import Scenario


@gc_paused
def check_before_run(
    scenario: Scenario, force: bool, echo: Callable[[str], None] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Pass each of the scenario's warning lines to `echo`, then refuse the scenario (raise
    RunTooLarge) if its estimated cost exceeds its limits and `force` is off. Returns its
    canonical form and the warning lines."""
    from tcpsim.limits import check_flow_expansion, check_limits, estimate_cost, run_warnings
    from tcpsim.terminal_text import visible

    if not force:
        check_flow_expansion(scenario)
    canonical = scenario.to_engine()
    lines = [f"warning: {visible(f'{path}: {message}')}" for path, message in run_warnings(scenario, canonical)]
    if echo is not None:
        for line in lines:
            echo(line)
    if not force:
        check_limits(scenario, estimate_cost(canonical))
    return canonical, lines


def compile_checked(scenario: Scenario, force: bool, echo: Callable[[str], None] | None = None) -> CachedScenario:
    """`scenario` checked (`check_before_run`) and compiled, with its warning lines and the
    limits' verdict (None: not checked, `force`) as the cache keeps them."""
    from tcpsim.compiled import compile_scenario

    canonical, lines = check_before_run(scenario, force, echo)
    return CachedScenario(compile_scenario(scenario, canonical), lines, None if force else True)


def read_or_none(file: str | os.PathLike[str]) -> bytes | None:
    """The bytes of `file`, or None if it cannot be read (loading the scenario says why)."""
    try:
        with open(file, "rb") as source:
            return source.read()
    except OSError:
        return None


def keep_compiled(
    file: str | os.PathLike[str],
    text: bytes | None,
    overrides: Sequence[str],
    cached: CachedScenario,
    input_files: Sequence[str],
) -> None:
    """Keep `cached`, compiled from `file` whose bytes were `text` before it was loaded, so that
    the next `tcpsim run FILE --json` of the same text skips loading it; not if the file
    changed (or could not be read) while it was loaded."""
    if text is None or read_or_none(file) != text:
        return
    keep(os.fspath(file), text, overrides, cached, input_files)
