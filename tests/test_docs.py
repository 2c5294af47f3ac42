"""The project's generated documentation is current and self-contained."""

from __future__ import annotations

import re
from pathlib import Path

from tcpsim.repro import all_experiments
from tcpsim.repro.reference import reference_markdown

ROOT = Path(__file__).resolve().parent.parent


def _project_experiments():
    """The registry without experiments other tests register for themselves."""
    return [e for e in all_experiments() if type(e).__module__.startswith("tcpsim.repro.")]


def test_experiment_reference_is_generated_from_the_registry() -> None:
    expected = reference_markdown(_project_experiments())
    assert (ROOT / "docs" / "experiments.md").read_text() == expected, (
        "docs/experiments.md is stale: regenerate it with `tcpsim list --markdown > docs/experiments.md`"
    )


def test_every_registered_experiment_is_in_the_reference() -> None:
    text = (ROOT / "docs" / "experiments.md").read_text()
    listed = set(re.findall(r"^\| `([a-z_]+\.[a-z0-9_]+)` \|", text, flags=re.M))
    assert listed == {e.id for e in _project_experiments()}


def test_nothing_in_the_project_points_outside_it() -> None:
    """Code and docs never refer to the material the project was built from (``../shared``)."""
    offenders = []
    for folder in ("python", "crates", "docs", "scripts", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".rs", ".md", ".toml", ".sh"} and path != Path(__file__):
                text = path.read_text(errors="replace")
                if re.search(r"\.\./shared|EXPERIMENTS\.md|DESIGN\.md|DESIGN \"", text):
                    offenders.append(str(path.relative_to(ROOT)))
    readme = (ROOT / "README.md").read_text()
    if re.search(r"\.\./shared|EXPERIMENTS\.md|DESIGN\.md", readme):
        offenders.append("README.md")
    assert not offenders, f"files referring to ../shared, EXPERIMENTS.md or DESIGN.md: {offenders}"


def _schema_fields(node, found: set[str]) -> set[str]:
    """Every property name anywhere in a JSON Schema."""
    if isinstance(node, dict):
        found.update(node.get("properties", {}) if isinstance(node.get("properties"), dict) else ())
        for value in node.values():
            _schema_fields(value, found)
    elif isinstance(node, list):
        for value in node:
            _schema_fields(value, found)
    return found


def test_the_readme_documents_every_scenario_field() -> None:
    """The README's scenario reference is tested against the schema users are validated with:
    every field a scenario may hold is named in its 'Using it' section."""
    from tcpsim.scenario import json_schema

    readme = (ROOT / "README.md").read_text()
    usage = readme[readme.index("## Using it") : readme.index("### Measurements")]
    fields = _schema_fields(json_schema(), set())
    undocumented = sorted(f for f in fields if not re.search(rf"\b{re.escape(f)}\b", usage))
    assert fields and not undocumented, f"scenario fields the README does not mention: {undocumented}"
