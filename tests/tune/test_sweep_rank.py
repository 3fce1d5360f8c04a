"""The decision view of a sweep already run (pio-tune rank, and pio-plot for a sweep of one
buffer size), the pooling of Rounds in the tools, and the space's config text and hooks."""
import copy
import json
import os
import random
import subprocess
import sys

from conftest import TOOLS, space_of
from piotools import plots, results, sweep_rank, tune_space


def block(label, collective, hints, values, interface="mpiio", mode="write", effect=None):
    """A block of a Collective x hint sweep with one 1M test whose repetitions are `values`."""
    requested = {k: v for k, v in hints.items()}
    in_effect = dict(effect if effect is not None else requested)
    return {"module": "simple_strided", "label": label, "config": "sweep.conf:3",
            "settings": {"Mode": [mode], "BufferSizes": ["1M"]},
            "collective": collective, "file_view": True, "sync_writes": False,
            "interface": interface, "interface_settings": {}, "error": None,
            "tests": [{"index": 0, "label": "1M", "buffer_size": 1 << 20, "procs": 2,
                       "params": {"mode": mode, "buffer_size": str(1 << 20)},
                       "hints_requested": requested, "hints_in_effect": in_effect,
                       "error": None,
                       "reps": [{"rep": i, "bandwidth_MiBps": v} for i, v in enumerate(values)]}]}


def sweep_doc(seed=1):
    rng = random.Random(seed)

    def reps(m):
        return [m * (1 + 0.02 * rng.uniform(-1, 1)) for _ in range(8)]

    blocks = [
        block("cb=4M cbw=enable Collective=on", True,
              {"cb_buffer_size": "4194304", "romio_cb_write": "enable"}, reps(1000)),
        block("cb=16M cbw=enable Collective=on", True,
              {"cb_buffer_size": "16777216", "romio_cb_write": "enable"}, reps(995)),
        block("cb=4M cbw=disable Collective=on", True,
              {"cb_buffer_size": "4194304", "romio_cb_write": "disable"}, reps(300)),
        block("cb=4M cbw=enable Collective=off", False,
              {"cb_buffer_size": "4194304", "romio_cb_write": "enable"}, reps(100)),
        block("cb=16M cbw=enable Collective=off", False,
              {"cb_buffer_size": "16777216", "romio_cb_write": "enable"}, reps(102)),
        block("posix Collective=on", True, {}, reps(200), interface="posix"),
        block("posix Collective=off", False, {}, reps(201), interface="posix"),
    ]
    return {"schema_version": 3, "tool": "pio-bench", "processes": 2, "file_system": "ext4",
            "mpi_library": "MPICH", "status": "complete", "exit_code": 0, "modules": blocks,
            "_path": "sweep.json"}


def ranked(doc):
    (g,) = sweep_rank.rank([doc])
    return g, {m.label: m for m in g.ranked}


def test_settings_are_ranked_by_median_with_the_best_group():
    g, by = ranked(sweep_doc())
    assert [m.label for m in g.ranked][:3] == ["cb=4M cbw=enable Collective=on",
                                               "cb=16M cbw=enable Collective=on",
                                               "cb=4M cbw=disable Collective=on"]
    assert [m.rank for m in g.ranked] == list(range(1, 8))
    assert by["cb=4M cbw=enable Collective=on"].status(0.05) == "best"
    assert by["cb=16M cbw=enable Collective=on"].status(0.05) == "same"
    for worse in ("cb=4M cbw=disable Collective=on", "posix Collective=off"):
        v = by[worse].versus
        assert by[worse].status(0.05) == "worse" and v["verdict"] == "regression"
        assert v["ci"][1] < -0.05
    assert [m.label for m in sweep_rank.best_group(g)] == ["cb=4M cbw=enable Collective=on",
                                                           "cb=16M cbw=enable Collective=on"]
    assert g.varying == ["Collective", "Hint:cb_buffer_size", "Hint:romio_cb_write",
                         "Interface"]


