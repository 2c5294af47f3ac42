"""``tcpsim run`` (one scenario, its result tables or JSON, --out, --pcap) and ``tcpsim
validate`` (the same checks without running)."""

import enum
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import reports_errors
from tcpsim.cli.options import FileArg, ForceOpt, JsonOpt, SetOpt
from tcpsim.cli.output import classes_table, flows_table, links_table, stdout_console, web_table
from tcpsim.cli.parsing import parse_seed
from tcpsim.cli.root import app


class TraceFormat(enum.StrEnum):
    parquet = "parquet"
    csv = "csv"


@app.command(cls=TcpsimCommand)
@reports_errors
def run(
    file: FileArg,
    seed: Annotated[
        str, typer.Option(metavar="N", help="Run seed, 0 to 2^64-1; the same seed always gives the same result.")
    ] = "1",
    set_: SetOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            metavar="DIR",
            help="Also save flows, links and traces (CSV/Parquet), the scenario as TOML and provenance.json into this "
            "directory (`tcpsim run DIR/scenario.toml --seed N` repeats the run); a previous run's files there are replaced.",
            show_default=False,
        ),
    ] = None,
    trace_format: Annotated[
        TraceFormat,
        typer.Option(help="File format of the traces saved by --out: Parquet, or CSV on request."),
    ] = TraceFormat.parquet,
    json_: JsonOpt = False,
    force: ForceOpt = False,
    pcap: Annotated[
        list[str] | None,
        typer.Option(
            metavar="LINK[:DIR]",
            help="Also capture the packets starting transmission on link LINK, direction ab or ba "
            "(both if omitted), into a pcap file LINK-DIR.pcap in the --out directory (else the current one). "
            "Repeatable; adds to the scenario's trace.pcap.",
            show_default=False,
        ),
    ] = None,
    pcap_node: Annotated[
        list[str] | None,
        typer.Option(
            "--pcap-node",
            metavar="NODE",
            help="Also capture what node NODE sends and what reaches it, as tcpdump on that host would, "
            "into NODE.pcap in the --out directory (else the current one). Repeatable; adds to the "
            "scenario's trace.pcap_nodes.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run one scenario and print per-flow and per-link results (per class too, given two or more).

    The run's cost is estimated first; beyond the scenario's [limits] it is refused unless
    --force. Ctrl-C stops it (exit 130). Packet captures (--pcap, --pcap-node, trace.pcap,
    trace.pcap_nodes) open in Wireshark. The scenario is kept compiled in the result store:
    running the same file text again with --json (and the same --set values, from the same
    directory) skips loading and validating it.
    """
    from tcpsim.outpaths import output_dir
    from tcpsim.scenario import load_scenario

    run_seed = parse_seed(seed)
    out_dir = None if out is None else output_dir(out, "--out")
    if out_dir is not None:
        from tcpsim.outpaths import not_replacing_inputs
        from tcpsim.result import SAVED_FILES
        from tcpsim.sweeps.outdir import RUN_FILES

        not_replacing_inputs(out_dir, [*SAVED_FILES, *RUN_FILES], [file], "--out")
    from tcpsim.run_prep import compile_checked, keep_compiled, read_or_none

    text = read_or_none(file)
    scenario = load_scenario(file, set_ or ())
    added = {key: extra for key, extra in (("pcap", pcap), ("pcap_nodes", pcap_node)) if extra}
    if added:
        from tcpsim.scenario.overrides import override_path

        # --pcap adds to trace.pcap (--pcap-node to trace.pcap_nodes), whether the file or a --set
        # gave it: that --set is replaced by the sum (setting the path twice would be an error).
        others = [entry for entry in set_ or () if override_path(entry) not in {("trace", k) for k in added}]
        sums = [f"trace.{key}={json.dumps([*getattr(scenario.trace, key), *extra])}" for key, extra in added.items()]
        scenario = load_scenario(file, [*others, *sums])  # a JSON array of strings is TOML
    from tcpsim.engine_run import run_compiled, truncation_warning

    cached = compile_checked(scenario, force, _echo_err)
    compiled = cached.compiled
    if not added:
        keep_compiled(file, text, set_ or [], cached, scenario.input_files())
    result = run_compiled(compiled, run_seed, pcap_dir=out_dir or Path.cwd())
    if result.meta.get("trace_truncated"):
        typer.echo(f"warning: {truncation_warning(result.meta, compiled.max_trace_rows)}", err=True)
    if out_dir is not None:
        from tcpsim.sweeps.outdir import save_run_provenance

        result.save(out_dir, trace_format=trace_format.value)
        save_run_provenance(out_dir, file, set_ or [], run_seed, sys.argv)
    if json_:
        typer.echo(json.dumps(result.to_json_dict(), allow_nan=False))  # already plain JSON data
        return
    console = stdout_console()
    console.print(flows_table(result.flows))
    if not result.web.empty:
        console.print(web_table(result.web))
    console.print(links_table(result.links))
    if len(classes := result.classes) >= 2:
        console.print(classes_table(classes))
    console.print(_meta_line(result.meta))
    if out_dir is not None:
        console.print(f"saved to {out_dir}/")
    for path in result.meta.get("pcap", ()):
        console.print(f"pcap: {path}")


def _echo_err(line: str) -> None:
    typer.echo(line, err=True)


@app.command(cls=TcpsimCommand)
@reports_errors
def validate(file: FileArg, set_: SetOpt = None, force: ForceOpt = False) -> None:
    """Check a scenario file (and overrides) without running it; list every error found.

    Also estimates the run's cost against the scenario's [limits] (skipped with --force) and
    prints warnings about numbers that would mean little."""
    from tcpsim.run_prep import check_before_run
    from tcpsim.scenario import load_scenario

    scenario = load_scenario(file, set_ or ())
    check_before_run(scenario, force, _echo_err)
    count = len(scenario.web)
    web = f", {count} web generator{'' if count == 1 else 's'}" if count else ""
    typer.echo(
        f"ok: {len(scenario.node_names())} nodes, {len(scenario.links)} links, {len(scenario.flow_table())} flows{web}"
    )


def _meta_line(meta: dict[str, Any]) -> str:
    events_per_s = meta.get("events_per_s") or 0.0
    return (
        f"seed {meta.get('seed')} · {meta.get('events', 0):,} events in {meta.get('wall_s', 0.0):.3g} s "
        f"({events_per_s / 1e6:.2f} M events/s) · {meta.get('sim_s', 0.0):g} s simulated · "
        f"scenario {str(meta.get('scenario_hash', ''))[:12]} · tcpsim {meta.get('version')}"
    )
