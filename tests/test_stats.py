import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from tcpsim.stats import contrast_ci, jain_index, mean_ci, means_differ, summarize


def test_mean_ci_uses_student_t():
    mean, low, high = mean_ci([1, 2, 3, 4, 5])
    half = 2.7764451051977987 * np.std([1, 2, 3, 4, 5], ddof=1) / math.sqrt(5)  # t(0.975, 4)
    assert mean == pytest.approx(3.0)
    assert low == pytest.approx(3.0 - half)
    assert high == pytest.approx(3.0 + half)


def test_mean_ci_is_wider_at_higher_confidence():
    _, low95, high95 = mean_ci([1.0, 2.0, 4.0])
    _, low99, high99 = mean_ci([1.0, 2.0, 4.0], confidence=0.99)
    assert low99 < low95 < high95 < high99


def test_mean_ci_of_one_value_has_zero_width():
    assert mean_ci([7.5]) == (7.5, 7.5, 7.5)


def test_mean_ci_ignores_nan_and_accepts_series():
    assert mean_ci(pd.Series([2.0, float("nan"), 4.0]))[0] == pytest.approx(3.0)
    assert mean_ci([float("nan"), 5.0]) == (5.0, 5.0, 5.0)


def test_mean_ci_of_nothing_is_nan():
    assert all(math.isnan(v) for v in mean_ci([]))
    assert all(math.isnan(v) for v in mean_ci([float("nan")]))


def test_mean_ci_rejects_bad_confidence():
    with pytest.raises(ValueError):
        mean_ci([1, 2], confidence=95)


def test_jain_index_bounds():
    assert jain_index([3, 3, 3, 3]) == pytest.approx(1.0)
    assert jain_index([5, 0, 0, 0]) == pytest.approx(0.25)
    assert jain_index([1, 2]) == pytest.approx(9 / 10)


def test_jain_index_ignores_nan_and_is_nan_when_undefined():
    assert jain_index([1.0, float("nan"), 1.0]) == pytest.approx(1.0)
    assert math.isnan(jain_index([]))
    assert math.isnan(jain_index([0, 0]))


def test_jain_index_rejects_negative_shares():
    with pytest.raises(ValueError):
        jain_index([1, -1])


def test_summarize_one_row_per_group_sorted():
    df = pd.DataFrame(
        {
            "buffer": [20, 10, 10, 20, 20],
            "variant": ["reno", "reno", "reno", "reno", "vegas"],
            "goodput": [4.0, 1.0, 3.0, float("nan"), 9.0],
        }
    )
    out = summarize(df, ["buffer", "variant"], "goodput")
    assert list(out.columns) == ["buffer", "variant", "mean", "ci_low", "ci_high", "n"]
    assert out[["buffer", "variant"]].values.tolist() == [[10, "reno"], [20, "reno"], [20, "vegas"]]
    assert out["mean"].tolist() == pytest.approx([2.0, 4.0, 9.0])
    assert out["n"].tolist() == [2, 1, 1]
    first = mean_ci([1.0, 3.0])
    assert (out.loc[0, "ci_low"], out.loc[0, "ci_high"]) == pytest.approx(first[1:])


def test_summarize_accepts_a_single_column_name():
    df = pd.DataFrame({"x": [1, 1, 2], "y": [1.0, 3.0, 5.0]})
    out = summarize(df, "x", "y")
    assert out["x"].tolist() == [1, 2]
    assert out["mean"].tolist() == pytest.approx([2.0, 5.0])


def test_means_differ_is_welch_t_test():
    # Hand-worked: means 10 and 13, variances 1 and 4 with 5 values each: se² = 0.2 + 0.8 = 1,
    # t = 3, df = 1 / (0.04/4 + 0.64/4) = 5.88; t_0.975(5.88) ≈ 2.45 < 3 < t_0.995(5.88) ≈ 3.72.
    a = [10 + d for d in (-1.0, -0.5, 0.0, 0.5, 1.0)]
    a = [10 + (v - 10) * (1 / np.std(a, ddof=1)) for v in a]  # variance 1
    b = [13 + (v - 10) * 2 for v in a]  # variance 4
    assert means_differ(a, b, 0.95)
    assert not means_differ(a, b, 0.99)
    assert not means_differ(a, a)


def test_means_differ_without_spread_compares_means_exactly():
    assert means_differ([1.0], [1.5]) and not means_differ([2.0], [2.0, 2.0])
    assert means_differ([1.0, 1.0], [2.0, 2.0, float("nan")])
    with pytest.raises(ValueError):
        means_differ([], [1.0])


def test_contrast_ci_of_two_groups_is_the_welch_interval():
    a, b = [1.0, 2.0, 3.0, 4.0], [0.0, 0.5, 1.5, 1.0, 2.0]
    estimate, low, high = contrast_ci([a, b], [1, -1])
    assert estimate == pytest.approx(2.5 - 1.0)
    va, vb = np.var(a, ddof=1) / 4, np.var(b, ddof=1) / 5
    df = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 4)
    half = scipy.stats.t.ppf(0.975, df) * np.sqrt(va + vb)
    assert (low, high) == pytest.approx((1.5 - half, 1.5 + half))


def test_contrast_ci_of_a_difference_of_improvements():
    # (after − before) of one variant minus that of the other: +0.2 − (+0.05)
    estimate, low, high = contrast_ci(
        [[0.50, 0.51, 0.49], [0.30, 0.31, 0.29], [0.20, 0.21, 0.19], [0.15, 0.16, 0.14]], [1, -1, -1, 1]
    )
    assert estimate == pytest.approx(0.15) and low > 0.1 and high < 0.2
    with pytest.raises(ValueError):
        contrast_ci([[1.0], [2.0, 3.0]], [1, -1])


def test_summarize_keeps_first_appearance_order_and_clips_to_bounds():
    df = pd.DataFrame({"rate": ["5Mbps", "5Mbps", "10Mbps", "10Mbps"], "goodput": [0.1, 2.0, 9.0, 9.5]})
    sorted_rows = summarize(df, "rate", "goodput")
    assert sorted_rows["rate"].tolist() == ["10Mbps", "5Mbps"]  # as text, pandas' default
    as_given = summarize(df, "rate", "goodput", sort=False, bounds=(0, None))
    assert as_given["rate"].tolist() == ["5Mbps", "10Mbps"]
    unclipped = summarize(df, "rate", "goodput", sort=False)
    assert unclipped["ci_low"][0] < 0  # two spread-out seeds: the t interval reaches below zero
    assert as_given["ci_low"][0] == 0.0 and as_given["ci_high"][0] == unclipped["ci_high"][0]
    capped = summarize(df, "rate", "goodput", sort=False, bounds=(None, 9.2))
    assert capped["ci_high"].max() == 9.2 and capped["ci_low"][1] <= 9.2
