"""The README's quick-mode status table is the one a fresh `tcpsim repro all --quick` generates.

Runs every experiment in quick mode (results in a temporary directory). Finished runs come from
the repository's result store ``.tcpsim-store`` (kept between sessions, unlike the per-session
store tests otherwise use), so only the first run after a change simulates; after that the test costs the analyses and figures. When it fails,
regenerate the block with ``tcpsim repro all --quick --update-readme README.md``.
"""

from pathlib import Path

from tcpsim.repro import all_experiments, execute
from tcpsim.repro.status import status_block, status_table

ROOT = Path(__file__).resolve().parent.parent


def test_readme_quick_status_table_matches_a_fresh_quick_run(tmp_path):
    readme = status_block((ROOT / "README.md").read_text(), "quick")
    assert readme is not None, "README.md has no <!-- status:quick:begin/end --> block"
    store = ROOT / ".tcpsim-store"
    reports = execute(all_experiments(), quick=True, out_dir=tmp_path, progress=False, cache_dir=store)
    fresh = status_table(reports)
    assert readme == fresh, (
        "README's quick status table is stale; run `tcpsim repro all --quick --update-readme README.md`.\n"
        f"README:\n{readme}\n\nfresh run:\n{fresh}"
    )


def test_update_readme_rewrites_only_its_block(tmp_path, monkeypatch):
    """`repro --update-readme` writes the generated table between the markers of its mode."""
    import tcpsim.repro as repro
    from tcpsim.cli import app
    from tcpsim.repro.framework import Claim, Experiment, Number, Outcome
    from typer.testing import CliRunner

    class Tiny(Experiment):
        id, title, paper, kind = "validation.tiny", "tiny", "validation", "validation"

        def analyze(self, results, quick):
            return Outcome(claims=[Claim("holds", True)], numbers=[Number("n", 1.0, 1.5, explanation="why")])

    monkeypatch.setattr(repro, "_registry", {})
    monkeypatch.setattr(repro, "_loaded", True)
    repro.register(Tiny)
    readme = tmp_path / "README.md"
    readme.write_text(
        "intro\n<!-- status:quick:begin -->\nold\n<!-- status:quick:end -->\n"
        "<!-- status:full:begin -->\nkeep\n<!-- status:full:end -->\n"
    )
    real_execute = repro.execute

    def execute_while_the_readme_is_edited(*args, **kwargs):
        # An edit made during the (long) runs is kept: the README is read again before writing.
        readme.write_text(readme.read_text().replace("intro\n", "intro, edited during the run\n"))
        return real_execute(*args, **kwargs)

    monkeypatch.setattr(repro, "execute", execute_while_the_readme_is_edited)
    result = CliRunner().invoke(
        app, ["repro", "all", "--quick", "--out", str(tmp_path / "out"), "--update-readme", str(readme), "--status"]
    )
    assert result.exit_code == 0, result.output
    text = readme.read_text()
    assert "| validation | – | – | – | – | – | – | – | 0/1 (claims 1/1, numbers 0/1) | – |" in status_block(
        text, "quick"
    )
    assert status_block(text, "full") == "keep" and text.startswith("intro, edited during the run\n")
    assert status_block(text, "quick") in result.stdout
    bad = tmp_path / "NOBLOCK.md"
    bad.write_text("no markers\n")
    result = CliRunner().invoke(
        app, ["repro", "all", "--quick", "--out", str(tmp_path / "out"), "--update-readme", str(bad)]
    )
    assert result.exit_code == 2 and "status:quick:begin" in result.output
