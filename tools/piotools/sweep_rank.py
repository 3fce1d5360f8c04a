"""The decision view of a sweep already run (pio-tune rank, and pio-plot for a sweep of one
buffer size): per test of a swept config block, its settings ranked by median, each compared
with the best by pio-compare's statistics (tune_verdict.versus_best: the change with its 95 %
interval, Holm-corrected), the group indistinguishable from the best, and the settings that
cannot have mattered named as such: read from the results, an MPI-IO hint the library did not
put in effect, collective-buffering hints under Collective off, Collective and MPI-IO hints
under Interface posix, write hints of a read test (and read hints of a write), data sieving
under enabled collective buffering; settings left the same by that are one setting measured
several times (duplicates). Drawn as a sorted chart: one row per setting."""
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from . import plotkit, results, romio, text, tune_verdict

# Block settings that are sampling or output, never what a sweep compares (a setting the same in
# every ranked block is not shown either).
AXES = {"Mode", "ModuleReps", "LayoutTrace"}
READ_MODES = ("read", "re-read")
WRITE_MODES = ("write", "re-write")


def on_off(v):
    return "on" if v in (True, "true", "on", "1", 1) else "off"


def settings_of(block, test):
    """A setting's vector as the config writes it: {name: value}."""
    v = {"Interface": results.interface(block), "Collective": on_off(block.get("collective")),
         "FileView": on_off(block.get("file_view", True)),
         "SyncWrites": on_off(block.get("sync_writes"))}
    for k, words in (block.get("settings") or {}).items():
        if k not in AXES and not k.startswith("Hint:"):
            v[k] = " ".join(map(str, words)) if isinstance(words, list) else str(words)
    for k, val in (block.get("interface_settings") or {}).items():
        v[k] = str(val)
    for k, val in (test.get("hints_requested") or {}).items():
        v["Hint:" + k] = str(val)
    return v


def inert(vector, test, varying):
    """{setting: why it has no effect here} among the varying settings of one member."""
    out = {}
    iface, coll = vector.get("Interface"), vector.get("Collective")
    mode = (test.get("params") or {}).get("mode", "")
    effect = test.get("hints_in_effect") or {}
    for k in varying:
        if k not in vector:
            continue
        hint = k[5:] if k.startswith("Hint:") else None
        if iface == "posix" and (hint or k in ("Collective", "FileView")):
            out[k] = "Interface posix: no MPI-IO (each rank's pwrite/pread)"
        elif iface != "mpiio" and k == "FileView":
            out[k] = f"Interface {iface}: file views are MPI-IO's"
        elif hint and hint in romio.CB_HINTS and coll == "off":
            out[k] = "collective buffering acts on collective calls only (Collective off)"
        elif hint and mode in READ_MODES and hint.endswith("_write"):
            out[k] = f"a {mode} test writes nothing timed"
        elif hint and mode in WRITE_MODES and hint.endswith("_read"):
            out[k] = f"a {mode} test reads nothing timed"
        elif hint == "romio_ds_write" and coll == "on" and \
                effect.get("romio_cb_write") == "enable" and mode not in READ_MODES:
            out[k] = ("collective writes go through the aggregators' buffers "
                      "(romio_cb_write enable), not data sieving")
        elif hint == "romio_ds_read" and coll == "on" and \
                effect.get("romio_cb_read") == "enable" and mode not in WRITE_MODES:
            out[k] = ("collective reads go through the aggregators' buffers "
                      "(romio_cb_read enable), not data sieving")
        elif hint and effect.get(hint) != vector[k]:
            out[k] = f"not in effect (the MPI library reports {effect.get(hint, 'nothing')})"
    return out


def effective_value(key, vector, test):
    """What a setting was in effect: a hint as the MPI library reports it after open (a
    requested value it replaced counts as the value it used), anything else as written."""
    if key.startswith("Hint:"):
        return (test.get("hints_in_effect") or {}).get(key[5:], "not set")
    return vector[key]


class Member:
    """One setting of a ranked test: its block label, settings and values per run."""

    def __init__(self, label, block, test):
        self.label, self.block, self.test = label, block, test
        self.vector = settings_of(block, test)
        self.runs = []
        m = results.merit(test)
        self.unit, self.higher = m.unit, m.higher_is_better
        self.rank = 0
        self.versus = None  # the comparison with the best (None for the best itself)
        self.inert, self.duplicate_of, self.effective = {}, None, ()

    @property
    def values(self):
        return [v for r in self.runs for v in r]

    @property
    def median(self):
        return plotkit.median(self.values)

    def name(self, varying):
        def shown(v):  # a hint's byte count as the config writes sizes
            return plotkit.size_label(v) if v.isdigit() and int(v) >= 1024 else v
        return " ".join(f"{k[5:] if k.startswith('Hint:') else k}={shown(self.vector[k])}"
                        for k in varying if k in self.vector) or self.label

    def status(self, threshold):
        """best; same (indistinguishable from the best); unproven (the interval lies below the
        threshold, but the difference is not significant); worse; or not compared."""
        v = self.versus
        if v is None:
            return "best"
        if "change" not in v:
            return "not compared"
        if not v["indistinguishable"]:
            return "worse"
        return "unproven" if v["ci"][1] < -threshold else "same"


