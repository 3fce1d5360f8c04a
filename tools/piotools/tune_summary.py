"""pio-tune's outputs: the summary document (summary.json, read by pio-report --tune), the
trials table (trials.csv), the recommendation (recommendation.conf: config text ready to paste,
or why the defaults stand) and the console text."""
import csv
import json
import os

from . import text

SUMMARY_VERSION = 1


def build(space, objective, study_info, rows, imps, confirmation, settings):
    """The summary document."""
    winner = confirmation.get("winner") if confirmation else None
    rec = {"proven": winner is not None}
    if winner:
        v = confirmation["verdicts"][winner]
        rec.update(arm=winner, values=v["values"], speedup=1 + v["change"],
                   ci=[1 + v["ci"][0], 1 + v["ci"][1]], p_adjusted=v["p_adjusted"],
                   config_text=space.config_text(
                       v["values"], f"# pio-tune: proven {1 + v['change']:.2f}x over the "
                       f"defaults (95% CI {1 + v['ci'][0]:.2f}x .. {1 + v['ci'][1]:.2f}x)"))
    return {"summary_version": SUMMARY_VERSION, "config": space.config,
            "objective": {"rule": objective.rule, "describe": objective.describe()},
            "space": [{"name": p.name, "kind": p.kind, "domain": p.domain_text(),
                       "defaults": p.defaults(), "global": p.global_} for p in space.params],
            "settings": settings, "study": study_info, "trials": rows, "importances": imps,
            "confirmation": confirmation, "recommendation": rec}


def write_csv(path, rows, space):
    """One row per trial: number, state, value, start, seconds, each parameter, results file,
    error."""
    names = [p.name for p in space.params]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["trial", "state", "value", "started_s", "seconds"] + names +
                   ["results", "error"])
        for r in rows:
            w.writerow([r["trial"], r["state"] + (" (interrupted)" if r["interrupted"] else ""),
                        "" if r["value"] is None else f"{r['value']:.6g}",
                        "" if r["started_s"] is None else f"{r['started_s']:.1f}",
                        "" if r["seconds"] is None else f"{r['seconds']:.2f}"] +
                       [r["values"].get(n, "") for n in names] +
                       [r["results"] or "", r["error"]])


def write_json(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)


def recommendation_text(summary):
    """recommendation.conf: the winning settings, or a comment saying the defaults stand."""
    rec = summary["recommendation"]
    if rec["proven"]:
        return rec["config_text"]
    conf = summary.get("confirmation") or {}
    best = max((v for v in (conf.get("verdicts") or {}).values()),
               key=lambda v: v["change"], default=None)
    why = ("no candidate was confirmed" if best is None else
           f"the best candidate measured {text.percent(best['change'])} "
           f"(95% CI {text.percent(best['ci'][0])} .. {text.percent(best['ci'][1])}, "
           f"p adj. {best['p_adjusted']:.2g}): {best['verdict']}")
    if best is not None and best["verdict"] == "flagged":
        # No verdict at all: the figures, the defaults' or the candidate's, could not be vouched
        # for, so saying the defaults are as good would claim what was not measured.
        names = ",".join(sorted(best.get("flags") or {}))
        return ("# pio-tune: no verdict: the confirmation's figures were flagged, so nothing was "
                "proven and the config as written stands\n"
                f"# ({why}: {names})\n"
                "# rerun with more --rounds or on a quieter machine, or accept the flags with "
                f"--allow {names} where they do not matter (docs/guides/tuning.md)\n")
    out = ("# pio-tune: the defaults are as good: no setting was proven faster than the "
           f"config as written\n# ({why})\n")
    if best is not None and best["ci"][0] > 0:
        factor = (1 + best["spread"]) ** summary["settings"].get("spread_factor", 2.0)
        out += (f"# the defaults' own runs differ by up to {text.percent(best['spread'])[1:]}, "
                f"so a win must exceed x{factor:.3g} (pio-compare's rule: twice the runs' "
                "spread, on a log scale); more --rounds or a quieter machine can tell\n")
    return out


def describe(values):
    return " ".join(f"{k}={v}" for k, v in values.items())


def console(summary):
    """The text pio-tune prints at the end."""
    s, study = summary["settings"], summary["study"]
    rows = summary["trials"]
    states = {}
    for r in rows:
        states[r["state"]] = states.get(r["state"], 0) + 1
    out = [f"\npio-tune: {summary['config']}: {summary['objective']['describe']}",
           f"search: {len(rows)} trials ({', '.join(f'{n} {k}' for k, n in states.items())}), "
           f"{s['sampler']} sampler, seed {s['seed']}; budget used "
           f"{study['used_s'] / 60:.1f} of {s['budget_s'] / 60:.1f} min"]
    done = sorted((r for r in rows if r["value"] is not None), key=lambda r: -r["value"])
    if done:
        out.append(f"best trials ({study.get('unit', '')}):")
        out += [f"  #{r['trial']:<4} {text.number(r['value'])}  {describe(r['values'])}"
                for r in done[:5]]
    if summary["importances"]:
        out.append("which settings mattered (Optuna's fANOVA importances): " + ", ".join(
            f"{k} {v:.2f}" for k, v in summary["importances"].items()))
    conf = summary.get("confirmation") or {}
    if conf.get("verdicts"):
        out.append(f"confirmation: {conf['rounds']} rounds, the arms interleaved in shuffled "
                   "order; pio-compare's verdict on the objective per repetition "
                   f"({study.get('unit', '')}):")
        body = []
        for name, v in conf["verdicts"].items():
            body.append([name, text.number(v["defaults_value"]),
                         text.number(v["candidate_value"]), text.percent(v["change"]),
                         f"[{text.percent(v['ci'][0])}, {text.percent(v['ci'][1])}]",
                         f"{v['p_adjusted']:.2g}",
                         v["verdict"] + (" (proven)" if v["proven"] else "")])
        out.append(text.table(["candidate", "defaults", "candidate", "change", "95% CI",
                               "p (adj.)", "verdict"], body, "lrrrrrl"))
        for name, v in conf["verdicts"].items():
            for flag, why in (v.get("flags") or {}).items():
                out.append(f"flagged: {name}: no proof on a flagged figure: {flag}: {why} "
                           "(pio-tune --allow FLAG accepts it)")
        floor = max(v["p_floor"] for v in conf["verdicts"].values())
        if floor >= summary["settings"].get("alpha", 0.05):
            out.append(f"note: {next(iter(conf['verdicts'].values()))['n_defaults']} samples of "
                       "the defaults against the candidates' cannot reach significance (the "
                       f"smallest p after Holm is {floor:.2g}): raise --rounds or ModuleReps")
    elif conf.get("note"):
        out.append("confirmation: " + conf["note"])
    out.append("")
    out.append(recommendation_text(summary).rstrip())
    return "\n".join(out)
