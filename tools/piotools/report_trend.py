"""pio-report --nightly DIR: the nightly job's page (docs/guides/regression.md), from
DIR/history.sqlite: a row per night with its verdict and its tests' verdicts, and per test its
medians night after night, each point coloured by that night's verdict for the test."""
import html
import os

from matplotlib.ticker import FuncFormatter

from . import history, plotkit, text

# Colours of the verdicts, on the page and in the pictures.
COLOURS = {"regression": "#c62828", "improvement": "#2e7d32", "inconclusive": "#ef8f00",
           "flagged": "#ef8f00", "not comparable": "#6d4c41", "no significant change": "#555",
           "no regression": "#2e7d32", "first night": "#1565c0", None: "#999"}

STYLE = """
body{font-family:sans-serif;margin:1.5em auto;max-width:1150px;color:#222;line-height:1.35}
table{border-collapse:collapse;margin:.6em 0;font-size:.88em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f2f2f2}
.verdict{font-weight:bold;border-radius:.6em;padding:0 .5em;color:#fff}
figure{margin:.6em 0;display:inline-block;width:49%}figure svg{max-width:100%;height:auto}
"""


def esc(x):
    return html.escape("" if x is None else str(x))


def badge(verdict):
    """A night's or a test's verdict as a coloured label ("not compared" when unknown)."""
    return (f'<span class="verdict" style="background:{COLOURS.get(verdict, "#999")}">'
            f"{esc(verdict or 'not compared')}</span>")


def test_figure(name, rows):
    """A test's medians (min-max bars) night by night, each point in its verdict's colour."""
    fig, (ax,) = plotkit.new_figure(1, width=5.6, height=2.6)
    xs = list(range(len(rows)))
    for x, r in zip(xs, rows):
        if r["median"] is None:
            continue
        colour = COLOURS.get(r["verdict"], "#999")
        ax.errorbar([x], [r["median"]], yerr=[[r["median"] - r["min"]], [r["max"] - r["median"]]],
                    fmt="o", color=colour, capsize=2, markersize=5)
    meds = [r["median"] for r in rows if r["median"] is not None]
    if meds:
        ax.plot([x for x, r in zip(xs, rows) if r["median"] is not None], meds, color="0.75",
                linewidth=0.8, zorder=0)
    if meds and min(r["min"] for r in rows if r["min"]) > 0:
        ax.set_yscale("log")
    plain = FuncFormatter(lambda v, _pos: text.number(v, 3, trim=True))
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.set_xticks(xs, [r["date"][:10] for r in rows], rotation=45, ha="right", fontsize=7)
    unit = {"bandwidth_MiBps": "MiB/s", "ops_per_s": "ops/s", "t_avg_us": "µs"}.get(
        rows[0]["metric"], rows[0]["metric"])
    better = "higher" if rows[0]["higher_is_better"] else "lower"
    ax.set_ylabel(f"median [{unit}]", fontsize=8)
    ax.set_title(f"{name} ({better} is better)", fontsize=8)
    ax.grid(True, alpha=0.3)
    return plotkit.svg_text(plotkit.finish(fig))


def render(directory, last=30):
    """The page as one string: the nights of DIR/history.sqlite, newest first, and a picture
    per test."""
    path = os.path.join(directory, "history.sqlite")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such history (pio-nightly writes it in its DIR)")
    db = history.open_db(path)
    nights = history.nights(db, last)
    title = f"pio-nightly: {len(nights)} nights in {os.path.abspath(directory)}"
    out = [f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}'
           f"</title><style>{STYLE}</style></head><body><h1>{esc(title)}</h1>"]
    counts = {}
    for n in nights:
        counts[n["verdict"]] = counts.get(n["verdict"], 0) + 1
    out.append('<p id="tally">' + ", ".join(f"{c} {esc(v or 'not compared')}"
                                            for v, c in sorted(counts.items(),
                                                               key=lambda x: str(x[0]))) + "</p>")
    rows = []
    for n in reversed(nights):
        tests = ", ".join(f"{c} {v}" for v, c in sorted(n["tests"].items()))
        rows.append(f"<tr><td>{esc(n['date'])}</td><td>{badge(n['verdict'])}</td>"
                    f"<td>{esc(tests)}</td><td>{esc(n['system_label'])}</td>"
                    f"<td>{esc(n['file_system'])}</td><td>{esc(n['path'])}</td></tr>")
    out.append('<table id="nights"><thead><tr><th>night</th><th>verdict</th><th>tests</th>'
               "<th>system</th><th>file system</th><th>results</th></tr></thead><tbody>"
               + "".join(rows) + "</tbody></table>")
    out.append('<section id="tests"><h2>Each test, night by night</h2><p>Points: the night\'s '
               "median with its min-max range, coloured by the night's verdict for the test ("
               + ", ".join(f'<span style="color:{c}">{esc(v)}</span>'
                           for v, c in COLOURS.items() if v) + ").</p>")
    for label in history.labels(db):
        for name, series in history.trend(db, label, last).items():
            worst = [r["verdict"] for r in series if r["verdict"] not in
                     (None, "no significant change")]
            out.append(f'<figure data-test="{esc(name)}" data-verdicts="{esc(" ".join(worst))}">'
                       f"{test_figure(name, series)}</figure>")
    out.append("</section><footer><p>written by pio-report --nightly from "
               f"{esc(path)}; a test's numbers: pio-compare --history {esc(path)} --trend "
               "'BLOCK/TEST'</p></footer></body></html>")
    return "\n".join(out)
