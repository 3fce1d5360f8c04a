"""The thesis's pattern pictures (pio-bench thesis Figs. 4.1-4.9): bandwidth against buffer size,
one line per temporal mode and per swept setting, the median over repetitions with the min-max
range as error bars, one figure per pattern module; a sweep of one buffer size is drawn as its
ranking instead (sweep_rank), one row per setting."""
from . import plotkit, results, sweep_rank

# Settings that are the plot's axes or its sampling, never a line of their own.
AXES = {"Mode", "BufferSizes", "ModuleReps", "WorkUnits", "ModuleName", "Label"}
# Block fields that are settings a user writes as directives.
SWITCHES = (("collective", "Collective"), ("file_view", "FileView"),
            ("sync_writes", "SyncWrites"))
BW_UNIT = "MiB/s"  # results' bandwidth_MiBps (docs/reference/results.md)


def processes(n):
    """'1 process', '4 processes'."""
    return f"{n} process" + ("" if str(n) == "1" else "es")


def _on_off(v):
    return "on" if v in (True, "true", "on", "1") else "off"


def block_setup(block):
    """A block's settings as the config writes them: {directive: "Directive value"}."""
    s = {}
    for k, v in (block.get("settings") or {}).items():
        if k in AXES:
            continue
        value = " ".join(map(str, v)) if isinstance(v, list) else str(v)
        if k.startswith("Hint:"):
            s[k] = f"{k[5:]} {value}"
        elif k == "Processes":
            s[k] = processes(value)
        else:
            s[k] = f"{k} {value}"
    for field, directive in SWITCHES:
        if field in block:
            s[directive] = f"{directive} {_on_off(block.get(field))}"
    # The I/O interface and its own settings (docs/reference/interfaces.md): a line per interface
    # swept.
    s["Interface"] = f"Interface {results.interface(block)}"
    for k, v in (block.get("interface_settings") or {}).items():
        if str(v) not in ("0", "off"):  # an interface's settings at their defaults say nothing
            s[k] = f"{k} {v}"
    return s


def lines_of(blocks):
    """{line name: {buffer size: [bandwidth per repetition]}} of one module's blocks: a line per
    temporal mode, per setting that differs between the blocks and per process count; and the
    name parts every line shares (said once, in the title)."""
    setups = [block_setup(b) for b in blocks]
    varying = sorted({k for s in setups for k in s if len({x.get(k) for x in setups}) > 1})
    procs = {t.get("procs") for b in blocks for t in b.get("tests") or []}
    parts_of, values = {}, {}
    for b, s in zip(blocks, setups):
        for t in b.get("tests") or []:
            if t.get("error") or not t.get("reps") or t.get("comm"):
                continue
            mode = (t.get("params") or {}).get("mode", "")
            parts = [mode] + [s[k] for k in varying if k in s]
            if len(procs) > 1:
                parts.append(processes(t.get("procs")))
            parts = tuple(p for p in parts if p) or (b.get("label", ""),)
            size = results.buffer_bytes(t)
            vals = [r["bandwidth_MiBps"] for r in t["reps"]]
            if size and plotkit.positive(vals):
                parts_of[parts] = parts
                values.setdefault(parts, {}).setdefault(size, []).extend(vals)
    common = set.intersection(*(set(p) for p in values)) if len(values) > 1 else set()
    out = {}
    for parts, pts in values.items():
        name = ", ".join(p for p in parts if p not in common) or ", ".join(parts)
        out[name] = pts
    return out, [p for p in next(iter(values), ()) if p in common]


def draw(ax, lines, run=0, first_style=0, tag=""):
    """Median with min-max error bars per line; lines are dodged a little along x so their
    bars stay apart. Returns the sizes drawn."""
    sizes = set()
    n = len(lines)
    for i, (name, pts) in enumerate(lines.items()):
        xs = sorted(pts)
        shift = 2 ** (0.06 * (i - (n - 1) / 2)) if n > 1 else 1.0
        med = [plotkit.median(pts[x]) for x in xs]
        lo = [m - min(pts[x]) for m, x in zip(med, xs)]
        hi = [max(pts[x]) - m for m, x in zip(med, xs)]
        st = dict(plotkit.style(first_style + i), **plotkit.run_style(run))
        label = f"{tag}: {name}" if tag else name
        ax.errorbar([x * shift for x in xs], med, yerr=[lo, hi], capsize=3, label=label,
                    linewidth=1.4, markersize=5, elinewidth=0.9, **st)
        sizes.update(xs)
    return sizes


def figures(module, runs):
    """[(name, figure)]: one figure per pattern module; runs = [(tag, blocks), ...]."""
    per_run, common = [], []
    for tag, blocks in runs:
        lines, shared = lines_of(blocks)
        per_run.append((tag, lines))
        common = common or shared
    if not any(lines for _, lines in per_run):
        return []
    if len(per_run) == 1 and len(per_run[0][1]) >= 3 and \
            all(len(pts) == 1 for pts in per_run[0][1].values()):
        # A sweep of one buffer size: lines of one point each would stack at one x; the
        # decision view draws one row per setting instead.
        return sweep_rank.figures(sweep_rank.rank_blocks([runs[0][1]]))
    fig, (ax,) = plotkit.new_figure(1, width=11.5, height=5.0)
    sizes = set()
    names = list(dict.fromkeys(n for _, lines in per_run for n in lines))
    for k, (tag, lines) in enumerate(per_run):
        for name in lines:
            sizes |= draw(ax, {name: lines[name]}, k, names.index(name), tag)
    plotkit.size_axis(ax, sizes, "buffer size [bytes]")
    ax.set_yscale("log")
    ax.set_ylabel(f"bandwidth [{BW_UNIT}]")
    ax.grid(True, which="both", alpha=0.3)
    plotkit.legend_beside(ax)
    title = runs[0][1][0].get("module_name", module).split(" (")[0]
    every = f" ({', '.join(common)})" if common else ""
    ax.set_title(f"{title}{every}: bandwidth against buffer size\n"
                 "median over repetitions, bars: min-max", fontsize=10)
    return [(plotkit.safe(module), plotkit.finish(fig))]
