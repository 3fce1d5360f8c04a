"""Matching the tests of baseline and candidate runs and giving each a verdict."""
from . import results, stats

# Run-level facts that make two runs incomparable when they differ (--allow lifts one).
RUN_CHECKS = {
    "processes": lambda d: d.get("processes"),
    "file_system": lambda d: d.get("file_system"),
    "mpi_library": results.mpi_name,
    "system_label": lambda d: d.get("system_label"),
}
ALLOWABLE = sorted(list(RUN_CHECKS) + ["settings"])


def run_differences(baselines, candidate, allow):
    """Reasons why the candidate run is not comparable with the baselines (empty if it is)."""
    reasons = []
    for key, get in RUN_CHECKS.items():
        if key in allow:
            continue
        want = get(candidate)
        have = sorted({str(get(b)) for b in baselines})
        if have != [str(want)]:
            reasons.append(f"{key} differs: baseline {' | '.join(have)}, candidate {want}")
    return reasons


def setup_differences(base_tests, cand_test, allow):
    """Reasons why one test's setup differs between baseline and candidate."""
    if "settings" in allow:
        return []
    want = cand_test.setup()
    reasons = []
    for b in base_tests:
        have = b.setup()
        for k in want:
            if have[k] != want[k]:
                r = f"{k} differs: baseline {have[k]}, candidate {want[k]}"
                if r not in reasons:
                    reasons.append(r)
    return reasons


def compare_runs(baselines, candidate, threshold=0.05, alpha=0.05, correction="holm",
                 test="welch", ci="welch", level=0.95, allow=(), noise="auto"):
    """Compares a candidate run with one or more baseline runs (their repetitions pooled).
    `noise`: "reps" (the repetitions' spread), "runs" (the spread between baseline runs) or
    "auto" (runs when the test has 2 or more baseline runs, else reps).
    Returns {"rows": [...], "run_reasons": [...], "summary": {...}}; each row has the test's
    name, key, metric, medians, change, ci, p, p_adjusted, verdict and reason."""
    run_reasons = run_differences(baselines, candidate, set(allow))
    base = {}
    for doc in baselines:
        for t in results.tests(doc):
            base.setdefault(t.key, []).append(t)
    cand = {t.key: t for t in results.tests(candidate)}
    rows = []
    for key, c in cand.items():
        row = {"block": c.block_label, "test": c.label, "params": c.params, "name": c.name,
               "occurrence": c.occurrence}
        rows.append(row)
        bs = base.get(key)
        metric, cvals, higher = c.metric()
        row.update(metric=metric, higher_is_better=higher, n_candidate=len(cvals))
        if not bs:
            row.update(verdict="not comparable", reason="only in candidate")
            continue
        bvals = [v for b in bs for v in b.metric()[1]]
        row.update(n_baseline=len(bvals), baseline_runs=len(bs))
        row["median_baseline"] = float(stats.np.median(bvals)) if bvals else None
        row["median_candidate"] = float(stats.np.median(cvals)) if cvals else None
        berr = [b.error for b in bs if b.error]
        if c.error and not berr:
            row.update(verdict="regression", reason=f"failed in candidate: {c.error}")
            continue
        reasons = list(run_reasons)
        if berr:
            reasons.append(f"failed in baseline: {berr[0]}")
        if c.error:
            reasons.append(f"failed in candidate: {c.error}")
        reasons += setup_differences(bs, c, set(allow))
        how = noise if noise != "auto" else ("runs" if len(bs) >= 2 else "reps")
        if not reasons and how == "runs" and len(bs) < 2:
            reasons.append("run-level noise needs 2 or more baseline runs")
        if not reasons and how == "reps" and (len(bvals) < 2 or len(cvals) < 2):
            reasons.append(f"too few repetitions for a noise estimate "
                           f"(baseline {len(bvals)}, candidate {len(cvals)}; need 2 each)")
        if not reasons:
            try:
                row.update(stats.compare([b.metric()[1] for b in bs], cvals, higher, level,
                                         test, ci, how))
            except ValueError as e:
                reasons.append(f"values not comparable: {e}")
        elif bvals and cvals and all(v > 0 for v in bvals + cvals):
            # Shown for information; no verdict is drawn from it.
            g = stats.geometric_mean(cvals) / stats.geometric_mean(bvals)
            row["change"] = (g if higher else 1 / g) - 1
        if reasons:
            row.update(verdict="not comparable", reason="; ".join(reasons))
    for key, bs in base.items():
        if key not in cand:
            b = bs[0]
            rows.append({"block": b.block_label, "test": b.label, "params": b.params,
                         "name": b.name, "occurrence": b.occurrence, "metric": b.metric()[0],
                         "verdict": "not comparable", "reason": "only in baseline"})
    tested = [r for r in rows if "p" in r]
    for r, padj in zip(tested, stats.adjust([r["p"] for r in tested], correction)):
        r["p_adjusted"] = padj
        r["verdict"] = stats.verdict(r["change"], r["ci"], padj, threshold, alpha)
        r["reason"] = ""
    summary = {}
    for r in rows:
        summary[r["verdict"]] = summary.get(r["verdict"], 0) + 1
    return {"rows": rows, "run_reasons": run_reasons, "summary": summary,
            "settings": {"threshold": threshold, "alpha": alpha, "correction": correction,
                         "test": test, "ci": ci, "level": level, "noise": noise,
                         "allow": sorted(allow)}}
