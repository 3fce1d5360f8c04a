"""Statistics for comparing repetitions of a test between two runs.

Effects are measured on the log scale: bandwidths and times are ratios by nature and their
noise is multiplicative, so the change is the ratio of geometric means and its confidence
interval comes from the difference of mean logs (Welch's t interval, or a percentile bootstrap)."""
import math

import numpy as np
from scipy import stats as sps


def _logs(values):
    a = np.asarray(values, dtype=float)
    if a.size == 0 or np.any(~np.isfinite(a)) or np.any(a <= 0):
        raise ValueError("values must be positive and finite")
    return np.log(a)


def _welch(x, y):
    """(difference of means y - x, its standard error, Welch-Satterthwaite degrees of freedom)."""
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    se = math.sqrt(vx + vy)
    d = y.mean() - x.mean()
    if se == 0:
        return d, 0.0, float(x.size + y.size - 2)
    df = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    return d, se, df


def welch_p(x, y):
    """Two-sided p-value of Welch's t-test on two log samples (0 or 1 when both are constant)."""
    d, se, df = _welch(x, y)
    if se == 0:
        return 1.0 if d == 0 else 0.0
    return float(2 * sps.t.sf(abs(d) / se, df))


def mannwhitney_p(x, y):
    """Two-sided p-value of the Mann-Whitney U test (exact for small samples without ties)."""
    if np.all(x == x[0]) and np.all(y == y[0]) and x[0] == y[0]:
        return 1.0
    return float(sps.mannwhitneyu(x, y, alternative="two-sided").pvalue)


def welch_ci(x, y, level):
    """Confidence interval of the difference of mean logs y - x (Welch's t interval)."""
    d, se, df = _welch(x, y)
    if se == 0:
        return d, d
    h = sps.t.ppf(0.5 + level / 2, df) * se
    return d - h, d + h


def bootstrap_ci(x, y, level, resamples=4000, seed=1):
    """Percentile bootstrap interval of the difference of mean logs y - x (fixed seed, so a
    comparison is reproducible)."""
    rng = np.random.default_rng(seed)
    bx = rng.choice(x, size=(resamples, x.size)).mean(axis=1)
    by = rng.choice(y, size=(resamples, y.size)).mean(axis=1)
    lo, hi = np.quantile(by - bx, [0.5 - level / 2, 0.5 + level / 2])
    return float(lo), float(hi)


def runs_ci_p(base_runs, y, level):
    """Run-level noise: (difference, CI, p) of the candidate's mean log y against baseline runs
    (one array of log values per run). The baseline is the mean over all pooled repetitions;
    its noise is the spread of the runs' own means, so a candidate is flagged only when it lies
    outside what the baseline runs vary by from run to run (a prediction interval with k-1
    degrees of freedom for k runs)."""
    k = len(base_runs)
    means = np.array([r.mean() for r in base_runs])
    pooled = np.concatenate(base_runs).mean()
    d = y.mean() - pooled
    se = means.std(ddof=1) * math.sqrt(1 + 1 / k)
    if se == 0:
        return d, (d, d), (1.0 if d == 0 else 0.0)
    h = sps.t.ppf(0.5 + level / 2, k - 1) * se
    return d, (d - h, d + h), float(2 * sps.t.sf(abs(d) / se, k - 1))


def compare(base, cand, higher_is_better=True, level=0.95, test="welch", ci="welch",
            noise="reps"):
    """Compares two samples of one metric. `base` is one list of values, or (noise="runs") a
    list of lists, one per baseline run. Returns a dict with `change` (relative change of
    performance, +0.10 = 10 % better, from the ratio of geometric means), `ci` (its interval at
    `level`), `p` (two-sided, uncorrected) and `noise`. Repetition-level noise (Welch's t or
    Mann-Whitney on the pooled repetitions) needs 2 values on each side; run-level noise needs
    2 baseline runs."""
    y = _logs(cand)
    if noise == "runs":
        runs = [_logs(r) for r in base]
        if len(runs) < 2:
            raise ValueError("run-level noise needs at least 2 baseline runs")
        d, (lo, hi), p = runs_ci_p(runs, y, level)
    else:
        x = _logs([v for r in base for v in r] if base and isinstance(base[0], list) else base)
        if x.size < 2 or y.size < 2:
            raise ValueError("need at least 2 repetitions on each side")
        d = y.mean() - x.mean()
        lo, hi = bootstrap_ci(x, y, level) if ci == "bootstrap" else welch_ci(x, y, level)
        p = mannwhitney_p(x, y) if test == "mannwhitney" else welch_p(x, y)
    sign = 1.0 if higher_is_better else -1.0
    d, lo, hi = sign * d, sign * lo, sign * hi
    lo, hi = min(lo, hi), max(lo, hi)
    return {"change": math.expm1(d), "ci": [math.expm1(lo), math.expm1(hi)], "p": p,
            "noise": noise}


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


def verdict(change, ci, p_adjusted, threshold, alpha):
    """regression / improvement when the change is significant after correction AND its whole
    confidence interval lies beyond the minimum effect `threshold` (a fraction); otherwise no
    significant change."""
    if p_adjusted < alpha:
        if ci[1] < -threshold:
            return "regression"
        if ci[0] > threshold:
            return "improvement"
    return "no significant change"


def geometric_mean(values, weights=None):
    """Weighted geometric mean of positive values (weights default to 1)."""
    v = _logs(values)
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=float)
    if w.sum() <= 0:
        raise ValueError("weights must sum to more than 0")
    return float(math.exp((w * v).sum() / w.sum()))
