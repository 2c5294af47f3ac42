"""``tcpsim list``: the paper experiments, the bundled scenarios and the benchmark workloads."""

from typing import Annotated, Any

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import reports_errors
from tcpsim.cli.options import JsonOpt
from tcpsim.cli.output import print_json, rich_table, stdout_console
from tcpsim.cli.root import app


@app.command("list", cls=TcpsimCommand)
@reports_errors
def list_(
    json_: JsonOpt = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the experiment reference (docs/experiments.md) as markdown.")
    ] = False,
) -> None:
    """List the paper experiments (for 'repro'), the bundled scenarios (for 'run', 'sweep' and
    'validate', by name) and the benchmark workloads (for 'bench')."""
    from tcpsim.bench import WORKLOADS
    from tcpsim.paths import builtin_scenario, builtin_scenario_names
    from tcpsim.repro import all_experiments

    if markdown:
        from tcpsim.repro.reference import reference_markdown

        typer.echo(reference_markdown(all_experiments()), nl=False)
        return

    experiments = [{"id": e.id, "title": e.title, "paper": e.paper} for e in all_experiments()]
    workloads = [{"name": name, "description": _workload_description(entry)} for name, entry in WORKLOADS.items()]
    scenarios = [
        {"name": name, "description": " ".join(str(builtin_scenario(name).get("description", "")).split())}
        for name in builtin_scenario_names()
    ]
    if json_:
        print_json({"experiments": experiments, "scenarios": scenarios, "workloads": workloads})
        return
    console = stdout_console()
    console.print(
        rich_table(
            "experiments (tcpsim repro ID)",
            ["id", "paper", "title"],
            ((e["id"], e["paper"], e["title"]) for e in experiments),
        )
    )
    console.print(
        rich_table(
            "bundled scenarios (tcpsim run NAME, when no file NAME exists)",
            ["scenario", "description"],
            ((sc["name"], sc["description"]) for sc in scenarios),
        )
    )
    console.print(
        rich_table(
            "benchmark workloads (tcpsim bench NAME)",
            ["workload", "description"],
            ((w["name"], w["description"]) for w in workloads),
        )
    )


def _workload_description(entry: str | tuple[str, Any]) -> str:
    """``tcpsim.bench.WORKLOADS`` maps a name to its description, or to (description, factory)."""
    return entry if isinstance(entry, str) else entry[0]
