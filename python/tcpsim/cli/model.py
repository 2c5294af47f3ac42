"""``tcpsim model``: analytical models evaluated without simulation (``model moller``: the
fluid model of NewReno vs Westwood+ at a drop-tail bottleneck)."""

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import CliError, reports_errors
from tcpsim.cli.options import PLOT_SUFFIXES, JsonOpt
from tcpsim.cli.output import print_json, rich_table, stdout_console
from tcpsim.cli.root import app

if TYPE_CHECKING:
    import pandas as pd


model_app = typer.Typer(help="Analytical models, evaluated without simulation.", no_args_is_help=True)
app.add_typer(model_app, name="model")


def _unit(parse: Callable[[str], int], text: str, option: str) -> int:
    try:
        return parse(text)
    except ValueError as error:
        raise CliError(f"{option}: {error}") from None


MAX_BUFFER_POINTS = 10_000
"""Most buffer sizes one `model moller` call evaluates: each is a table row (and a plot point)."""


def _parse_buffers(text: str) -> list[float]:
    """``A:B`` (every integer from A to B), ``A:B:STEP`` or ``a,b,c`` → buffer sizes (packets)."""
    try:
        if ":" in text:
            parts = [float(p) for p in text.split(":")]
            if len(parts) not in (2, 3):
                raise ValueError
            start, stop, step = (*parts, 1.0) if len(parts) == 2 else parts
            if step <= 0 or stop < start:
                raise CliError(f"--buffers {text!r}: need A <= B and STEP > 0")
            count = int((stop - start) / step + 1e-9) + 1
            if count > MAX_BUFFER_POINTS:
                raise CliError(
                    f"--buffers {text!r}: {count} buffer sizes; at most {MAX_BUFFER_POINTS} are allowed, use a larger STEP"
                )
            values = [start + i * step for i in range(count)]
        else:
            values = [float(p) for p in text.split(",")]
            if len(values) > MAX_BUFFER_POINTS:
                raise CliError(f"--buffers: {len(values)} buffer sizes; at most {MAX_BUFFER_POINTS} are allowed")
    except ValueError:
        raise CliError(f"--buffers {text!r}: use A:B, A:B:STEP or a comma list of packet counts") from None
    if any(v <= 0 for v in values):
        raise CliError(f"--buffers {text!r}: buffer sizes must be positive")
    return values


@model_app.command("moller", cls=TcpsimCommand)
@reports_errors
def model_moller(
    capacity: Annotated[str, typer.Option(metavar="RATE", help="Bottleneck capacity C, e.g. 10Mbps.")] = "10Mbps",
    rtt: Annotated[str, typer.Option(metavar="TIME", help="Round-trip propagation delay T, e.g. 50ms.")] = "50ms",
    buffers: Annotated[
        str,
        typer.Option(metavar="SPEC", help="Buffer sizes B in packets: A:B (every integer), A:B:STEP, or a comma list."),
    ] = "2:84",
    packet: Annotated[str, typer.Option(metavar="SIZE", help="Packet size, e.g. 1500B.")] = "1500B",
    modified: Annotated[
        bool, typer.Option("--modified", help="Modified Westwood+: after a loss the window never drops below half.")
    ] = False,
    json_: JsonOpt = False,
    plot: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Also draw the shares vs B to FILE (.png, .svg, .pdf).", show_default=False),
    ] = None,
) -> None:
    """Fluid model of NewReno vs Westwood+ at a drop-tail bottleneck (Möller et al., Sec. III).

    Prints the normalized throughput of each flow and their sum for each buffer size. The
    defaults are the paper's scenario 1 (C·T = 42 packets, B up to 2·C·T).
    """
    from tcpsim.outpaths import output_file
    from tcpsim.units import parse_duration_ns, parse_rate_bps, parse_size_bytes

    plot_file = None if plot is None else output_file(plot, "--plot", PLOT_SUFFIXES)
    capacity_bps = _unit(parse_rate_bps, capacity, "--capacity")
    rtt_s = _unit(parse_duration_ns, rtt, "--rtt") / 1e9
    if rtt_s <= 0:
        raise CliError(f"--rtt: {rtt!r} must be greater than zero; the model divides by the round-trip time")
    packet_bytes = _unit(parse_size_bytes, packet, "--packet")
    buffer_pkts = _parse_buffers(buffers)
    from tcpsim.models.moller import solve
    from tcpsim.result.tables import num

    try:
        df = solve(capacity_bps, rtt_s, buffer_pkts, packet_bytes=packet_bytes, modified_westwood=modified)
    except ValueError as error:
        raise CliError(str(error)) from None
    bdp_pkts = capacity_bps / 8 * rtt_s / packet_bytes
    if plot_file is not None:
        _plot_moller(df, bdp_pkts, plot_file)
    if json_:
        columns = ["buffer_pkts", "buffer_over_bdp", "newreno", "westwood_plus", "utilization"]
        print_json(
            {
                "model": "moller",
                "capacity_bps": capacity_bps,
                "rtt_s": rtt_s,
                "packet_bytes": packet_bytes,
                "modified_westwood": modified,
                "bdp_pkts": bdp_pkts,
            }
            | {c: df[c].tolist() for c in columns}
        )
        return
    console = stdout_console()
    console.print(f"Möller model: C = {capacity}, T = {rtt}, C·T = {bdp_pkts:.1f} packets of {packet_bytes} B")
    console.print(
        rich_table(
            None,
            ["B pkts", "B/CT", "NewReno", "Westwood+", "sum"],
            (
                (
                    f"{r['buffer_pkts']:g}",
                    num(r["buffer_over_bdp"], digits=2),
                    num(r["newreno"]),
                    num(r["westwood_plus"]),
                    num(r["utilization"]),
                )
                for r in df.to_dict("records")
            ),
        )
    )
    if plot_file is not None:
        console.print(f"figure written to {plot_file}")


def _plot_moller(df: "pd.DataFrame", bdp_pkts: float, path: Path) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(df["buffer_pkts"], df["newreno"], label="NewReno")
    ax.plot(df["buffer_pkts"], df["westwood_plus"], label="Westwood+")
    ax.plot(df["buffer_pkts"], df["utilization"], label="sum", linestyle="--")
    ax.axvline(bdp_pkts, color="grey", linewidth=0.8, label="B = C·T")
    ax.set(xlabel="buffer B (packets)", ylabel="normalized throughput", ylim=(0, 1.05))
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    from tcpsim.outpaths import replacing

    with replacing(path) as temporary:
        fig.savefig(temporary, dpi=150)
