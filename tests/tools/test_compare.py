"""pio-compare: matching, verdicts and exit codes, on synthetic runs and on the recorded A/A
and A/B runs of this machine (data/aa*.json, data/ab-disk.json: docs/guides/regression.md)."""
import json
import re

import pytest

from conftest import data, make_doc, scaled, write_doc
from piotools import compare, results

NOISE = (1.0, 1.01, 0.99, 1.004, 0.996)
TESTS = {("simple_strided", f"S{m}", size, m, b): [100.0 * (i + 1) * f for f in NOISE]
         for i, (m, size, b) in enumerate([("write", "64K", 65536), ("read", "64K", 65536),
                                           ("write", "1M", 1048576)])}


def run(tool, argv, capsys):
    code = tool("pio-compare").main(argv)
    return code, capsys.readouterr().out


@pytest.fixture
def base(tmp_path):
    return make_doc({(m, label, t, mode, b): v for (m, label, t, mode, b), v in TESTS.items()})


def test_same_run_gives_no_regression_and_exit_0(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    code, out = run(tool, [a, a, "--all"], capsys)
    assert code == 0
    assert sum(line.startswith("no significant change") for line in out.splitlines()) == 3
    assert "3 tests: 3 no significant change" in out


def test_a_halved_test_is_a_regression_and_exit_1(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    b = write_doc(tmp_path / "b.json", scaled(base, 0.5, only="64K"))
    code, out = run(tool, [a, b, "--json"], capsys)
    assert code == 1
    rows = {(r["block"], r["test"]): r for r in json.loads(out)["rows"]}
    assert rows[("Swrite", "64K")]["verdict"] == "regression"
    assert rows[("Sread", "64K")]["verdict"] == "regression"
    assert rows[("Swrite", "1M")]["verdict"] == "no significant change"
    assert rows[("Swrite", "64K")]["change"] == pytest.approx(-0.5)


def test_a_doubled_test_is_an_improvement_and_exit_0(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    b = write_doc(tmp_path / "b.json", scaled(base, 2.0, only="1M"))
    code, out = run(tool, [a, b], capsys)
    assert code == 0
    assert "improvement" in out and "Swrite / 1M" in out


def test_a_change_below_the_threshold_is_not_reported(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    b = write_doc(tmp_path / "b.json", scaled(base, 0.5))
    assert run(tool, [a, b, "--threshold", "60%"], capsys)[0] == 0
    assert run(tool, [a, b, "--threshold", "0.3"], capsys)[0] == 1


def test_a_test_failing_in_the_candidate_is_a_regression(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    bad = scaled(base, 1.0)
    bad["modules"][0]["tests"][0]["error"] = {"rank": 0, "message": "disk full"}
    code, out = run(tool, [a, write_doc(tmp_path / "b.json", bad)], capsys)
    assert code == 1
    assert "failed in candidate: disk full" in out


def test_different_process_counts_are_not_comparable_and_say_so(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    other = make_doc({k: [v * 0.1 for v in vals] for k, vals in TESTS.items()}, processes=4)
    b = write_doc(tmp_path / "b.json", other)
    code, out = run(tool, [a, b], capsys)
    assert code == compare.EXIT_NOT_COMPARABLE == 3  # never 0: a gate that compared nothing
    assert "not comparable: processes differs: baseline 2, candidate 4" in out
    assert sum(line.startswith("not comparable  ") for line in out.splitlines()) == 3
    assert "NOT COMPARED: no test was compared" in out
    # --allow names the difference accepted on purpose: then the verdicts count again.
    code, out = run(tool, [a, b, "--allow", "processes,settings"], capsys)
    assert code == 1 and "3 tests: 3 regression" in out


def test_a_block_run_through_another_interface_is_not_comparable(tool, tmp_path, base, capsys):
    """The interface is a setting the runs must share (docs/reference/interfaces.md): the same label
    run through posix instead of MPI-IO is another experiment; a document from before the field
    counts as mpiio."""
    a = write_doc(tmp_path / "a.json", base)  # no `interface` field: mpiio
    posix = scaled(base, 1.0)
    for block in posix["modules"]:
        block["interface"], block["interface_settings"] = "posix", {"ODirect": "off"}
    code, out = run(tool, [a, write_doc(tmp_path / "b.json", posix)], capsys)
    assert code == compare.EXIT_NOT_COMPARABLE
    assert "interface differs: baseline mpiio, candidate posix" in out
    assert sum(line.startswith("not comparable  ") for line in out.splitlines()) == 3
    mpiio = scaled(base, 1.0)
    for block in mpiio["modules"]:
        block["interface"], block["interface_settings"] = "mpiio", {}
    code, out = run(tool, [a, write_doc(tmp_path / "c.json", mpiio), "--all"], capsys)
    assert code == 0 and "3 tests: 3 no significant change" in out


def test_unmatched_tests_are_listed_on_both_sides(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    other = make_doc({("simple_strided", "Swrite", "4K", "write", 4096): [1.0, 2.0]})
    b = write_doc(tmp_path / "b.json", other)
    code, out = run(tool, [a, b, "--json"], capsys)
    assert code == 3  # no test compared at all
    reasons = sorted(r["reason"] for r in json.loads(out)["rows"])
    assert reasons == ["only in baseline"] * 3 + ["only in candidate"]
    code, out = run(tool, [a, b, "--allow", "tests"], capsys)
    assert code == 3 and "no test was compared" in out


def test_allow_tests_accepts_a_test_added_to_the_config(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    grown = make_doc({**{k: v for k, v in TESTS.items()},
                      ("simple_strided", "Snew", "4K", "write", 4096): [5.0, 5.1, 4.9]})
    b = write_doc(tmp_path / "b.json", grown)
    assert run(tool, [a, b], capsys)[0] == 3
    code, out = run(tool, [a, b, "--allow", "tests", "--all"], capsys)
    assert code == 0
    assert "4 tests: 1 new, 3 no significant change" in out


def test_tests_are_matched_by_label_and_params_not_position():
    a = make_doc({("m", "B", "x", "write", 1): [1.0, 1.0], ("m", "B", "y", "write", 2): [2.0, 2.0]})
    b = make_doc({("m", "B", "y", "write", 2): [2.0, 2.0], ("m", "B", "x", "write", 1): [1.0, 1.0]})
    b["modules"][0]["tests"][0]["params"]["extra"] = "1"  # y now differs in its parameters
    keys_a = {t.key for t in results.tests(a)}
    keys_b = {t.key for t in results.tests(b)}
    assert keys_a & keys_b == {("B", "x", "buffer_size=1 mode=write", 0)}


def test_repeated_labels_are_matched_in_order():
    doc = make_doc({("m", "B", "x", "write", 1): [1.0, 1.0]})
    doc["modules"].append(json.loads(json.dumps(doc["modules"][0])))
    ts = results.tests(doc)
    assert [t.occurrence for t in ts] == [0, 1]
    assert ts[1].name == "B / x #2"


def test_the_runs_noise_not_the_repetitions_decides(tool, tmp_path, base, capsys):
    """Repetitions of one run agree far better than runs do: three baseline runs 1.0, 1.3 and
    0.8 apart make a candidate at 0.7 no evidence of anything, however tight its repetitions."""
    d = tmp_path / "baselines"
    d.mkdir()
    for i, f in enumerate((1.0, 1.3, 0.8)):
        write_doc(d / f"run{i}.json", scaled(base, f))
    one = compare.compare_runs([scaled(base, 1.0)], scaled(base, 0.7))["rows"][0]
    assert one["verdict"] == "regression"  # against one run's repetitions: -30 %, p tiny
    assert one["reason"] == "1 baseline run: against its repetitions' noise only"
    report = compare.compare_runs(results.load_many([str(d)]), scaled(base, 0.7))
    row = report["rows"][0]
    assert row["n_baseline"] == 15 and row["baseline_runs"] == 3 and row["basis"] == "runs"
    assert row["verdict"] == "inconclusive"
    assert row["reason"].startswith("3 baseline runs of 5 repetitions cannot show a change of 5% "
                                    "at alpha 0.05 over 3 tests (detectable: ")
    assert "baseline runs would" in row["reason"] or "no number" in row["reason"]
    far = compare.compare_runs(results.load_many([str(d)]), scaled(base, 0.05))
    assert {r["verdict"] for r in far["rows"]} == {"regression"}
    assert far["rows"][0]["change"] == pytest.approx(0.05 / (1.3 * 0.8) ** (1 / 3) - 1, rel=0.01)


def test_one_baseline_run_of_8_repetitions_shows_a_7x_slowdown(tool, tmp_path, capsys):
    """The reproduction of the issue: Simple Strided (write), ModuleReps 8, one run on
    /dev/shm (its first repetition slow, as after a pause), one on disk with SyncWrites 7x
    slower: a regression, not "no significant change"."""
    fast = [310.0, 969.0, 1010.0, 950.0, 990.0, 940.0, 1001.0, 975.0]
    slow = [139.0, 141.0, 136.0, 140.0, 150.0, 131.0, 138.0, 142.0]
    key = ("simple_strided", "Simple Strided (write)", "1M", "write", 1 << 20)
    a = write_doc(tmp_path / "a.json", make_doc({key: fast}, file_system="tmpfs"))
    c = make_doc({key: slow})
    c["modules"][0]["sync_writes"] = True
    code, out = run(tool, [a, write_doc(tmp_path / "c.json", c), "--allow",
                           "file_system,settings"], capsys)
    assert code == compare.EXIT_REGRESSION, out
    assert "1 tests: 1 regression" in out
    assert re.search(r"^regression +Simple Strided \(write\) / 1M .* x1/6\.9\d ", out, re.M), out


def test_three_repetitions_over_many_tests_are_inconclusive_and_say_what_would_do(tool, tmp_path,
                                                                               capsys):
    """3 against 3 repetitions of 9 noisy tests: no verdict can be supported at alpha 0.05 over 9
    tests for a 5 % change; each test says so, with the repetitions that would, and the exit
    status is its own (5), never 0 with "no significant change"."""
    noisy = (1.0, 1.3, 0.8)
    tests = {("simple_strided", f"S{i}", "1M", "write", 1 << 20): [100.0 * f for f in noisy]
             for i in range(9)}
    a = write_doc(tmp_path / "a.json", make_doc(tests))
    b = write_doc(tmp_path / "b.json", scaled(make_doc(tests), 0.9))
    code, out = run(tool, [a, b], capsys)
    assert code == compare.EXIT_INCONCLUSIVE == 5
    assert "no significant change" not in out
    lines = [x for x in out.splitlines() if x.startswith("inconclusive: ")]
    assert len(lines) == 9
    m = re.match(r"inconclusive: S0 / 1M: 3 \+ 3 repetitions \(1 baseline run: the runs' own noise "
                 r"is unknown\) cannot show a change of 5% at alpha 0.05 over 9 tests "
                 r"\(detectable: (\S+)\); (\d+) repetitions per run would$", lines[0])
    assert m, lines[0]
    need = int(m.group(2))
    assert need > 3
    # ... and that many repetitions of the same noise do show a 10 % slowdown as a regression.
    many = {k: [100.0 * noisy[i % 3] for i in range(need)] for k in tests}
    a = write_doc(tmp_path / "a2.json", make_doc(many))
    b = write_doc(tmp_path / "b2.json", scaled(make_doc(many), 0.9))
    code, out = run(tool, [a, b, "--all"], capsys)
    assert "inconclusive" not in out
    assert code in (compare.EXIT_OK, compare.EXIT_REGRESSION)
    assert "INCONCLUSIVE" not in out and "9 tests: 9 " in out


def test_the_change_is_the_ratio_of_the_medians_shown(tool, tmp_path, base, capsys):
    cand = scaled(base, 0.5)
    cand["modules"][0]["tests"][0]["reps"][0]["bandwidth_MiBps"] = 1e6  # one wild repetition
    report = compare.compare_runs([base], cand)
    row = report["rows"][0]
    assert row["change"] == pytest.approx(row["median_candidate"] / row["median_baseline"] - 1)


def test_sub_microsecond_times_below_the_floor_get_no_verdict(tool, tmp_path):
    def pingpong(t_us):
        doc = make_doc({("imb_pingpong", "imb_pingpong", "0", "pingpong", 0): [1.0] * 5})
        for i, r in enumerate(doc["modules"][0]["tests"][0]["reps"]):
            r["op"] = {"t_avg_us": t_us * (1 + 0.01 * i)}
        return doc
    runs = [pingpong(0.17), pingpong(0.171), pingpong(0.169)]
    slow = compare.compare_runs(runs, pingpong(0.27))["rows"][0]  # +0.1 us: a timer tick
    assert slow["verdict"] == "no significant change"
    assert "less than the 1 us floor" in slow["reason"]
    assert compare.compare_runs(runs, pingpong(0.27), floor_us=0.05)["rows"][0]["verdict"] == \
        "regression"
    big = [pingpong(7.0), pingpong(7.01), pingpong(6.99)]
    assert compare.compare_runs(big, pingpong(14.0))["rows"][0]["verdict"] == "regression"


def test_an_empty_or_missing_baseline_is_the_first_night(tool, tmp_path, base, capsys):
    empty = tmp_path / "baseline"
    empty.mkdir()
    c = write_doc(tmp_path / "c.json", base)
    code, out = run(tool, [str(empty), c], capsys)
    assert code == compare.EXIT_NO_BASELINE == 4
    assert f"no baseline: {empty} is missing or holds no *.json results (a first night)" in out
    assert "3 tests, none failed or flagged: it may seed the baseline" in out
    assert run(tool, [str(tmp_path / "nothing-here"), c], capsys)[0] == 4
    bad = scaled(base, 1.0)
    bad["modules"][0]["tests"][0]["error"] = {"rank": 1, "message": "disk full"}
    code, out = run(tool, [str(empty), write_doc(tmp_path / "bad.json", bad)], capsys)
    assert code == 1 and "failed in candidate: Swrite / 64K: disk full" in out
    with pytest.raises(SystemExit) as e:  # one baseline there, another missing: a typo
        tool("pio-compare").main([c, str(tmp_path / "nothing-here"), c])
    assert e.value.code == 2


def test_input_errors_exit_2(tool, tmp_path, capsys):
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(SystemExit) as e:
        tool("pio-compare").main([str(tmp_path / "x.json"), str(tmp_path / "x.json")])
    assert e.value.code == 2
    assert "not a pio-bench results document" in capsys.readouterr().err


AA = ["aa1.json", "aa2.json", "aa3.json", "aa4.json"]


# Leave-one-out over four runs of the same config (three baselines, one candidate), recorded at
# load 10-17: runs that vary 2-10x among themselves support no verdict on most tests (said as
# "inconclusive", never "no significant change"); two nights fail on one test each that really
# moved.
AA_NIGHTS = {"aa1.json": {"imb_pingpong / 1024"}, "aa2.json": set(), "aa3.json": set(),
             "aa4.json": {"Simple Strided (re-write) / 1M"}}


@pytest.mark.parametrize("candidate", AA)
def test_recorded_a_a_runs_fail_only_where_the_run_really_moved(tool, candidate, capsys):
    baselines = [data(n) for n in AA if n != candidate]
    code, out = run(tool, baselines + [data(candidate), "--json"], capsys)
    rows = {r["name"]: r for r in json.loads(out)["rows"]}
    assert len(rows) == 26
    regressed = {n for n, r in rows.items() if r["verdict"] == "regression"}
    assert regressed == AA_NIGHTS[candidate]
    assert {r["verdict"] for n, r in rows.items() if n not in regressed} == {"inconclusive"}
    assert code == (compare.EXIT_REGRESSION if regressed else compare.EXIT_INCONCLUSIVE)
    if candidate == "aa1.json":  # the whole PingPong block stalled: ~9 ms a message, not 0.3 us
        assert rows["imb_pingpong / 1024"]["median_candidate"] > 1000
    if candidate == "aa4.json":  # 1,065 MiB/s against 7,491 .. 11,111 in the other three runs
        assert rows["Simple Strided (re-write) / 1M"]["change"] < -0.8


def test_recorded_a_b_disk_with_sync_writes_is_flagged(tool, capsys):
    base = [data(n) for n in AA]
    code, out = run(tool, base + [data("ab-disk.json")], capsys)
    assert code == 3  # different file system and SyncWrites: not comparable, and said so
    assert "not comparable: file_system differs: baseline tmpfs, candidate ext4" in out
    code, out = run(tool, base + [data("ab-disk.json"), "--allow", "file_system,settings",
                                  "--json"], capsys)
    assert code == 1
    rows = json.loads(out)["rows"]
    regressed = {r["name"] for r in rows if r["verdict"] == "regression"}
    assert "Segmented (write) / 64K" in regressed
    assert len(regressed) == 4 and all("write" in n for n in regressed)  # each -99 % or worse
    # The other writes of 4K to 256K are as slow, but the four tmpfs runs vary too much among
    # themselves (up to 10x) to show it at alpha 0.05 over 26 tests: inconclusive, not "no change".
    writes = [r for r in rows if "write" in r["name"] and r["name"] not in regressed and
              r["change"] < -0.9]
    assert writes and all(r["verdict"] == "inconclusive" for r in writes)


def test_the_script_runs_and_exits_with_the_verdict(tmp_path):
    import subprocess
    import sys
    from conftest import TOOLS
    a = write_doc(tmp_path / "a.json", make_doc(TESTS))
    b = write_doc(tmp_path / "b.json", scaled(make_doc(TESTS), 0.25))
    p = subprocess.run([sys.executable, f"{TOOLS}/pio-compare", a, b], capture_output=True,
                       text=True, check=False)
    assert p.returncode == 1, p.stderr
    assert "regression" in p.stdout
