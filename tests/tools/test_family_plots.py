"""What each family's picture means, read back from matplotlib's objects: its lines and their
labels, the x values each line holds, the axes' labels and units, no all-zero series and tick
labels that do not overlap. The documents under data/plots/ are real runs on this machine
(trimmed by trim_fixture.py): quick*.json conf/quick.conf at 4 ranks (twice), imb.json
PingPong/Allreduce/Bcast/Sendrecv/Barrier at 4 ranks (NpMin 1: 1, 2 and 4 processes),
imb-multi.json the same with Multi 1, beff.json b_eff at 4 ranks, beff_io.json b_eff_io with
Partitions 2 4, commtest.json COMMTEST at 2 ranks, tuning.json docs/examples/tuning-sweep.conf."""
import functools
import math
import os
import re

import matplotlib
import matplotlib.pyplot as plt
import pytest

from conftest import DATA, make_doc
from piotools import plotkit, plots, results

matplotlib.use("Agg")
PLOTS = os.path.join(DATA, "plots")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def doc(name):
    return results.load(os.path.join(PLOTS, name + ".json"))


@functools.lru_cache(maxsize=None)
def recorded(*names):
    """plots.figures of the recorded documents `names`, made once per session: the tests only
    read the figures (drawing them changes no artist), and making every figure of a document
    for each test took most of this file's time."""
    return tuple(plots.figures([doc(n) for n in names]))


def figure(docs, name):
    """The figure called `name` among the figures of `docs`: documents, or the names of
    recorded ones (their figures made once, by recorded())."""
    made = recorded(*docs) if all(isinstance(d, str) for d in docs) else plots.figures(docs)
    found = {n: f for n, f, _ in made}
    assert name in found, sorted(found)
    return found[name]


def series(ax):
    """{label: (x values, y values)} of the labelled lines and error-bar lines of `ax`."""
    out = {}
    for c in ax.containers:
        if hasattr(c, "lines") and c.get_label() and not c.get_label().startswith("_"):
            line = c.lines[0]
            out[c.get_label()] = (list(line.get_xdata()), list(line.get_ydata()))
    for line in ax.get_lines():
        label = line.get_label()
        if label and not label.startswith("_"):
            out[label] = (list(line.get_xdata()), list(line.get_ydata()))
    return out


def log2s(xs):
    """Dodged sizes back to their power of two."""
    return sorted({round(math.log2(x)) for x in xs})


def test_patterns_one_line_per_mode_and_collective_setting():
    fig = figure(["quick"], "simple_strided")
    ax = fig.axes[0]
    lines = series(ax)
    assert set(lines) == {"write, Collective off", "read, Collective off",
                          "read-modify-write, Collective off", "re-read, Collective off",
                          "re-write, Collective off", "write, Collective on"}
    for xs, ys in lines.values():
        assert log2s(xs) == [16, 20]  # 64K and 1M, every line both
        assert all(y > 0 for y in ys)
    assert ax.get_xlabel() == "buffer size [bytes]"
    assert ax.get_ylabel() == "bandwidth [MiB/s]"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["64K", "1M"]
    # The median is drawn: the write line's 1M point is the median of the three repetitions.
    b = doc("quick")["modules"][0]
    t = [t for t in b["tests"] if t["buffer_size"] == 1 << 20][0]
    want = sorted(r["bandwidth_MiBps"] for r in t["reps"])[1]
    assert lines["write, Collective off"][1][1] == pytest.approx(want)


def test_patterns_sweep_names_settings_as_the_config_writes_them():
    fig = figure(["tuning"], "simple_strided")
    lines = series(fig.axes[0])
    assert len(lines) == 12
    # The mode every line shares is said once, in the title.
    assert "Collective on, cb_buffer_size 1M, romio_cb_write enable" in lines
    assert "(write)" in fig.axes[0].get_title()
    # Twelve lines, twelve different (colour, dash, marker) styles.
    styles = {(str(c.lines[0].get_color()), c.lines[0].get_linestyle(), c.lines[0].get_marker())
              for c in fig.axes[0].containers}
    assert len(styles) == 12
    legend = fig.axes[0].get_legend()
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    assert not legend.get_window_extent(r).overlaps(fig.axes[0].get_window_extent(r))


def test_patterns_never_join_two_process_counts():
    one = make_doc({("simple_strided", "S", "1M", "write", 1 << 20): [10.0, 11.0]}, processes=1)
    two = make_doc({("simple_strided", "S", "1M", "write", 1 << 20): [20.0, 21.0],
                    ("simple_strided", "S", "4M", "write", 4 << 20): [30.0, 31.0]}, processes=2)
    one["modules"] += two["modules"]
    one["_path"] = "x"
    ax = figure([one], "simple_strided").axes[0]
    lines = series(ax)
    assert {k: log2s(v[0]) for k, v in lines.items()} == {"1 process": [20],
                                                          "2 processes": [20, 22]}
    assert "(write)" in ax.get_title()


