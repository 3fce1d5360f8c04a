"""The metadata family's picture (mdtest's phases, docs/reference/metadata.md): operations per
second per phase, a bar group per phase and a bar per layout (easy / hard) and process count, the
median over repetitions with the min-max range as error bars, one figure per module."""
from . import plotkit, results

# mdtest's phase order (docs/reference/metadata.md); a phase not listed here follows, in document
# order.
PHASES = ["create", "stat", "read", "find", "remove"]
Y_LABEL = f"operations per second [{results.OPS_UNIT}]"


def is_metadata(blocks):
    """True when the blocks' tests report operations per second (results.merit)."""
    return any(results.merit(t).unit == results.OPS_UNIT
               for b in blocks for t in b.get("tests") or [])


def bars_of(blocks):
    """{(layout, procs): {phase: [ops/s per repetition]}} of one module's completed tests."""
    out = {}
    for b in blocks:
        for t in b.get("tests") or []:
            m = results.merit(t)
            if t.get("error") or m.unit != results.OPS_UNIT or not plotkit.positive(m.values):
                continue
            params = t.get("params") or {}
            key = (params.get("mode", "") or b.get("label", ""), t.get("procs"))
            out.setdefault(key, {}).setdefault(params.get("phase", t.get("label", "")),
                                               []).extend(m.values)
    return out


def phase_order(bars):
    """The phases present, in mdtest's order."""
    seen = list(dict.fromkeys(p for per in bars.values() for p in per))
    return [p for p in PHASES if p in seen] + [p for p in seen if p not in PHASES]


def group_name(layout, procs, tag=""):
    """'easy, 2 processes' (with 'A: ' in front when comparing runs)."""
    name = f"{layout}, {procs} process" + ("" if str(procs) == "1" else "es")
    return f"{tag}: {name}" if tag else name


def figures(module, runs):
    """[(name, figure)]: one bar chart per metadata module; runs = [(tag, blocks), ...]. Each
    bar's height is the median over repetitions of `ops_per_s`."""
    groups = []  # (run index, tag, layout, procs, {phase: values})
    for k, (tag, blocks) in enumerate(runs):
        for (layout, procs), per in sorted(bars_of(blocks).items(), key=lambda kv: str(kv[0])):
            groups.append((k, tag, layout, procs, per))
    if not groups:
        return []
    phases = phase_order({i: g[4] for i, g in enumerate(groups)})
    fig, (ax,) = plotkit.new_figure(1, width=10.0, height=5.0)
    width = 0.8 / len(groups)
    # A layout and process count keeps its colour in every run; the second run is hatched.
    colours = list(dict.fromkeys((g[2], g[3]) for g in groups))
    for i, (k, tag, layout, procs, per) in enumerate(groups):
        xs = [j - 0.4 + width * (i + 0.5) for j, p in enumerate(phases) if p in per]
        vals = [per[p] for p in phases if p in per]
        med = [plotkit.median(v) for v in vals]
        err = [[m - min(v) for m, v in zip(med, vals)], [max(v) - m for m, v in zip(med, vals)]]
        ax.bar(xs, med, width * 0.92, yerr=err, capsize=3, label=group_name(layout, procs, tag),
               color=f"C{colours.index((layout, procs)) % 10}", hatch="//" if k else None, edgecolor="0.2", linewidth=0.6,
               error_kw={"elinewidth": 0.9, "ecolor": "0.15"})
    ax.set_xticks(range(len(phases)), phases)
    ax.set_xlabel("phase")
    ax.set_yscale("log")
    ax.set_ylabel(Y_LABEL)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    plotkit.legend_beside(ax)
    title = runs[0][1][0].get("module_name", module)
    ax.set_title(f"{title}: operations per second per phase\n"
                 "median over repetitions, bars: min-max", fontsize=10)
    return [(plotkit.safe(module), plotkit.finish(fig))]


def merit_rows(blocks):
    """pio-report's headline rows: (block, what, median ops/s, unit) per phase of each block."""
    rows = []
    for b in blocks:
        for (layout, procs), per in bars_of([b]).items():
            for p in phase_order({0: per}):
                rows.append((b.get("label"), f"median {p} rate, {group_name(layout, procs)}",
                             plotkit.median(per[p]), results.OPS_UNIT))
    return rows
