"""Hostile and careless scenario input (issue 13, items 7 and 10): unreadable files, absurd
nesting, API misuse and one coercion policy for every field, each a clear error, never a
traceback."""

import numpy as np
import pytest
import tcpsim
from tcpsim.cli import app
from tcpsim.scenario import MAX_DEPTH, ScenarioError, load_scenario
from typer.testing import CliRunner

cli = CliRunner()

TOML = """\
duration = "10s"
[[links]]
a = "s"
b = "d"
rate = "10Mbps"
delay = "5ms"
queue = "100pkt"
[[flows]]
src = "s"
dst = "d"
"""

GILBERT = {"kind": "gilbert_elliott", "good_mean": "1s", "bad_mean": "1s", "bad_loss": 0.1}


def raw() -> dict:
    return {
        "duration": "10s",
        "links": [{"a": "s", "b": "d", "rate": "10Mbps", "delay": "5ms", "queue": "100pkt"}],
        "flows": [{"src": "s", "dst": "d"}],
    }


def errors(overrides: dict) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(raw(), overrides)
    return caught.value.errors


def validate(path) -> tuple[int, str]:
    result = cli.invoke(app, ["validate", str(path)])
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr


# --- files ---------------------------------------------------------------------------------


def test_a_non_utf8_file_names_the_file_and_the_byte(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(TOML.encode() + "# caf\xe9\n".encode("latin-1"))
    offset = len(TOML.encode()) + len("# caf")
    assert validate(path) == (2, f"error: {path}: not UTF-8 text: byte {offset} is 0xe9; save the file as UTF-8\n")


def test_a_file_nested_100000_deep_is_an_error_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text(TOML + "x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    code, err = validate(path)
    assert code == 2 and err.startswith(f"error: {path}: not valid TOML: arrays or tables nested too deeply")


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + TOML.encode())
    result = cli.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == "ok: 2 nodes, 1 links, 1 flows\n"


def test_a_deep_set_value_is_text_not_a_traceback(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(TOML)
    result = cli.invoke(app, ["validate", str(path), "--set", "tcp.mss=" + "[" * 100_000 + "]" * 100_000])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith("error: tcp.mss: '[[[[") and "is not a size" in result.stderr


# --- the Python API ------------------------------------------------------------------------


@pytest.mark.parametrize(("source", "kind"), [([], "list"), (None, "NoneType"), (3, "int")])
def test_run_with_a_non_scenario_names_what_is_allowed(source, kind):
    with pytest.raises(TypeError, match=f"a TOML file path .*, a dict or a loaded Scenario, not {kind}"):
        tcpsim.run(source)


def test_a_deeply_nested_dict_is_a_scenario_error():
    deep = current = {}
    for _ in range(100_000):
        current["a"] = current = {}
    with pytest.raises(ScenarioError, match=f"nested more than {MAX_DEPTH} levels deep"):
        tcpsim.run(deep)
    lists: list = []
    current_list = lists
    for _ in range(100_000):
        current_list.append([])
        current_list = current_list[0]
    with pytest.raises(ScenarioError) as caught:
        load_scenario(raw(), {"links": lists})
    assert caught.value.errors[0][0].startswith("links[0][0]")


# --- one coercion policy -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "path", "message"),
    [
        ({"trace.cwnd": "yes"}, "trace.cwnd", "'yes' is not a boolean; use true or false"),
        (
            {"links[0].loss": [GILBERT | {"correlated": "yes"}]},
            "links[0].loss[0].correlated",
            "'yes' is not a boolean; use true or false",
        ),
        ({"tcp.avoid_repeated_fast_retransmit": 1}, "tcp.avoid_repeated_fast_retransmit", "1 is not a boolean"),
        (
            {"tcp.cc": {"kind": "westwood", "null_sample_divisor": "2"}},
            "tcp.cc.null_sample_divisor",
            "'2' is not a divisor; use a whole number >= 0, e.g. 2",
        ),
        (
            {"tcp.cc": {"kind": "westwood", "null_sample_divisor": 2.0}},
            "tcp.cc.null_sample_divisor",
            "2.0 is not a divisor",
        ),
        ({"flows[0].count": 2.0}, "flows[0].count", "2.0 is not a count"),
        ({"flows[0].count": "2"}, "flows[0].count", "'2' is not a count"),
        ({"tcp.init_cwnd": True}, "tcp.init_cwnd", "True is not a count"),
        ({"tcp.mss": 1460.0}, "tcp.mss", "1460.0 is not a size"),
        ({"links[0].loss": [{"kind": "bernoulli", "p": "0.01"}]}, "links[0].loss[0].p", "'0.01' is not a probability"),
        ({"name": 5}, "name", "5 is invalid; input should be a valid string"),
        (
            {"duration": "１０s"},
            "duration",
            "'１０s' is not a duration; use a non-negative number with ns, us, ms, s or min",
        ),
        ({"links[0].rate": "１Mbps"}, "links[0].rate", "'１Mbps' is not a rate"),
        (
            {"duration": float("nan")},
            "duration",
            "nan is not a duration; use a non-negative number with ns, us, ms, s or min, e.g. '45ms'",
        ),
        ({"duration": float("inf")}, "duration", "inf is not a duration"),
    ],
)
def test_strict_types(overrides, path, message):
    ((where, text),) = errors(overrides)
    assert where == path and text.startswith(message)
    assert "'nans'" not in text


def test_full_width_digits_in_an_override_path_are_not_an_index():
    ((_, text),) = errors({"links[１].rate": "1Mbps"})
    assert text.startswith("no entry named '１'")


def test_numpy_scalars_count_as_their_python_equivalents():
    plain = load_scenario(
        raw(),
        {
            "flows[0].count": 2,
            "tcp.mss": 1000,
            "trace.cwnd": True,
            "links[0].loss": [{"kind": "bernoulli", "p": 0.01}],
            "tcp.cc": {"kind": "westwood", "null_sample_divisor": 3, "filter": {"kind": "ewma", "alpha": 0.5}},
            "duration": "10s",
        },
    )
    numpy = load_scenario(
        raw(),
        {
            "flows[0].count": np.int64(2),
            "tcp.mss": np.uint32(1000),
            "trace.cwnd": np.bool_(True),
            "links[0].loss": [{"kind": "bernoulli", "p": np.float64(0.01)}],
            "tcp.cc": {
                "kind": "westwood",
                "null_sample_divisor": np.int8(3),
                "filter": {"kind": "ewma", "alpha": np.float64(0.5)},
            },
            "duration": np.str_("10s"),
        },
    )
    assert numpy.to_engine_json() == plain.to_engine_json()


def test_a_numpy_float_is_not_an_integer():
    ((where, text),) = errors({"flows[0].count": np.float64(2.0)})
    assert where == "flows[0].count" and text.startswith("2.0 is not a count")


def test_an_integer_of_thousands_of_digits_is_an_error_line_everywhere(tmp_path):
    """tomllib raises a bare ValueError past 4300 digits (issue 27: a traceback): a scenario
    file, a --set value and --seed/--seeds each give one `error:` line and exit 2."""
    from tcpsim.cli import app
    from typer.testing import CliRunner

    big = "9" * 5000
    path = tmp_path / "big.toml"
    path.write_text(f'duration = "1s"\nseed_note = {big}\n')
    cli = CliRunner()
    for args, fragment in [
        (["validate", str(path)], "a number has thousands of digits"),
        (["validate", "scenarios/lossy_link.toml", "--set", f"tcp.mss={big}"], "tcp.mss:"),
        (["run", "scenarios/lossy_link.toml", "--seed", big], "--seed:"),
        (["sweep", "scenarios/lossy_link.toml", "--seeds", big], "--seeds:"),
    ]:
        result = cli.invoke(app, args)
        assert result.exit_code == 2, (args[0], result.output[:300])
        assert result.stderr.startswith("error: ") and fragment in result.stderr, result.stderr[:300]
        assert "Traceback" not in result.output


@pytest.mark.parametrize("kind", ["generator", "ndarray"])
def test_a_generator_or_an_array_where_a_list_belongs_is_refused(kind):
    """Both were accepted (issue 27): a generator is used up by the first run that reads it, so
    a sweep's later points would have silently run without those flows."""
    import tomllib

    with open("scenarios/lossy_link.toml", "rb") as file:
        scenario = tomllib.load(file)
    flows = scenario["flows"]
    scenario["flows"] = (flow for flow in flows) if kind == "generator" else np.array(flows, dtype=object)
    with pytest.raises(ScenarioError, match=f"flows: a {kind} is not a list; give a list"):
        load_scenario(scenario)
    scenario["flows"] = tuple(flows)  # a tuple is a list
    assert load_scenario(scenario).flows[0].name == "bulk"


def test_an_integer_too_long_to_print_is_refused_with_its_place():
    """Found by the scenario fuzz target: a dict (not TOML) with a 5000-digit integer got the
    field's own error, which Python could not print ("Exceeds the limit (4300 digits) for integer
    string conversion"), as the message."""
    scenario = {
        "duration": "1s",
        "links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"}],
        "flows": [{"src": "x", "dst": "y"}],
    }
    scenario["links"][0]["rate"] = 10**5000
    with pytest.raises(ScenarioError, match=r"links\[0\]\.rate: an integer of about 5001 digits is beyond"):
        load_scenario(scenario)
    scenario["links"][0]["rate"] = [2**2000]
    with pytest.raises(ScenarioError, match=r"links\[0\]\.rate\[0\]: an integer of about 603 digits"):
        load_scenario(scenario)
    scenario["links"][0]["rate"] = 2**1000  # about 302 digits: the field says what it allows
    with pytest.raises(ScenarioError, match=r"links\[0\]\.rate: "):
        load_scenario(scenario)
