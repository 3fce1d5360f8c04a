"""COMMTEST's picture (the COMMTEST description's spreadsheet drawn): the time of one swap T_N
against the number of messages N it is split into, one line per protocol (and variant and way),
a panel per pairing and experiment, with the fitted linear model T_N = a*N + b*volume drawn
dashed and a, b and the model's error in the legend. Drawn from the module's figure tables."""
from . import plotkit, results

SERIES_KEY = ("pairing", "experiment", "protocol", "variant", "way")


def key(row):
    return tuple(str(row.get(k, "")) for k in SERIES_KEY)


def num(v):
    return v if isinstance(v, (int, float)) else None


def series(block):
    """{(pairing, experiment): {line name: (points [(N, bytes, T_N us)], stats row)}}."""
    times, _ = results.figure_table(block, "times")
    stats, _ = results.figure_table(block, "statistics")
    by_key = {key(s): s for s in stats}
    out = {}
    for r in times:
        t = num(r.get("T_N [us]"))
        if not t or t <= 0:
            continue
        s = by_key.get(key(r), {})
        name = " ".join(str(x) for x in (r.get("protocol"), s.get("name"), r.get("variant"),
                                         r.get("way")) if x not in (None, "", "-"))
        panel = (str(r.get("pairing")), str(r.get("experiment")))
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


def figures(module, runs):
    """[(name, figure)] per block with COMMTEST tables."""
    out = []
    compare = len(runs) > 1
    for tag, blocks in runs:
        for block in blocks:
            panels = series(block)
            if not panels:
                continue
            fig, axes = plotkit.new_figure(len(panels), width=max(9.5, 5.2 * len(panels)),
                                           height=4.8)
            for ax, ((pairing, experiment), lines) in zip(axes, sorted(panels.items())):
                ns = set()
                for i, (name, (pts, stats)) in enumerate(sorted(lines.items())):
                    pts = sorted(pts)
                    xs = [p[0] for p in pts]
                    ns.update(xs)
                    st = plotkit.style(i)
                    ax.plot(xs, [p[2] for p in pts], label=name, **st)
                    a, b = num(stats.get("a [us]")), num(stats.get("b [ns/B]"))
                    if a is not None and b is not None:
                        volume = pts[0][0] * pts[0][1]
                        ax.plot(xs, [a * n + b * 1e-3 * volume for n in xs], color=st["color"],
                                linestyle="--", linewidth=0.9, marker=None,
                                label=f"  model: {model_label(stats)}")
                ax.set_xscale("log", base=2)
                ax.set_xticks(sorted(ns), [str(n) for n in sorted(ns)])
                ax.minorticks_off()
                ax.set_yscale("log")
                ax.set_xlabel("messages per swap N (message size = volume / N)")
                ax.set_ylabel("T_N, time of one swap [µs]")
                ax.set_title(f"{pairing}, {experiment}", fontsize=9)
                ax.grid(True, which="both", alpha=0.3)
            plotkit.legend_beside(axes[-1], fontsize=7)
            head = f"{tag}: " if compare else ""
            fig.suptitle(f"{head}COMMTEST: swap time against message count, with the linear "
                         "model T_N = a·N + b·volume", fontsize=10)
            name = module if len(blocks) == 1 else f"{module}-{block.get('label', '')}"
            out.append((plotkit.safe(f"{tag}_{name}" if compare else name), plotkit.finish(fig)))
    return out
