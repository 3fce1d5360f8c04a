"""piotools.stats on synthetic data with known answers."""
import math

import numpy as np
import pytest
from scipy import stats as sps

from piotools import stats

BASE = [100.0, 110.0, 90.0, 105.0, 95.0]


def test_halved_bandwidth_is_minus_50_percent_from_the_medians_with_a_bootstrap_interval():
    r = stats.compare(BASE, [v / 2 for v in BASE])
    assert r["change"] == pytest.approx(-0.5)
    assert r["ci"][0] < -0.5 < r["ci"][1] < 0
    # The interval is scipy's percentile bootstrap of the log ratio of medians.
    boot = sps.bootstrap((np.array(BASE), np.array(BASE) / 2),
                         lambda x, y, axis: np.log(np.median(y, axis=axis) /
                                                   np.median(x, axis=axis)),
                         vectorized=True, paired=False, n_resamples=2000, method="percentile",
                         random_state=np.random.default_rng(1)).confidence_interval
    assert r["ci"] == pytest.approx([math.expm1(boot.low), math.expm1(boot.high)])
    assert r["p"] == pytest.approx(sps.mannwhitneyu(BASE, [v / 2 for v in BASE]).pvalue)
    assert r["spread"] == pytest.approx(100 / 90 - 1)  # one run: its repetitions' spread


def test_the_change_agrees_with_the_medians_not_with_an_outlier():
    base = [0.629, 0.62, 0.64, 0.63, 0.61]
    cand = [0.641, 0.64, 0.65, 0.63, 5.0]  # one outlier would move a geometric mean by +60 %
    r = stats.compare(base, cand, higher_is_better=False)
    assert r["change"] == pytest.approx(0.629 / 0.641 - 1)


def test_time_metrics_count_a_longer_time_as_worse():
    r = stats.compare([10.0, 11.0, 9.0], [20.0, 22.0, 18.0], higher_is_better=False)
    assert r["change"] == pytest.approx(-0.5)
    assert r["ci"][0] < r["ci"][1] < 0


def test_identical_samples_have_no_change():
    r = stats.compare(BASE, BASE)
    assert r["change"] == pytest.approx(0.0)
    assert r["ci"][0] < 0 < r["ci"][1]
    assert r["p"] > 0.5
    assert stats.compare([5.0, 5.0], [5.0, 5.0])["p"] == 1.0
    assert stats.compare([5.0, 5.0], [4.0, 4.0])["ci"] == pytest.approx([-0.2, -0.2])


def test_run_spread_is_the_largest_distance_of_a_run_median_from_the_pooled_median():
    runs = [[100.0, 100.0, 100.0], [120.0, 120.0, 120.0], [80.0, 80.0, 80.0]]
    r = stats.compare(runs, [50.0, 50.0, 50.0])
    assert r["spread"] == pytest.approx(0.25)  # 100 -> 80 (or 125): log 1.25
    assert stats.run_spread([np.array([1.0, 2.0, 4.0])]) == pytest.approx(math.log(2))


def test_too_few_or_bad_values_are_refused():
    with pytest.raises(ValueError):
        stats.compare([1.0], [1.0, 2.0])
    with pytest.raises(ValueError):
        stats.compare([0.0, 1.0], [1.0, 2.0])


def test_holm_and_benjamini_hochberg_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    assert stats.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert stats.adjust(p, "none") == p
    assert stats.adjust([], "holm") == []


def test_verdict_needs_significance_the_interval_beyond_the_threshold_and_the_spread():
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.01, 0.05, 0.05) == "regression"
    assert stats.verdict(0.3, [0.2, 0.4], 0.01, 0.05, 0.05) == "improvement"
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.2, 0.05, 0.05) == "no significant change"
    assert stats.verdict(-0.1, [-0.2, -0.03], 0.001, 0.05, 0.05) == "no significant change"
    # -30 % is log 0.357; baseline runs within 15 % (log 0.140) times 2 = 0.280: flagged.
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.01, 0.05, 0.05, 0.15) == "regression"
    # Runs within 20 % (log 0.182) times 2 = 0.365 > 0.357: inside the runs' own noise.
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.01, 0.05, 0.05, 0.20) == "no significant change"
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.01, 0.05, 0.05, 0.20, 1.0) == "regression"
    assert stats.verdict(0.5, [0.4, 0.6], 0.01, 0.05, 0.05, 0.25) == "no significant change"


def test_weighted_geometric_mean_by_hand():
    assert stats.geometric_mean([100.0, 400.0]) == pytest.approx(200.0)
    # (2 * 1 + 1 * 3) / 3 decades
    assert stats.geometric_mean([10.0, 1000.0], [2, 1]) == pytest.approx(10 ** (5 / 3))
