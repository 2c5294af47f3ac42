"""The tidy results table an experiment's analysis starts from.

A run of a reproduction is named by its parameters (:class:`tcpsim.tidy.RunKey`, the key user
sweeps use too). ``results_table`` turns the results of a batch into one row per run: the
experiment, every named parameter as a column, the reading, the seed and the run's metrics,
ready for ``tcpsim.repro.aggregate``; it is :func:`tcpsim.tidy.tidy`, as a sweep's tables are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.tidy import RunKey, tidy

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.result import RunResult

MAIN = "main"
"""The ``reading`` column's value for runs whose key names no reading (the paper's own set-up)."""


def results_table(
    results: Mapping[Any, RunResult],
    metrics: Callable[[RunResult], Mapping[str, float]],
    experiment: str = "",
) -> pd.DataFrame:
    """One row per run with a named key, in the results' order: ``experiment``, the key's
    parameters (a parameter a key lacks is missing, NaN/None, in its row), ``reading`` (``MAIN``
    unless the key names one), ``seed`` and the metrics ``metrics(result)`` returns. Results under
    other keys are skipped."""
    import pandas as pd

    named = [(key, result) for key, result in results.items() if isinstance(key, RunKey)]
    labels = []
    for key, _ in named:
        params = key.as_dict()
        labels.append(
            {"experiment": experiment, **params, "reading": params.get("reading", MAIN), "seed": params.get("seed")}
        )
    return tidy(pd.DataFrame(labels), [metrics(result) for _, result in named])
