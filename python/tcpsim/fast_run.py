"""`tcpsim run FILE --json` without the command-line framework (typer), which takes longer to
load than a short run itself: a scenario compiled by an earlier run (`tcpsim.scenario_cache`)
runs in a few hundredths of a second, without the scenario models (pydantic) either; a first
run (a cache miss) loads the models, validates, checks and compiles the scenario as the full
command line does (`tcpsim.run_prep`, shared with it), keeps it, and runs it.

The console script (`tcpsim.launch`) tries this path first. It takes only the run command in
its plain form: ``tcpsim run FILE --json`` with any of ``--seed N``, ``--set PATH=VALUE``
(repeatable) and ``--force``, each also as ``--option=value``. Anything else on the command
line (another command or option, a root option, --help), a seed it does not read at a glance,
an unreadable file, a scenario that does not validate, a run over the scenario's limits
without --force, or any other failure before the run falls through, with nothing printed, to
the full command line, which reports what is wrong as it always does. Past the compiled
scenario both paths run the same code (`tcpsim.engine_run`), so they print the same warnings
and JSON but for its wall-clock fields.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tcpsim.scenario_cache import CachedScenario

SEED_MAX = 2**64 - 1


@dataclass(frozen=True)
class RunRequest:
    """``tcpsim run FILE --json`` as this path reads it."""

    file: str
    seed: int
    overrides: list[str]
    force: bool


def parse_request(args: list[str]) -> RunRequest | None:
    """`args` (the command line after the program name) as a plain JSON run, else None. An
    option other than --set given twice is left to the full command line, which refuses it."""
    if not args or args[0] != "run":
        return None
    file, seed, overrides, given = None, 1, [], set()
    tokens = iter(args[1:])
    for token in tokens:
        name, has_value, value = token.partition("=")
        if name in given and name != "--set":
            return None
        if token in ("--json", "--force"):
            given.add(token)
        elif name in ("--seed", "--set"):
            given.add(name)
            if not has_value and (value := next(tokens, None)) is None:
                return None
            if name == "--set":
                overrides.append(value)
            elif (seed := _seed(value)) is None:
                return None
        elif token.startswith("-") or not token or file is not None:
            return None
        else:
            file = token
    if "--json" not in given or file is None:
        return None
    return RunRequest(file, seed, overrides, "--force" in given)


def _seed(text: str) -> int | None:
    """A seed written as plain ASCII digits, else None (the full command line then reads it,
    or says why it is not one)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 20 or int(text) > SEED_MAX:
        return None
    return int(text)


def serve(request: RunRequest) -> int | None:
    """Run `request` from its cached compiled scenario, or on a miss from the file compiled here
    (and kept), and return the exit status; or None (having printed nothing) when the full
    command line must take it. Ctrl-C raises KeyboardInterrupt, which `tcpsim.launch` reports."""
    from tcpsim import scenario_cache

    try:
        with open(request.file, "rb") as source:
            data = source.read()
    except OSError:
        return None
    cached = scenario_cache.lookup(request.file, data, request.overrides)
    if cached is None:
        cached = _compile(request, data)
    if cached is None or not (request.force or cached.within_limits):
        return None
    from tcpsim.engine_run import run_compiled, truncation_warning

    for line in cached.warning_lines:
        sys.stderr.write(line + "\n")
    # As the full command line does once it is loaded (`tcpsim.cli.root`): what was imported
    # lives as long as the process and is left out of the collector's passes.
    gc.freeze()
    gc.enable()
    try:
        result = run_compiled(cached.compiled, request.seed, os.getcwd())
        if result.meta.get("trace_truncated"):
            sys.stderr.write(f"warning: {truncation_warning(result.meta, cached.compiled.max_trace_rows)}\n")
        text = json.dumps(result.to_json_dict(), allow_nan=False)  # already plain JSON data
    except Exception as error:
        from tcpsim.cli.errors import error_report

        report = error_report(error)
        if report is None:
            raise
        for line in report.lines:
            sys.stderr.write(line + "\n")
        return report.status
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def _compile(request: RunRequest, data: bytes) -> CachedScenario | None:
    """A cache miss: the file loaded, validated, checked against its limits and compiled as the
    full command line does (`tcpsim.run_prep`), and kept; None if anything goes otherwise (an
    invalid scenario, a run over its limits, any exception), for the full command line to
    report as it does."""
    from tcpsim.run_prep import compile_checked, keep_compiled
    from tcpsim.scenario import load_scenario

    # The scenario models live as long as the process: frozen, then the collector on, as the
    # full command line has it (`tcpsim.cli.root`); loading and compiling the scenario pause
    # it themselves (`tcpsim.gc_paused`).
    gc.freeze()
    gc.enable()
    try:
        scenario = load_scenario(request.file, request.overrides)
        cached = compile_checked(scenario, request.force)
        keep_compiled(request.file, data, request.overrides, cached, scenario.input_files())
    except Exception:
        gc.disable()  # as the full command line expects to load (`tcpsim.launch`)
        return None
    return cached
