"""piotools.stats on synthetic data with known answers."""
import math

import numpy as np
import pytest
from scipy import stats as sps

from piotools import stats

BASE = [100.0, 110.0, 90.0, 105.0, 95.0]


def test_one_baseline_run_is_a_t_test_of_the_medians_on_the_repetitions_noise():
    cand = [v / 2 for v in BASE]
    r = stats.compare(BASE, cand)
    assert r["change"] == pytest.approx(-0.5)
    assert r["basis"] == "repetitions" and r["df"] == 8
    # SE of each log median: sqrt(pi/2) * pooled SD of the log repetitions / sqrt(5).
    logs = np.log(BASE)
    sw2 = np.var(logs, ddof=1)  # both runs have the same spread on the log scale
    se = math.sqrt(math.pi / 2 * sw2 * (1 / 5 + 1 / 5))
    assert r["se"] == pytest.approx(se)
    assert r["p"] == pytest.approx(2 * sps.t.sf(math.log(2) / se, 8))
    half = sps.t.ppf(0.975, 8) * se
    assert r["ci"] == pytest.approx([math.expm1(-math.log(2) - half),
                                     math.expm1(-math.log(2) + half)])


def test_three_against_three_repetitions_can_reach_alpha_where_mann_whitney_cannot():
    base, cand = [100.0, 101.0, 99.0], [50.0, 50.5, 49.5]
    assert sps.mannwhitneyu(base, cand).pvalue == pytest.approx(0.1)  # its smallest p at 3 vs 3
    r = stats.compare(base, cand)
    assert r["p"] < 1e-5
    # Holm over 9 tests at 5 against 5: Mann-Whitney's smallest p is 2/252 * 9 = 0.071.
    assert min(stats.holm([sps.mannwhitneyu(BASE, [v / 9 for v in BASE]).pvalue] * 9)) > 0.05
    assert stats.holm([stats.compare(BASE, [v / 2 for v in BASE])["p"]] * 9)[0] < 0.05


def test_several_baseline_runs_test_the_candidate_as_a_new_run():
    runs = [[100.0, 101.0, 99.0], [120.0, 121.0, 119.0], [80.0, 81.0, 79.0]]
    r = stats.compare(runs, [50.0, 50.5, 49.5])
    meds = np.log([100.0, 120.0, 80.0])
    s = np.std(meds, ddof=1)
    assert r["basis"] == "runs" and r["df"] == 2
    assert r["se"] == pytest.approx(s * math.sqrt(1 + 1 / 3))
    d = math.log(50.0) - meds.mean()
    assert r["change"] == pytest.approx(math.expm1(d))
    assert r["p"] == pytest.approx(2 * sps.t.sf(abs(d) / r["se"], 2))
    assert r["spread"] == pytest.approx(math.expm1(s))


def test_runs_that_agree_by_chance_do_not_make_the_noise_vanish():
    # Two runs with the same median but a wide spread of repetitions: the noise is the
    # repetitions' (a median of 3 varies by sqrt(pi/2) * s_w / sqrt(3)), with their 6 df.
    runs = [[50.0, 100.0, 200.0], [60.0, 100.0, 170.0]]
    r = stats.compare(runs, [40.0, 90.0, 150.0])
    assert r["se"] > 0.3 and r["df"] == 6


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
    assert r["p"] == pytest.approx(1.0)
    assert stats.compare([5.0, 5.0], [5.0, 5.0])["p"] == 1.0
    assert stats.compare([5.0, 5.0], [4.0, 4.0])["ci"] == pytest.approx([-0.2, -0.2])
    assert stats.compare([5.0, 5.0], [4.0, 4.0])["p"] == 0.0


def test_too_few_or_bad_values_are_refused():
    with pytest.raises(ValueError, match="need 2 on each side, or 2 baseline runs"):
        stats.compare([1.0], [2.0])
    with pytest.raises(ValueError):
        stats.compare([0.0, 1.0], [1.0, 2.0])
    # One repetition per run is enough with several baseline runs: the runs are the samples.
    r = stats.compare([[100.0], [110.0], [90.0]], [50.0])
    assert r["basis"] == "runs" and r["df"] == 2


def test_detectable_is_the_slowdown_that_reaches_alpha():
    se, df = 0.1, 4
    d = stats.detectable(se, df, 0.05)
    assert d == pytest.approx(-math.expm1(-sps.t.ppf(0.975, 4) * 0.1))
    # A slowdown exactly that large has p = alpha.
    assert 2 * sps.t.sf(-math.log1p(-d) / se, df) == pytest.approx(0.05)
    assert stats.detectable(0.1, 0, 0.05) == 1.0
    assert stats.per_test_alpha(0.05, 9, "holm") == pytest.approx(0.05 / 9)
    assert stats.per_test_alpha(0.05, 9, "none") == 0.05


def test_needed_counts_repetitions_or_runs_that_show_the_threshold():
    r = stats.compare([100.0, 104.0, 96.0], [100.0, 104.0, 96.0])
    what, n = stats.needed(r["noise"], 0.05, 0.05)
    assert what == "repetitions"
    # n on each side: the first n at which the t test's detectable slowdown is within 5 %.
    sw2 = r["noise"].var_rep

    def shows(m):
        return stats.detectable(math.sqrt(math.pi / 2 * sw2 * 2 / m), 2 * m - 2, 0.05) <= 0.05
    assert shows(n) and not shows(n - 1)
    runs = [[100.0, 101.0], [110.0, 111.0], [92.0, 93.0]]
    noise = stats.compare(runs, [100.0, 101.0])["noise"]
    what, k = stats.needed(noise, 0.3, 0.05)
    assert what == "runs" and k > 3
    assert stats.critical_t(0.05, k - 1) * noise.se(k=k) <= -math.log(0.7)
    assert stats.critical_t(0.05, k - 2) * noise.se(k=k - 1) > -math.log(0.7)
    # Runs that vary by +-10 % among themselves never show a 1 % change.
    assert stats.needed(noise, 0.01, 0.05) == (None, None)


def test_holm_and_benjamini_hochberg_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    assert stats.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert stats.adjust(p, "none") == p
    assert stats.adjust([], "holm") == []


def test_verdict_says_inconclusive_when_the_test_could_not_show_the_threshold():
    assert stats.verdict(-0.3, 0.01, 0.05, 0.05, 0.2) == "regression"
    assert stats.verdict(0.3, 0.01, 0.05, 0.05, 0.2) == "improvement"
    # Significant but within the threshold: no change that counts.
    assert stats.verdict(-0.03, 0.001, 0.05, 0.05, 0.02) == "no significant change"
    # Not significant: "no significant change" only when a change of the threshold would have
    # been shown, else the data cannot support a verdict.
    assert stats.verdict(-0.3, 0.2, 0.05, 0.05, 0.04) == "no significant change"
    assert stats.verdict(-0.3, 0.2, 0.05, 0.05, 0.5) == "inconclusive"
    assert stats.verdict(-0.01, 1.0, 0.05, 0.05, 0.06) == "inconclusive"


def test_weighted_geometric_mean_by_hand():
    assert stats.geometric_mean([100.0, 400.0]) == pytest.approx(200.0)
    # (2 * 1 + 1 * 3) / 3 decades
    assert stats.geometric_mean([10.0, 1000.0], [2, 1]) == pytest.approx(10 ** (5 / 3))
