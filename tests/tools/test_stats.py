"""piotools.stats on synthetic data with known answers."""
import math

import numpy as np
import pytest
from scipy import stats as sps

from piotools import stats

BASE = [100.0, 110.0, 90.0, 105.0, 95.0]


def test_halved_bandwidth_is_minus_50_percent_with_the_welch_interval():
    r = stats.compare(BASE, [v / 2 for v in BASE])
    assert r["change"] == pytest.approx(-0.5)
    x = np.log(BASE)
    se = math.sqrt(2 * x.var(ddof=1) / 5)  # equal variances: df = 8
    h = sps.t.ppf(0.975, 8) * se
    assert r["ci"] == pytest.approx([math.expm1(-math.log(2) - h), math.expm1(-math.log(2) + h)])
    assert r["p"] == pytest.approx(sps.ttest_ind(x, x - math.log(2), equal_var=False).pvalue)


def test_time_metrics_count_a_longer_time_as_worse():
    r = stats.compare([10.0, 11.0, 9.0], [20.0, 22.0, 18.0], higher_is_better=False)
    assert r["change"] == pytest.approx(-0.5)
    assert r["ci"][0] < r["ci"][1] < 0


def test_identical_samples_have_no_change_and_p_1():
    r = stats.compare(BASE, BASE)
    assert r["change"] == pytest.approx(0.0)
    assert r["p"] == pytest.approx(1.0)
    assert stats.compare([5.0, 5.0], [5.0, 5.0])["p"] == 1.0
    assert stats.compare([5.0, 5.0], [4.0, 4.0])["p"] == 0.0


def test_mann_whitney_and_bootstrap_agree_on_a_clear_shift():
    r = stats.compare(BASE, [v * 2 for v in BASE], test="mannwhitney", ci="bootstrap")
    assert r["change"] == pytest.approx(1.0)
    assert r["p"] == pytest.approx(sps.mannwhitneyu(BASE, [v * 2 for v in BASE]).pvalue)
    assert 0 < r["ci"][0] <= 1.0 <= r["ci"][1]


def test_run_level_noise_is_a_prediction_interval_over_run_means():
    runs = [[100.0, 100.0], [120.0, 120.0], [80.0, 80.0]]
    r = stats.compare(runs, [50.0, 50.0], noise="runs")
    means = np.log([100.0, 120.0, 80.0])
    d = math.log(50) - np.log([100, 100, 120, 120, 80, 80]).mean()
    se = means.std(ddof=1) * math.sqrt(1 + 1 / 3)
    assert r["change"] == pytest.approx(math.expm1(d))
    assert r["p"] == pytest.approx(2 * sps.t.sf(abs(d) / se, 2))
    with pytest.raises(ValueError):
        stats.compare([[1.0, 2.0]], [1.0, 2.0], noise="runs")


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


def test_verdict_needs_significance_and_the_whole_interval_beyond_the_threshold():
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.01, 0.05, 0.05) == "regression"
    assert stats.verdict(0.3, [0.2, 0.4], 0.01, 0.05, 0.05) == "improvement"
    assert stats.verdict(-0.3, [-0.4, -0.2], 0.2, 0.05, 0.05) == "no significant change"
    assert stats.verdict(-0.1, [-0.2, -0.03], 0.001, 0.05, 0.05) == "no significant change"


def test_weighted_geometric_mean_by_hand():
    assert stats.geometric_mean([100.0, 400.0]) == pytest.approx(200.0)
    # (2 * 1 + 1 * 3) / 3 decades
    assert stats.geometric_mean([10.0, 1000.0], [2, 1]) == pytest.approx(10 ** (5 / 3))
