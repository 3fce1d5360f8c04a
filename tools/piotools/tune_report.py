"""pio-report's tuning section (pio-report RESULTS.json --tune summary.json): what pio-tune
searched and found, from its summary.json: the recommendation (or why the defaults stand), the
search over time, which settings mattered (Optuna's importances) and the confirmation table
(pio-compare's verdict per candidate against the defaults)."""
import html
import json

from . import plotkit, text, tune_summary


def esc(x):
    return html.escape("" if x is None else str(x))


def search_figure(summary):
    """The objective of every trial over time: completed trials as dots with the best so far
    as a step line; pruned and failed trials as marks on the axis."""
    rows = summary["trials"]
    fig, (ax,) = plotkit.new_figure(1, width=9.5, height=3.6)
    done = [r for r in rows if r["value"] is not None and r["started_s"] is not None]
    if done:
        xs = [r["started_s"] / 60 for r in done]
        ys = [r["value"] for r in done]
        ax.plot(xs, ys, "o", color="C0", markersize=4, label="trial (complete)")
        best, steps = 0.0, []
        for x, y in sorted(zip(xs, ys)):
            best = max(best, y)
            steps.append((x, best))
        ax.step([s[0] for s in steps], [s[1] for s in steps], where="post", color="C2",
                label="best so far")
        floor = min(ys) * 0.9
    else:
        floor = 1.0
    probe = (summary["study"].get("defaults") or {}).get("value")
    if probe:
        ax.axhline(probe, color="0.4", linestyle="--", linewidth=1,
                   label="the defaults (one run)")
        floor = min(floor, probe * 0.9)
    for state, marker, colour in (("pruned", "x", "C1"), ("failed", "v", "C3")):
        xs = [r["started_s"] / 60 for r in rows if r["state"] == state and r["started_s"]]
        if xs:
            ax.plot(xs, [floor] * len(xs), marker, color=colour, linestyle="none",
                    label=f"trial ({state})")
    ax.set_xlabel("minutes since the study's first trial")
    ax.set_ylabel(f"objective [{summary['study'].get('unit', '')}]")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    plotkit.legend_beside(ax)
    ax.set_title("the search: each trial's objective (higher is better)", fontsize=10)
    return plotkit.finish(fig)


def importance_figure(summary):
    """Optuna's parameter importances as bars, largest on top."""
    imps = summary["importances"]
    names = list(imps)
    fig, (ax,) = plotkit.new_figure(1, width=7.5, height=max(1.8, 0.35 * len(names) + 1.0))
    ax.barh(range(len(names)), [imps[n] for n in names], color="C0")
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("importance (Optuna's fANOVA: share of the objective's variance)")
    ax.set_title("which settings mattered", fontsize=10)
    return plotkit.finish(fig)


def confirmation_table(summary):
    conf = summary.get("confirmation") or {}
    verdicts = conf.get("verdicts") or {}
    if not verdicts:
        return f"<p>{esc(conf.get('note', 'no confirmation'))}</p>"
    head = ["candidate", "settings", "defaults", "candidate value", "change", "95% CI",
            "p (adj.)", "runs (defaults / candidate)", "verdict"]
    body = []
    for name, v in verdicts.items():
        cls = "improvement" if v["proven"] else ""
        settings = " ".join(f"{k}={x}" for k, x in v["values"].items())
        runs = conf["runs"]
        body.append(
            f"<tr><td>{esc(name)}</td><td>{esc(settings)}</td>"
            f'<td class="num">{text.number(v["defaults_value"])}</td>'
            f'<td class="num">{text.number(v["candidate_value"])}</td>'
            f'<td class="num">{text.percent(v["change"])}</td>'
            f'<td class="num">{text.percent(v["ci"][0])} .. {text.percent(v["ci"][1])}</td>'
            f'<td class="num">{v["p_adjusted"]:.2g}</td>'
            f'<td class="num">{len(runs.get("defaults", []))} / {len(runs.get(name, []))}</td>'
            f'<td><span class="{cls}">{esc(v["verdict"])}'
            f'{" (proven)" if v["proven"] else ""}</span></td></tr>')
    return ("<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) +
            "</tr></thead><tbody>" + "".join(body) + "</tbody></table>")


def section(summary):
    """The tuning section as HTML (a <section id="tuning">)."""
    rec = summary["recommendation"]
    s, study = summary["settings"], summary["study"]
    parts = ['<section id="tuning"><h2>Tuning (pio-tune)</h2>',
             f"<p>{esc(summary['config'])}: {len(summary['trials'])} trials, "
             f"{esc(s['sampler'])} sampler (seed {esc(s['seed'])}), budget used "
             f"{study['used_s'] / 60:.1f} of {s['budget_s'] / 60:.1f} min; objective: "
             f"{esc(summary['objective']['describe'])}</p>"]
    if rec["proven"]:
        parts.append(f'<p class="improvement">proven: {rec["speedup"]:.2f}x the defaults '
                     f'(95% CI {rec["ci"][0]:.2f}x .. {rec["ci"][1]:.2f}x); paste into the '
                     f"config:</p><pre>{esc(rec['config_text'])}</pre>")
    else:
        parts.append(f"<p>the defaults stand:</p><pre>"
                     f"{esc(tune_summary.recommendation_text(summary))}</pre>")
    parts.append(f"<figure>{plotkit.svg_text(search_figure(summary))}</figure>")
    if summary["importances"]:
        parts.append(f"<figure>{plotkit.svg_text(importance_figure(summary))}</figure>")
    parts.append("<h3>Confirmation: the candidates against the defaults, interleaved</h3>")
    parts.append(confirmation_table(summary))
    parts.append("</section>")
    return "".join(parts)


class SummaryError(Exception):
    """A file that is not pio-tune's summary.json."""


def load(path):
    """Reads pio-tune's summary.json."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise SummaryError(f"{path}: {e}") from e
    if not isinstance(doc, dict) or doc.get("summary_version") != tune_summary.SUMMARY_VERSION:
        raise SummaryError(f"{path}: not a pio-tune summary (summary_version "
                           f"{tune_summary.SUMMARY_VERSION})")
    return doc
