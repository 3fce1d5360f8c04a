"""Matching the tests of baseline and candidate runs and giving each a verdict."""
import math

from . import flag_rules, fsconfig, results, stats, text

# Run-level facts that make two runs incomparable when they differ (--allow lifts one).
RUN_CHECKS = {
    "processes": lambda d: d.get("processes"),
    "file_system": fsconfig.file_system_config,  # type, options, volume graph (fsconfig.py)
    "mpi_library": results.mpi_name,
    "system_label": lambda d: d.get("system_label"),
}
# --allow names run-level differences, "settings", "tests" and flags (flag_rules.NAMES).
ALLOWABLE = sorted(list(RUN_CHECKS) + ["settings", "tests"]) + list(flag_rules.NAMES)

# Exit statuses of pio-compare (and of the nightly job, docs/guides/regression.md), one spelling
# each.
EXIT_OK = 0             # every test compared, no regression, every verdict supported
EXIT_REGRESSION = 1     # at least one regression (a test failing in the candidate is one)
EXIT_USAGE = 2          # bad arguments, an unreadable results document or a run that did not finish
EXIT_NOT_COMPARABLE = 3  # some test not comparable, or no test compared at all
EXIT_NO_BASELINE = 4    # the baseline is empty or missing: the first night (the candidate is fine)
EXIT_INCONCLUSIVE = 5   # some test's data cannot support a verdict (too few repetitions or runs)
EXIT_FLAGGED = 6        # some test is flagged (flag_rules) and its verdict was refused

# Verdicts drawn from the figures (a test with one of them was compared).
COMPARED = ("no significant change", "improvement", "regression", "inconclusive")


def exit_status(report):
    """pio-compare's exit status for a report, the first that applies: a regression; anything
    not compared (unless --allow tests accepts tests on one side only); a flagged test; an
    inconclusive test; else 0."""
    s = report["summary"]
    if s.get("regression"):
        return EXIT_REGRESSION
    if s.get("not comparable") or not any(s.get(v) for v in COMPARED + ("flagged",)):
        return EXIT_NOT_COMPARABLE
    if s.get("flagged"):
        return EXIT_FLAGGED
    if s.get("inconclusive"):
        return EXIT_INCONCLUSIVE
    return EXIT_OK


def unfinished(doc, side):
    """Why a run may not be a comparison side (None if it may): one that did not finish
    (status running or interrupted) never is; a baseline run must be complete (a candidate whose
    tests failed is compared, and its failed tests are regressions). A document without a status
    (older than the field) is taken as complete."""
    status = doc.get("status", "complete")
    if status == "complete" or (side == "candidate" and status == "failed"):
        return None
    extra = f", signal {doc['signal']}" if doc.get("signal") else ""
    return (f"{doc.get('_path')}: the run did not complete (status {status}, exit code "
            f"{doc.get('exit_code')}{extra}): it is not compared as the {side}, and it never "
            "seeds or enters a baseline" + (" (remove it from the baseline)"
                                            if side == "baseline" else " (run it again)"))


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


# The gate's defaults (docs/guides/regression.md says how they were chosen).
DEFAULTS = {"threshold": 0.05, "alpha": 0.05, "floor_us": 1.0}


def detectable_text(fraction):
    """The smallest slowdown a test could show, as text ('-45%', 'x1/3.20'), or 'none' when no
    slowdown however large could be shown (no degrees of freedom)."""
    return "none" if fraction >= 1.0 else text.change(-fraction)


def _flag_reason(flags, where):
    return "; ".join(f"{f} ({where}): {r}" for f, r in flags)


def _sample_text(row):
    """What the test's noise came from, for an inconclusive verdict's reason."""
    runs = row["baseline_runs"]
    if row["basis"] == "repetitions":
        return (f"{row['n_baseline']} + {row['n_candidate']} repetitions (1 baseline run: the "
                "runs' own noise is unknown)")
    return f"{runs} baseline runs of {row['n_baseline'] / runs:.3g} repetitions"


def _needed_text(noise, threshold, alpha):
    what, n = stats.needed(noise, threshold, alpha)
    if what == "repetitions":
        return f"{n} repetitions per run would"
    if what == "runs":
        return f"{n} baseline runs would"
    if noise.basis == "repetitions":
        spread, who = math.sqrt(noise.var_rep), "the repetitions vary"
    else:
        spread, who = math.sqrt(noise.var_run), "the runs vary"
    return (f"no number of repetitions or runs up to {stats.NEEDED_CAP} would: {who} by "
            f"\u00b1{math.expm1(spread):.0%} among themselves")