class Group:
    """The settings of one test (a module, its mode and the test's place in its blocks) over the
    blocks that ran it, ranked."""

    def __init__(self, module, mode, index):
        self.module, self.mode, self.index = module, mode, index
        self.members = {}
        self.varying = []

    @property
    def where(self):
        """The config blocks the settings come from."""
        return ", ".join(dict.fromkeys(m.block.get("config", "") for m in self.members.values()))

    @property
    def ranked(self):
        return sorted(self.members.values(), key=lambda m: m.rank)

    def title(self):
        m = self.ranked[0]
        labels = {x.test.get("label") for x in self.members.values()}
        test = m.test.get("label") if len(labels) == 1 else f"test {self.index + 1}"
        mode = f" ({self.mode})" if self.mode else ""
        return f"{self.module}{mode} {test}, {self.where}: {len(self.members)} settings"


def collect(runs):
    """{(module, mode, test index): Group} over every run's blocks (runs of one config
    pooled)."""
    groups = {}
    for blocks in runs:
        for b in blocks:
            mode = " ".join((b.get("settings") or {}).get("Mode") or [])
            for i, t in enumerate(b.get("tests") or []):
                if t.get("error") or not t.get("reps"):
                    continue
                key = (b.get("module", ""), mode, i)
                g = groups.setdefault(key, Group(*key))
                label = b.get("label") or b.get("module", "")
                m = g.members.setdefault(label, Member(label, b, t))
                m.runs.append(list(results.merit(t).values))
    return groups


def rank_group(g, threshold):
    members = list(g.members.values())
    keys = sorted({k for m in members for k in m.vector})
    g.varying = [k for k in keys if len({m.vector.get(k) for m in members}) > 1]
    members.sort(key=lambda m: -m.median if m.higher else m.median)
    for i, m in enumerate(members):
        m.rank = i + 1
    best = members[0]
    for m, v in zip(members[1:], tune_verdict.versus_best(
            best.runs, [m.runs for m in members[1:]], best.higher, threshold)):
        m.versus = v
    firsts = {}
    for m in members:
        m.inert = inert(m.vector, m.test, g.varying)
        m.effective = tuple((k, effective_value(k, m.vector, m.test)) for k in g.varying
                            if k in m.vector and (k not in m.inert or
                                                  m.inert[k].startswith("not in effect")))
        if m.effective in firsts:
            m.duplicate_of = firsts[m.effective]
        else:
            firsts[m.effective] = m


def rank(docs, threshold=0.05):
    """[Group] of every test that two or more settings ran, each ranked."""
    return rank_blocks([d.get("modules") or [] for d in docs], threshold)


def rank_blocks(runs, threshold=0.05):
    """rank() of runs given as their lists of blocks."""
    out = []
    for g in collect(runs).values():
        if len(g.members) >= 2:
            rank_group(g, threshold)
            g.threshold = threshold
            out.append(g)
    return out


STATUS_TEXT = {"best": "", "same": "as good as the best", "worse": "worse",
               "unproven": "worse? not proven", "not compared": "not compared"}


def best_group(g):
    """The members indistinguishable from the best (the best included)."""
    return [m for m in g.ranked if m.versus is None or m.versus.get("indistinguishable")]


