"""tcpsim: a fast, faithful packet-level TCP congestion-control simulator.

    >>> import tcpsim
    >>> result = tcpsim.run("scenarios/single_flow.toml", seed=1)
    >>> result.flows[["name", "goodput_bps"]]
    >>> sweep = tcpsim.sweep("scenarios/lossy_link.toml", {"links[1].rate": ["1Mbps", "2Mbps"]}, seeds=3)
    >>> sweep.flows.groupby("links[1].rate_bps")["goodput_bps"].mean()
    >>> import matplotlib.pyplot as plt; plt.style.use(tcpsim.STYLE)  # tcpsim's figure style

The public names are imported lazily so that `import tcpsim` (and the CLI's `--help`) do not
pay for pandas and the compiled core until they are used.
"""

from pathlib import Path
from typing import Any

# The one version source is the workspace Cargo.toml; the compiled core carries it, and the git
# commit it was built from ("unknown" when built outside a checkout).
from tcpsim._core import BUILD_COMMIT as __commit__
from tcpsim._core import ENGINE_VERSION as __version__

STYLE = str(Path(__file__).with_name("tcpsim.mplstyle"))
"""tcpsim's matplotlib style (a file shipped in the package): ``plt.style.use(tcpsim.STYLE)``
or ``with plt.style.context(tcpsim.STYLE):`` draws in the style of tcpsim's own figures."""

_EXPORTS = {
    "run": "tcpsim.api",
    "sweep": "tcpsim.sweeps",
    "SweepResult": "tcpsim.sweeps",
    "SimulationError": "tcpsim.engine_run",
    "RunResult": "tcpsim.result",
    "load_scenario": "tcpsim.scenario",
    "Scenario": "tcpsim.scenario",
    "ScenarioError": "tcpsim.scenario",
}

__all__ = ["__version__", "__commit__", "STYLE", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'tcpsim' has no attribute {name!r}")
