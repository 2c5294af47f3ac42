"""``tcpsim bench``: time the benchmark workloads, each in a process of its own."""

from typing import Annotated

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import CliError, reports_errors
from tcpsim.cli.options import JsonOpt
from tcpsim.cli.output import print_json, rich_table, stdout_console
from tcpsim.cli.root import app


@app.command(cls=TcpsimCommand)
@reports_errors
def bench(
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="NAME", help="Workloads to run (see 'tcpsim list').", show_default="all"),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, metavar="N", help="Workloads run at once (more than 1 disturbs the timings)."
        ),
    ] = 1,
    startup: Annotated[
        bool,
        typer.Option(
            "--startup",
            help="Time whole 'tcpsim run scenarios/lossy_link.toml --json' processes instead: a first run "
            "(an empty result store: the scenario is validated and compiled) and a repeat run.",
        ),
    ] = False,
    runs: Annotated[
        int, typer.Option("--runs", min=1, metavar="N", help="With --startup: first and repeat runs timed.")
    ] = 11,
    json_: JsonOpt = False,
) -> None:
    """Time the named benchmark workloads, each in a process of its own: the engine's events per
    second and simulated seconds per second, the whole process's wall and peak memory, and how
    the engine was compiled (pgo: profile-guided, as scripts/setup.sh builds it; plain). With
    --startup, the start-up of a short 'tcpsim run' instead."""
    from tcpsim.bench import WORKLOADS, run_benchmarks
    from tcpsim.result.tables import num

    if startup:
        if names:
            raise CliError("give workload names or --startup, not both")
        _startup(runs, json_)
        return
    unknown = [n for n in names or () if n not in WORKLOADS]
    if unknown:
        raise CliError(f"unknown workload {', '.join(map(repr, unknown))}; known: {', '.join(WORKLOADS)}")
    rows = run_benchmarks(names or None, jobs)
    if json_:
        print_json({"workloads": rows})
        return
    stdout_console().print(
        rich_table(
            f"benchmarks (engine build: {', '.join(sorted({r['engine_build'] for r in rows}))})",
            ["workload", "events", "engine s", "M events/s", "sim s / wall s", "process s", "peak MB"],
            (
                (
                    r["name"],
                    f"{r['events']:,}",
                    num(r["wall_s"]),
                    num(r["events_per_s"], 1e6, 2),
                    num(r["sim_s_per_wall_s"], digits=1),
                    num(r["process_wall_s"]),
                    num(r["peak_rss_mb"], digits=0),
                )
                for r in rows
            ),
        )
    )


def _startup(runs: int, json_: bool) -> None:
    from tcpsim.bench.startup import measure_startup
    from tcpsim.result.tables import num

    row = measure_startup(runs)
    if json_:
        print_json({"startup": row})
        return
    stdout_console().print(
        rich_table(
            f"start-up of '{row['command']}', whole process ({runs} runs each)",
            ["run", "median s", "min s", "max s"],
            (
                (label, *(num(row[key][figure]) for figure in ("median", "min", "max")))
                for label, key in (("first (scenario validated)", "first_run_s"), ("repeat (kept)", "repeat_run_s"))
            ),
        )
    )
