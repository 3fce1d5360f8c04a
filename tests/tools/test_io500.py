"""The IO500 score (tools/piotools/io500.py) against hand values, and the phases read from a
synthetic results document in IO500's units and order."""
import json
import math
import subprocess
import sys

import pytest

from piotools import io500


def test_geomean_by_hand():
    assert io500.geomean([2, 8]) == pytest.approx(4.0)
    assert io500.geomean([1, 4, 16, 64]) == pytest.approx(8.0)
    assert io500.geomean([3, 0, 5]) == 0.0  # IO500: a failed phase scores zero
    assert io500.geomean([]) == 0.0


def test_score_by_hand():
    bw = {"ior-easy-write": 2, "ior-hard-write": 8, "ior-easy-read": 4, "ior-hard-read": 16}
    md = dict(zip(io500.MD_PHASES, [1, 4, 16, 64, 1, 4, 16, 64]))
    s_bw, s_md, s = io500.score(bw, md)
    assert s_bw == pytest.approx(1024 ** 0.25)  # 5.656854
    assert s_md == pytest.approx(8.0)
    assert s == pytest.approx(math.sqrt(1024 ** 0.25 * 8.0))  # 6.727171
    assert s == pytest.approx(6.727171, rel=1e-6)


def _doc(write_s):
    def io(label, mibps):
        return {"label": label, "tests": [{"label": "t", "rate_unit": "MiB/s", "error": None,
                                           "params": {}, "reps": [
                                               {"aggregate_time_s": write_s,
                                                "bandwidth_MiBps": mibps}]}]}

    def md(label, rates):
        return {"label": label, "tests": [
            {"label": label + " " + p, "rate_unit": "ops/s", "error": None,
             "params": {"phase": p},
             "reps": [{"aggregate_time_s": write_s, "ops_per_s": v},
                      {"aggregate_time_s": write_s, "ops_per_s": 3 * v},
                      {"aggregate_time_s": write_s, "ops_per_s": 2 * v}]}
            for p, v in rates]}
    return {"modules": [
        io("ior-easy-write", 2048), md("mdtest-easy", [("create", 1000), ("stat", 4000),
                                                        ("remove", 16000)]),
        io("ior-hard-write", 8192),
        md("mdtest-hard", [("create", 64000), ("find", 1000), ("stat", 4000), ("read", 16000),
                           ("remove", 64000)]),
        io("ior-easy-read", 4096), io("ior-hard-read", 16384), io("ior-rnd4K-easy-read", 512)]}


def test_phases_units_and_order():
    rows, (bw, md, s), notes = io500.summary(_doc(400.0))
    assert [r[0] for r in rows] == io500.ORDER
    ph = {r[0]: r for r in rows}
    assert ph["ior-hard-read"][1:3] == (16.0, "GiB/s")  # 16384 MiB/s
    assert ph["mdtest-easy-write"][1:3] == (2.0, "kIOPS")  # median of 1000, 3000, 2000 ops/s
    assert ph["find"][1] == pytest.approx(2.0)
    # ior-rnd4K-easy-read is listed last, in GiB/s, and left out of the score (IO500_NO_SCORE).
    assert ph["ior-rnd4K-easy-read"] == ("ior-rnd4K-easy-read", 0.5, "GiB/s", 400.0, False)
    assert all(r[4] for r in rows if r[0] != "ior-rnd4K-easy-read")
    assert bw == pytest.approx(1024 ** 0.25 * 2 / 2)  # 2, 8, 4, 16 GiB/s
    assert md == pytest.approx(io500.geomean([2, 128, 2, 8, 8, 32, 32, 128]))
    assert s == pytest.approx(math.sqrt(bw * md))
    assert notes == []


def test_short_run_is_marked_not_valid(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(_doc(2.0)))
    out = subprocess.run([sys.executable, io500.__file__.replace("piotools/io500.py", "pio-io500"),
                          str(p)], capture_output=True, text=True, check=True).stdout
    assert "[SCORE ]" in out
    assert "NOT a valid IO500 result" in out
    # IO500's own line format (src/main.c): " %20s %15s %s : time %.3f seconds".
    assert "[RESULT]       ior-easy-write        2.000000 GiB/s : time 2.000 seconds" in out
    assert "[      ]  ior-rnd4K-easy-read        0.500000 GiB/s : time 2.000 seconds" in out


def test_one_mdtest_block_with_both_trees():
    """conf/io500.conf's one `mdtest` block (Mode both): each test's mode names its tree, find
    is IO500's find."""
    doc = _doc(400.0)
    easy = next(m for m in doc["modules"] if m["label"] == "mdtest-easy")
    hard = next(m for m in doc["modules"] if m["label"] == "mdtest-hard")
    for t in easy["tests"]:
        t["params"]["mode"] = "easy"
    for t in hard["tests"]:
        t["params"]["mode"] = "both" if t["params"]["phase"] == "find" else "hard"
    both = {"label": "mdtest", "tests": easy["tests"] + hard["tests"]}
    doc["modules"] = [m for m in doc["modules"] if m not in (easy, hard)] + [both]
    rows, score, notes = io500.summary(doc)
    assert rows == io500.summary(_doc(400.0))[0]
    assert score == io500.summary(_doc(400.0))[1]
    assert notes == []
