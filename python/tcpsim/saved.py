"""Reading back what `tcpsim run --out` and `tcpsim sweep --out` wrote, and a stored run by its
key, for `tcpsim plot` and `tcpsim report`.

A run's folder holds `RunResult.save`'s files (flows.csv, links.csv, meta.json, trace_<kind>
as Parquet or CSV, ...) beside scenario.toml and provenance.json; a sweep's folder holds
flows.csv, links.csv, runs.csv, scenario.toml, sweep.toml and provenance.json (see
`tcpsim.sweeps.outdir`). Which one a folder is, is told by those files, never by its name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.result import RunResult


class SavedError(ValueError):
    """A path that is no run or sweep folder (or store key), or one whose files cannot be read;
    the message names the path and what was expected."""


MIN_KEY_PREFIX = 4


def is_key_prefix(text: str) -> bool:
    """Whether ``text`` may start a run key: at least ``MIN_KEY_PREFIX`` hex digits."""
    prefix = text.strip().lower()
    return len(prefix) >= MIN_KEY_PREFIX and all(c in "0123456789abcdef" for c in prefix)


@dataclass
class SavedRun:
    """One run: its result (tables and recorded traces), scenario text and provenance."""

    label: str
    result: RunResult
    scenario_toml: str | None = None
    """The scenario as saved: the folder's `scenario.toml`, or for a stored run the store's
    canonical scenario (the engine's JSON, indented), which `scenario_field` cannot read."""
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """The scenario's name (else the label) and the run's seed, for a figure's title."""
        name = scenario_field(self.scenario_toml, "name") or self.label
        seed = self.result.meta.get("seed")
        return name if seed is None else f"{name}, seed {seed}"


@dataclass
class SavedSweep:
    """A sweep's tidy tables (one row per run × flow, run × link direction, run), its grid
    (parameter path → values, in the sweep's order), scenario text and provenance."""

    label: str
    flows: pd.DataFrame
    links: pd.DataFrame
    runs: pd.DataFrame
    grid: dict[str, list[Any]]
    scenario_toml: str | None = None
    provenance: dict[str, Any] = field(default_factory=dict)


def scenario_field(text: str | None, key: str) -> str:
    """A top-level text field of a saved scenario (name, description), "" when absent or unreadable."""
    from tcpsim.toml_input import TomlInputError, parse_toml

    try:
        value = parse_toml(text or "").get(key)
    except TomlInputError:
        return ""
    return value.strip() if isinstance(value, str) else ""


def is_sweep_folder(path: Path) -> bool:
    return (path / "runs.csv").is_file() and (path / "sweep.toml").is_file()


def is_run_folder(path: Path) -> bool:
    return (path / "meta.json").is_file() and (path / "flows.csv").is_file()


def open_folder(path: Path) -> SavedRun | SavedSweep:
    """The run or sweep saved in ``path``; raises :class:`SavedError` for anything else."""
    if not path.is_dir():
        raise SavedError(f"{path}: not a directory; give a folder 'tcpsim run --out' or 'tcpsim sweep --out' wrote")
    if is_sweep_folder(path):
        return _sweep(path)
    if is_run_folder(path):
        return _run(path)
    raise SavedError(
        f"{path}: neither a run folder (meta.json and flows.csv, from 'tcpsim run --out') "
        "nor a sweep folder (runs.csv and sweep.toml, from 'tcpsim sweep --out')"
    )


def open_stored(key: str, store_dir: str | None) -> SavedRun:
    """The finished run of the result store whose key starts with ``key`` (at least 4 hex
    characters, as `tcpsim store show` takes it)."""
    from tcpsim.store import Store, StoreUnavailable, store_root
    from tcpsim.store.catalog import CATALOG

    if not is_key_prefix(key):
        raise SavedError(
            f"{key!r}: not a folder, nor a stored run's key (hex, at least its first {MIN_KEY_PREFIX} characters)"
        )
    root = store_root(store_dir)
    if not (root / CATALOG).is_file():
        raise SavedError(f"{key}: not a folder, and there is no result store at {root} to look the key up in")
    try:
        store = Store(root)
    except StoreUnavailable as error:
        raise SavedError(str(error)) from None
    try:
        row = find_key(store, key)
        if row["status"] != "ok":
            raise SavedError(f"store run {row['key'][:16]} failed ({row['error']}); it has no results to show")
        result = store.load(row["key"], damaged="not recomputed here (a run or sweep of its scenario will)")
        if result is None:
            raise SavedError(f"store run {row['key'][:16]}: its files are damaged (see the warning above)")
        scenario = store.catalog.scenario(row["scenario_hash"])
    finally:
        store.close()
    try:  # one line of canonical JSON in the catalog: shown indented (a damaged one as it is)
        scenario = json.dumps(json.loads(scenario), indent=2, sort_keys=True) if scenario is not None else None
    except (ValueError, RecursionError):
        pass
    provenance = {
        "store": str(root),
        "key": row["key"],
        "seed": row["seed"],
        "engine_source": row.get("engine_source"),
        "git": {"commit": row.get("git_commit")} if row.get("git_commit") else None,
        "created_utc": row.get("created"),
        # The store keeps the canonical scenario (the engine's JSON), not the user's file.
        "scenario": {"source": "the result store's canonical scenario", "hash": row["scenario_hash"]},
    }
    return SavedRun(f"store run {row['key'][:16]}", result, scenario, provenance)


def find_key(store: Any, key: str) -> Any:
    """The catalog row of the one run whose key starts with ``key``; raises :class:`SavedError`
    when ``key`` is no hex prefix of at least ``MIN_KEY_PREFIX`` characters, or names no run or
    several."""
    prefix = key.strip().lower()
    if not is_key_prefix(prefix):
        raise SavedError(f"{key!r}: give a run key (hex), at least its first {MIN_KEY_PREFIX} characters")
    matches = store.catalog.runs("WHERE key LIKE ?", (prefix + "%",))
    if not matches:
        raise SavedError(f"{key}: no stored run has a key starting with {prefix}")
    if len(matches) > 1:
        raise SavedError(f"{key}: {len(matches)} stored runs have keys starting with {prefix}; give more characters")
    return matches[0]


TRACE_COLUMNS = {
    "cwnd": ("time_s", "flow_name", "cwnd_bytes"),
    "rtt": ("time_s", "flow_name", "rtt_s"),
    "queue": ("time_s", "link", "direction", "packets"),
    "throughput": ("time_s", "flow_name", "throughput_bps"),
}
"""The columns of each trace that its figure reads (`tcpsim.result.plots`)."""


def _has_columns(df: pd.DataFrame, columns: Any, path: Path) -> pd.DataFrame:
    """``df`` read from ``path``, if it has every one of ``columns``; a damaged or hand-edited
    file is named with the column it lacks rather than failing later in a plot."""
    if missing := [column for column in columns if column not in df.columns]:
        raise SavedError(
            f"{path}: has no column {missing[0]!r}; it is not the table tcpsim wrote (re-run to rewrite it)"
        )
    return df


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise SavedError(f"{path}: cannot be read as JSON ({error})") from None
    if not isinstance(data, dict):
        raise SavedError(f"{path}: expected a JSON object, found {type(data).__name__}")
    return data


def _csv(path: Path, required: bool = True) -> pd.DataFrame:
    import pandas as pd

    if not path.is_file() and not required:
        return pd.DataFrame()
    try:
        return pd.read_csv(path)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise SavedError(f"{path}: cannot be read as a CSV table ({error})") from None


def _text(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def _run(path: Path) -> SavedRun:
    import pandas as pd

    from tcpsim.result import TRACE_KINDS, RunResult
    from tcpsim.result.tables import FLOW_COLUMNS, LINK_COLUMNS

    traces: dict[str, pd.DataFrame] = {}
    for kind in TRACE_KINDS:
        parquet, csv = path / f"trace_{kind}.parquet", path / f"trace_{kind}.csv"
        try:
            if parquet.is_file():
                traces[kind] = _has_columns(pd.read_parquet(parquet), TRACE_COLUMNS[kind], parquet)
            elif csv.is_file():
                traces[kind] = _has_columns(pd.read_csv(csv), TRACE_COLUMNS[kind], csv)
        except SavedError:
            raise
        except Exception as error:  # noqa: BLE001 - pyarrow's errors have no common base
            raise SavedError(
                f"{path}/trace_{kind}: cannot be read as a table ({type(error).__name__}: {error})"
            ) from None
    web = _csv(path / "web.csv", required=False)
    if "clients" in web:  # saved as names joined by ";"
        web = web.assign(clients=[str(c).split(";") for c in web["clients"]])
    result = RunResult(
        flows=_has_columns(_csv(path / "flows.csv"), FLOW_COLUMNS, path / "flows.csv"),
        links=_has_columns(_csv(path / "links.csv"), LINK_COLUMNS, path / "links.csv"),
        meta=_json(path / "meta.json"),
        traces=traces,
        udp=_csv(path / "udp.csv", required=False),
        web=web if len(web.columns) else None,
        transfers=_csv(path / "transfers.csv", required=False) if (path / "transfers.csv").is_file() else None,
    )
    provenance = _json(path / "provenance.json") if (path / "provenance.json").is_file() else {}
    return SavedRun(str(path), result, _text(path / "scenario.toml"), provenance)


def _sweep(path: Path) -> SavedSweep:
    from tcpsim.toml_input import TomlInputError, parse_toml

    provenance = _json(path / "provenance.json") if (path / "provenance.json").is_file() else {}
    grid = (provenance.get("sweep") or {}).get("grid")
    if not isinstance(grid, dict):
        try:
            grid = parse_toml((path / "sweep.toml").read_text()).get("grid", {})
        except (OSError, UnicodeDecodeError, TomlInputError) as error:
            raise SavedError(f"{path}/sweep.toml: cannot be read ({error})") from None
    grid = {str(name): list(values) if isinstance(values, list) else [values] for name, values in grid.items()}
    return SavedSweep(
        str(path),
        flows=_has_columns(_csv(path / "flows.csv"), ["name", "seed", "goodput_bps", *grid], path / "flows.csv"),
        links=_csv(path / "links.csv"),
        runs=_has_columns(_csv(path / "runs.csv"), ["status", "error", "seed", *grid], path / "runs.csv"),
        grid=grid,
        scenario_toml=_text(path / "scenario.toml"),
        provenance=provenance,
    )
