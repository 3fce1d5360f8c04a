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


@pytest.mark.parametrize("name", ["checkpoint", "out-of-core", "visualisation"])
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
