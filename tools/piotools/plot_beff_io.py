"""b_eff_io's diagrams (the b_eff_io paper, §5.3 and its figure of bandwidth per chunk size):
for each partition one figure with a panel per access method (write, rewrite, read), bandwidth
against chunk size, one line per pattern type 0-4; the b_eff_io value and its definition in the
title. Drawn from the module's `chunks` figure table."""
import re

from . import plotkit, results

METHODS = ("write", "rewrite", "read")
# The module's chunk order (modules/beff_io/figure.cpp): sizes, the +8 byte variants, M_PART
# and type 1's fill.
CHUNK_ORDER = ["1K", "1K+8", "32K", "32K+8", "1M", "1M+8", "MPART", "fill"]
TYPE_COLUMN = re.compile(r"type (\d) (\S+) (\S+)$")


def type_columns(columns):
    """[(column, type number, type name, unit)] of the chunks table's per-type columns."""
    out = []
    for c in columns:
        m = TYPE_COLUMN.match(c)
        if m:
            out.append((c, int(m.group(1)), m.group(2), m.group(3)))
    return out


def definition(block):
    """'original (b_eff_io 2.1)' or 'paper'."""
    v, _ = results.figure_value(block, "definition_original")
    return "original (b_eff_io 2.1)" if v else "paper (§5.1)"


def title(block, procs, tag=""):
    """The b_eff_io figure, its definition and whether it meets the rule."""
    value, unit = results.figure_value(block, f"P{procs} b_eff_io")
    best, _ = results.figure_value(block, "b_eff_io")
    meets, _ = results.figure_value(block, "meets_rule")
    head = f"{tag}: " if tag else ""
    line1 = (f"{head}b_eff_io, {procs} processes: {value:.4g} {unit}"
             if value is not None else f"{head}b_eff_io, {procs} processes")
    if best is not None:
        line1 += f" (system b_eff_io {best:.4g} {unit})"
    rule = "meets the rule" if meets else "does not meet the rule (see notes)"
    return f"{line1}\ndefinition {definition(block)}; {rule}"


def curves(block):
    """{partition: {method: {type label: [(chunk, value), ...]}}} and the unit."""
    rows, cols = results.figure_table(block, "chunks")
    types = type_columns(cols)
    out, unit = {}, types[0][3] if types else "MB/s"
    for r in rows:
        for col, n, name, _ in types:
            v = r.get(col)
            if isinstance(v, (int, float)) and v > 0:
                out.setdefault(int(r["partition"]), {}).setdefault(r["method"], {}).setdefault(
                    f"type {n} ({name})", []).append((str(r["chunk"]), float(v)))
    return out, unit


def figures(module, runs):
    """[(name, figure)]: one figure per block and partition; `runs` as in plots.figures."""
    out = []
    compare = any(tag for tag, _ in runs)  # --compare: say which run
    for tag, blocks in runs:
        for block in blocks:
            data, unit = curves(block)
            for procs, methods in sorted(data.items()):
                present = [m for m in METHODS if methods.get(m)]
                fig, axes = plotkit.new_figure(len(present), height=4.4, sharey=True)
                for ax, m in zip(axes, present):
                    chunks = [c for c in CHUNK_ORDER
                              if any(c == p[0] for pts in methods[m].values() for p in pts)]
                    for label, pts in sorted(methods[m].items()):
                        i = int(label.split()[1])
                        pts = sorted(pts, key=lambda p: chunks.index(p[0]))
                        ax.plot([chunks.index(c) for c, _ in pts], [v for _, v in pts],
                                label=label, **plotkit.style(i))
                    ax.set_xticks(range(len(chunks)), chunks)
                    ax.set_xlabel("chunk size l [bytes]")
                    ax.set_title(m, fontsize=10)
                    ax.set_yscale("log")
                    ax.grid(True, which="both", alpha=0.3)
                axes[0].set_ylabel(f"bandwidth [{unit}]")
                plotkit.legend_beside(axes[-1], title="pattern type")
                fig.suptitle(title(block, procs, tag if compare else ""), fontsize=10)
                name = f"{module}-P{procs}"
                if len(blocks) > 1:
                    name += f"-{plotkit.safe(block.get('label', ''))}"
                out.append((plotkit.safe(f"{tag}_{name}" if compare else name),
                            plotkit.finish(fig)))
    return out
