"""Every canonical scenario the Python layer emits validates against the schema config/
derives (crates/tcpsim-core/engine-schema.json), so the two layers cannot drift apart."""

import copy
from pathlib import Path

import pytest
from engine_schema import engine_schema_errors
from tcpsim.scenario import VARIANTS, load_scenario
from tcpsim.topologies import dumbbell

SCENARIO_FILES = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml"))


def test_there_are_scenario_files_to_check():
    assert len(SCENARIO_FILES) >= 3


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_every_scenario_file_with_every_variant_validates(path, variant):
    config = load_scenario(path, [f"flows[*].variant={variant}"]).to_engine()
    assert engine_schema_errors(config) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_generated_dumbbell_validates(variant):
    config = load_scenario(dumbbell(forward=3, reverse=2, variant=variant, duration="5s")).to_engine()
    assert engine_schema_errors(config) == []


def test_the_schema_rejects_what_the_engine_rejects():
    good = load_scenario(SCENARIO_FILES[0]).to_engine()
    unknown_key = copy.deepcopy(good)
    unknown_key["links"][0]["ab"]["queue"]["burst"] = 3
    assert any("burst" in e for e in engine_schema_errors(unknown_key))
    missing_key = copy.deepcopy(good)
    del missing_key["flows"][0]["tcp"]["mss_bytes"]
    assert any("mss_bytes" in e for e in engine_schema_errors(missing_key))
    unknown_kind = copy.deepcopy(good)
    unknown_kind["flows"][0]["tcp"]["cc"] = {"kind": "vegas"}
    assert engine_schema_errors(unknown_kind)
    negative = copy.deepcopy(good)
    negative["duration_ns"] = -1
    assert any("duration_ns" in e for e in engine_schema_errors(negative))
