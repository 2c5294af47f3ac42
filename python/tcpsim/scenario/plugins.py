"""pydantic's plugins, looked for without loading `importlib.metadata` when there are none.

When it builds its first model, pydantic loads the plugins that installed distributions declare
(entry points of the group ``pydantic``) through `importlib.metadata`: importing that (email,
zipfile, csv, importlib.resources) and reading every distribution's metadata takes about 15 ms,
a tenth of a first ``tcpsim run FILE --json``, to find none in almost every environment.

`stand_in` puts a loader of its own where pydantic imports its loader from. It reads the
``entry_points.txt`` of each distribution on `sys.path` (the files `importlib.metadata` reads)
and answers "no plugins" when none declares the group. If one does, or a distribution could be
found otherwise (a zip file or an egg on `sys.path`, another finder of distributions on
`sys.meta_path`), it steps aside for pydantic's own loader, which then finds and loads the
plugins as it always does; so does any other use of the loader's module.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import os
import sys
import types
from typing import Any

LOADER = "pydantic.plugin._loader"
"""The module pydantic imports `get_plugins` from when it builds a model (pydantic 2.x)."""
GROUP = "pydantic"


def stand_in() -> None:
    """Put the stand-in loader in place, unless pydantic's own is loaded already."""
    if LOADER in sys.modules:
        return
    module = types.ModuleType(LOADER, __doc__)
    module.get_plugins = get_plugins  # type: ignore[attr-defined]
    module.__getattr__ = _from_pydantic  # type: ignore[method-assign]
    sys.modules[LOADER] = module


def get_plugins() -> Any:
    """pydantic's plugins: none if no distribution declares one, else what pydantic's loader finds."""
    return _pydantic_loader().get_plugins() if _may_declare_plugins() else ()


def _from_pydantic(name: str) -> Any:
    if name.startswith("__"):  # the import system asks for `__path__` and the like
        raise AttributeError(name)
    return getattr(_pydantic_loader(), name)


def _pydantic_loader() -> types.ModuleType:
    """pydantic's own loader, imported in place of the stand-in."""
    if getattr(sys.modules.get(LOADER), "get_plugins", None) is get_plugins:
        del sys.modules[LOADER]
    return importlib.import_module(LOADER)


@functools.cache
def _may_declare_plugins() -> bool:
    """Whether a distribution might declare an entry point of the group: one on `sys.path`
    does, or one might be found where this does not look."""
    if any(
        hasattr(finder, "find_distributions") and finder is not importlib.machinery.PathFinder
        for finder in sys.meta_path
    ):
        return True
    for entry in sys.path:
        root = entry or "."
        if os.path.isfile(root) or root.lower().endswith(".egg"):
            return True
        try:
            names = os.listdir(root)
        except OSError:
            continue
        for name in names:
            if name.lower().endswith((".dist-info", ".egg-info")) and _declares_group(os.path.join(root, name)):
                return True
    return False


def _declares_group(metadata: str) -> bool:
    """Whether the ``entry_points.txt`` of the distribution whose metadata directory is
    `metadata` has a ``[pydantic]`` section; True if it cannot be read but exists."""
    try:
        with open(os.path.join(metadata, "entry_points.txt"), "rb") as source:
            text = source.read()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    if GROUP.encode() not in text:
        return False
    for line in text.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]") and line[1:-1].strip() == GROUP:
            return True
    return False
