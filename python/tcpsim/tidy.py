"""Named run keys, and the one tidy-table builder that user sweeps and paper reproductions share.

A run is named by its parameters, ``RunKey(flavour="reno", per=0.001, seed=1)`` or
``RunKey(point=3, seed=2)``, not by a positional tuple whose third element someone must remember
is the PER. :func:`tidy` labels the rows of each run's table with that run's labels (its key's
parameters, or a sweep's parameter columns) so tables from many runs stack into one: a sweep's
``flows`` (run × flow) and an experiment's results table (one row per run) are both made by it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.result import RunResult


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


def tidy(
    labels: pd.DataFrame,
    tables: Sequence[pd.DataFrame | Mapping[str, Any]],
    columns: Sequence[str] = (),
    trailing: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The rows of every run's table stacked into one, each led by its run's row of ``labels``
    (row i labels ``tables[i]``) and followed by its row of ``trailing``, if given. A run's table
    is a DataFrame (a run whose table has no rows contributes none) or a mapping, its one row.
    ``columns`` name the body's columns when there are no runs, so code reading the result still
    finds them."""
    import numpy as np
    import pandas as pd

    if len(labels) != len(tables) or (trailing is not None and len(trailing) != len(tables)):
        raise ValueError(f"tidy: {len(tables)} tables need as many label rows and trailing rows")
    tail = trailing if trailing is not None else pd.DataFrame(index=range(len(tables)))
    if not tables:
        return pd.DataFrame(columns=[*labels.columns, *columns, *tail.columns])
    if all(isinstance(table, Mapping) for table in tables):  # one row each: one frame, types as for records
        counts = [1] * len(tables)
        body = pd.DataFrame(list(tables))
    else:
        frames = [table if isinstance(table, pd.DataFrame) else pd.DataFrame([table]) for table in tables]
        counts = [len(frame) for frame in frames]
        body = pd.concat(frames, ignore_index=True)
    rows = np.repeat(np.arange(len(tables)), counts)
    head = labels.iloc[rows].reset_index(drop=True)
    return pd.concat([head, body, tail.iloc[rows].reset_index(drop=True)], axis=1)