def compare_runs(baselines, candidate, threshold=DEFAULTS["threshold"],
                 alpha=DEFAULTS["alpha"], correction="holm", level=0.95, allow=(),
                 floor_us=DEFAULTS["floor_us"]):
    """Compares a candidate run with one or more baseline runs (stats.compare: the candidate's
    median as a new draw from the baseline runs' medians; with one baseline run, from the
    repetitions). A time per operation (lower is better) whose medians differ by less than
    `floor_us` microseconds gets no verdict: sub-microsecond timings jump by a timer tick. A
    test flagged (flag_rules) in the candidate or a baseline run gets the verdict "flagged"
    unless `allow` names each of its flags. Returns {"rows": [...], "run_reasons": [...],
    "summary": {...}, "settings": {...}}; each row has the test's name, key, metric, unit,
    medians, change, ci, p, p_adjusted, detectable, verdict and reason. Tests on one side only
    are not comparable unless `allow` has "tests"."""
    allow = set(allow)
    run_reasons = run_differences(baselines, candidate, allow)
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
        bruns = [b.metric()[1] for b in bs]
        bvals = [v for r in bruns for v in r]
        row.update(n_baseline=len(bvals), baseline_runs=len(bs))
        usable = bvals and cvals and all(v > 0 for v in bvals + cvals)
        row["median_baseline"] = stats.baseline_center([r for r in bruns if r]) \
            if usable else None
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
        reasons += setup_differences(bs, c, allow)
        flagged = [_flag_reason(flag_rules.refused(flag_rules.of_test(c), allow), "candidate")]
        flagged += [_flag_reason(flag_rules.refused(flag_rules.of_test(b), allow),
                                 f"baseline {b.doc.get('_path')}") for b in bs]
        flagged = [f for f in flagged if f]
        if usable and all(r for r in bruns):
            row["change"] = math.expm1(math.log(row["median_candidate"] /
                                                row["median_baseline"]) * (1 if higher else -1))
        if reasons:
            row.update(verdict="not comparable", reason="; ".join(reasons))
        elif flagged:
            row.update(verdict="flagged", reason="no verdict on a flagged test: " +
                       "; ".join(flagged) + " (--allow FLAG accepts it)")
        else:
            try:
                row.update(stats.compare([r for r in bruns], cvals, higher, level))
            except ValueError as e:
                row.update(verdict="inconclusive", reason=str(e))
    for key, bs in base.items():
        if key not in cand:
            b = bs[0]
            rows.append({"block": b.block_label, "test": b.label, "params": b.params,
                         "name": b.name, "occurrence": b.occurrence, "metric": b.metric()[0],
                         "unit": b.unit,
                         "verdict": "gone" if "tests" in allow else "not comparable",
                         "reason": "only in baseline"})
    tested = [r for r in rows if "p" in r]
    one = stats.per_test_alpha(alpha, len(tested), correction)
    over = f" over {len(tested)} tests" if len(tested) > 1 and correction != "none" else ""
    for r, padj in zip(tested, stats.adjust([r["p"] for r in tested], correction)):
        noise = r.pop("noise")
        r["p_adjusted"] = padj
        r["detectable"] = stats.detectable(r["se"], r["df"], one)
        r["verdict"] = stats.verdict(r["change"], padj, threshold, alpha, r["detectable"])
        r["reason"] = ""
        if r["verdict"] == "inconclusive":
            r["reason"] = (f"{_sample_text(r)} cannot show a change of {threshold:.0%} at alpha "
                           f"{alpha:g}{over} (detectable: {detectable_text(r['detectable'])}); "
                           + _needed_text(noise, threshold, one))
        elif r["verdict"] in ("regression", "improvement") and r["basis"] == "repetitions":
            r["reason"] = "1 baseline run: against its repetitions' noise only"
        if r["verdict"] in ("regression", "improvement") and not r["higher_is_better"] and \
                abs(r["median_candidate"] - r["median_baseline"]) < floor_us:
            r["verdict"] = "no significant change"
            r["reason"] = f"medians differ by less than the {floor_us:g} us floor"
    summary = {}
    for r in rows:
        summary[r["verdict"]] = summary.get(r["verdict"], 0) + 1
    return {"rows": rows, "run_reasons": run_reasons, "summary": summary,
            "settings": {"threshold": threshold, "alpha": alpha, "correction": correction,
                         "level": level, "floor_us": floor_us, "allow": sorted(allow)}}
