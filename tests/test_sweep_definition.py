"""Sweep definitions: the TOML sweep file, and how command-line options combine with it."""

import pytest
from tcpsim.sweeps.definition import SweepDefinition, SweepDefinitionError, merged, read_sweep_file


def sweep_file(tmp_path, text: str):
    path = tmp_path / "sweep.toml"
    path.write_text(text)
    return path


def test_a_sweep_file_with_quoted_paths_and_dotted_keys(tmp_path):
    path = sweep_file(
        tmp_path,
        """
seeds = [3, 9]
[set]
duration = "60s"
tcp.mss = 1000
[grid]
"links[1].rate" = ["1Mbps", "2Mbps"]
tcp.variant = ["reno", "cubic"]
"links[1].queue" = [{ kind = "red", limit = "100pkt" }]
""",
    )
    definition = read_sweep_file(path)
    assert definition.seeds == [3, 9]
    assert definition.fixed == {"duration": "60s", "tcp.mss": 1000}
    assert definition.grid == {
        "links[1].rate": ["1Mbps", "2Mbps"],
        "tcp.variant": ["reno", "cubic"],
        "links[1].queue": [{"kind": "red", "limit": "100pkt"}],
    }
    assert len(definition.combinations()) == 4
    assert definition.combinations()[1] == {
        "links[1].rate": "1Mbps",
        "tcp.variant": "cubic",
        "links[1].queue": {"kind": "red", "limit": "100pkt"},
    }
    assert definition.overrides(definition.combinations()[0])[:2] == (("duration", "60s"), ("tcp.mss", 1000))


def test_a_seed_count_means_seeds_one_to_n(tmp_path):
    assert read_sweep_file(sweep_file(tmp_path, "seeds = 3")).seeds == [1, 2, 3]
    assert read_sweep_file(sweep_file(tmp_path, "")) == SweepDefinition()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sedes = 3", "unknown key 'sedes'; a sweep file has seeds, set, grid"),
        ('[grid]\n"tcp.mss" = 500', "grid.tcp.mss: 500 is not an array of values"),
        ('[grid]\n"tcp.mss" = []', "grid tcp.mss: no values"),
        ("seeds = 0", "seeds: 0 replications"),
        ("seeds = [1, 1]", "repeats a seed"),
        ("seeds = [-1]", "-1 is not a seed"),
        ("seeds = true", "True is not a count"),
        ("grid = 3", "grid must be a table"),
        ('[set]\nduration = "1s"\n[grid]\nduration = ["2s"]', "duration: both set and a grid axis"),
        ("seeds = ", "not a valid TOML sweep file"),
    ],
)
def test_sweep_file_mistakes_name_the_file_and_the_problem(tmp_path, text, message):
    path = sweep_file(tmp_path, text)
    with pytest.raises(SweepDefinitionError) as caught:
        read_sweep_file(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_command_line_values_take_precedence_path_by_path():
    base = SweepDefinition(grid={"a": [1, 2], "b": [3]}, seeds=[5, 6], fixed={"c": 1, "d": 2})
    combined = merged(base, grid={"b": [4, 5], "c": [7, 8]}, seeds=2, fixed={"a": 0})
    assert combined.grid == {"b": [4, 5], "c": [7, 8]}  # a moved to set, b replaced, c moved to grid
    assert combined.fixed == {"d": 2, "a": 0}
    assert combined.seeds == [1, 2]
    assert merged(base) == base and merged(None, seeds=[0]).seeds == [0]


def test_a_sweep_too_large_to_list_is_refused_from_its_shape(tmp_path):
    """`--seeds 10**12` once died of MemoryError building the seed list (issue 27): the size
    is checked from the axes' lengths, before any list is made."""
    with pytest.raises(SweepDefinitionError, match="1000000000000 replications, more than 1000000 runs"):
        merged(None, seeds=10**12)
    with pytest.raises(SweepDefinitionError, match=r"2000 \(duration\) × 1000 seeds = 2000000 runs"):
        merged(None, grid={"duration": [f"{i}s" for i in range(1, 2001)]}, seeds=1000)
    assert len(merged(None, grid={"duration": ["1s", "2s"]}, seeds=500_000).seeds) == 500_000


@pytest.mark.parametrize(
    "text, message",
    [
        ("seeds = " + "9" * 5000, "a number has thousands of digits"),
        ("[grid]\n'x' = " + "[" * 3000 + "]" * 3000, "arrays or tables nested too deeply"),
    ],
)
def test_sweep_files_the_toml_reader_cannot_hold_are_errors_not_tracebacks(tmp_path, text, message):
    path = tmp_path / "sweep.toml"
    path.write_text(text)
    with pytest.raises(SweepDefinitionError, match=f"{path}: not a valid TOML sweep file: {message}"):
        read_sweep_file(path)