def test_inert_and_duplicate_settings_are_named():
    g, by = ranked(sweep_doc())
    off = by["cb=4M cbw=enable Collective=off"]
    assert set(off.inert) == {"Hint:cb_buffer_size", "Hint:romio_cb_write"}
    assert "Collective off" in off.inert["Hint:cb_buffer_size"]
    off16 = by["cb=16M cbw=enable Collective=off"]
    assert {off.duplicate_of, off16.duplicate_of} == {None, off if off.rank < off16.rank else off16}
    posix_on = by["posix Collective=on"]
    assert set(posix_on.inert) == {"Collective"}
    assert "Interface posix" in posix_on.inert["Collective"]
    dup = [m for m in (posix_on, by["posix Collective=off"]) if m.duplicate_of]
    assert len(dup) == 1
    assert by["cb=16M cbw=enable Collective=on"].duplicate_of is None  # cb_buffer_size acts
    view = sweep_rank.text_view([g])
    assert "no effect in" in view and "collective buffering acts on collective calls only" in view
    assert "measured 2 times: a free A/A check of the noise" in view


def test_a_hint_the_library_ignored_is_inert_and_a_read_ignores_write_hints():
    doc = sweep_doc()
    for b in doc["modules"][:2]:  # cb_buffer_size reported at ROMIO's own value
        b["tests"][0]["hints_in_effect"]["cb_buffer_size"] = "16777216"
    g, by = ranked(doc)
    first = by["cb=4M cbw=enable Collective=on"]
    assert "not in effect" in first.inert["Hint:cb_buffer_size"]
    assert by["cb=16M cbw=enable Collective=on"].duplicate_of is first
    reads = sweep_doc()
    for b in reads["modules"]:
        b["settings"]["Mode"] = ["read"]
        b["tests"][0]["params"]["mode"] = "read"
    g, by = ranked(reads)
    assert "writes nothing timed" in by["cb=4M cbw=disable Collective=on"].inert[
        "Hint:romio_cb_write"]


def test_the_chart_has_one_row_per_setting_sorted(tmp_path):
    g, _ = ranked(sweep_doc())
    fig = sweep_rank.figure(g)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == 7
    assert labels[0].startswith("#1 Collective=on cb_buffer_size=4M romio_cb_write=enable")
    assert "(= #" in labels[4] or "(= #" in labels[5]
    medians = [t.get_text() for t in ax.child_axes[0].get_yticklabels()]
    assert len(medians) == 7 and medians[0].endswith(" MiB/s")


def test_pio_plot_draws_a_one_size_sweep_as_its_ranking():
    figs = plots.figures([sweep_doc()])
    (name, fig, family), = figs
    assert name.startswith("rank-simple_strided") and family == "patterns"
    assert len(fig.axes[0].get_yticklabels()) == 7


def test_pio_tune_rank_prints_the_view(tmp_path):
    path = tmp_path / "sweep.json"
    doc = sweep_doc()
    doc.pop("_path")
    path.write_text(json.dumps(doc))
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "pio-tune"), "rank", str(path), "-o",
                        str(tmp_path / "out")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "as good as the best (their order is noise): #1, #2" in p.stdout
    assert os.path.exists(tmp_path / "out" / "rank-simple_strided-write-test1.png")


def test_rounds_are_pooled_per_block_in_the_config_order(tmp_path):
    doc = sweep_doc()
    raw = []
    for rnd, order in ((1, [1, 0]), (2, [0, 1])):
        for i in order:
            b = copy.deepcopy(doc["modules"][i])
            b["round"], b["block_index"] = rnd, i
            for r in b["tests"][0]["reps"]:
                r["bandwidth_MiBps"] += rnd
            raw.append(b)
    doc["modules"] = raw
    doc.pop("_path")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    d = results.load(str(path))
    assert [b["label"] for b in d["modules"]] == ["cb=4M cbw=enable Collective=on",
                                                  "cb=16M cbw=enable Collective=on"]
    reps = d["modules"][0]["tests"][0]["reps"]
    assert len(reps) == 16 and [r["round"] for r in reps] == [1] * 8 + [2] * 8
    assert d["modules"][0]["rounds"] == [1, 2]
    assert len(d["_rounds_raw"]) == 4


