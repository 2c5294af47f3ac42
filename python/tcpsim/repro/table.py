"""Named run keys and the tidy results table an experiment's analysis starts from.

A run of a reproduction is named by its parameters, ``RunKey(flavour="reno", per=0.001,
seed=1)``, not by a positional tuple whose third element someone must remember is the PER.
``results_table`` turns the results of a batch into one row per run: the experiment, every
named parameter as a column, the reading, the seed and the run's metrics, ready for
``tcpsim.repro.aggregate``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.result import RunResult

MAIN = "main"
"""The ``reading`` column's value for runs whose key names no reading (the paper's own set-up)."""


@dataclass(frozen=True, order=True, init=False)
class RunKey:
    """The named parameters of one run, in the order given; hashable, ordered (by the
    parameters in order) and picklable, so it serves as a ``RunSpec`` key.

    ``key["per"]`` reads a parameter, ``"per" in key`` tests for one, ``key.replace(seed=2)`` and
    ``key.without("reading")`` derive other keys.
    """

    params: tuple[tuple[str, Any], ...]

    def __init__(self, **params: Any) -> None:
        object.__setattr__(self, "params", tuple(params.items()))

    def __getitem__(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(f"run key {self!r} has no parameter {name!r}")

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self.params)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self.params)

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def as_dict(self) -> dict[str, Any]:
        return dict(self.params)

    def replace(self, **changes: Any) -> RunKey:
        """The same key with ``changes`` set (new parameters are appended)."""
        return RunKey(**{**self.as_dict(), **changes})

    def without(self, *names: str) -> RunKey:
        return RunKey(**{k: v for k, v in self.params if k not in names})

    def matches(self, **params: Any) -> bool:
        """Whether every given parameter is present with the given value."""
        return all(name in self and self[name] == value for name, value in params.items())

    def __repr__(self) -> str:
        return f"RunKey({', '.join(f'{k}={v!r}' for k, v in self.params)})"


def select_runs(results: Mapping[Any, RunResult], **params: Any) -> dict[RunKey, RunResult]:
    """The results whose (named) key has every given parameter value, in their order."""
    return {key: r for key, r in results.items() if isinstance(key, RunKey) and key.matches(**params)}


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

    rows = []
    for key, result in results.items():
        if not isinstance(key, RunKey):
            continue
        params = key.as_dict()
        row = {"experiment": experiment, **params, "reading": params.get("reading", MAIN), "seed": params.get("seed")}
        row.update(metrics(result))
        rows.append(row)
    return pd.DataFrame(rows)
