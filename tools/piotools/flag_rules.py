"""The typed flags a results document carries where a run cannot vouch for a figure
(docs/reference/results.md, "Flags"), as the regression gate reads them: every test and every
repetition has `"flags": [{"flag": NAME, "reason": "one line"}]` (empty when clean; a document
without the key is clean), and a flagged test gets no verdict unless the user allows its flags by
name."""

# The flag names, in the order the docs list them.
NAMES = ("page_cache", "write_cache", "memory_bandwidth", "oversubscribed", "wide_spread",
         "bimodal", "warm_up", "swapping", "heavy_load")


# Flags that say what a figure measured, the same every night (the page cache, not the storage): a
# job that allows one compares and seeds its baseline with it. The others mark a night's noise or
# load and never enter a baseline, allowed or not, so its noise estimate cannot ratchet.
SYSTEMATIC = ("page_cache", "write_cache")


def of_test(test):
    """[(flag, reason)] of a test (a results.Test or a test object) and of its repetitions, in
    document order, each flag once with the first reason given for it (a repetition's prefixed
    "repetition N: ")."""
    t = getattr(test, "test", test)
    found = [(f, "") for f in t.get("flags") or []]
    for i, r in enumerate(t.get("reps") or []):
        found += [(f, f"repetition {r.get('rep', i) + 1}: ") for f in r.get("flags") or []]
    seen = {}
    for f, where in found:
        name = f.get("flag") if isinstance(f, dict) else str(f)
        if name and name not in seen:
            reason = f.get("reason") if isinstance(f, dict) else None
            seen[name] = where + (reason or name)
    return list(seen.items())


def of_run(doc):
    """{test name: [(flag, reason)]} of every flagged test of a run (results.tests order)."""
    from . import results
    return {t.name: fl for t in results.tests(doc) if (fl := of_test(t))}


def refused(flags, allow):
    """The flags of `flags` ([(flag, reason)]) that `allow` does not name."""
    return [(f, r) for f, r in flags if f not in allow]


def refused_in_baseline(flags, allow):
    """The flags of `flags` that keep a run out of a baseline: all but the SYSTEMATIC ones that
    `allow` names."""
    return refused(flags, [f for f in allow if f in SYSTEMATIC])