def test_the_space_gives_config_text_and_hook_commands():
    space = tune_space.Space({"config": "w.conf", "params": [
        {"name": "Hint:cb_buffer_size", "target": "hint", "kind": "ladder", "type": "size",
         "values": ["1M", "2M", "4M"], "global": True, "uses": [{"block": "b", "default": ""}]},
        {"name": "BufferSizes", "target": "module", "kind": "ladder", "type": "size",
         "values": ["64K", "128K"], "global": False,
         "uses": [{"block": "b", "default": "64K"}]},
        {"name": "Hook:stripe", "target": "hook", "kind": "integer", "low": 1, "high": 8,
         "log": True, "global": True, "uses": [{"block": "b", "default": ""}]}],
        "hooks": [{"command": "lfs setstripe -c {stripe} dir && echo {trial} {BufferSizes}"}],
        "blocks": [{"label": "b"}]})
    values = {"Hint:cb_buffer_size": "4M", "BufferSizes": "128K", "Hook:stripe": "4"}
    text = space.config_text(values)
    assert text == ("Hint cb_buffer_size 4M\n# Hook:stripe 4: applied by TuneHook\n"
                    "# inside the <ap_module> block b:\n  BufferSizes 128K\n")
    assert space.hook_commands(values, 7) == ["lfs setstripe -c 4 dir && echo 7 128K"]
    assert space.hook_commands({"Hook:stripe": "a b"}, 1) == [
        "lfs setstripe -c 'a b' dir && echo 1 64K"]  # quoted; BufferSizes: the config's own
    assert space.tune_args(values) == ["--tune", "BufferSizes=128K", "--tune",
                                       "Hint:cb_buffer_size=4M", "--tune", "Hook:stripe=4"]
    assert space["Hint:cb_buffer_size"].to_optuna("4M") == 2
    assert space["Hint:cb_buffer_size"].from_optuna(2) == "4M"
    assert space.size() == 3 * 2 * 8
    posix = tune_space.Space({"config": "w.conf", "params": [
        {"name": "Interface", "target": "harness", "kind": "choice", "values": ["mpiio", "posix"],
         "global": True, "uses": [{"block": "b", "default": "mpiio"}]},
        {"name": "Hint:romio_cb_write", "target": "hint", "kind": "choice",
         "values": ["enable", "disable"], "global": True, "uses": [{"block": "b"}]}],
        "blocks": [{"label": "b"}]})
    assert posix.config_text({"Interface": "posix", "Hint:romio_cb_write": "enable"}) == (
        "Interface posix\n"
        "# Hint romio_cb_write enable: no effect through Interface posix (no MPI-IO)\n")
    # Collective through POSIX is as inert as a hint (the shipped example on ext4 recommended
    # "Collective on" beside "Interface posix").
    posix.params.append(tune_space.Param({
        "name": "Collective", "target": "harness", "kind": "choice", "values": ["on", "off"],
        "global": True, "uses": [{"block": "b", "default": "off"}]}))
    assert posix.config_text({"Interface": "posix", "Collective": "on"}) == (
        "Interface posix\n# Collective on: no effect through Interface posix (each rank's own "
        "calls, no MPI-IO)\n")
    assert posix.config_text({"Interface": "mpiio", "Collective": "on"}) == (
        "Interface mpiio\nCollective on\n")
    posix.params.pop()
    assert posix.config_text({"Interface": "mpiio", "Hint:romio_cb_write": "enable"}) == (
        "Interface mpiio\nHint romio_cb_write enable\n")
    assert posix.config_text({"Interface": "mpiio", "Collective": "off",
                              "Hint:romio_cb_write": "enable"}) == (
        "Interface mpiio\n# Hint romio_cb_write enable: no effect under Collective off "
        "(collective buffering acts on collective calls)\n")
    assert space_of({"X": ["a", "b"]}).names_text() == "X"
