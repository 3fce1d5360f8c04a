"""The verdict on a tuned candidate against the defaults, from pio-compare's own statistics (the
one place pio-tune asks for a verdict, so that a change of pio-compare's rules reaches it
here): per test, compare.compare_runs (the defaults' runs as the baseline, the candidate's
runs pooled); for the objective, stats.compare on its value per repetition (each defaults run
a baseline run), Holm-corrected over the candidates, and stats.verdict. Only "improvement" is
a proven win; any other verdict leaves the defaults."""
import copy
import math

from . import compare, stats

PROVEN = "improvement"


def smallest_p(n1, n2, tests=1):
    """The smallest two-sided Mann-Whitney p-value n1 against n2 values can reach (no ties),
    after a Holm correction over `tests` comparisons: 2 / C(n1 + n2, n1) x tests. At or above
    alpha no verdict is possible, whatever the values."""
    return min(1.0, 2.0 / math.comb(n1 + n2, n1) * tests)


def pooled(docs):
    """One results document holding every run's repetitions of each test (the candidate side
    of compare_runs)."""
    out = copy.deepcopy(docs[0])
    def key(b, t):
        return b.get("label"), t.get("label"), str(sorted((t.get("params") or {}).items()))

    tests = {key(b, t): t for b in out.get("modules") or [] for t in b.get("tests") or []}
    for d in docs[1:]:
        for b in d.get("modules") or []:
            for t in b.get("tests") or []:
                if key(b, t) in tests:
                    into = tests[key(b, t)]
                    into["reps"] = list(into.get("reps") or []) + list(t.get("reps") or [])
    return out


def flags_in(docs, allow=()):
    """{flag: "block / test: reason"} of the first test carrying each flag in `docs`, the flags
    `allow` names left out: figures the harness could not vouch for (docs/reference/results.md,
    "Flags"), on which pio-compare gives no verdict."""
    out = {}
    for d in docs:
        for m in d.get("modules", []):
            for t in m.get("tests", []):
                for f in t.get("flags", []):
                    if f["flag"] not in allow and f["flag"] not in out:
                        out[f["flag"]] = f"{m.get('label')} / {t.get('label')}: {f['reason']}"
    return out


def judge(default_docs, candidates, objective, threshold=compare.DEFAULTS["threshold"],
          alpha=compare.DEFAULTS["alpha"], level=0.95, allow=()):
    """Verdicts of candidates ({name: [results docs]}) against the defaults' runs. Returns
    {name: {"verdict", "proven", "change", "ci", "p", "p_adjusted", "spread", "n_defaults",
    "n_candidate", "tests": compare_runs rows, "flags"}}. A candidate whose runs, or the
    defaults' runs, carry a flag `allow` does not name is "flagged" and never proven, as
    pio-compare refuses a verdict on a flagged test."""
    base = [objective.per_repetition(d) for d in default_docs]
    out = {}
    for name, docs in candidates.items():
        cand = [v for d in docs for v in objective.per_repetition(d)]
        r = stats.compare(base, cand, True, level)
        rows = compare.compare_runs(default_docs, pooled(docs), threshold, alpha, "holm", level,
                                    ("settings",))["rows"]
        out[name] = dict(r, n_defaults=sum(len(b) for b in base), n_candidate=len(cand),
                         tests=rows)
    names = list(out)
    one = stats.per_test_alpha(alpha, len(names), "holm")
    for name, padj in zip(names, stats.adjust([out[n]["p"] for n in names], "holm")):
        r = out[name]
        r.pop("noise", None)
        r["p_adjusted"] = padj
        r["p_floor"] = smallest_p(r["n_defaults"], r["n_candidate"], len(names))
        r["detectable"] = stats.detectable(r["se"], r["df"], one)
        r["verdict"] = stats.verdict(r["change"], padj, threshold, alpha, r["detectable"])
        r["flags"] = flags_in(default_docs + candidates[name], allow)
        if r["flags"]:
            r["verdict"] = "flagged"
        r["proven"] = r["verdict"] == PROVEN and not any(
            t.get("verdict") == "regression" for t in r["tests"])
    return out


def versus_best(best_runs, others, higher_is_better=True,
                threshold=compare.DEFAULTS["threshold"], alpha=compare.DEFAULTS["alpha"],
                level=0.95):
    """Each of `others` (a list of runs, each a list of repetitions' values) against the best
    setting's runs, as pio-compare compares a candidate with its baseline (Holm-corrected over
    the others). A setting is indistinguishable from the best unless the verdict is a
    regression. Returns one dict per other: change, ci, p, p_adjusted, spread, verdict,
    indistinguishable (or the reason it could not be compared)."""
    rows = []
    for runs in others:
        flat = [v for r in runs for v in r]
        try:
            rows.append(stats.compare(best_runs, flat, higher_is_better, level))
        except ValueError as e:
            rows.append({"verdict": "not compared", "reason": str(e),
                         "indistinguishable": None})
    tested = [r for r in rows if "p" in r]
    one = stats.per_test_alpha(alpha, len(tested), "holm")
    for r, padj in zip(tested, stats.adjust([r["p"] for r in tested], "holm")):
        r.pop("noise", None)
        r["p_adjusted"] = padj
        r["detectable"] = stats.detectable(r["se"], r["df"], one)
        r["verdict"] = stats.verdict(r["change"], padj, threshold, alpha, r["detectable"])
        r["indistinguishable"] = r["verdict"] != "regression"
    return rows
