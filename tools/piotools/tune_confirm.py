"""Proving a winner (docs/guides/tuning.md, "The proof"): the best candidates of the search and the
defaults (the config as written) re-run over rounds, every round all of them in a new shuffled
order, so that the machine's drift falls on every arm alike; then pio-compare's verdict per
candidate (tune_verdict). A win is recommended only when proven; otherwise the defaults stand."""
import random

from . import tune_verdict

DEFAULTS = "defaults"


def run_rounds(runner, arms, rounds, seed=None, log=print, deadline=None, clock=None):
    """Runs every arm ({name: values}) once per round in a shuffled order. Returns
    {name: [Run]} (failed runs included; they are left out of the verdict) and the order
    [[names of round 1], ...]. Stops early (fewer rounds) when `deadline` passes."""
    rng = random.Random(seed)
    runs = {name: [] for name in arms}
    order = []
    for r in range(1, rounds + 1):
        if deadline is not None and clock is not None and r > 2 and clock() > deadline:
            log(f"confirmation: the budget ends after {r - 1} rounds")
            break
        names = list(arms)
        rng.shuffle(names)
        order.append(names)
        for name in names:
            run = runner.run(arms[name], f"confirm-r{r:02d}-{name}", -r)
            runs[name].append(run)
            log(f"confirmation round {r}/{rounds}, {name}: " +
                (f"failed: {run.error}" if not run.ok else f"{run.seconds:.1f} s"))
    return runs, order


def confirm(runner, objective, candidates, rounds, defaults_values=None, seed=None,
            log=print, verdict_options=None, deadline=None, clock=None):
    """candidates: [(name, values)] best first. Returns the confirmation record: the arms'
    values, the rounds' order, every run's results file, each candidate's verdict, and the
    winner (the proven candidate with the largest change; None: the defaults stand)."""
    arms = {DEFAULTS: dict(defaults_values or {})}
    arms.update({name: values for name, values in candidates})
    runs, order = run_rounds(runner, arms, rounds, seed, log, deadline, clock)
    docs = {name: [r.doc for r in rs if r.ok] for name, rs in runs.items()}
    record = {"rounds": len(order), "order": order, "arms": arms,
              "runs": {name: [r.record() for r in rs] for name, rs in runs.items()},
              "verdicts": {}, "winner": None}
    judged = {n: d for n, d in docs.items() if n != DEFAULTS and len(d) >= 1}
    if len(docs[DEFAULTS]) < 2 or not judged:
        record["note"] = ("too few runs succeeded to judge (the defaults need 2 or more): "
                          "the defaults stand")
        return record
    verdicts = tune_verdict.judge(docs[DEFAULTS], judged, objective, **(verdict_options or {}))
    for name, v in verdicts.items():
        v["values"] = arms[name]
        v["defaults_value"] = objective.combine(
            _medians(objective, docs[DEFAULTS]))
        v["candidate_value"] = objective.combine(_medians(objective, docs[name]))
    record["verdicts"] = verdicts
    proven = [n for n, v in verdicts.items() if v["proven"]]
    if proven:
        record["winner"] = max(proven, key=lambda n: verdicts[n]["change"])
    return record


def _medians(objective, docs):
    """Per test the median over every run's repetitions (pooled)."""
    return objective.test_values(tune_verdict.pooled(docs))
