"""pio-compare refuses a verdict on a flagged test (docs/reference/results.md, "Flags") unless
--allow names the flag, and refuses a run that did not complete as either side. The fixtures carry
the flags by hand, as the harness writes them: `"flags": [{"flag": NAME, "reason": "..."}]` on every
test and every repetition (empty when clean; a document without the key is clean)."""
import json

import pytest

from conftest import make_doc, scaled, write_doc
from piotools import compare, flag_rules, results

NOISE = (1.0, 1.01, 0.99, 1.004, 0.996)
TESTS = {("simple_strided", "Sread", "64K", "read", 65536): [1000.0 * f for f in NOISE],
         ("simple_strided", "Swrite", "64K", "write", 65536): [500.0 * f for f in NOISE]}
CACHE = {"flag": "page_cache", "reason": "98% of the bytes read were resident in the page cache"}
WARM = {"flag": "warm_up", "reason": "2.1x slower than the other repetitions"}


def with_flags(doc, test_flags=(), rep_flags=None, label="Sread"):
    """A copy of `doc` whose tests all carry the key (empty lists) and test `label` the flags."""
    d = json.loads(json.dumps(doc))
    for b in d["modules"]:
        for t in b["tests"]:
            flagged = b["label"] == label
            t["flags"] = list(test_flags) if flagged else []
            for r in t["reps"]:
                r["flags"] = []
            if flagged and rep_flags:
                for i, f in rep_flags.items():
                    t["reps"][i]["flags"] = [f]
    return d


def run(tool, argv, capsys):
    code = tool("pio-compare").main(argv)
    return code, capsys.readouterr().out


@pytest.fixture
def base():
    return make_doc(TESTS)


def test_a_clean_run_with_the_key_is_compared_as_one_without(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)  # an old file: no "flags" key at all
    b = write_doc(tmp_path / "b.json", with_flags(base))
    code, out = run(tool, [a, b, "--all"], capsys)
    assert code == compare.EXIT_OK, out
    assert "2 tests: 2 no significant change" in out


def test_a_flagged_candidate_test_gets_no_verdict_and_its_own_line_and_exit_6(tool, tmp_path,
                                                                              base, capsys):
    a = write_doc(tmp_path / "a.json", with_flags(base))
    # The read halved, so that without the flag it would be a regression: the flag must win.
    half_read = scaled(base, 1.0)
    for r in half_read["modules"][0]["tests"][0]["reps"]:
        r["bandwidth_MiBps"] *= 0.5
    b = write_doc(tmp_path / "b.json", with_flags(half_read, [CACHE]))
    code, out = run(tool, [a, b, "--all"], capsys)
    assert code == compare.EXIT_FLAGGED == 6, out
    lines = out.splitlines()
    assert any(x.startswith("flagged ") and "Sread / 64K" in x for x in lines)
    assert ("flagged: Sread / 64K: no verdict on a flagged test: page_cache (candidate): 98% of "
            "the bytes read were resident in the page cache (--allow FLAG accepts it)") in lines
    assert lines[-1].startswith("FLAGGED: 1 test(s) flagged")
    assert any(x.startswith("no significant change ") and "Swrite / 64K" in x for x in lines)
    # The clean test still gets its verdict; a regression outranks the flag in the exit status.
    b = write_doc(tmp_path / "b2.json", with_flags(scaled(base, 0.5), [CACHE]))
    code, out = run(tool, [a, b, "--json"], capsys)
    assert code == compare.EXIT_REGRESSION
    rows = {r["name"]: r for r in json.loads(out)["rows"]}
    assert rows["Sread / 64K"]["verdict"] == "flagged" and "p" not in rows["Sread / 64K"]
    assert rows["Sread / 64K"]["change"] == pytest.approx(-0.5)  # shown, not judged
    assert rows["Swrite / 64K"]["verdict"] == "regression"


