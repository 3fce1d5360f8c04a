"""Layout traces (the pattern engine's LayoutTrace directive, docs/reference/patterns.md) and their
pictures: which rank touches which file bytes in each work unit (pio-bench thesis §3.4.1,
Figs. 3.5-3.12). The extents are the module's own geometry as recorded; nothing is re-derived."""
import json

from .results import FILE_PER_PROCESS

RANK_LANE = 0.85  # fraction of a rank's lane its rectangles fill (the rest separates ranks)


class TraceError(Exception):
    """A file that is not a layout trace, with the line at fault."""


def load(path):
    """The traced tests of `path`, in file order, duplicates (the same module, label,
    repetition and extents, e.g. from a Collective or hint sweep) dropped. Each is a dict:
    the test line's fields plus "rows": [(rank, unit, [(offset, length), ...], owner)]."""
    tests, seen = [], set()
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise TraceError(f"{path}: {e.strerror}") from None
    current = None
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as e:
            if n > 1:
                raise TraceError(f"{path}:{n}: not JSON ({e.msg})") from None
            rec = None
        if n == 1:
            if not isinstance(rec, dict) or "pio_layout_trace" not in rec:
                raise TraceError(f"{path}:1: not a layout trace (write one with the LayoutTrace "
                                 "directive of a pattern module)")
            continue
        if "test" in rec:
            current = dict(rec["test"], rows=[])
            tests.append(current)
        elif current is None:
            raise TraceError(f"{path}:{n}: extents before any test line")
        else:
            current["rows"].append((rec["rank"], rec["unit"],
                                    [tuple(e) for e in rec["extents"]],
                                    rec.get("owner", rec["rank"])))
    out = []
    for t in tests:
        key = (t["module"], t["label"], t["rep"], json.dumps(t["rows"]))
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


def size_text(n):
    """1K, 64K, 1M ... or the plain number of bytes."""
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(int(n))


def title(test):
    """What the picture shows: module, test, ranks, units, the file and the mode."""
    rep = f", repetition {test['rep']}" if test["rep"] else ""
    where = "each rank's own file" if test["file"] == FILE_PER_PROCESS else "one shared file"
    units = "1 work unit" if test["units"] == 1 else f"{test['units']} work units"
    return (f"{test['module']} {test['label']}{rep}: {test['ranks']} ranks, {units}, {where} "
            f"({test['mode']})")


def clip(offset, length, lo, hi):
    """The part of [offset, offset + length) inside [lo, hi) as (offset, length), or None."""
    a, b = max(offset, lo), min(offset + length, hi)
    return (a, b - a) if b > a else None


def draw(ax, test, max_units=None, zoom=None):
    """Draws `test` on `ax`: file offset along x, one row per work unit (unit 0 on top) split
    into one lane per rank, one rectangle per extent in the rank's colour. Every rectangle gets
    the attribute `pio_rank`. `zoom` = (start, end) draws only those file offsets. Returns
    {rank: rectangles drawn}."""
    from matplotlib.patches import Patch, Rectangle
    from matplotlib.ticker import FuncFormatter

    ranks = test["ranks"]
    units = test["units"] if max_units is None else min(test["units"], max_units)
    lane = 1.0 / ranks
    counts = {r: 0 for r in range(ranks)}
    end = 0
    for rank, unit, extents, owner in test["rows"]:
        if unit >= units:
            continue
        for offset, length in extents:
            if length <= 0:
                continue
            if zoom:
                part = clip(offset, length, *zoom)
                if part is None:
                    continue
                offset, length = part
            rect = Rectangle((offset, unit + rank * lane), length, lane * RANK_LANE,
                             facecolor=f"C{rank % 10}", edgecolor="black", linewidth=0.3,
                             hatch="//" if owner != rank else None)
            rect.pio_rank = rank
            ax.add_patch(rect)
            counts[rank] += 1
            end = max(end, offset + length)
    header = test.get("header_offset", 0)
    if header:
        ax.axvspan(0, header, color="0.85", zorder=0)
    start = zoom[0] if zoom else 0
    end = zoom[1] if zoom else max(end, 1)
    ax.set_xlim(start, end)
    # power-of-two ticks: strips line up with them
    step = 1 << max(0, ((end - start) // 8).bit_length())
    ax.set_xticks(range(start - start % step, end + 1, step))
    for u in range(1, units):
        ax.axhline(u, color="0.6", linewidth=0.5)
    ax.set_ylim(units, 0)
    ax.set_yticks([u + 0.5 for u in range(units)], [str(u) for u in range(units)])
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: size_text(int(x))))
    ax.set_xlabel("file offset [bytes]" + (" (grey: header)" if header else ""))
    ax.set_ylabel("work unit\n(a lane per rank)")
    shown = "" if units == test["units"] else f" (first {units} of {test['units']} units)"
    if zoom:
        shown += f", offsets {size_text(zoom[0])}-{size_text(zoom[1])}"
    ax.set_title(title(test) + shown, fontsize=9)
    handles = [Patch(facecolor=f"C{r % 10}", edgecolor="black", label=f"rank {r}")
               for r in range(ranks)]
    if any(o != r for r, _, _, o in test["rows"]):
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="//",
                             label="holds another rank's data"))
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return counts


