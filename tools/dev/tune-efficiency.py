#!/usr/bin/python3
"""How fast pio-tune's samplers find a good setting (a developer's measurement,
docs/measurements/tuning.md, "Search efficiency"): from a study that tried every point of a small
space (pio-tune --sampler grid), replay TPE and random search against the recorded objective, seed
after seed, and count the trials each needs to reach within TOLERANCE of the grid's best. The replay
runs nothing: a trial is a lookup of the recorded value, so the samplers are compared on the same
numbers.

  tools/dev/tune-efficiency.py GRID_DIR [--seeds 20] [--tolerance 5%] [--startup 5] [--json]

GRID_DIR is a pio-tune output directory (its study.db and space.json)."""
import argparse
import json
import os
import statistics
import sys

_here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # tools/, for piotools
sys.path.insert(0, _here)

import optuna  # noqa: E402
from optuna.trial import TrialState  # noqa: E402

from piotools import cli, tune_space, tune_study  # noqa: E402


def recorded(grid_dir):
    """{values tuple: objective} of every completed point of the grid study, and the space."""
    space = tune_space.load(os.path.join(grid_dir, "space.json"))
    study = optuna.load_study(study_name=tune_study.STUDY,
                              storage=f"sqlite:///{os.path.join(grid_dir, 'study.db')}")
    table = {}
    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        values = t.user_attrs.get("values") or space.values_of(t.params)
        table[tuple(sorted(values.items()))] = t.value
    return space, table


# The samplers compared: pio-tune's TPE (multivariate), Optuna's default TPE (each setting
# modelled alone) and random search.
SAMPLERS = {"tpe": ("tpe", True), "tpe-independent": ("tpe", False), "random": ("random", True)}


def replay(space, table, sampler, seed, startup, limit):
    """Trials until a trial's value is within the tolerance of the grid's best, at most
    `limit`; a point the grid did not record (a failed trial) counts as a failed trial."""
    best = max(table.values())
    name, multivariate = SAMPLERS[sampler]
    study = optuna.create_study(direction="maximize", sampler=tune_study.make_sampler(
        name, space, seed, startup, multivariate))
    for n in range(1, limit + 1):
        trial = study.ask()
        values = space.suggest(trial)
        value = table.get(tuple(sorted(values.items())))
        if value is None:
            study.tell(trial, state=TrialState.FAIL)
            continue
        study.tell(trial, value)
        if value >= best * replay.target:
            return n
    return None


def summary(counts):
    ok = [c for c in counts if c is not None]
    if not ok:
        return {"median": None, "min": None, "max": None, "q1": None, "q3": None,
                "missed": len(counts)}
    q = statistics.quantiles(ok, n=4) if len(ok) > 1 else [ok[0]] * 3
    return {"median": statistics.median(ok), "q1": q[0], "q3": q[2], "min": min(ok),
            "max": max(ok), "missed": len(counts) - len(ok), "counts": counts}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("grid", metavar="GRID_DIR")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--tolerance", type=cli.fraction, default=0.05)
    ap.add_argument("--startup", type=int, default=5, help="TPE's random first trials")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    space, table = recorded(a.grid)
    if len(table) < space.size():
        print(f"note: the grid recorded {len(table)} of {space.size()} points (the others "
              "failed): a replay that draws one counts it as a failed trial", file=sys.stderr)
    replay.target = 1 - a.tolerance
    best = max(table.values())
    good = sum(v >= best * replay.target for v in table.values())
    out = {"grid": a.grid, "points": space.size(), "recorded": len(table), "best": best,
           "within": good, "tolerance": a.tolerance, "seeds": a.seeds, "startup": a.startup}
    for sampler in SAMPLERS:
        out[sampler] = summary([replay(space, table, sampler, s, a.startup, 10 * space.size())
                                for s in range(a.seeds)])
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    print(f"{a.grid}: {len(table)} of {space.size()} points recorded, best {best:.4g}; "
          f"{good} point(s) within {a.tolerance:.0%} of it (random search's chance per trial "
          f"{good / space.size():.2f})")
    for sampler in SAMPLERS:
        s = out[sampler]
        print(f"  {sampler:15s} trials to within {a.tolerance:.0%} over {a.seeds} seeds: median "
              f"{s['median']}, quartiles {s['q1']}..{s['q3']}, range {s['min']}..{s['max']}"
              + (f", {s['missed']} seed(s) never got there" if s["missed"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
