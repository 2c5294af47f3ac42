"""Mean and 95 % Student-t interval of a twin's replications, shared by the ns-2 and ns-3
runners (plain Python: the runners need no project environment)."""

import math
import statistics

T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
       2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
       2.045, 2.042]  # fmt: skip
"""Two-sided 95 % Student-t quantiles for 1..30 degrees of freedom (30 and beyond: the last)."""


def mean_ci(values: list[float]) -> tuple[float, list[float] | None]:
    """The mean of ``values`` and its 95 % interval (None from a single value)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, None
    half = T95[min(len(values) - 1, len(T95)) - 1] * statistics.stdev(values) / math.sqrt(len(values))
    return m, [m - half, m + half]
