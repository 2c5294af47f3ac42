"""The cyclic garbage collector paused while a scenario's objects are made (`gc_paused`).

Loading, validating, checking and compiling a scenario, and turning the engine's output into a
run's result and its tables, make objects in proportion to the flows and links: pydantic
models, dicts, lists and strings that live on or die by reference counting, with no cycles
for the collector to find.
Its passes traverse them all the same, and ever more of them as a large scenario is built:
validating a dumbbell and making its engine form took 81, 97 and 130 µs a flow at 10^3, 10^4
and 10^5 flows with it on, and 45, 53 and 57 paused; `tcpsim.run` of the 10^5 flows for 0.2 s
spent 21.6 s in Python with it on and 12.9 s paused (the engine 6.2 s either way). The engine's
own run is not paused: it allocates nothing in Python, and other threads may run meanwhile.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def gc_paused(function: Callable[P, R]) -> Callable[P, R]:
    """`function` run with the cyclic collector off, turned back on after it if it was on:
    nested calls leave it off until the outermost returns, and a caller that keeps it off
    (the console script while it loads) keeps it off."""

    @functools.wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return paused
