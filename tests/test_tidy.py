"""The one tidy-table builder that sweeps and reproductions share (`tcpsim.tidy.tidy`)."""

import pandas as pd
import pytest
from tcpsim.tidy import tidy


def test_each_run_s_rows_are_led_by_its_labels_and_followed_by_its_trailing_row():
    labels = pd.DataFrame({"rate": ["1Mbps", "2Mbps", "3Mbps"], "seed": [1, 1, 2]})
    tables = [
        pd.DataFrame({"flow": ["a", "b"], "goodput": [1.0, 2.0]}),
        pd.DataFrame({"flow": [], "goodput": []}),  # a run with no rows contributes none
        pd.DataFrame({"flow": ["a"], "goodput": [3.0]}),
    ]
    trailing = pd.DataFrame({"point": [0, 1, 2]})
    table = tidy(labels, tables, trailing=trailing)
    assert list(table.columns) == ["rate", "seed", "flow", "goodput", "point"]
    assert table["rate"].tolist() == ["1Mbps", "1Mbps", "3Mbps"]
    assert table["seed"].tolist() == [1, 1, 2] and table["point"].tolist() == [0, 0, 2]
    assert table["flow"].tolist() == ["a", "b", "a"] and table["goodput"].tolist() == [1.0, 2.0, 3.0]


def test_a_mapping_is_a_run_s_one_row_and_keeps_record_types():
    labels = pd.DataFrame({"buffer": [5, 20]})
    table = tidy(labels, [{"loss": 0.5}, {"loss": None}])
    assert list(table.columns) == ["buffer", "loss"]
    # as pd.DataFrame(records) types it: a missing metric is NaN in a float column, not an object
    assert table["loss"].dtype == float and pd.isna(table["loss"].iloc[1])


def test_no_runs_still_gives_every_column():
    table = tidy(pd.DataFrame(columns=["rate", "seed"]), [], columns=["flow"], trailing=pd.DataFrame({"point": []}))
    assert list(table.columns) == ["rate", "seed", "flow", "point"] and table.empty


def test_labels_must_match_the_tables_one_to_one():
    with pytest.raises(ValueError, match="2 tables need as many label rows"):
        tidy(pd.DataFrame({"seed": [1]}), [pd.DataFrame(), pd.DataFrame()])
