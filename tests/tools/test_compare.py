"""pio-compare: matching, verdicts and exit codes, on synthetic runs and on the recorded A/A
and A/B runs of this machine (data/aa*.json, data/ab-disk.json: docs/regression.md)."""
import json
import pytest

from conftest import data, make_doc, scaled, write_doc
from piotools import compare, results

NOISE = (1.0, 1.05, 0.95, 1.02, 0.98)
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
    code, out = run(tool, [a, write_doc(tmp_path / "b.json", other)], capsys)
    assert code == 0
    assert "not comparable: processes differs: baseline 2, candidate 4" in out
    assert sum(line.startswith("not comparable  ") for line in out.splitlines()) == 3


def test_unmatched_tests_are_listed_on_both_sides(tool, tmp_path, base, capsys):
    a = write_doc(tmp_path / "a.json", base)
    other = make_doc({("simple_strided", "Swrite", "4K", "write", 4096): [1.0, 2.0]})
    code, out = run(tool, [a, write_doc(tmp_path / "b.json", other), "--json"], capsys)
    reasons = sorted(r["reason"] for r in json.loads(out)["rows"])
    assert reasons == ["only in baseline"] * 3 + ["only in candidate"]


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


def test_several_baselines_pool_and_use_run_level_noise(tool, tmp_path, base, capsys):
    d = tmp_path / "baselines"
    d.mkdir()
    for i, f in enumerate((1.0, 1.3, 0.8)):
        write_doc(d / f"run{i}.json", scaled(base, f))
    report = compare.compare_runs(results.load_many([str(d)]), scaled(base, 0.7))
    row = report["rows"][0]
    assert row["noise"] == "runs" and row["n_baseline"] == 15 and row["baseline_runs"] == 3
    assert row["verdict"] == "no significant change"  # within the runs' own spread
    far = compare.compare_runs(results.load_many([str(d)]), scaled(base, 0.1))
    assert {r["verdict"] for r in far["rows"]} == {"regression"}


def test_input_errors_exit_2(tool, tmp_path, capsys):
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(SystemExit) as e:
        tool("pio-compare").main([str(tmp_path / "x.json"), str(tmp_path / "x.json")])
    assert e.value.code == 2
    assert "not a pio-bench results document" in capsys.readouterr().err


AA = ["aa1.json", "aa2.json", "aa3.json", "aa4.json"]


@pytest.mark.parametrize("candidate", AA)
def test_recorded_a_a_runs_give_no_regression(tool, candidate, capsys):
    """Leave-one-out over four runs of the same config: three baselines, one candidate."""
    baselines = [data(n) for n in AA if n != candidate]
    code, out = run(tool, baselines + [data(candidate), "--json"], capsys)
    rows = json.loads(out)["rows"]
    assert code == 0
    assert len(rows) == 26
    assert not [r for r in rows if r["verdict"] == "regression"]


def test_recorded_a_b_disk_with_sync_writes_is_flagged(tool, capsys):
    base = [data(n) for n in AA]
    code, out = run(tool, base + [data("ab-disk.json")], capsys)
    assert code == 0  # different file system and SyncWrites: not comparable, and said so
    assert "not comparable: file_system differs: baseline tmpfs, candidate ext4" in out
    code, out = run(tool, base + [data("ab-disk.json"), "--allow", "file_system,settings",
                                  "--json"], capsys)
    assert code == 1
    regressed = {r["name"] for r in json.loads(out)["rows"] if r["verdict"] == "regression"}
    assert "Segmented (write) / 64K" in regressed
    assert len(regressed) >= 5
    assert all("write" in n for n in regressed)


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
