"""Statistics for comparing a candidate run of a test with baseline runs (docs/guides/regression.md,
"Verdicts").

Every figure is compared on the log scale (bandwidth and time noise is multiplicative), each
run summarised by the median of its repetitions (one slow first repetition cannot move it).
The change is the candidate's median against the geometric mean of the baseline runs' medians.
What a night can differ by is the noise between runs, not between repetitions of one run, so:

* with two or more baseline runs, the candidate's log median is tested as one new draw from
  the baseline runs' log medians: t = d / (s * sqrt(1 + 1/k)) with k - 1 degrees of freedom
  (the prediction interval of a new observation), s the standard deviation of the k runs' log
  medians, but never less than the repetitions' own noise allows (below);
* with one baseline run, the runs' noise is unknown and only the repetitions speak: the
  standard error of each median is sqrt(pi/2) * s_w / sqrt(n) (s_w the repetitions' pooled
  standard deviation of the logs), with n_b + n_c - 2 degrees of freedom.

Both are t tests (scipy.stats.t), so a real change reaches any alpha at 2 repetitions or 2
baseline runs; a rank test cannot (Mann-Whitney's smallest two-sided p at 3 against 3 is 0.1).
`detectable` says how large a change the test could show at a given alpha, and `needed` how
many repetitions or baseline runs would show a given one."""
import math

import numpy as np

# Variance of the median of n normal values over that of their mean, for large n (pi / 2): the
# standard error of a run's median from its repetitions' standard deviation.
MEDIAN_VARIANCE = math.pi / 2
# The largest count `needed` searches (more than this is "no practical number").
NEEDED_CAP = 10000


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


def baseline_center(base_runs):
    """The baseline's figure: the geometric mean of its runs' medians (one run: its median)."""
    return float(np.exp(np.mean([np.log(np.median(r)) for r in base_runs])))


def _within_var(samples):
    """Pooled variance of the log repetitions about their run's mean, and its degrees of
    freedom (0 when no run has two repetitions)."""
    ss = sum(float(np.sum((s - s.mean()) ** 2)) for s in samples if s.size > 1)
    df = sum(s.size - 1 for s in samples if s.size > 1)
    return (ss / df if df else 0.0), df


class Noise:
    """What a night's log median varies by under no change: `var_run` (the variance of one run's
    log median) with `df` degrees of freedom, and its parts: `var_between` (runs among
    themselves, beyond their repetitions' noise; None with one baseline run: unknown) and
    `var_rep` (one repetition's), `n` the repetitions per run, `k` the baseline runs."""

    def __init__(self, runs, cand):
        self.k = len(runs)
        self.n = float(np.mean([r.size for r in runs + [cand]]))
        self.var_rep, df_rep = _within_var(runs + [cand])
        floor = MEDIAN_VARIANCE * self.var_rep / self.n
        if self.k >= 2:
            medians = np.array([np.median(r) for r in runs])
            var_medians = float(np.var(medians, ddof=1))
            self.var_between = max(0.0, var_medians - floor)
            # Two runs that happen to agree do not make the noise vanish: never less than the
            # repetitions' own noise says a median varies by.
            if var_medians >= floor or not df_rep:
                self.var_run, self.df = var_medians, self.k - 1
            else:
                self.var_run, self.df = floor, df_rep
            self.basis = "runs"
        else:
            self.var_between = None
            self.var_run, self.df = floor, df_rep
            self.basis = "repetitions"

    def se(self, k=None, n=None):
        """Standard error of the candidate's log median against the baseline's mean, with k
        baseline runs of n repetitions (default: as measured)."""
        k = self.k if k is None else k
        if n is None:
            var_run = self.var_run
        else:
            var_run = (self.var_between or 0.0) + MEDIAN_VARIANCE * self.var_rep / n
        return math.sqrt(var_run * (1 + 1 / k))


def _t():
    """scipy's t distribution, imported at its first use: scipy.stats takes 0.3 s to import, and
    pio-compare's --history and --clean (two of pio-nightly's three calls) test nothing."""
    from scipy import stats as sps

    return sps.t


def critical_t(alpha, df):
    """The two-sided critical t at `alpha` (inf without degrees of freedom)."""
    return float(_t().ppf(1 - alpha / 2, df)) if df >= 1 else math.inf


def detectable(se, df, alpha):
    """The smallest slowdown (a fraction, 0.3 = 30 % slower) a two-sided t test with standard
    error `se` and `df` degrees of freedom shows at `alpha`; 1.0 when none can be shown."""
    x = critical_t(alpha, df) * se
    return 1.0 if not math.isfinite(x) else -math.expm1(-x)


