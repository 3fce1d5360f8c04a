"""b_eff's picture (the b_eff paper, §4 and Table 1): b_eff and its ring and random pattern
classes against message length, L_max marked, with the Table 1 row drawn as a table under it.
Drawn from the module's figure tables."""
import matplotlib.pyplot as plt

from . import plotkit, results

CURVE = "b_eff per message length"
TABLE1 = "Table 1"
SERIES = (("b_eff MB/s", "b_eff"), ("rings MB/s", "ring patterns"),
          ("random MB/s", "random patterns"))


def unit_of(column):
    """'MB/s' from 'b_eff MB/s'."""
    return column.rsplit(" ", 1)[-1]


def header(column):
    """A Table 1 column head on up to three short lines."""
    return column.replace("/proc", "\n/proc").replace(" MB/s", "\nMB/s")


def table_text(value, column):
    """A Table 1 cell as the paper prints it."""
    if column == "L_max":
        return plotkit.size_label(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def figures(module, runs):
    """[(name, figure)] per block with a b_eff curve."""
    out = []
    compare = any(tag for tag, _ in runs)  # --compare: say which run
    for tag, blocks in runs:
        for block in blocks:
            rows, cols = results.figure_table(block, CURVE)
            if not rows:
                continue
            t1, t1cols = results.figure_table(block, TABLE1)
            fig = plt.figure(figsize=(9.5, 5.6))
            grid = fig.add_gridspec(2, 1, height_ratios=[4, 1.1], hspace=0.75)
            ax = fig.add_subplot(grid[0])
            lengths = [int(r["L"]) for r in rows]
            for i, (col, name) in enumerate(SERIES):
                ys = [r.get(col) for r in rows]
                if col in cols and plotkit.positive(ys):
                    ax.plot(lengths, ys, label=name, **plotkit.style(i))
            lmax, _ = results.figure_value(block, "L_max")
            if lmax:
                ax.axvline(lmax, color="0.3", linestyle=":", linewidth=1.2)
                ax.annotate(f"L_max = {plotkit.size_label(lmax)} bytes", (lmax, 0.04),
                            xycoords=("data", "axes fraction"), ha="right",
                            textcoords="offset points", xytext=(-4, 0), fontsize=8)
            plotkit.size_axis(ax, lengths, "message length L [bytes]")
            ax.set_yscale("log")
            ax.set_ylabel(f"bandwidth [{unit_of(SERIES[0][0])}]")
            ax.grid(True, which="both", alpha=0.3)
            plotkit.legend_beside(ax)
            value, unit = results.figure_value(block, "b_eff")
            procs, _ = results.figure_value(block, "processes")
            head = f"{tag}: " if compare else ""
            ax.set_title(f"{head}b_eff = {value:.4g} {unit} on {int(procs or 0)} processes: "
                         "b_eff against message length\n(max over methods and repetitions, "
                         "logavg over ring and random patterns)", fontsize=10)
            if t1:
                tab = fig.add_subplot(grid[1])
                tab.axis("off")
                tab.set_title("Table 1 of the b_eff paper (§4.1)", fontsize=9)
                cells = [[table_text(r.get(c), c) for c in t1cols] for r in t1]
                t = tab.table(cellText=cells, colLabels=[header(c) for c in t1cols],
                              loc="center", cellLoc="center")
                t.auto_set_font_size(False)
                t.set_fontsize(7.5)
                t.scale(1.0, 1.6)
            name = module if len(blocks) == 1 else f"{module}-{block.get('label', '')}"
            plotkit.untangle_ticks(fig)
            out.append((plotkit.safe(f"{tag}_{name}" if compare else name), fig))
    return out
