"""Adding a congestion control is its file plus three registration lines in Rust and one model in
Python: the steps of docs/adding-an-algorithm.md, done with its template in a copy of the tree.

The copy's engine is compiled and the template's own unit tests run in it (they parse its
`kind`, check and build it through the generated `CcConfig`), and the copy's Python front end
turns a scenario using the new variant into the engine form. Every line added outside the
algorithm's two files is counted.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CC_MOD = Path("crates/tcpsim-core/src/tcp/cc/mod.rs")
CC_MODELS = Path("python/tcpsim/scenario/tcp.py")


def _tracked_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "Cargo.toml", "Cargo.lock", "crates", "python", "docs/templates"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def _register_rust(text: str) -> str:
    """The three lines of docs/adding-an-algorithm.md: `mod`, `pub use` and the macro entry."""
    lines = text.split("\n")
    uses = [i for i, line in enumerate(lines) if line.startswith("pub use ")]
    lines.insert(uses[-1] + 1, "pub use my_cc::{MyCc, MyCcConfig};")
    lines.insert(max(i for i in range(uses[0]) if lines[i].startswith("mod ")) + 1, "mod my_cc;")
    start = lines.index("congestion_controls!(")
    end = lines.index(");", start)
    lines.insert(end, "    MyCc(MyCcConfig),")
    return "\n".join(lines)


def _register_python(text: str, model: str) -> str:
    """The model, placed after the other congestion-control models (before `CcSpec` is formed)."""
    anchor = "_ANY_CC = "
    at = text.index(anchor)
    return text[:at] + model.rstrip() + "\n\n\n" + text[at:]


def _added_lines(before: str, after: str) -> tuple[int, int]:
    matcher = difflib.SequenceMatcher(None, before.split("\n"), after.split("\n"), autojunk=False)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    return sum(j2 - j1 for _, _, _, j1, j2 in changes), sum(i2 - i1 for _, i1, i2, _, _ in changes)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the tracked sources with the template registered as `my_cc`."""
    if shutil.which("cargo") is None:
        pytest.skip("needs cargo (the README's prerequisites)")
    copy = tmp_path_factory.mktemp("tree")
    for name in _tracked_files():
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    for built in (ROOT / "python" / "tcpsim").glob("_core*.so"):
        shutil.copy2(built, copy / "python" / "tcpsim" / built.name)
    shutil.copy(copy / "docs/templates/my_cc.rs", copy / "crates/tcpsim-core/src/tcp/cc/my_cc.rs")
    (copy / CC_MOD).write_text(_register_rust((copy / CC_MOD).read_text()))
    model = (copy / "docs/templates/my_cc.py").read_text()
    (copy / CC_MODELS).write_text(_register_python((copy / CC_MODELS).read_text(), model))
    return copy


def test_rust_registration_is_three_lines(tree: Path) -> None:
    assert _added_lines((ROOT / CC_MOD).read_text(), (tree / CC_MOD).read_text()) == (3, 0)


def test_python_registration_is_the_model_alone(tree: Path) -> None:
    model = (tree / "docs/templates/my_cc.py").read_text().rstrip().split("\n")
    added, removed = _added_lines((ROOT / CC_MODELS).read_text(), (tree / CC_MODELS).read_text())
    assert removed == 0
    assert added == len(model) + 2  # the model and the two blank lines after it


def test_the_copy_builds_and_the_template_passes_its_tests(tree: Path) -> None:
    env = {**os.environ, "CARGO_TARGET_DIR": str(ROOT / "target")}  # reuse the built dependencies
    run = subprocess.run(
        ["cargo", "test", "--release", "-p", "tcpsim-core", "--lib", "--quiet", "my_cc"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "2 passed" in run.stdout


def test_the_variant_reaches_the_engine_form(tree: Path) -> None:
    script = (
        "import json\n"
        "from tcpsim.scenario import load_scenario\n"
        "from tcpsim.scenario.tcp import VARIANTS\n"
        "s = load_scenario({'duration': '1s', 'links': [{'a': 'h1', 'b': 'h2', 'rate': '1Mbps', 'delay': '10ms',"
        " 'queue': '10pkt'}], 'flows': [{'src': 'h1', 'dst': 'h2', 'variant': 'my_cc',"
        " 'tcp': {'cc': {'kind': 'my_cc', 'decrease_factor': 0.7}}}]})\n"
        "print(json.dumps([VARIANTS['my_cc'].recovery, s.to_engine()['flows'][0]['tcp']['cc']]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tree / "python")}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=tree)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == ('["newreno", {"kind": "my_cc", "increase_segments": 1.0, "decrease_factor": 0.7}]')
