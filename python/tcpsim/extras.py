"""Optional dependencies: which extra of ``pip install 'tcpsim[...]'`` brings each, and the error
that says so.

A plain install runs, validates and lists scenarios (``tcpsim run --json``, ``validate``,
``list``) and gives results as pandas tables. Three large packages are extras, imported only
where they are used: pyarrow (``parquet``: the result store behind sweeps and reproductions,
Parquet traces), scipy (``stats``: confidence intervals, the Möller model) and matplotlib
(``plot``: figures). ``tcpsim[all]`` installs every extra.
"""

from __future__ import annotations

import importlib.util

EXTRA_OF = {"pyarrow": "parquet", "scipy": "stats", "matplotlib": "plot"}
"""Optional module → the extra that installs it (pyproject.toml's optional-dependencies)."""


class MissingExtra(ModuleNotFoundError):
    """A feature was used whose optional dependency is not installed."""


def install_hint(modules: list[str]) -> str:
    """``pip install 'tcpsim[a,b]'`` for the extras that bring ``modules``."""
    extras = ",".join(dict.fromkeys(EXTRA_OF[m] for m in modules))
    return f"pip install 'tcpsim[{extras}]' (or 'tcpsim[all]')"


def require(*modules: str, purpose: str, otherwise: str = "") -> None:
    """Raise :class:`MissingExtra` naming every one of ``modules`` that is not installed, what
    needs it (``purpose``), the extra to install and what works without it (``otherwise``);
    checked without importing them."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        names = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
        instead = f"; {otherwise}" if otherwise else ""
        message = f"{purpose} needs {names}, which a plain install leaves out: {install_hint(missing)}{instead}"
        raise MissingExtra(message, name=missing[0])


def missing_extra_message(error: BaseException) -> str | None:
    """The message for ``error`` if it is the failed import of an optional module, else None."""
    if isinstance(error, MissingExtra):
        return str(error)
    if not isinstance(error, ModuleNotFoundError) or error.name is None:
        return None
    module = error.name.partition(".")[0]
    if module not in EXTRA_OF:
        return None
    return f"{module} is not installed (a plain install leaves it out): {install_hint([module])}"
