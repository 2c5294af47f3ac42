"""pydantic's plugins are looked for by `tcpsim.scenario.plugins` without `importlib.metadata`
when no installed distribution declares one, and loaded by pydantic as usual when one does."""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest


def python(code: str, path: list[Path]) -> str:
    """Run `code` in a fresh interpreter with `path` ahead of the usual module path; its stdout."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*map(str, path), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(
    bool(importlib.metadata.entry_points(group="pydantic")), reason="this environment has pydantic plugins"
)
def test_without_plugins_the_scenario_models_load_without_importlib_metadata():
    code = (
        "import sys, tcpsim.scenario; "
        "print('importlib.metadata' in sys.modules, tcpsim.scenario.load_scenario('lossy_link').name)"
    )
    assert python(code, []) == "False lossy link"


def test_a_declared_plugin_is_loaded_and_sees_the_scenario_models(tmp_path):
    metadata = tmp_path / "recorder-1.0.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: recorder\nVersion: 1.0\n")
    (metadata / "entry_points.txt").write_text(
        "[console_scripts]\nrecord = recorder:main\n\n[pydantic]\nrecorder = recorder:plugin\n"
    )
    (tmp_path / "recorder.py").write_text(
        "SEEN = []\n"
        "class Plugin:\n"
        "    def new_schema_validator(self, schema, schema_type, path, kind, config, settings):\n"
        "        SEEN.append(path.name)\n"
        "        return None, None, None\n"
        "plugin = Plugin()\n"
    )
    code = "import recorder, tcpsim.scenario; print('Scenario' in recorder.SEEN, 'LinkSpec' in recorder.SEEN)"
    assert python(code, [tmp_path]) == "True True"
