"""What every family's picture shares: size and unit texts, line styles that stay apart, tick
labels that never overlap, legends beside the data, and saving a figure as PNG and SVG."""
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Ten colours and, after them, the same colours with another dash and marker: twenty lines can
# be told apart before anything repeats.
DASHES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def safe(name):
    """A file-name-safe version of a module or table name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "module"


def size_label(n):
    """0, 512, 64K, 1M ... for axis ticks and legends."""
    n = int(n)
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


def style(i):
    """Colour, line style and marker of the i-th line of a plot."""
    return {"color": f"C{i % 10}", "linestyle": DASHES[(i // 10) % len(DASHES)],
            "marker": MARKERS[(i // 10) % len(MARKERS)]}


def run_style(run):
    """How the second run of --compare differs from the first (its line and marker)."""
    return {} if run == 0 else {"linestyle": "--", "marker": "s", "markerfacecolor": "none"}


def size_axis(ax, sizes, label, axis="x"):
    """A log2 axis of byte sizes with a tick per measured size, labelled 64K, 1M ... (0 sits at
    the far left on a symlog scale)."""
    sizes = sorted({int(s) for s in sizes})
    set_scale = ax.set_xscale if axis == "x" else ax.set_yscale
    if sizes and sizes[0] == 0:
        set_scale("symlog", base=2, linthresh=1, linscale=0.5)
    else:
        set_scale("log", base=2)
    set_ticks = ax.set_xticks if axis == "x" else ax.set_yticks
    set_ticks(sizes, [size_label(s) for s in sizes])
    ax.minorticks_off()
    (ax.set_xlabel if axis == "x" else ax.set_ylabel)(label)


def legend_beside(ax, title=None, fontsize=8):
    """The legend right of the axes, so it never covers a line."""
    return ax.legend(fontsize=fontsize, title=title, title_fontsize=fontsize,
                     loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def tick_boxes(fig, ax, axis="x", renderer=None):
    """Window extents of the visible, non-empty tick labels of one axis: after a draw of `fig`
    (made here unless `renderer` is that of a draw the caller made of the figure as it is)."""
    if renderer is None:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
    labels = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    return [t.get_window_extent(renderer) for t in labels if t.get_visible() and t.get_text()]


def overlapping(boxes):
    """Pairs of boxes that overlap."""
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a.overlaps(b)]


def untangle_ticks(fig):
    """Keeps every x tick label of every axes from overlapping its neighbours: rotate them,
    then show every second, fourth ... label until none overlap."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()

    def clash(ax):
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels()
                 if t.get_visible() and t.get_text()]
        return bool(overlapping(boxes))

    for ax in fig.axes:
        if not ax.get_xticklabels() or not clash(ax):
            continue
        for t in ax.get_xticklabels():
            t.set_rotation(45)
            t.set_horizontalalignment("right")
        step = 2
        while clash(ax) and step < 64:
            for k, t in enumerate(ax.get_xticklabels()):
                t.set_visible(k % step == 0)
            step *= 2


def positive(values):
    """True when a series has a value above zero (an all-zero series is never drawn)."""
    return any(v and v > 0 for v in values)


def median(values):
    return float(np.median(values))


def new_figure(panels=1, width=None, height=4.2, sharey=False):
    """A figure with `panels` axes in a row."""
    width = width or (6.5 if panels == 1 else 4.6 * panels)
    fig, axes = plt.subplots(1, panels, figsize=(width, height), squeeze=False, sharey=sharey)
    return fig, list(axes[0])


def finish(fig):
    """Final layout: tick labels untangled, room for legends."""
    fig.tight_layout()
    untangle_ticks(fig)
    return fig


def save(fig, outdir, name, written, formats=("png", "svg")):
    """Writes `name`.png and .svg under outdir, appends their paths to written, closes."""
    import os
    for ext in formats:
        path = os.path.join(outdir, f"{name}.{ext}")
        fig.savefig(path, dpi=110, bbox_inches="tight")
        written.append(path)
    plt.close(fig)


def svg_text(fig):
    """The figure as an SVG document (for pages that embed it), then closed."""
    import io
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]