def test_allow_names_the_flag_and_then_the_verdict_counts(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", with_flags(base))
    flagged = with_flags(scaled(base, 0.5), [CACHE])
    b = write_doc(tmp_path / "b.json", flagged)
    assert run(tool, [a, b, "--allow", "warm_up"], capsys)[0] == compare.EXIT_REGRESSION
    code, out = run(tool, [a, b, "--allow", "page_cache", "--json"], capsys)
    assert code == compare.EXIT_REGRESSION
    assert {r["verdict"] for r in json.loads(out)["rows"]} == {"regression"}
    clean = write_doc(tmp_path / "c.json", with_flags(base, [CACHE]))
    assert run(tool, [a, clean], capsys)[0] == compare.EXIT_FLAGGED
    assert run(tool, [a, clean, "--allow", "file_system,page_cache"], capsys)[0] == compare.EXIT_OK
    with pytest.raises(SystemExit) as e:
        tool("pio-compare").main([a, clean, "--allow", "cache"])
    assert e.value.code == 2
    assert "--allow cache: choose from" in capsys.readouterr().err


def test_a_flag_on_one_repetition_or_in_a_baseline_run_refuses_too(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", with_flags(base, rep_flags={0: WARM}))
    b = write_doc(tmp_path / "b.json", with_flags(base))
    code, out = run(tool, [a, b], capsys)
    assert code == compare.EXIT_FLAGGED, out
    assert (f"warm_up (baseline {a}): repetition 1: 2.1x slower than the other repetitions"
            in out)
    assert flag_rules.of_test(results.tests(results.load(a))[0]) == \
        [("warm_up", "repetition 1: 2.1x slower than the other repetitions")]
    both = with_flags(base, [CACHE], rep_flags={2: WARM})
    assert flag_rules.of_test(both["modules"][0]["tests"][0]) == \
        [("page_cache", CACHE["reason"]), ("warm_up", "repetition 3: " + WARM["reason"])]
    assert run(tool, [a, b, "--allow", "warm_up"], capsys)[0] == compare.EXIT_OK


def test_a_flagged_run_never_seeds_the_baseline(tool, tmp_path, base, capsys):
    empty = tmp_path / "baseline"
    empty.mkdir()
    c = write_doc(tmp_path / "c.json", with_flags(base, [CACHE]))
    code, out = run(tool, [str(empty), c], capsys)
    assert code == compare.EXIT_FLAGGED, out
    assert f"flagged in candidate: Sread / 64K: page_cache: {CACHE['reason']}" in out
    assert "it may not seed the baseline" in out
    clean = write_doc(tmp_path / "d.json", with_flags(base))
    assert run(tool, [str(empty), clean], capsys)[0] == compare.EXIT_NO_BASELINE


def test_a_baseline_takes_page_cache_or_write_cache_the_job_allows_and_never_noise(
        tool, tmp_path, base, capsys):
    # tmpfs's reads are from memory every night: a job that allows page_cache seeds with it.
    cached = write_doc(tmp_path / "c.json", with_flags(base, [CACHE]))
    assert run(tool, ["--clean", cached], capsys)[0] == compare.EXIT_FLAGGED
    code, out = run(tool, ["--clean", cached, "--allow", "page_cache"], capsys)
    assert code == compare.EXIT_OK, out
    assert "none failed or flagged (but for the allowed page_cache)" in out
    empty = tmp_path / "baseline"
    empty.mkdir()
    code, out = run(tool, [str(empty), cached, "--allow", "page_cache"], capsys)
    assert code == compare.EXIT_NO_BASELINE, out
    unflushed = {"flag": "write_cache", "reason": "97 % of the 64 MiB written was still dirty"}
    written = write_doc(tmp_path / "w.json", with_flags(base, [unflushed], label="Swrite"))
    assert run(tool, ["--clean", written, "--allow", "write_cache"], capsys)[0] == compare.EXIT_OK
    # A flag of noise never enters a baseline, allowed or not: it would widen the noise estimate.
    warm = write_doc(tmp_path / "w2.json", with_flags(base, [WARM]))
    code, out = run(tool, ["--clean", warm, "--allow", "warm_up,page_cache"], capsys)
    assert code == compare.EXIT_FLAGGED, out
    assert f"flagged: Sread / 64K: warm_up: {WARM['reason']}" in out
    code, out = run(tool, [str(empty), warm, "--allow", "warm_up"], capsys)
    assert code == compare.EXIT_FLAGGED, out
    assert "it may not seed the baseline" in out


@pytest.mark.parametrize("status", ["interrupted", "running"])
def test_a_run_that_did_not_complete_is_refused_on_either_side(tool, tmp_path, base, capsys,
                                                               status):
    good = write_doc(tmp_path / "good.json", base)
    cut = make_doc(TESTS, status=status, exit_code=130 if status == "interrupted" else None)
    if status == "interrupted":
        cut["signal"] = "SIGINT"
    bad = write_doc(tmp_path / "cut.json", cut)
    empty = tmp_path / "baseline"
    empty.mkdir()
    for argv, side in (([good, bad], "candidate"), ([bad, good], "baseline"),
                       ([str(empty), bad], "candidate")):
        with pytest.raises(SystemExit) as e:
            tool("pio-compare").main(argv)
        assert e.value.code == compare.EXIT_USAGE
        err = capsys.readouterr().err
        assert f"{bad}: the run did not complete (status {status}" in err
        assert f"it is not compared as the {side}, and it never seeds or enters a baseline" in err
    # A finished run with a failed test is compared as a candidate (the test is a regression)
    # but is no baseline.
    failed = make_doc(TESTS, status="failed", exit_code=1)
    failed["modules"][0]["tests"][0]["error"] = {"rank": 0, "message": "disk full"}
    f = write_doc(tmp_path / "failed.json", failed)
    assert run(tool, [good, f], capsys)[0] == compare.EXIT_REGRESSION
    with pytest.raises(SystemExit):
        tool("pio-compare").main([f, good])
    assert "status failed" in capsys.readouterr().err
