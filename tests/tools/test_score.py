"""pio-score against hand computations, and the shipped profiles."""
import math
import os

import pytest

from conftest import TOOLS, data, make_doc, write_doc
from piotools.profile import Profile, ProfileError, size

DOC = make_doc({("simple_strided", "SW", "64K", "write", 65536): [100.0, 400.0, 200.0],
                ("simple_strided", "SW", "1M", "write", 1048576): [800.0, 800.0, 900.0],
                ("segmented", "GR", "1M", "read", 1048576): [50.0, 40.0, 60.0],
                ("tiled", "TR", "64x64", "read", 32768): [10.0, 20.0, 30.0]})


def profile(tmp_path, text):
    p = tmp_path / "p.profile"
    p.write_text(text)
    return str(p)


def test_score_is_the_weighted_geometric_mean_of_medians(tool, tmp_path):
    prof = profile(tmp_path, 'Name "hand"\n'
                             "simple_strided write 1M 3   # first match wins\n"
                             "simple_strided *     *  1   # shared by the 64K test only\n"
                             "segmented      read  64K..4M 2\n")
    s = tool("pio-score").score(
        __import__("piotools.results", fromlist=["load"]).load(write_doc(tmp_path / "r.json", DOC)),
        Profile(prof))
    # medians: 64K write 200, 1M write 800, segmented read 50; tiled unweighted.
    expected = math.exp((1 * math.log(200) + 3 * math.log(800) + 2 * math.log(50)) / 6)
    assert s["score_MiBps"] == pytest.approx(expected)
    assert [e["test"] for e in s["unweighted"]] == ["64x64"]
    assert s["profile"]["name"] == "hand" and "first match wins" in s["profile"]["text"]


def test_a_rule_weight_is_shared_by_the_tests_it_matches(tool, tmp_path):
    prof = profile(tmp_path, "simple_strided write * 4\nsegmented * * 4\n")
    from piotools import results
    s = tool("pio-score").score(results.load(write_doc(tmp_path / "r.json", DOC)), Profile(prof))
    assert [e["weight"] for e in s["weighted"]] == [2.0, 2.0, 4.0]
    expected = math.exp((2 * math.log(200) + 2 * math.log(800) + 4 * math.log(50)) / 8)
    assert s["score_MiBps"] == pytest.approx(expected)
    assert s["unused_rules"] == []


def test_profile_errors_name_the_line(tmp_path):
    with pytest.raises(ProfileError, match=r"p.profile:2: expected"):
        Profile(profile(tmp_path, "* * * 1\nsimple_strided write 2\n"))
    with pytest.raises(ProfileError, match=r"p.profile:1: .*negative"):
        Profile(profile(tmp_path, "* * * -1\n"))
    with pytest.raises(ProfileError, match="no weight rules"):
        Profile(profile(tmp_path, "# nothing\n"))
    assert size("64K") == 65536 and size("16M") == 16 << 20 and size("4096") == 4096


@pytest.mark.parametrize("name", ["checkpoint", "out-of-core", "visualisation", "io500"])
def test_shipped_profiles_score_a_recorded_run(tool, name, capsys):
    assert os.path.exists(os.path.join(TOOLS, "profiles", f"{name}.profile"))
    assert tool("pio-score").main([data("aa1.json"), "--profile", name]) == 0
    out = capsys.readouterr().out
    assert "score" in out and "MiB/s" in out


def test_no_matching_test_is_an_error(tool, tmp_path, capsys):
    prof = profile(tmp_path, "flash_io write * 1\n")
    with pytest.raises(SystemExit) as e:
        tool("pio-score").main([write_doc(tmp_path / "r.json", DOC), "--profile", prof])
    assert e.value.code == 2
    assert "no test" in capsys.readouterr().err


def _io500_doc():
    """A run shaped like conf/io500.conf: the four ior phases (2, 8, 4, 16 GiB/s), the
    unscored 4 KiB random read, and 8 metadata phases of 1, 4, 16, 64, 1, 4, 16, 64 kIOPS."""
    doc = make_doc({("segmented", "ior-easy-write", "2M", "write", 2 << 20): [2048.0],
                    ("simple_strided", "ior-hard-write", "47008", "write", 47008): [8192.0],
                    ("segmented", "ior-easy-read", "2M", "read", 2 << 20): [4096.0],
                    ("simple_strided", "ior-hard-read", "47008", "read", 47008): [16384.0],
                    ("random_offsets", "ior-rnd4K-easy-read", "4K", "read", 4096): [1.0]})
    md = [("mdtest-easy", "easy", p) for p in ("create", "stat", "remove")] + \
         [("mdtest-hard", "hard", p) for p in ("create", "find", "stat", "read", "remove")]
    rates = [1000.0, 4000.0, 16000.0, 64000.0, 1000.0, 4000.0, 16000.0, 64000.0]
    for (label, mode, phase), rate in zip(md, rates):
        block = next((b for b in doc["modules"] if b["label"] == label), None)
        if block is None:
            block = {"module": "metadata", "module_name": "metadata", "label": label,
                     "config": "x.conf:1", "output": "table", "reps": 1, "settings": {},
                     "error": None, "figure": None, "tests": []}
            doc["modules"].append(block)
        block["tests"].append({
            "index": len(block["tests"]), "label": f"{mode} {phase}", "buffer_size": 0,
            "rate_unit": "ops/s", "file_use": "none", "procs": 2, "error": None,
            "params": {"mode": mode, "phase": phase},
            "reps": [{"rep": 0, "units": 1, "ops": 1000, "aggregate_time_s": 1000 / rate,
                      "ops_per_s": rate, "bandwidth_MiBps": 0.0}]})
    return doc


def test_io500_profile_scores_as_io500_by_hand(tool, tmp_path):
    from piotools import io500, results
    path = write_doc(tmp_path / "io500.json", _io500_doc())
    s = tool("pio-score").score(results.load(path), Profile(os.path.join(TOOLS, "profiles",
                                                                          "io500.profile")))
    # bandwidth (2 * 8 * 4 * 16)^(1/4) GiB/s, metadata 8 kIOPS, score sqrt of the product.
    assert s["scores"]["GiB/s"] == pytest.approx(1024 ** 0.25)
    assert s["scores"]["kIOPS"] == pytest.approx(8.0)
    assert s["score"] == pytest.approx(6.727171, rel=1e-6)
    assert [e["block"] for e in s["unweighted"]] == ["ior-rnd4K-easy-read"]
    # The same run through pio-io500's own reading of the phases gives the same three figures.
    _, (bw, md, score), _ = io500.summary(results.load(path))
    assert (bw, md, score) == pytest.approx((s["scores"]["GiB/s"], s["scores"]["kIOPS"],
                                             s["score"]))
    # A failed (zero) phase makes the combined score 0, as in IO500.
    assert Profile(os.path.join(TOOLS, "profiles", "io500.profile")).combined(
        {"GiB/s": 0.0, "kIOPS": 8.0}) == 0.0


def test_units_and_combine_lines_are_checked(tmp_path):
    with pytest.raises(ProfileError, match=r"p.profile:1: unknown unit 'GB/s'"):
        Profile(profile(tmp_path, "Units GB/s\n* * * 1\n"))
    with pytest.raises(ProfileError, match=r"p.profile:1: expected 'Combine none'"):
        Profile(profile(tmp_path, "Combine mean\n* * * 1\n"))