def test_beff_io_a_panel_per_method_a_line_per_pattern_type():
    d = doc("beff_io")
    names = [n for n, _, fam in recorded("beff_io") if fam == "beff_io"]
    assert names == ["beff_io-P2", "beff_io-P4"]  # partitions as separate files
    fig = figure(["beff_io"], "beff_io-P4")
    assert [ax.get_title() for ax in fig.axes] == ["write", "rewrite", "read"]
    types = [f"type {i} ({n})" for i, n in enumerate(
        ["scatter", "shared", "separate", "segmented", "seg-coll"])]
    write = series(fig.axes[0])
    assert sorted(write) == types
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks[0] == "1K" and "MPART" in ticks and len(set(ticks)) == len(ticks)
    assert fig.axes[0].get_ylabel() == "bandwidth [MB/s]"  # Definition original: MB/s
    assert all(ax.get_xlabel() == "chunk size l [bytes]" for ax in fig.axes)
    # Type 0's write at 1 MiB chunks is the chunks table's cell.
    rows, _ = results.figure_table(d["modules"][0], "chunks")
    cell = [r for r in rows if r["partition"] == 4 and r["method"] == "write"
            and r["chunk"] == "1M"][0]["type 0 scatter MB/s"]
    xs, ys = write["type 0 (scatter)"]
    assert ys[xs.index(ticks.index("1M"))] == pytest.approx(cell)
    value, _ = results.figure_value(d["modules"][0], "P4 b_eff_io")
    assert f"{value:.4g} MB/s" in fig._suptitle.get_text()
    assert "definition original" in fig._suptitle.get_text()
    # Rewrite is type 0 alone in the original definition.
    assert list(series(fig.axes[1])) == ["type 0 (scatter)"]


def test_beff_against_message_length_with_lmax_and_table1():
    d = doc("beff")
    fig = figure(["beff"], "beff")
    ax = fig.axes[0]
    lines = series(ax)
    assert set(lines) == {"b_eff", "ring patterns", "random patterns"}
    rows, _ = results.figure_table(d["modules"][0], "b_eff per message length")
    for xs, _ in lines.values():
        assert xs == [r["L"] for r in rows]
    assert lines["b_eff"][1] == pytest.approx([r["b_eff MB/s"] for r in rows])
    lmax, _ = results.figure_value(d["modules"][0], "L_max")
    marks = [ln for ln in ax.get_lines() if list(ln.get_xdata()) == [lmax, lmax]]
    assert len(marks) == 1
    assert ax.get_ylabel() == "bandwidth [MB/s]"
    tables = [t for a in fig.axes for t in a.tables]
    assert len(tables) == 1
    t1, cols = results.figure_table(d["modules"][0], "Table 1")
    texts = {c.get_text().get_text() for c in tables[0].get_celld().values()}
    assert f"{t1[0]['b_eff MB/s']:.4g}" in texts and str(t1[0]["processes"]) in texts


@pytest.mark.parametrize("module,panels", [("imb_allreduce", 1), ("imb_bcast", 1),
                                           ("imb_sendrecv", 2), ("imb_pingpong", 2)])
def test_imb_a_line_per_process_count_throughput_only_where_reported(module, panels):
    d = doc("imb")
    fig = figure(["imb"], module)
    assert len(fig.axes) == panels
    lines = series(fig.axes[0])
    blocks = [b for b in d["modules"] if b["module"] == module]
    per_np = {}
    for t in blocks[0]["tests"]:
        per_np.setdefault(t["params"]["np"], []).append(t["comm"]["message_bytes"])
    assert set(lines) == {("1 process" if n == "1" else f"{n} processes") for n in per_np}
    for name, (xs, ys) in lines.items():
        n = name.split()[0]
        assert xs == sorted(per_np[n])  # never a point of another process count
        assert all(y > 0 for y in ys)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_xscale() == "symlog"
    assert ax.get_ylabel() == "t_avg [µs]" and ax.get_xlabel() == "message length [bytes]"
    if panels == 2:
        assert fig.axes[1].get_ylabel() == "throughput [MiB/s]"
        for xs, ys in series(fig.axes[1]).values():
            assert 0 not in xs and all(y > 0 for y in ys)


def test_imb_multi_a_line_per_group():
    fig = figure(["imb-multi"], "imb_allreduce")
    names = set(series(fig.axes[0]))
    assert {"2 processes, group 0 (Multi)", "2 processes, group 1 (Multi)",
            "4 processes"} <= names
    assert "1 process, group 3 (Multi)" in names


def test_imb_single_length_kernel_is_a_bar_per_process_count():
    fig = figure(["imb"], "imb_barrier")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1 process", "2 processes",
                                                           "4 processes"]
    assert len(ax.patches) == 3 and all(p.get_width() > 0 for p in ax.patches)
    assert ax.get_xlabel().startswith("t_avg [µs]")


