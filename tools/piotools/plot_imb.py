"""The IMB families' pictures (the IMB User Guide's tables drawn): time per operation against
message length, log-log, one line per process count (per group with Multi, per mode for the
IO/EXT aggregate and non-aggregate modes); a throughput panel only for kernels that report
throughput (`comm.report` "bandwidth" or "both") and only when some throughput is above zero."""
from . import plotkit, results

TIME_UNIT = "µs"  # op times are t_*_us (docs/reference/results.md)


def throughput_unit(test):
    """IMB's MB/s is the benchmark's mbytes_unit per second (MiB in IMB 2019+)."""
    return f"{(test.get('params') or {}).get('mbytes_unit', 'MB')}/s"


def line_name(test, group=None):
    """'2 processes', '2 processes, group 1 (Multi)', '2 processes, aggregate'."""
    p = test.get("params") or {}
    np_ = p.get("np") or test.get("procs")
    parts = [f"{np_} process" + ("" if str(np_) == "1" else "es")]
    if (test.get("groups") or 1) > 1:
        parts.append(f"group {group} (Multi)" if group is not None else
                     f"worst of {test['groups']} groups (Multi)")
    if p.get("mode"):
        parts.append(p["mode"])
    return ", ".join(parts)


def lines_of(blocks):
    """{line name: {message bytes: [op, ...]}} and whether any test reports throughput, the
    throughput unit."""
    out, reports_mbs, unit = {}, False, "MB/s"
    for b in blocks:
        for t in b.get("tests") or []:
            if t.get("error") or not t.get("comm"):
                continue
            size = int(t["comm"].get("message_bytes", 0))
            unit = throughput_unit(t)
            reports_mbs |= t["comm"].get("report") in ("bandwidth", "both")
            per_group = results.group_times(t) if (t.get("groups") or 1) > 1 else {}
            if per_group:
                for g, ops in sorted(per_group.items()):
                    out.setdefault(line_name(t, g), {}).setdefault(size, []).extend(ops)
            else:
                ops = results.op_times(t)
                if ops:
                    out.setdefault(line_name(t), {}).setdefault(size, []).extend(ops)
    return out, reports_mbs, unit


def benchmark_name(blocks):
    for b in blocks:
        for t in b.get("tests") or []:
            name = (t.get("params") or {}).get("benchmark")
            if name:
                return name
    return blocks[0].get("module", "")


def figures(module, runs):
    """[(name, figure)]: one figure per IMB module; runs = [(tag, blocks), ...]."""
    per_run = [(tag, *lines_of(blocks)) for tag, blocks in runs]
    if not any(lines for _, lines, _, _ in per_run):
        return []
    unit = per_run[0][3]
    lengths = {x for _, lines, _, _ in per_run for pts in lines.values() for x in pts}
    if len(lengths) == 1:
        return [(plotkit.safe(module), single_length(module, runs, per_run, lengths.pop()))]
    show_mbs = any(rep and any(plotkit.positive([o.get("mbytes_per_s", 0) for ops in ln.values()
                                                 for o in ops]) for ln in lines.values())
                   for _, lines, rep, _ in per_run)
    fig, axes = plotkit.new_figure(2 if show_mbs else 1, width=12 if show_mbs else 8.5,
                                   height=4.4)
    names = list(dict.fromkeys(n for _, lines, _, _ in per_run for n in lines))
    sizes = set()
    for k, (tag, lines, _, _) in enumerate(per_run):
        for name, pts in lines.items():
            xs = sorted(pts)
            sizes.update(xs)
            st = dict(plotkit.style(names.index(name)), **plotkit.run_style(k))
            label = f"{tag}: {name}" if tag else name
            t_avg = [plotkit.median([o["t_avg_us"] for o in pts[x]]) for x in xs]
            axes[0].plot(xs, t_avg, label=label, **st)
            if show_mbs:
                mbs = [plotkit.median([o.get("mbytes_per_s", 0) for o in pts[x]]) for x in xs]
                keep = [(x, v) for x, v in zip(xs, mbs) if v > 0]
                if keep:
                    axes[1].plot([x for x, _ in keep], [v for _, v in keep], label=label, **st)
    for ax in axes:
        plotkit.size_axis(ax, sizes, "message length [bytes]")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel(f"t_avg [{TIME_UNIT}]")
    axes[0].set_title("time per operation (median over repetitions)", fontsize=10)
    if show_mbs:
        axes[1].set_ylabel(f"throughput [{unit}]")
        axes[1].set_title("throughput", fontsize=10)
    plotkit.legend_beside(axes[-1])
    fig.suptitle(f"IMB {benchmark_name(runs[0][1])} ({module})", fontsize=11)
    return [(plotkit.safe(module), plotkit.finish(fig))]


def single_length(module, runs, per_run, length):
    """Kernels with one message length (Barrier, Open_Close): a bar of t_avg per process count
    (and group), the t_min-t_max range as its error bar."""
    fig, (ax,) = plotkit.new_figure(1, width=8, height=4)
    names, values, lo, hi, colours = [], [], [], [], []
    names_all = list(dict.fromkeys(n for _, lines, _, _ in per_run for n in lines))
    for tag, lines, _, _ in per_run:
        for name, pts in lines.items():
            ops = pts[length]
            t = plotkit.median([o["t_avg_us"] for o in ops])
            names.append(f"{tag}: {name}" if tag else name)
            values.append(t)
            lo.append(t - plotkit.median([o["t_min_us"] for o in ops]))
            hi.append(plotkit.median([o["t_max_us"] for o in ops]) - t)
            colours.append(f"C{names_all.index(name) % 10}")
    ys = list(range(len(names)))
    ax.barh(ys, values, xerr=[lo, hi], color=colours, capsize=3)
    ax.set_yticks(ys, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_axisbelow(True)
    ax.set_xlabel(f"t_avg [{TIME_UNIT}] (bars: t_min-t_max)")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.set_title(f"IMB {benchmark_name(runs[0][1])} ({module}): time per operation, "
                 f"message length {plotkit.size_label(length)} bytes", fontsize=10)
    return plotkit.finish(fig)
