"""Matching the tests of baseline and candidate runs and giving each a verdict."""
from . import fsconfig, results, stats

# Run-level facts that make two runs incomparable when they differ (--allow lifts one).
RUN_CHECKS = {
    "processes": lambda d: d.get("processes"),
    "file_system": fsconfig.file_system_config,  # type, options, volume graph (fsconfig.py)
    "mpi_library": results.mpi_name,
    "system_label": lambda d: d.get("system_label"),
}
ALLOWABLE = sorted(list(RUN_CHECKS) + ["settings", "tests"])

# Exit statuses of pio-compare (and of the nightly job, docs/regression.md), one spelling each.
EXIT_OK = 0             # every test compared, no regression
EXIT_REGRESSION = 1     # at least one regression (a test failing in the candidate is one)
EXIT_USAGE = 2          # bad arguments or an unreadable results document
EXIT_NOT_COMPARABLE = 3  # some test not comparable, or no test compared at all
EXIT_NO_BASELINE = 4    # the baseline is empty or missing: the first night (the candidate is fine)


def exit_status(report):
    """pio-compare's exit status for a report: a regression first, then anything not compared
    (unless --allow tests accepts tests on one side only), else 0."""
    s = report["summary"]
    if s.get("regression"):
        return EXIT_REGRESSION
    if s.get("not comparable") or not any(s.get(v) for v in COMPARED):
        return EXIT_NOT_COMPARABLE
    return EXIT_OK


COMPARED = ("no significant change", "improvement")


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


# The gate's defaults (docs/regression.md says how they were chosen).
DEFAULTS = {"threshold": 0.05, "alpha": 0.05, "spread_factor": 2.0, "floor_us": 1.0}


def compare_runs(baselines, candidate, threshold=DEFAULTS["threshold"],
                 alpha=DEFAULTS["alpha"], correction="holm", level=0.95, allow=(),
                 spread_factor=DEFAULTS["spread_factor"], floor_us=DEFAULTS["floor_us"]):
    """Compares a candidate run with one or more baseline runs (their repetitions pooled; the
    spread between the runs' medians is the run-to-run noise a verdict must exceed
    `spread_factor` times, stats.verdict). A time per operation (lower is better) whose medians
    differ by less than `floor_us` microseconds gets no verdict: sub-microsecond timings jump by
    a timer tick. Returns {"rows": [...], "run_reasons": [...], "summary": {...}}; each row has
    the test's name, key, metric, medians, change, ci, p, p_adjusted, spread, verdict and
    reason, and the metric's unit. Tests on one side only are not comparable unless `allow` has "tests"."""
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
        m = results.merit(c)
        metric, cvals, higher = m.field, m.values, m.higher_is_better
        row.update(metric=metric, unit=m.unit, higher_is_better=higher, n_candidate=len(cvals))
        if not bs:
            row.update(verdict="new" if "tests" in allow else "not comparable",
                       reason="only in candidate")
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
        if not reasons:
            try:
                row.update(stats.compare([b.metric()[1] for b in bs], cvals, higher, level))
            except ValueError as e:
                reasons.append(f"values not comparable: {e}")
        elif bvals and cvals and all(v > 0 for v in bvals + cvals):
            # Shown for information; no verdict is drawn from it.
            row["change"] = stats.median_change(bvals, cvals, higher)
        if reasons:
            row.update(verdict="not comparable", reason="; ".join(reasons))
    for key, bs in base.items():
        if key not in cand:
            b = bs[0]
            rows.append({"block": b.block_label, "test": b.label, "params": b.params,
                         "name": b.name, "occurrence": b.occurrence, "metric": b.metric()[0],
                         "unit": b.unit,
                         "verdict": "gone" if "tests" in allow else "not comparable",
                         "reason": "only in baseline"})
    tested = [r for r in rows if "p" in r]
    for r, padj in zip(tested, stats.adjust([r["p"] for r in tested], correction)):
        r["p_adjusted"] = padj
        r["verdict"] = stats.verdict(r["change"], r["ci"], padj, threshold, alpha, r["spread"],
                                     spread_factor)
        r["reason"] = ""
        if r["verdict"] != "no significant change" and not r["higher_is_better"] and \
                abs(r["median_candidate"] - r["median_baseline"]) < floor_us:
            r["verdict"] = "no significant change"
            r["reason"] = f"medians differ by less than the {floor_us:g} us floor"
    summary = {}
    for r in rows:
        summary[r["verdict"]] = summary.get(r["verdict"], 0) + 1
    return {"rows": rows, "run_reasons": run_reasons, "summary": summary,
            "settings": {"threshold": threshold, "alpha": alpha, "correction": correction,
                         "level": level, "spread_factor": spread_factor,
                         "floor_us": floor_us, "allow": sorted(allow)}}
