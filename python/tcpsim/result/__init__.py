"""The result of one run (`RunResult`), and how it is built, shown, plotted and tabled.

- `layout`: the result's tables, trace kinds, saved files and fixed columns, and `EngineOutput`.
- `from_engine`: the tables built from the engine's output, as plain rows or DataFrames.
- `run_result`: `RunResult` (tables, traces, JSON, saving) and `build_result`.
- `display`: its one-line `repr` and Jupyter summary; `plots`: `RunResult.plot`;
  `tables`: the tables as people read them (terminal and HTML report).

`layout` imports none of the others, `from_engine` only `layout`, `run_result` those two (and
`display` and `plots` inside the methods that use them); `display`, `plots` and `tables` import
none of them, so no two import each other. pandas, numpy and matplotlib are imported only
inside the functions that use them.
"""

from tcpsim.result.layout import (
    DERIVED_TRACES,
    NOT_COMPLETED_NS,
    SAVED_FILES,
    TABLES,
    TRACE_FORMATS,
    TRACE_KINDS,
    TRANSFER_COLUMNS,
    WEB_COLUMNS,
    EngineOutput,
)
from tcpsim.result.run_result import RunResult, build_result

__all__ = [
    "DERIVED_TRACES",
    "NOT_COMPLETED_NS",
    "SAVED_FILES",
    "TABLES",
    "TRACE_FORMATS",
    "TRACE_KINDS",
    "TRANSFER_COLUMNS",
    "WEB_COLUMNS",
    "EngineOutput",
    "RunResult",
    "build_result",
]
