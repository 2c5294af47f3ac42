"""Data-centre workloads: empirical flow-size CDFs (the shipped web-search and data-mining
distributions and user files) and the arrival rate that offers a target load.

A CDF is a list of points (bytes, cumulative probability), probabilities strictly increasing
from 0 to 1 and sizes non-decreasing. The engine samples it by inverse transform with linear
interpolation between points, HPCC's convention (alibaba-edu/High-Precision-Congestion-Control,
`traffic_gen/custom_rand.py`); :func:`cdf_mean` is that distribution's mean (its trapezoids, as
HPCC's `getAvg`).

A CDF file has one point per line, ``bytes probability``, separated by blanks; ``#`` starts a
comment. Probabilities are fractions in [0, 1], or percentages if the last one is 100 (HPCC's
files)."""

import math
from pathlib import Path

NAMED_CDFS = ("web_search", "data_mining")
"""Shipped CDFs (files ``<name>.cdf`` here, their sources in their headers): web search (DCTCP,
Alizadeh et al., SIGCOMM 2010) and data mining (VL2, Greenberg et al., SIGCOMM 2009)."""

Cdf = list[tuple[int, float]]


class CdfError(ValueError):
    """A CDF that cannot be used; the message says where and why."""


def named_cdf(name: str) -> Cdf:
    """The shipped CDF `name` (one of :data:`NAMED_CDFS`)."""
    if name not in NAMED_CDFS:
        raise CdfError(f"unknown CDF {name!r}; shipped: {', '.join(NAMED_CDFS)}")
    from importlib import resources  # only for the bundled files: not loaded by every run

    return parse_cdf(resources.files(__name__).joinpath(f"{name}.cdf").read_text(), f"{name}.cdf")


def read_cdf(path: str | Path) -> Cdf:
    """The CDF in the file at `path` (module doc for the format)."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise CdfError(f"cannot read CDF file {str(path)!r}: {e}") from None
    return parse_cdf(text, str(path))


def parse_cdf(text: str, source: str) -> Cdf:
    """The CDF in `text` (module doc); errors name `source` and the line."""
    rows: list[tuple[int, float, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 2:
            raise CdfError(f"{source}:{number}: expected 'bytes probability', got {line.strip()!r}")
        try:
            size, p = float(fields[0]), float(fields[1])
        except ValueError:
            raise CdfError(f"{source}:{number}: expected two numbers, got {line.strip()!r}") from None
        if not (math.isfinite(size) and size >= 0 and size == int(size)):
            raise CdfError(f"{source}:{number}: size {fields[0]} must be a whole number of bytes >= 0")
        rows.append((int(size), p, number))
    if not rows:
        raise CdfError(f"{source}: no points")
    scale = 100.0 if rows[-1][1] == 100 else 1.0
    points = [(size, p / scale) for size, p, _ in rows]
    problem = check_cdf(points)
    if problem is not None:
        index, message = problem
        where = f"{source}:{rows[index][2]}" if index is not None else source
        raise CdfError(f"{where}: {message}")
    return points


def check_cdf(points: Cdf) -> tuple[int | None, str] | None:
    """What is wrong with `points` as a CDF, if anything: (index of the point or None, message)."""
    if len(points) < 2:
        return None, f"needs at least two points, has {len(points)}"
    for k, (size, p) in enumerate(points):
        if not (math.isfinite(p) and 0 <= p <= 1):
            return k, f"probability {p} must be in [0, 1]"
        if k and p <= points[k - 1][1]:
            return k, f"probability {p} must be > the previous point's ({points[k - 1][1]})"
        if k and size < points[k - 1][0]:
            return k, f"size {size} must be >= the previous point's ({points[k - 1][0]})"
    if points[0][1] != 0 or points[-1][1] != 1:
        return None, f"probabilities must run from 0 to 1, not {points[0][1]} to {points[-1][1]}"
    return None


def cdf_mean(points: Cdf) -> float:
    """Mean bytes of the piecewise-linear CDF through `points` (uniform between points)."""
    return sum((x0 + x1) / 2 * (p1 - p0) for (x0, p0), (x1, p1) in zip(points, points[1:]))


def poisson_rate_for_load(load: float, host_rate_bps: float, n_hosts: int, mean_bytes: float) -> float:
    """Transfers per second that offer `load` of the hosts' link capacity:
    rate = load × host_rate × n_hosts / (8 × mean_bytes).

    Each of the `n_hosts` hosts sends, on average, load × host_rate bits per second of payload
    into its link (HPCC's `traffic_gen.py`: per host, mean gap 8·mean/(host_rate·load)); with
    uniform destinations each host also receives that on average. Payload bytes only: headers
    add (header/mss) more on the wire."""
    return load * host_rate_bps * n_hosts / (8 * mean_bytes)