def test_commtest_time_against_count_with_the_model():
    d = doc("commtest")
    fig = figure(["commtest"], "commtest")
    stats, _ = results.figure_table(d["modules"][0], "statistics")
    times, _ = results.figure_table(d["modules"][0], "times")
    ax = fig.axes[0]
    lines = series(ax)
    measured = {k: v for k, v in lines.items() if not k.strip().startswith("model")}
    models = {k: v for k, v in lines.items() if k.strip().startswith("model")}
    assert measured and len(models) >= 1
    assert all("a = " in k and "b = " in k and "error" in k for k in models)
    assert ax.get_xlabel() == "messages per swap N [count]"
    assert ax.get_ylabel() == "T_N [µs]"
    # A panel per protocol: 11 + 10 protocols of the COMMTEST description, in id order.
    assert len(fig.axes) == len(stats) // 2 == 21
    assert ax.get_title() == "(0,0) simple basic warm"
    assert set(measured) == {"0-1 128KB", "0-1 8KB"}
    # Every measured point is a T_N of the times table of its experiment and protocol.
    for name, (xs, ys) in measured.items():
        experiment = name.split()[1]
        want = {r["N"]: r["T_N [us]"] for r in times
                if r["experiment"] == experiment and r["protocol"] == "(0,0)"}
        assert xs == sorted(want) and ys == pytest.approx([want[n] for n in xs])


def test_compare_overlays_both_runs_and_draws_the_change():
    a, b = doc("quick"), doc("quick2")
    fig = figure(["quick", "quick2"], "simple_strided")
    lines = series(fig.axes[0])
    assert "A: write, Collective on" in lines and "B: write, Collective on" in lines
    ca = [c for c in fig.axes[0].containers if c.get_label() == "A: write, Collective on"][0]
    cb = [c for c in fig.axes[0].containers if c.get_label() == "B: write, Collective on"][0]
    assert ca.lines[0].get_color() == cb.lines[0].get_color()
    assert ca.lines[0].get_marker() != cb.lines[0].get_marker()
    change, res = plots.change_figure(a, b)
    rows = [r for r in res["rows"] if r.get("ci") is not None]
    assert len(change.axes[0].containers) == len(rows) > 10
    assert change.axes[0].get_xscale() == "log"


@pytest.mark.parametrize("name", ["quick", "imb", "imb-multi", "beff", "beff_io", "commtest",
                                  "tuning"])
def test_every_figure_has_units_no_zero_series_and_readable_ticks(name):
    figs = recorded(name)
    assert figs
    for fname, fig, _ in figs:
        where = f"{name}:{fname}"
        fig.canvas.draw()  # once per figure: every axes' tick labels are read from this draw
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            if not ax.axison:
                continue  # b_eff's Table 1
            assert re.search(r"\[.+\]", ax.get_xlabel()), (where, ax.get_xlabel())
            if ax.get_ylabel():
                assert re.search(r"\[.+\]", ax.get_ylabel()), (where, ax.get_ylabel())
            for label, (xs, ys) in series(ax).items():
                assert xs and plotkit.positive(ys), (where, label)
            for axis in ("x", "y"):
                boxes = plotkit.tick_boxes(fig, ax, axis, renderer)
                assert not plotkit.overlapping(boxes), (where, axis)
        assert any(ax.axison and ax.get_ylabel() for ax in fig.axes) or \
            fig.axes[0].get_yticklabels(), where
        plt.close(fig)


def blocks_of(document):
    """{module: [block, ...]} of a results document."""
    return dict(results.blocks_by_label(document))


def test_the_family_is_the_one_the_harness_recorded_not_the_module_name():
    # A module named like another family, and one whose name says nothing: the recorded
    # `family` decides (docs/reference/results.md), so a site's module is drawn as it declares.
    d = make_doc({("beff", "B", "64K", "write", 65536): [10.0, 11.0],
                  ("site_ops", "S", "64K", "write", 65536): [12.0, 13.0]})
    for b in d["modules"]:
        b["family"] = {"beff": "patterns", "site_ops": "metadata"}[b["module"]]
    by_module = blocks_of(d)
    assert plots.family("beff", by_module["beff"]) == "patterns"
    assert plots.family("site_ops", by_module["site_ops"]) == "metadata"
    # A family these tools do not know yet is drawn as the patterns are.
    for b in d["modules"]:
        b["family"] = "a_newer_family"
    assert plots.family("beff", blocks_of(d)["beff"]) == "patterns"


@pytest.mark.parametrize("name, module, family", [
    ("beff", "beff", "beff"), ("beff_io", "beff_io", "beff_io"),
    ("commtest", "commtest", "commtest"), ("imb", "imb_pingpong", "imb"),
    ("quick", "simple_strided", "patterns")])
def test_files_recorded_before_the_family_field_still_read(name, module, family):
    # The recorded runs under data/plots/ predate `family`: each block's family is read from
    # what its tests measured, as the tools did before.
    d = doc(name)
    assert all("family" not in b for b in d["modules"])
    assert plots.family(module, blocks_of(d)[module]) == family


def test_recorded_metadata_run_without_the_field_is_metadata():
    from conftest import data
    d = results.load(data("metadata1.json"))
    assert plots.family("metadata", blocks_of(d)["metadata"]) == "metadata"
