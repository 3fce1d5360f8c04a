"""Statistics for comparing repetitions of a test between two runs.

The change is the ratio of medians (it agrees with the medians shown beside it and resists an
outlier), with a percentile bootstrap interval on the log scale (bandwidth and time noise is
multiplicative). Significance is Mann-Whitney U on the repetitions; since repetitions inside a
run agree far better than runs do, a verdict also needs an effect beyond the spread between the
baseline runs' own medians."""
import math

import numpy as np
from scipy import stats as sps


def _logs(values):
    a = np.asarray(values, dtype=float)
    if a.size == 0 or np.any(~np.isfinite(a)) or np.any(a <= 0):
        raise ValueError("values must be positive and finite")
    return np.log(a)


def median_change(base, cand, higher_is_better=True):
    """Relative change of performance from the ratio of the medians (+0.10 = 10 % better): the
    figure agrees with the medians a table shows beside it, and one outlier cannot move it."""
    r = float(np.median(cand) / np.median(base))
    return math.expm1(math.log(r) if higher_is_better else -math.log(r))


def _log_median_ratio(x, y, axis=-1):
    return np.log(np.median(y, axis=axis)) - np.log(np.median(x, axis=axis))


def median_ratio_ci(x, y, level, resamples=2000, seed=1):
    """Percentile bootstrap interval (scipy.stats.bootstrap, fixed seed so that a comparison is
    reproducible) of the log ratio of medians log(median y / median x)."""
    if np.all(x == x[0]) and np.all(y == y[0]):
        d = float(np.log(y[0] / x[0]))
        return d, d
    res = sps.bootstrap((x, y), _log_median_ratio, vectorized=True, paired=False,
                        confidence_level=level, n_resamples=resamples, method="percentile",
                        random_state=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def mannwhitney_p(x, y):
    """Two-sided p-value of the Mann-Whitney U test of the pooled baseline repetitions against
    the candidate's (exact for small samples without ties); 1 when all values are equal."""
    if np.all(x == x[0]) and np.all(y == y[0]) and x[0] == y[0]:
        return 1.0
    return float(sps.mannwhitneyu(x, y, alternative="two-sided").pvalue)


def run_spread(base_runs):
    """How far the baseline runs themselves vary: the largest |log(run median / pooled median)|
    over the runs. A new run of an unchanged system lands about this far away, so a verdict
    needs a larger effect. With one run, the largest |log(repetition / median)| stands in."""
    if len(base_runs) < 2:
        r = np.asarray(base_runs[0], dtype=float) if base_runs else np.ones(1)
        return float(np.max(np.abs(np.log(r / np.median(r)))))
    pooled = np.log(np.median(np.concatenate(base_runs)))
    return float(max(abs(np.log(np.median(r)) - pooled) for r in base_runs))


def compare(base, cand, higher_is_better=True, level=0.95):
    """Compares one metric of a candidate run with baseline runs. `base` is a list of lists (the
    repetitions of each baseline run), `cand` the candidate's repetitions; all positive. Returns
    `change` (ratio of the medians of the candidate and the pooled baseline, as a change of
    performance: +0.10 = 10 % better), `ci` (its bootstrap interval at `level`), `p` (two-sided
    Mann-Whitney U, uncorrected) and `spread` (run_spread, as a fraction: exp(s) - 1). Needs 2
    repetitions on each side. A flat list of values is one baseline run."""
    if len(base) and np.ndim(base[0]) == 0:
        base = [base]
    runs = [np.asarray(r, dtype=float) for r in base]
    for r in runs + [np.asarray(cand, dtype=float)]:
        _logs(r)
    x = np.concatenate(runs) if runs else np.array([])
    y = np.asarray(cand, dtype=float)
    if x.size < 2 or y.size < 2:
        raise ValueError(f"too few repetitions (baseline {x.size}, candidate {y.size}; "
                         "need 2 each)")
    lo, hi = median_ratio_ci(x, y, level)
    if not higher_is_better:
        lo, hi = -hi, -lo
    return {"change": median_change(x, y, higher_is_better),
            "ci": [math.expm1(lo), math.expm1(hi)], "p": mannwhitney_p(x, y),
            "spread": math.expm1(run_spread(runs))}


def holm(pvalues):
    """Holm-Bonferroni adjusted p-values (controls the family-wise error rate)."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p)
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj.tolist()


def benjamini_hochberg(pvalues):
    """Benjamini-Hochberg adjusted p-values (controls the false discovery rate)."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p)[::-1]
    adj = np.empty(m)
    running = 1.0
    for k, i in enumerate(order):
        rank = m - k
        running = min(running, p[i] * m / rank)
        adj[i] = running
    return adj.tolist()


def adjust(pvalues, method):
    """Adjusted p-values by `method`: holm, bh or none."""
    if not pvalues:
        return []
    if method == "holm":
        return holm(pvalues)
    if method == "bh":
        return benjamini_hochberg(pvalues)
    return list(pvalues)


def verdict(change, ci, p_adjusted, threshold, alpha, spread=0.0, spread_factor=2.0):
    """regression / improvement when three things hold: the change is significant after
    correction (p_adjusted < alpha); its whole confidence interval lies beyond the minimum
    effect `threshold`; and the change itself lies beyond `spread_factor` times what the
    baseline runs vary by (`spread`, both fractions, compared as log ratios). Otherwise no
    significant change."""
    if p_adjusted >= alpha:
        return "no significant change"
    beyond = spread_factor * math.log1p(spread)
    if ci[1] < -threshold and -math.log1p(change) > beyond:
        return "regression"
    if ci[0] > threshold and math.log1p(change) > beyond:
        return "improvement"
    return "no significant change"


def geometric_mean(values, weights=None):
    """Weighted geometric mean of positive values (weights default to 1)."""
    v = _logs(values)
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=float)
    if w.sum() <= 0:
        raise ValueError("weights must sum to more than 0")
    return float(math.exp((w * v).sum() / w.sum()))
