"""pio-tune's outputs on a simulated session: the summary, the trials table, the recommendation,
and pio-report's Tuning section (pio-report RUN.json --tune summary.json)."""
import csv
import json
import os
import random
import subprocess
import sys

import optuna

from conftest import TOOLS, SimRunner, sim_doc, space_of
from piotools import tune_confirm, tune_objective, tune_study, tune_summary

optuna.logging.set_verbosity(optuna.logging.WARNING)


def session(tmp, effect):
    """A simulated search and proof; returns the summary as pio-tune writes it."""
    space = space_of({"X": ["a", "b", "c"], "Y": ["1", "2"]})
    runner = SimRunner(lambda v: 100.0 * (effect if v["X"] == "c" else 1.0), 3)
    study = tune_study.open_study(str(tmp / "study.db"), space,
                                  tune_study.make_sampler("tpe", space, 3), False, 0.5)
    objective = tune_objective.Objective()
    tune_study.Search(study, space, objective, runner, log=lambda *_: None).run(float("inf"), 10)
    picked = tune_study.candidates(study, space, 2)
    conf = tune_confirm.confirm(runner, objective, [(f"trial-{t.number}", v) for t, v in picked],
                                4, {"X": "a", "Y": "1"}, 3, log=lambda *_: None)
    rows = tune_study.trial_rows(study, space)
    summary = tune_summary.build(space, objective, {"used_s": 12.0, "unit": "MiB/s",
                                                    "defaults": {"value": 100.0}},
                                 rows, tune_study.importances(study, 0), conf,
                                 {"sampler": "tpe", "seed": 3, "budget_s": 60.0})
    tune_summary.write_json(str(tmp / "summary.json"), summary)
    tune_summary.write_csv(str(tmp / "trials.csv"), rows, space)
    return summary


def test_a_proven_win_is_recommended_and_reported(workdir):
    summary = session(workdir, 2.0)
    rec = summary["recommendation"]
    assert rec["proven"] and rec["values"]["X"] == "c"
    assert 1.7 < rec["speedup"] < 2.3 and rec["ci"][0] > 1.05
    assert "X c\n" in rec["config_text"] and rec["config_text"].startswith("# pio-tune: proven")
    with open(workdir / "trials.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["trial"] for r in rows] == [str(i) for i in range(10)]
    assert rows[0].keys() >= {"trial", "state", "value", "X", "Y", "results", "error"}
    assert "improvement (proven)" in tune_summary.console(summary)
    doc = workdir / "run.json"
    d = sim_doc({"t": 1.0}, 3, random.Random(1), 0.1)
    d.pop("_path")
    d.update(tool_version="0.4.0", date="2026-11-27T00:00:00Z")
    doc.write_text(json.dumps(d))
    out = workdir / "report.html"
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "pio-report"), str(doc), "--tune",
                        str(workdir / "summary.json"), "-o", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    page = out.read_text()
    section = page[page.index('<section id="tuning">'):page.index('<section id="run">')]
    assert "proven: " in section and "X c" in section
    assert section.count("<svg") == 2  # the search over time, the importances
    for name in summary["confirmation"]["verdicts"]:
        assert f"<td>{name}</td>" in section


def test_without_a_proven_win_the_defaults_stand(workdir):
    summary = session(workdir, 1.0)
    assert not summary["recommendation"]["proven"]
    text = tune_summary.recommendation_text(summary)
    assert text.startswith("# pio-tune: the defaults are as good")
    best = max(summary["confirmation"]["verdicts"].values(), key=lambda v: v["change"])
    assert best["verdict"] != "improvement"
    assert "the best candidate measured" in text and f": {best['verdict']})" in text


def test_a_win_refused_on_flagged_figures_is_no_verdict_not_the_defaults_as_good():
    """The quiet tmpfs rerun measured +229 % (95 % CI +162 .. +314 %) and was refused because a
    run of the defaults was flagged wide_spread: that says nothing of whether the defaults are as
    good, and the recommendation must not say they are."""
    flagged = {"change": 2.289, "ci": [1.615, 3.138], "p_adjusted": 0.004, "spread": 0.047,
               "verdict": "flagged", "proven": False,
               "flags": {"wide_spread": "strided / 64K: the repetitions vary by 10 %"}}
    summary = {"recommendation": {"proven": False}, "settings": {},
               "confirmation": {"verdicts": {"trial-13": flagged}}}
    text = tune_summary.recommendation_text(summary)
    assert text.startswith("# pio-tune: no verdict: the confirmation's figures were flagged")
    assert "the config as written stands" in text
    assert "+228.9%" in text and ": flagged: wide_spread)" in text
    assert "--allow wide_spread" in text
    assert "as good" not in text
    assert all(line.startswith("#") for line in text.splitlines())  # pastes as comments
