"""The tools on tests whose figure of merit is operations per second (the metadata family,
docs/reference/metadata.md). data/metadata1.json and metadata2.json are two real runs on this
machine (trimmed by trim_fixture.py): the metadata module at 2 ranks on /dev/shm, Items 300 per
rank, ModuleReps 3, a block `mdtest-easy` (Mode easy, FileSize 0) and a block `mdtest-hard` (Mode
hard, FileSize 3901, FindName *01*), each with the phases create stat read find remove. Expected
values are read from the documents' own `ops_per_s` fields here, never through the tools."""
import copy
import json
import math
import statistics

import matplotlib
import matplotlib.pyplot as plt
import pytest

from conftest import data, write_doc
from piotools import compare, plots, report, results
from piotools.profile import Profile

matplotlib.use("Agg")
PHASES = ["create", "stat", "read", "find", "remove"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def raw(name):
    with open(data(name), encoding="utf-8") as f:
        return json.load(f)


def medians(doc):
    """{(mode, procs): {phase: median ops_per_s}} straight from a document's JSON."""
    out = {}
    for b in doc["modules"]:
        for t in b["tests"]:
            assert t["rate_unit"] == "ops/s"
            key = (t["params"]["mode"], t["procs"])
            out.setdefault(key, {})[t["params"]["phase"]] = statistics.median(
                r["ops_per_s"] for r in t["reps"])
    return out


def metadata_figure(docs):
    found = {n: (f, fam) for n, f, fam in plots.figures(docs)}
    assert "metadata" in found, sorted(found)
    fig, fam = found["metadata"]
    assert fam == "metadata"
    return fig


def bars(ax):
    """{label: [(x, height, hatch)]} of the axes' bar groups."""
    out = {}
    for c in ax.containers:
        if type(c).__name__ == "BarContainer":
            out[c.get_label()] = [(p.get_x() + p.get_width() / 2, p.get_height(), p.get_hatch())
                                  for p in c.patches]
    return out


def test_fixtures_are_operation_rates_without_bandwidth():
    for name in ("metadata1.json", "metadata2.json"):
        d = raw(name)
        tests = [t for b in d["modules"] for t in b["tests"]]
        assert len(tests) == 10 and all(t["procs"] == 2 for t in tests)
        for t in tests:
            assert t["rate_unit"] == "ops/s" and len(t["reps"]) == 3
            for r in t["reps"]:
                # create/stat/read/remove count 300 items per rank; find the entries scanned.
                assert r["ops"] == 600 or t["params"]["phase"] == "find"
                assert r["ops_per_s"] == pytest.approx(r["ops"] / r["aggregate_time_s"])
            if t["params"]["file_size"] == "0":  # no bytes moved: bandwidth is no measure
                assert all(r["bandwidth_MiBps"] == 0 for r in t["reps"])


def test_merit_reads_the_unit_from_the_result():
    md = results.tests(results.load(data("metadata1.json")))[0]
    m = results.merit(md)
    assert (m.field, m.unit, m.higher_is_better) == ("ops_per_s", "ops/s", True)
    assert m.values == [r["ops_per_s"] for r in raw("metadata1.json")["modules"][0]["tests"][0]
                        ["reps"]]
    assert md.unit == "ops/s" and md.metric()[0] == "ops_per_s"
    bw = results.tests(results.load(data("aa1.json")))[0]
    assert (bw.unit, bw.metric()[0]) == ("MiB/s", "bandwidth_MiBps")
    imb = [t for t in results.tests(results.load(data("plots/imb.json"))) if t.is_comm][0]
    assert (imb.unit, imb.metric()[0], imb.metric()[2]) == ("\u00b5s", "t_avg_us", False)


def test_metadata_plot_bars_are_the_median_rates_per_phase_and_layout():
    fig = metadata_figure([results.load(data("metadata1.json"))])
    ax = fig.axes[0]
    assert ax.get_ylabel() == "operations per second [ops/s]"
    assert ax.get_xlabel() == "phase" and ax.get_yscale() == "log"
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == PHASES
    got = bars(ax)
    want = medians(raw("metadata1.json"))
    assert sorted(got) == ["easy, 2 processes", "hard, 2 processes"]
    for (mode, procs), per in want.items():
        drawn = got[f"{mode}, {procs} processes"]
        assert len(drawn) == len(PHASES)
        for (x, h, _), phase in zip(drawn, PHASES):
            assert round(x) == ticks.index(phase)  # the bar sits in its phase's group
            assert h == pytest.approx(per[phase], rel=1e-12)
    # Easy's bars lie left of hard's in every group, and no bar is empty.
    for (xe, he, _), (xh, hh, _) in zip(got["easy, 2 processes"], got["hard, 2 processes"]):
        assert xe < xh and he > 0 and hh > 0
    assert "operations per second per phase" in ax.get_title()


def test_metadata_plot_of_two_runs_hatches_the_second():
    d1, d2 = (results.load(data(n)) for n in ("metadata1.json", "metadata2.json"))
    got = bars(metadata_figure([d1, d2]).axes[0])
    assert sorted(got) == ["A: easy, 2 processes", "A: hard, 2 processes",
                           "B: easy, 2 processes", "B: hard, 2 processes"]
    want = medians(raw("metadata2.json"))
    assert [h for _, h, _ in got["B: hard, 2 processes"]] == pytest.approx(
        [want[("hard", 2)][p] for p in PHASES], rel=1e-12)
    assert all(hatch for _, _, hatch in got["B: easy, 2 processes"])
    assert not any(hatch for _, _, hatch in got["A: easy, 2 processes"])


def test_compare_compares_operation_rates_and_shows_the_unit(tool, capsys):
    status = tool("pio-compare").main([data("metadata1.json"), data("metadata2.json"), "--all"])
    out = capsys.readouterr().out
    # Two single runs of 3 repetitions, 2-10x apart: no verdict can be supported, and it says so.
    assert status == compare.EXIT_INCONCLUSIVE, out
    header = out.splitlines()[0].split()
    assert header[:4] == ["verdict", "test", "metric", "unit"]
    want1, want2 = medians(raw("metadata1.json")), medians(raw("metadata2.json"))
    for mode in ("easy", "hard"):
        for phase in PHASES:
            line = next(x for x in out.splitlines() if f"mdtest-{mode} / {mode} {phase}" in x)
            assert " ops_per_s  ops/s " in line, line
            assert f"{want1[(mode, 2)][phase]:.0f}" in line and \
                f"{want2[(mode, 2)][phase]:.0f}" in line, line
    assert "10 tests: 10 inconclusive" in out


def test_compare_change_is_the_ratio_of_median_rates(tmp_path):
    base = raw("metadata1.json")
    cand = copy.deepcopy(base)
    for b in cand["modules"]:
        for t in b["tests"]:
            for r in t["reps"]:
                r["ops_per_s"] *= 0.5
    rep = compare.compare_runs([results.load(write_doc(tmp_path / "a.json", base))],
                               results.load(write_doc(tmp_path / "b.json", cand)))
    assert len(rep["rows"]) == 10
    for r in rep["rows"]:
        assert (r["metric"], r["unit"], r["higher_is_better"]) == ("ops_per_s", "ops/s", True)
        assert r["change"] == pytest.approx(-0.5)
        assert r["median_candidate"] == pytest.approx(0.5 * r["median_baseline"])


def profile(tmp_path, text):
    p = tmp_path / "p.profile"
    p.write_text(text)
    return Profile(str(p))


def test_score_scores_operation_rates_in_ops_per_s(tool, tmp_path, capsys):
    d = results.load(data("metadata1.json"))
    s = tool("pio-score").score(d, profile(tmp_path, "metadata easy * 3\nmetadata hard * 1\n"))
    assert s["skipped"] == [] and s["unweighted"] == [] and len(s["weighted"]) == 10
    assert s["score_MiBps"] is None and list(s["scores"]) == ["ops/s"]
    want = medians(raw("metadata1.json"))
    # Each rule's weight shared by its 5 phases: 3/5 per easy test, 1/5 per hard test.
    expected = math.exp(sum(w * math.log(want[(m, 2)][p]) for m, w in (("easy", 0.6),
                                                                       ("hard", 0.2))
                            for p in PHASES) / 4.0)
    assert s["scores"]["ops/s"] == pytest.approx(expected)
    assert all(e["unit"] == "ops/s" for e in s["weighted"])
    p = tmp_path / "p.profile"
    assert tool("pio-score").main([data("metadata1.json"), "--profile", str(p)]) == 0
    out = capsys.readouterr().out
    assert f"score {expected:.4g} ops/s" in out and "skipped" not in out


def test_score_keeps_bandwidth_and_rates_apart(tool, tmp_path):
    mixed = raw("aa1.json")
    mixed["modules"] += raw("metadata1.json")["modules"]
    rules = "simple_strided * * 1\nsegmented * * 1\nmetadata * * 1\n"
    s = tool("pio-score").score(results.load(write_doc(tmp_path / "m.json", mixed)),
                                profile(tmp_path, rules))
    alone = tool("pio-score").score(results.load(data("aa1.json")), profile(tmp_path, rules))
    assert s["score_MiBps"] == pytest.approx(alone["score_MiBps"])
    assert set(s["scores"]) == {"MiB/s", "ops/s"}
    for unit in s["scores"]:
        assert sum(e["share"] for e in s["weighted"] if e["unit"] == unit) == pytest.approx(1)


def test_report_shows_operation_rates():
    d = results.load(data("metadata1.json"))
    want = medians(raw("metadata1.json"))
    rows = [r for r in report.merits(d) if r[0] == "metadata"]
    assert len(rows) == 10 and all(r[4] == "ops/s" for r in rows)
    easy_create = next(r for r in rows if r[1] == "mdtest-easy" and "create" in r[2])
    assert easy_create[3] == pytest.approx(want[("easy", 2)]["create"])
    page = report.block_table(d["modules"][1])
    # Plain numbers (691077 ops/s, never 6.911e+05).
    assert f"{want[('hard', 2)]['stat']:.0f} ops/s" in page and "MiB/s" not in page
    assert "e+" not in page