def owner_grid(test, wrap, max_units=None, zoom=None, columns=256):
    """The file as rows of `wrap` bytes (a 2-D array's rows when `wrap` is its row length):
    a grid of cells of wrap / columns bytes holding the rank that touched the cell (the rank of
    its first byte's extent, -1 = untouched). Returns (grid, cell bytes, first row's offset)."""
    import numpy as np

    units = test["units"] if max_units is None else min(test["units"], max_units)
    extents = [(rank, off, ln) for rank, unit, ext, _ in test["rows"] if unit < units
               for off, ln in ext if ln > 0]
    lo = zoom[0] if zoom else 0
    hi = zoom[1] if zoom else max((o + n for _, o, n in extents), default=1)
    cell = max(1, wrap // columns)
    first = lo - lo % wrap
    rows = max(1, -(-(hi - first) // wrap))
    grid = np.full((rows, -(-wrap // cell)), -1, dtype=int)
    for rank, off, ln in extents:
        part = clip(off, ln, lo, hi)
        if part is None:
            continue
        a, b = part[0] - first, part[0] + part[1] - first
        for c in range(a // cell, -(-b // cell)):
            grid[c * cell // wrap, (c * cell % wrap) // cell] = rank
    return grid, cell, first


def draw_wrapped(ax, test, wrap, max_units=None, zoom=None):
    """The 2-D view: the file wrapped into rows of `wrap` bytes, each cell coloured by the rank
    that touched it (white: untouched). Returns the grid drawn."""
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    grid, cell, first = owner_grid(test, wrap, max_units, zoom)
    ranks = test["ranks"]
    cmap = ListedColormap(["white"] + [f"C{r % 10}" for r in range(ranks)])
    ax.imshow(np.asarray(grid) + 1, cmap=cmap, vmin=0, vmax=ranks, interpolation="nearest",
              aspect="auto", extent=(0, wrap, first + grid.shape[0] * wrap, first))
    ax.set_xlabel(f"offset within a row of {size_text(wrap)} bytes (cell: {size_text(cell)})")
    ax.set_ylabel("row start offset [bytes]")
    from matplotlib.ticker import FuncFormatter
    from matplotlib.ticker import MultipleLocator
    fmt = FuncFormatter(lambda x, _: size_text(int(x)))
    for axis, span in ((ax.xaxis, wrap), (ax.yaxis, grid.shape[0] * wrap)):
        axis.set_major_locator(MultipleLocator(1 << max(0, (span // 8 - 1).bit_length())))
        axis.set_major_formatter(fmt)
    units = test["units"] if max_units is None else min(test["units"], max_units)
    shown = "" if units == test["units"] else f" (first {units} of {test['units']} units)"
    if zoom:
        shown += f", offsets {size_text(zoom[0])}-{size_text(zoom[1])}"
    ax.set_title(title(test) + shown + f"\nfile wrapped every {size_text(wrap)} bytes",
                 fontsize=9)
    ax.legend(handles=[Patch(facecolor=f"C{r % 10}", edgecolor="black", label=f"rank {r}")
                       for r in range(ranks)], fontsize=7, loc="upper left",
              bbox_to_anchor=(1.01, 1))
    return grid


def auto_wrap(test):
    """A row length for the 2-D view: the pattern's own row (a tiled array's row of tiles,
    a strided pattern's stride) when its parameters give one, else the power of two nearest
    the square root of the extent touched."""
    p = test.get("params") or {}
    dataset, elem = str(p.get("dataset", "")), str(p.get("element_size", ""))
    if "x" in dataset and elem.isdigit():  # tiled: a row of the 2-D dataset
        return int(dataset.split("x")[-1]) * int(elem)
    for key in ("row_bytes", "stride", "array_row_bytes"):
        v = p.get(key)
        if v and str(v).isdigit() and int(v) > 0:
            return int(v)
    end = max((o + n for _, _, ext, _ in test["rows"] for o, n in ext), default=1)
    return 1 << max(4, round(end.bit_length() / 2))
