"""Which family draws a module, and every figure of one or two runs (pio-plot, pio-report).
A figure is returned as (file name without extension, matplotlib Figure) so that tests can
inspect what it shows."""
from . import compare, plot_beff, plot_beff_io, plot_commtest, plot_imb, plot_metadata
from . import plot_patterns, plotkit
from . import results

from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter


def ratio_text(x, _pos=None):
    """x1, x2, x0.5 ... for a ratio axis."""
    return f"×{x:.3g}"

# Each family's drawing, by the results' `family` (docs/reference/results.md).
FAMILIES = {
    "patterns": plot_patterns,
    "beff_io": plot_beff_io,
    "beff": plot_beff,
    "imb": plot_imb,
    "commtest": plot_commtest,
    "metadata": plot_metadata,
}


def family(module, blocks):
    """The family of `module`'s blocks, as the harness recorded it (`family`). A family these
    tools do not know (a newer harness's) is drawn as the patterns are."""
    recorded = [b["family"] for b in blocks if b.get("family")]
    if not recorded:
        return recorded_before_family(module, blocks)
    return recorded[0] if recorded[0] in FAMILIES else "patterns"


def recorded_before_family(module, blocks):
    """The family of a block in a results file written before the harness recorded `family`
    (before 2026-11-27), read from what its tests measured: each of those harnesses'
    modules outside the patterns and IMB was named as its family is (beff, beff_io, commtest,
    metadata)."""
    if module in FAMILIES:
        return module
    if plot_metadata.is_metadata(blocks):
        return "metadata"
    if any(t.get("comm") for b in blocks for t in b.get("tests") or []):
        return "imb"
    return "patterns"


def by_module(docs, tags):
    """{module: [(tag, [block, ...]), ...]} in document order."""
    out = {}
    for tag, doc in zip(tags, docs):
        for module, blocks in results.blocks_by_label(doc).items():
            out.setdefault(module, []).append((tag, blocks))
    return out


def figures(docs, tags=None):
    """[(name, figure, family)] of every module of the runs (one, or two for a comparison)."""
    tags = tags or ([""] if len(docs) == 1 else ["A", "B"])
    out = []
    for module, runs in by_module(docs, tags).items():
        fam = family(module, [b for _, bs in runs for b in bs])
        for name, fig in FAMILIES[fam].figures(module, runs):
            out.append((name, fig, fam))
    return out


def change_figure(base, cand, names=("A", "B"), **options):
    """pio-compare's verdicts as a picture: per test the change of B against A with its
    confidence interval, the threshold shaded; None when no test could be compared."""
    res = compare.compare_runs([base], cand, **options)
    rows = [r for r in res["rows"] if r.get("ci") is not None and r.get("change") is not None]
    if not rows:
        return None, res
    colours = {"regression": "C3", "improvement": "C2"}
    fig, (ax,) = plotkit.new_figure(1, width=9.5, height=max(2.5, 0.28 * len(rows) + 1.4))
    ys = range(len(rows))
    for y, r in zip(ys, rows):
        # Ratios on a log axis: x2 and x0.5 lie equally far from x1.
        mid, (lo, hi) = 1 + r["change"], (1 + r["ci"][0], 1 + r["ci"][1])
        ax.errorbar([mid], [y], xerr=[[mid - lo], [hi - mid]], fmt="o", capsize=3,
                    color=colours.get(r["verdict"], "0.35"))
    t = res["settings"]["threshold"]
    ax.axvspan(1 / (1 + t), 1 + t, color="0.9", zorder=0)
    ax.axvline(1, color="0.5", linewidth=0.8)
    ax.set_xscale("log")
    # Intervals of few repetitions can span decades: the axis follows the changes, and a bar
    # that runs off its edge has no cap there.
    mids = [1 + r["change"] for r in rows]
    ax.set_xlim(min(0.5, min(mids) / 1.5), max(2.0, max(mids) * 1.5))
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(ratio_text))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yticks(list(ys), [r["name"] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"performance of {names[1]} / {names[0]} (right is better; bars: "
                  f"{res['settings']['level'] * 100:g} % confidence interval, grey: within "
                  f"±{t * 100:g} %)")
    ax.set_title("pio-compare: change per test (red: regression, green: improvement)",
                 fontsize=10)
    ax.grid(True, axis="x", which="major", alpha=0.3)
    return plotkit.finish(fig), res
