"""The IO500 score of a pio-bench run of conf/io500.conf (IO500 rules; io500.sh / src/main.c of
hpc/io500): the bandwidth score is the geometric mean of the ior phases in GiB/s, the metadata
score the geometric mean of the mdtest and find phases in kIOPS, and the score is
sqrt(bandwidth score x metadata score). Phases are found by block label (ior-*) and, for the
metadata module's tests, by each test's mode (easy, hard; the block label without one) and phase
parameters."""
import math

# IO500's phases in its order; the figure each lists in its result summary.
BW_PHASES = ["ior-easy-write", "ior-hard-write", "ior-easy-read", "ior-hard-read"]
MD_PHASES = ["mdtest-easy-write", "mdtest-hard-write", "find", "mdtest-easy-stat",
             "mdtest-hard-stat", "mdtest-easy-delete", "mdtest-hard-read", "mdtest-hard-delete"]
# Listed in the summary but not scored (IO500's IO500_NO_SCORE group, src/main.c prints them as
# "[      ]" lines): the 4 KiB random read of ior-easy's files (hpc/io500
# src/phase_ior_rnd4k_easy_read.c).
UNSCORED = ["ior-rnd4K-easy-read"]
ORDER = ["ior-easy-write", "mdtest-easy-write", "ior-hard-write", "mdtest-hard-write", "find",
         "ior-easy-read", "mdtest-easy-stat", "ior-hard-read", "mdtest-hard-stat",
         "mdtest-easy-delete", "mdtest-hard-read", "mdtest-hard-delete", "ior-rnd4K-easy-read"]
# The metadata module's phase -> IO500's word.
_MD_WORD = {"create": "write", "stat": "stat", "read": "read", "remove": "delete"}
# IO500's minimum for a write phase (seconds): shorter runs are not valid IO500 results.
MIN_WRITE_S = 300.0


def geomean(values):
    """Geometric mean of positive values (0 if any is not positive, as IO500 scores it)."""
    if not values or min(values) <= 0:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def score(bw_gibps, md_kiops):
    """(bandwidth score GiB/s, metadata score kIOPS, score) from {phase: figure} dicts."""
    bw = geomean(list(bw_gibps.values()))
    md = geomean(list(md_kiops.values()))
    return bw, md, math.sqrt(bw * md)


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return 0.0 if n == 0 else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def phases(doc):
    """{phase: (value, unit, seconds)} of a results document: ior phases in GiB/s (median over
    repetitions of MiB/s / 1024), metadata phases in kIOPS (median ops/s / 1000); seconds is
    the longest repetition's aggregate time (for the 300 s rule)."""
    out = {}
    for m in doc.get("modules", []):
        label = m.get("label", "")
        for t in m.get("tests", []):
            reps = [r for r in t.get("reps", []) if r.get("aggregate_time_s", 0) > 0]
            if t.get("error") or not reps:
                continue
            secs = max(r["aggregate_time_s"] for r in reps)
            if t.get("rate_unit") == "ops/s":
                params = t.get("params", {})
                phase = params.get("phase", "")
                tree = "mdtest-" + params["mode"] if params.get("mode") in ("easy", "hard") \
                    else label
                name = "find" if phase == "find" else tree + "-" + _MD_WORD.get(phase, phase)
                out[name] = (_median([r["ops_per_s"] for r in reps]) / 1000.0, "kIOPS", secs)
            elif label in BW_PHASES or label in UNSCORED:
                out[label] = (_median([r["bandwidth_MiBps"] for r in reps]) / 1024.0, "GiB/s",
                              secs)
    return out


def is_io500(doc):
    """True for a run of conf/io500.conf (or one like it): a block labelled as one of IO500's
    ior phases."""
    labels = {m.get("label", "") for m in doc.get("modules", [])}
    return bool(labels & set(BW_PHASES + UNSCORED))


INVALID = "NOT a valid IO500 result"


def summary(doc):
    """IO500's result summary: rows (phase, value, unit, seconds, scored), the three scores,
    notes."""
    ph = phases(doc)
    rows = [(p,) + ph[p] + (p not in UNSCORED,) for p in ORDER if p in ph]
    bw = {p: ph[p][0] for p in BW_PHASES if p in ph}
    md = {p: ph[p][0] for p in MD_PHASES if p in ph}
    s_bw, s_md, s = score(bw, md)
    notes = []
    missing = [p for p in BW_PHASES + MD_PHASES if p not in ph]
    if missing:
        notes.append("phases missing (not a complete IO500 run, %s): %s"
                     % (INVALID, ", ".join(missing)))
    short = [p for p in ORDER if p in ph and p.endswith("-write") and ph[p][2] < MIN_WRITE_S]
    if short:
        notes.append("write phases shorter than IO500's %g s (%s): %s"
                     % (MIN_WRITE_S, ", ".join(short), INVALID))
    return rows, (s_bw, s_md, s), notes
