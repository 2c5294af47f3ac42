"""The TOML the README and the docs show is TOML, and the sweep file of docs/sweeps.md plans
valid runs of the scenario it is shown with: copying an example must never fail."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from tcpsim.scenario import load_scenario
from tcpsim.sweeps.definition import read_sweep_file

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```toml\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _toml_blocks() -> list[tuple[str, str]]:
    return [
        (f"{path.relative_to(ROOT)}#{i}", block)
        for path in DOCS
        for i, block in enumerate(BLOCK.findall(path.read_text(encoding="utf-8")))
    ]


def test_the_docs_show_toml() -> None:
    assert len(_toml_blocks()) >= 3


@pytest.mark.parametrize(("where", "block"), _toml_blocks(), ids=[w for w, _ in _toml_blocks()])
def test_every_toml_block_parses(where: str, block: str) -> None:
    tomllib.loads(block)


def test_the_sweep_file_example_plans_valid_runs(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "sweeps.md").read_text(encoding="utf-8")
    (block,) = [b for b in BLOCK.findall(text) if "[grid]" in b]
    path = tmp_path / "campaign.toml"
    path.write_text(block, encoding="utf-8")
    definition = read_sweep_file(path)
    points = definition.combinations()
    assert len(points) == 12
    for point in points:
        load_scenario(ROOT / "scenarios" / "lossy_link.toml", definition.overrides(point))
