"""How a batch of runs shows its progress on stderr, and how diagnostics are logged.

Two readers: a person at a terminal gets a transient rich bar; a log file, a pipe or CI gets a
plain line as runs finish (``progress: 7/40 runs, moller.fig5 3/8, 12s elapsed, ETA 57s``),
never more than one every ``interval`` seconds (thousands of runs would flood a log), except
that the first run, the last run of each label (an experiment of ``tcpsim repro``) and the
last run of all always get theirs, so a long job shows it is alive and a short one still says
what it did.

Diagnostics go through the ``logging`` module under the ``tcpsim`` logger; ``configure``
decides how much of it reaches stderr (``-v``) and whether progress is shown at all
(``--quiet``).
"""

from __future__ import annotations

import logging
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

log = logging.getLogger("tcpsim")

_quiet = False
"""Set by ``configure(quiet=True)`` (the CLI's ``--quiet``): no progress at all."""

LINE_INTERVAL_S = 2.0
"""Least time between two plain progress lines, except the lines that are always printed."""


class _Stderr(logging.Handler):
    """Writes to whatever ``sys.stderr`` is at the time of the record (not at creation), so a
    record logged while the rich bar is live is printed above the bar instead of through it."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            # "info: tcpsim.runner: ...", in the style of the CLI's "warning:" and "error:" lines
            line = f"{record.levelname.lower()}: {record.name}: {record.getMessage()}"
            if record.exc_info:
                line += "\n" + logging.Formatter().formatException(record.exc_info)
            sys.stderr.write(line + "\n")
        except Exception:  # noqa: BLE001 - logging must never break the run it describes
            self.handleError(record)


def configure(quiet: bool = False, verbose: bool = False) -> None:
    """Set up the command line's output: ``verbose`` shows the ``tcpsim`` logger's INFO and
    DEBUG records on stderr (only WARNING and above otherwise); ``quiet`` hides progress."""
    global _quiet
    _quiet = quiet
    if not any(isinstance(h, _Stderr) for h in log.handlers):
        log.addHandler(_Stderr())
    log.setLevel(logging.DEBUG if verbose else logging.WARNING)


def is_quiet() -> bool:
    return _quiet


def is_verbose() -> bool:
    return log.level == logging.DEBUG


class Tracker(Protocol):
    def advance(self, label: str, failed: bool = False) -> None: ...


def duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``: short enough for a progress line, exact enough to plan by."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Lines:
    """Plain progress lines on stderr for ``labels`` (one entry per pending run)."""

    def __init__(
        self,
        labels: Iterable[str],
        cached: int,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.totals = Counter(labels)
        self.done: Counter[str] = Counter()
        self.total = sum(self.totals.values())
        self.finished = 0
        self.failed = 0
        self.interval = LINE_INTERVAL_S if interval is None else interval
        self.clock = clock
        self.start = clock()
        self.last_line: float | None = None
        _write(f"progress: {self.total} run{'s' * (self.total != 1)} to simulate ({cached} cached)")

    def advance(self, label: str, failed: bool = False) -> None:
        self.finished += 1
        self.failed += failed
        self.done[label] += 1
        now = self.clock()
        always = self.last_line is None or self.done[label] == self.totals[label] or self.finished == self.total
        if not always and now - self.last_line < self.interval:
            return
        self.last_line = now
        elapsed = now - self.start
        remaining = elapsed / self.finished * (self.total - self.finished)
        parts = [f"{self.finished}/{self.total} runs"]
        if label:
            parts.append(f"{label} {self.done[label]}/{self.totals[label]}")
        if self.failed:
            parts.append(f"{self.failed} failed")
        parts.append(f"{duration(elapsed)} elapsed")
        parts.append("done" if self.finished == self.total else f"ETA {duration(remaining)}")
        _write("progress: " + ", ".join(parts))


def _write(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class _Bar:
    """The rich bar, fed the same events as ``Lines``; its description names the latest label."""

    def __init__(self, bar: Progress, total: int, cached: int):
        self.bar = bar
        self.cached = cached
        self.task = bar.add_task(f"simulating ({cached} cached)", total=total)

    def advance(self, label: str, failed: bool = False) -> None:
        description = f"{label} ({self.cached} cached)" if label else f"simulating ({self.cached} cached)"
        self.bar.update(self.task, advance=1, description=description)


class _Silent:
    def advance(self, label: str, failed: bool = False) -> None:
        pass


@contextmanager
def track(enabled: bool, labels: Iterable[str], cached: int) -> Iterator[Tracker]:
    """A tracker for ``labels`` (one per run still to compute): the rich bar on a terminal (or
    in Jupyter), plain lines elsewhere, nothing when ``enabled`` is off, the command line is
    ``--quiet`` or there is nothing to compute."""
    labels = list(labels)
    if not enabled or _quiet or not labels:
        yield _Silent()
        return
    from rich.console import Console

    console = Console(stderr=True)
    # isatty as well as rich's own test: FORCE_COLOR (set in many CI systems) makes rich treat a
    # log file as a terminal, and a bar redrawn into a log is unreadable.
    # In Jupyter rich draws its bar with ipywidgets; without them it would print a warning to
    # install them (once per display), so a notebook without ipywidgets gets the plain lines.
    in_notebook = console.is_jupyter and _has_ipywidgets()
    if not (in_notebook or (not console.is_jupyter and sys.stderr.isatty() and console.is_interactive)):
        yield Lines(labels, cached)
        return
    with _progress_bar(console) as bar:
        yield _Bar(bar, len(labels), cached)


def _has_ipywidgets() -> bool:
    import importlib.util

    return importlib.util.find_spec("ipywidgets") is not None


def _progress_bar(console: Console) -> Progress:
    """A transient rich bar: gone once the work is, so the results printed next stand alone."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
