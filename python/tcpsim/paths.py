"""Where the ready-made scenarios live: `scenarios/` of the source checkout (the package is
installed in editable mode by `scripts/setup.sh`)."""

from pathlib import Path

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "scenarios"


def scenario_path(name: str) -> Path:
    """The ready-made scenario `name` (file name without `.toml`)."""
    return SCENARIO_DIR / f"{name}.toml"
