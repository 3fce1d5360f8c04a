"""COMMTEST's picture (the COMMTEST description's spreadsheet drawn): the time of one swap T_N
against the number of messages N it is split into, a panel per protocol (and variant and way),
a line per pairing and experiment, with the fitted linear model T_N = a*N + b*volume drawn
dashed and a, b and the model's error in the panel's legend. Drawn from the module's figure tables."""
import math

import matplotlib.pyplot as plt

from . import plotkit, results

SERIES_KEY = ("pairing", "experiment", "protocol", "variant", "way")


def key(row):
    return tuple(str(row.get(k, "")) for k in SERIES_KEY)


def num(v):
    return v if isinstance(v, (int, float)) else None


def series(block):
    """{protocol (and variant, way): {pairing experiment: (points [(N, bytes, T_N us)],
    stats row)}}."""
    times, _ = results.figure_table(block, "times")
    stats, _ = results.figure_table(block, "statistics")
    by_key = {key(s): s for s in stats}
    out = {}
    for r in times:
        t = num(r.get("T_N [us]"))
        if not t or t <= 0:
            continue
        s = by_key.get(key(r), {})
        panel = " ".join(str(x) for x in (r.get("protocol"), s.get("name"), r.get("variant"),
                                          r.get("way")) if x not in (None, "", "-"))
        name = f"{r.get('pairing')} {r.get('experiment')}"
        pts, _ = out.setdefault(panel, {}).setdefault(name, ([], s))
        pts.append((int(r["N"]), int(r["message bytes"]), t))
    return out


def model_label(stats):
    """'a = 1.2 µs, b = 0.31 ns/B, error mean 3 % (max 7 %)' or '' without a model."""
    a, b = num(stats.get("a [us]")), num(stats.get("b [ns/B]"))
    if a is None or b is None:
        return ""
    text = f"a = {a:.3g} µs, b = {b:.3g} ns/B"
    mean, mx = num(stats.get("model err mean [%]")), num(stats.get("model err max [%]"))
    if mean is not None:
        text += f", error {mean:.2g} %" + (f" (max {mx:.2g} %)" if mx is not None else "")
    return text


def protocol_order(item):
    """(0,2) before (0,10): the protocol ids as numbers."""
    head = item[0].split(")")[0].strip("(")
    try:
        return tuple(int(x) for x in head.split(",")), item[0]
    except ValueError:
        return (1 << 30,), item[0]


def figures(module, runs):
    """[(name, figure)] per block with COMMTEST tables."""
    out = []
    compare = any(tag for tag, _ in runs)  # --compare: say which run
    for tag, blocks in runs:
        for block in blocks:
            panels = series(block)
            if not panels:
                continue
            cols = min(4, len(panels))
            rows = -(-len(panels) // cols)
            fig, grid = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows),
                                     squeeze=False, layout="constrained")
            axes = [a for r in grid for a in r]
            for ax in axes[len(panels):]:
                ax.remove()
            ns = set()
            for ax, (panel, lines) in zip(axes, sorted(panels.items(), key=protocol_order)):
                for i, (name, (pts, stats)) in enumerate(sorted(lines.items())):
                    pts = sorted(pts)
                    xs = [p[0] for p in pts]
                    ns.update(xs)
                    st = plotkit.style(i)
                    ax.plot(xs, [p[2] for p in pts], label=name, markersize=3.5, **st)
                    a, b = num(stats.get("a [us]")), num(stats.get("b [ns/B]"))
                    if a is not None and b is not None:
                        volume = pts[0][0] * pts[0][1]
                        ax.plot(xs, [a * n + b * 1e-3 * volume for n in xs], color=st["color"],
                                linestyle="--", linewidth=0.9, marker=None,
                                label=f"model: {model_label(stats)}")
                ax.set_xscale("log", base=2)
                ax.set_yscale("log")
                ax.set_title(panel, fontsize=8)
                ax.grid(True, which="both", alpha=0.3)
                ax.legend(fontsize=5.5, loc="upper left")
            for ax in axes[:len(panels)]:
                ticks = [n for n in sorted(ns) if n & (n - 1) == 0 and
                         round(math.log2(n)) % 2 == 0]
                ax.set_xticks(ticks, [str(n) for n in ticks])
                ax.minorticks_off()
                ax.tick_params(labelsize=7)
                ax.set_xlabel("messages per swap N [count]", fontsize=8)
                ax.set_ylabel("T_N [µs]", fontsize=8)
            head = f"{tag}: " if compare else ""
            fig.suptitle(f"{head}COMMTEST: swap time against message count, with the linear "
                         "model T_N = a·N + b·volume\n(T_N: time of one swap, the maximum over "
                         "the processes; message size = volume / N)", fontsize=10)
            name = module if len(blocks) == 1 else f"{module}-{block.get('label', '')}"
            plotkit.untangle_ticks(fig)
            out.append((plotkit.safe(f"{tag}_{name}" if compare else name), fig))
    return out
