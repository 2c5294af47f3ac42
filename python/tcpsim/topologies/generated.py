"""What the topology generators return: a plain scenario dict that can also save itself."""

from pathlib import Path


class GeneratedScenario(dict):
    """A user-format scenario dict (edit it, run it, sweep it like any dict) that can also be
    written as a TOML file for `tcpsim run`, `validate` or `sweep`."""

    def to_toml(self) -> str:
        """This scenario as TOML text; `load_scenario` reads it back to the same scenario."""
        from tcpsim.scenario.toml_text import scenario_toml

        return scenario_toml(self)

    def save(self, path: str | Path) -> Path:
        """Write :meth:`to_toml` to `path` and return it."""
        from tcpsim.outpaths import write_text

        target = Path(path)
        write_text(target, self.to_toml())
        return target