def _first(low, shows):
    """The smallest count in low .. NEEDED_CAP for which shows(count) holds (it holds for every
    larger count once it holds: more repetitions or runs never widen a t interval), or None."""
    if not shows(NEEDED_CAP):
        return None
    high = low
    while not shows(high):
        low, high = high + 1, min(NEEDED_CAP, 2 * high)
    while low < high:
        mid = (low + high) // 2
        if shows(mid):
            high = mid
        else:
            low = mid + 1
    return low


def needed(noise, threshold, alpha):
    """What would let the test show a slowdown of `threshold` (a fraction) at `alpha`:
    ("repetitions", n) per run (one baseline run: on each side; else at today's baseline runs),
    ("runs", k) baseline runs at today's repetitions, or (None, None) when neither up to
    NEEDED_CAP would (the runs themselves vary too much: only a larger threshold helps)."""
    tau = -math.log1p(-threshold)
    if noise.basis == "repetitions":
        # n repetitions on each side: SE = sqrt(pi/2 * var_rep * 2 / n), 2n - 2 degrees of freedom
        n = _first(2, lambda n: critical_t(alpha, 2 * n - 2) * math.sqrt(
            MEDIAN_VARIANCE * noise.var_rep * 2 / n) <= tau)
        return ("repetitions", n) if n else (None, None)
    k = _first(noise.k + 1, lambda k: critical_t(alpha, k - 1) * noise.se(k=k) <= tau)
    if k:
        return "runs", k
    if noise.var_rep > 0:
        n = _first(int(noise.n) + 1, lambda n: critical_t(alpha, noise.df) * noise.se(n=n) <= tau)
        if n:
            return "repetitions", n
    return None, None


def compare(base, cand, higher_is_better=True, level=0.95):
    """Compares one metric of a candidate run with baseline runs. `base` is a list of lists (the
    repetitions of each baseline run; a flat list is one run), `cand` the candidate's
    repetitions; all positive. Returns `change` (the candidate's median against the baseline's
    figure, as a change of performance: +0.10 = 10 % better), `ci` (its t interval at `level`),
    `p` (two-sided, uncorrected), `se` and `df` (of the log change), `basis` ("runs" or
    "repetitions": what the noise was estimated from), `spread` (a baseline run's typical
    distance from the others, exp(s) - 1; with one run, its repetitions' median's) and the
    `noise` (for detectable and needed). Raises ValueError on values that are not positive or
    when one baseline run or the candidate has fewer than 2 repetitions and nothing else
    measures the noise."""
    if len(base) and np.ndim(base[0]) == 0:
        base = [base]
    runs = [_logs(r) for r in base]
    y = _logs(cand)
    if not runs:
        raise ValueError("no baseline repetitions")
    noise = Noise(runs, y)
    if noise.df < 1:
        raise ValueError(f"too few repetitions (baseline {sum(r.size for r in runs)} in "
                         f"{len(runs)} run(s), candidate {y.size}): need 2 on each side, or 2 "
                         "baseline runs")
    d = float(np.median(y)) - float(np.mean([np.median(r) for r in runs]))
    se = noise.se()
    if se > 0:
        p = float(2 * _t().sf(abs(d) / se, noise.df))
    else:
        p = 1.0 if d == 0 else 0.0
    half = critical_t(1 - level, noise.df) * se
    lo, hi = d - half, d + half
    if not higher_is_better:
        d, lo, hi = -d, -hi, -lo
    return {"change": math.expm1(d), "ci": [math.expm1(lo), math.expm1(hi)], "p": p,
            "se": se, "df": noise.df, "basis": noise.basis,
            "spread": math.expm1(math.sqrt(noise.var_run)), "noise": noise}


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


def per_test_alpha(alpha, tests, method):
    """The level one test must reach for any correction to call it: alpha / m for holm and bh
    (their first step), alpha without one. What `detectable` is computed at."""
    return alpha if method == "none" else alpha / max(1, tests)


def verdict(change, p_adjusted, threshold, alpha, detectable_change):
    """regression / improvement when the change is significant after correction (p_adjusted <
    alpha) and beyond the minimum effect `threshold` (a fraction); otherwise "no significant
    change" when the test could have shown a slowdown of `threshold` (detectable_change <=
    threshold), else "inconclusive": the data cannot support either verdict."""
    if p_adjusted < alpha:
        if change < -threshold:
            return "regression"
        if change > threshold:
            return "improvement"
        return "no significant change"
    if detectable_change <= threshold:
        return "no significant change"
    return "inconclusive"


def geometric_mean(values, weights=None):
    """Weighted geometric mean of positive values (weights default to 1)."""
    v = _logs(values)
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=float)
    if w.sum() <= 0:
        raise ValueError("weights must sum to more than 0")
    return float(math.exp((w * v).sum() / w.sum()))