def text_view(groups):
    """The ranking as console text."""
    out = []
    for g in groups:
        ranked = g.ranked
        runs = max(len(m.runs) for m in ranked)
        out.append(f"\n{g.title()} ({ranked[0].unit}, "
                   f"{'higher' if ranked[0].higher else 'lower'} is better; "
                   f"{runs} run{'s' if runs > 1 else ''} pooled)")
        body = []
        for m in ranked:
            v = m.versus
            if v is None:
                change, ci, verdict = "best", "", ""
            elif "change" not in v:
                change, ci, verdict = "", "", v["verdict"] + ": " + v["reason"]
            else:
                change = text.percent(v["change"])
                ci = f"[{text.percent(v['ci'][0])}, {text.percent(v['ci'][1])}]"
                verdict = STATUS_TEXT[m.status(g.threshold)] + f" (p adj. {v['p_adjusted']:.2g})"
            note = f"same setting as #{m.duplicate_of.rank}" if m.duplicate_of else ""
            body.append([str(m.rank), m.name(g.varying), text.number(m.median),
                         str(len(m.values)), change, ci, verdict, note])
        out.append(text.table(["#", "setting", "median", "n", "vs best", "95% CI", "verdict",
                               "note"], body, "rlrrrrll"))
        status = {}
        for m in ranked:
            status.setdefault(m.status(g.threshold), []).append(f"#{m.rank}")
        out.append("as good as the best (their order is noise): " +
                   ", ".join(status.get("best", []) + status.get("same", [])))
        if status.get("unproven"):
            out.append("worse by their medians, not proven (pio-compare: not significant or "
                       "within the best's own spread): " + ", ".join(status["unproven"]))
        if status.get("worse"):
            out.append("worse (proven): " + ", ".join(status["worse"]))
        fewest = min(len(m.values) for m in ranked)
        floor = tune_verdict.smallest_p(len(ranked[0].values), fewest, len(ranked) - 1)
        if floor >= 0.05:
            out.append(f"note: with {len(ranked[0].values)} against {fewest} repetitions and "
                       f"{len(ranked) - 1} comparisons no difference can be significant (the "
                       f"smallest p after Holm is {floor:.2g}): run more repetitions "
                       "(ModuleReps, Rounds, or several runs)")
        noeffect = {}  # (settings, why) -> ranks
        for m in ranked:
            by_why = {}
            for k, why in m.inert.items():
                by_why.setdefault(why, []).append(k[5:] if k.startswith("Hint:") else k)
            for why, keys in by_why.items():
                noeffect.setdefault((", ".join(keys), why), []).append(m.rank)
        for (keys, why), ranks in noeffect.items():
            out.append(f"no effect in #{', #'.join(map(str, ranks))}: {keys}: {why}")
        dups = {}
        for m in ranked:
            if m.duplicate_of:
                dups.setdefault(m.duplicate_of.rank, []).append(m.rank)
        for first, others in dups.items():
            eff = " ".join(f"{k}={v}" for k, v in g.ranked[first - 1].effective) or \
                "the settings in effect"
            out.append(f"duplicates: #{first} and #{', #'.join(map(str, others))} are one "
                       f"setting ({eff}) measured {len(others) + 1} times: a free A/A check "
                       "of the noise")
    return "\n".join(out)


def figure(g):
    """The sorted chart of one group: a row per setting, best on top; x: performance relative
    to the best (log scale) with the 95 % interval; green: indistinguishable from the best;
    hollow: a duplicate; the median on the right."""
    ranked = g.ranked
    fig, (ax,) = plotkit.new_figure(1, width=11.5, height=max(2.6, 0.32 * len(ranked) + 1.5))
    colours = {"best": "C2", "same": "C2", "unproven": "C1", "worse": "0.45",
               "not compared": "0.7"}
    lo_x, hi_x = 1.0, 1.0
    for y, m in enumerate(ranked):
        colour = colours[m.status(g.threshold)]
        face = "none" if m.duplicate_of else colour
        v = m.versus
        if v is None or "change" not in v:
            x, err = 1.0, None
        else:
            x = 1 + v["change"]
            err = [[x - (1 + v["ci"][0])], [(1 + v["ci"][1]) - x]]
            lo_x = min(lo_x, 1 + v["ci"][0], x)
            hi_x = max(hi_x, 1 + v["ci"][1])
        ax.errorbar([x], [y], xerr=err, fmt="o", color=colour, markerfacecolor=face,
                    capsize=3, markersize=6)
    ax.set_xscale("log")
    lo_x = max(lo_x, 1e-3)
    ax.set_xlim(lo_x / 1.3, min(10.0, max(1.6, hi_x * 1.15)))
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"×{x:.3g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    t = 0.05
    ax.axvspan(1 / (1 + t), 1 + t, color="0.92", zorder=0)
    ax.axvline(1, color="0.5", linewidth=0.8)
    labels = []
    for m in ranked:
        label = f"#{m.rank} {m.name(g.varying)}"
        if m.duplicate_of:
            label += f"  (= #{m.duplicate_of.rank})"
        labels.append(label)
    ax.set_yticks(range(len(ranked)), labels, fontsize=7.5)
    ax.invert_yaxis()
    sec = ax.secondary_yaxis("right")
    sec.set_yticks(range(len(ranked)), [f"{text.number(m.median)} {m.unit}" for m in ranked],
                   fontsize=7.5)
    ax.set_xlabel("performance relative to the best setting (bars: 95 % interval of the ratio "
                  "of medians; grey band: within 5 %)")
    ax.set_title(f"{g.title()}\nranked by median; green: as good as the best; orange: worse, "
                 "not proven; grey: worse;\nhollow: the same setting as a row above", fontsize=9)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    return plotkit.finish(fig)


def figures(groups):
    """[(name, figure)] one per ranked group."""
    out = []
    for g in groups:
        name = plotkit.safe(f"rank-{g.module}-{g.mode}-test{g.index + 1}")
        out.append((name, figure(g)))
    return out
