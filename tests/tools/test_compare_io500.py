"""tools/dev/compare-io500.py on recorded inputs (data/io500: three rounds of IO500's result
summary lines and of pio-bench's results documents of conf/io500.conf): each round written as
JSON with both tools' figures and loads, and `table` rebuilding the side-by-side table from those
files, with the per-phase ratios pio/IO500, their median and spread, and the score ratios."""
import json
import math
import os
import subprocess
import sys

import pytest

from conftest import DEV, data

# What the fixtures hold (written with these factors): IO500's figures per round, and pio's
# figure / IO500's per round, every phase but find, and find's.
IO500_EASY_WRITE = [2.0, 1.6, 2.5]
FACTOR = [0.9, 1.0, 1.05]
FIND_FACTOR = [2.0, 1.5, 2.5]


def _round(cmp, n):
    with open(data(f"io500/io500-round{n}.txt")) as f:
        ref = cmp.parse_io500(f.read())
    with open(data(f"io500/pio-round{n}.json")) as f:
        pio = cmp.parse_pio(json.load(f))
    order = ["io500", "pio"] if n % 2 else ["pio", "io500"]
    return {"order": order, "settings": {"IO500_ITEMS": "2000"},
            "io500": dict(ref, load=0.5 + n), "pio": dict(pio, load=1.5 + n)}


@pytest.fixture
def rounds_dir(tool, tmp_path):
    cmp = tool("dev/compare-io500.py")
    for n in (1, 2, 3):
        cmp.write_round(str(tmp_path), n, _round(cmp, n))
    return tmp_path


def test_io500_lines_parsed(tool):
    cmp = tool("dev/compare-io500.py")
    with open(data("io500/io500-round2.txt")) as f:
        got = cmp.parse_io500(f.read())
    assert len(got["phases"]) == 13  # 12 scored and the unscored ior-rnd4K ("[      ]")
    assert "timestamp" not in got["phases"]
    assert got["phases"]["ior-easy-write"] == IO500_EASY_WRITE[1]
    assert got["phases"]["ior-rnd4K-easy-read"] == pytest.approx(0.1)
    assert got["score"] == [1.131371, 16.91794, 4.374982]
    assert cmp.parse_io500("no summary here")["score"] is None


def test_round_files_hold_both_tools_and_loads(tool, rounds_dir):
    names = sorted(os.listdir(rounds_dir))
    assert names == ["round-001.json", "round-002.json", "round-003.json"]
    with open(rounds_dir / "round-002.json") as f:
        r = json.load(f)
    assert r["round"] == 2 and r["order"] == ["pio", "io500"]
    assert r["io500"]["load"] == 2.5 and r["pio"]["load"] == 3.5
    assert r["io500"]["phases"]["find"] == pytest.approx(80.0)
    # pio's figures come from its results document in IO500's units (GiB/s, kIOPS).
    assert r["pio"]["phases"]["find"] == pytest.approx(80.0 * FIND_FACTOR[1])
    assert r["pio"]["phases"]["ior-hard-write"] == pytest.approx(0.4 * FACTOR[1])
    assert len(r["pio"]["score"]) == 3


def test_table_ratios_median_and_spread(tool, rounds_dir):
    cmp = tool("dev/compare-io500.py")
    rounds = cmp.read_rounds(str(rounds_dir))
    rows = {r[0]: r for r in cmp.phase_rows(rounds)}
    assert len(rows) == 13
    p, unit, pio_v, ref_v, ratio, lo, hi = rows["ior-easy-write"]
    assert unit == "GiB/s"
    assert ref_v == pytest.approx(2.0)  # median of 2.0, 1.6, 2.5
    assert pio_v == pytest.approx(1.8)  # median of 1.8, 1.6, 2.625
    assert (ratio, lo, hi) == pytest.approx((1.0, 0.9, 1.05))
    _, unit, _, ref_v, ratio, lo, hi = rows["find"]
    assert unit == "kIOPS" and ref_v == pytest.approx(100.0)
    assert (ratio, lo, hi) == pytest.approx((2.0, 1.5, 2.5))
    scores = {s[0]: s[1:] for s in cmp.score_rows(rounds)}
    # Bandwidth: every ior phase has the round's factor, so its geomean has it too.
    assert scores["bandwidth"] == pytest.approx((1.0, 0.9, 1.05), rel=1e-5)
    # Metadata: 7 phases with the round's factor and find with its own (geomean over 8).
    md = sorted(f ** (7 / 8) * g ** (1 / 8) for f, g in zip(FACTOR, FIND_FACTOR))
    assert scores["metadata"] == pytest.approx((md[1], md[0], md[2]), rel=1e-5)
    total = sorted(math.sqrt(f * (f ** (7 / 8) * g ** (1 / 8))) for f, g in zip(FACTOR, FIND_FACTOR))
    assert scores["score"] == pytest.approx((total[1], total[0], total[2]), rel=1e-5)


def test_table_command_rebuilds_the_table(rounds_dir):
    out = subprocess.run([sys.executable, os.path.join(DEV, "compare-io500.py"), "table",
                          str(rounds_dir)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].split() == ["phase", "pio", "IO500", "unit", "pio/IO500", "spread"]
    assert [ln.split()[0] for ln in lines[1:14]] == [
        "ior-easy-write", "mdtest-easy-write", "ior-hard-write", "mdtest-hard-write", "find",
        "ior-easy-read", "mdtest-easy-stat", "ior-hard-read", "mdtest-hard-stat",
        "mdtest-easy-delete", "mdtest-hard-read", "mdtest-hard-delete", "ior-rnd4K-easy-read"]
    assert lines[5].split() == ["find", "200", "100", "kIOPS", "2.000", "1.500-2.500"]
    assert lines[1].split() == ["ior-easy-write", "1.8", "2", "GiB/s", "1.000", "0.900-1.050"]
    assert lines[14].split() == ["bandwidth", "1.000", "0.900-1.050"]
    assert lines[-1] == ("rounds: 3; loads before each run: r1 io500 1.5, r1 pio 2.5, "
                         "r2 pio 3.5, r2 io500 2.5, r3 io500 3.5, r3 pio 4.5")


def test_table_of_an_empty_directory_is_an_error(tmp_path):
    out = subprocess.run([sys.executable, os.path.join(DEV, "compare-io500.py"), "table",
                          str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 2
    assert f"no round-<n>.json in {tmp_path}" in out.stderr


def test_run_syncs_before_each_tool_and_records_its_counters(tool, tmp_path, monkeypatch):
    """`run`: the file system is synced before every run of either tool, and each run's record
    holds the page-cache refaults and major faults that happened during it."""
    cmp = tool("dev/compare-io500.py")
    ini = tmp_path / "short.ini"
    ini.write_text("[global]\ndatadir = d\nresultdir = r\n[debug]\nstonewall-time = 5\n"
                   "[ior-easy]\nblockSize = 1m\n[ior-hard]\nsegmentCount = 10\n"
                   "[mdtest-easy]\nn = 10\n[mdtest-hard]\nn = 10\n")
    events = []
    counter = {"workingset_refault_file": 100, "pgmajfault": 7}
    monkeypatch.setattr(cmp.os, "sync", lambda: events.append("sync"))
    monkeypatch.setattr(cmp, "vmstat", lambda: dict(counter))
    figures = {"phases": {"ior-easy-write": 1.0}, "score": [1.0, 1.0, 1.0]}

    def fake(who, refaults):
        def ran(*_):
            events.append(who)
            counter["workingset_refault_file"] += refaults
            counter["pgmajfault"] += 1
            return dict(figures)
        return ran

    monkeypatch.setattr(cmp, "run_io500", fake("io500", 50))
    monkeypatch.setattr(cmp, "run_pio", fake("pio", 3))
    out = tmp_path / "rounds"
    args = ["run", "--io500", "io500", "--ini", str(ini), "--harness", "h", "--modules", "m",
            "--dir", str(tmp_path / "scratch"), "--rounds", "2", "--out", str(out)]
    assert cmp.main(args) == 0
    assert events == ["sync", "io500", "sync", "pio", "sync", "pio", "sync", "io500"]
    with open(out / "round-001.json") as f:
        r = json.load(f)
    assert r["io500"]["vmstat"] == {"workingset_refault_file": 50, "pgmajfault": 1}
    assert r["pio"]["vmstat"] == {"workingset_refault_file": 3, "pgmajfault": 1}


def test_vmstat_reads_the_counters_and_the_memory_handed_to_the_host(tool, tmp_path):
    """vmstat(): the refault and major-fault counters from /proc/vmstat and the free-page
    reporting total where the file exists; a machine without it records only the first two."""
    cmp = tool("dev/compare-io500.py")
    proc = tmp_path / "vmstat"
    proc.write_text("nr_free_pages 5\nworkingset_refault_file 42\npgmajfault 3\npgfault 9\n")
    reported = tmp_path / "reported_kib"
    reported.write_text("178657404\n")
    assert cmp.vmstat(str(proc), str(reported)) == {
        "workingset_refault_file": 42, "pgmajfault": 3, "page_reporting_kib": 178657404}
    assert cmp.vmstat(str(proc), str(tmp_path / "absent")) == {
        "workingset_refault_file": 42, "pgmajfault": 3}


def _fake_sys(root, path, device, journal_task):
    """A /sys holding `path`'s device as `device`, an ext4 whose journal_task says journal_task
    (None: no ext4 entry for the device)."""
    dev = os.stat(path).st_dev
    (root / "devices" / "virtual" / "block" / device).mkdir(parents=True, exist_ok=True)
    (root / "dev" / "block").mkdir(parents=True, exist_ok=True)
    link = root / "dev" / "block" / f"{os.major(dev)}:{os.minor(dev)}"
    if not link.is_symlink():
        link.symlink_to(f"../../devices/virtual/block/{device}")
    if journal_task is not None:
        (root / "fs" / "ext4" / device).mkdir(parents=True, exist_ok=True)
        (root / "fs" / "ext4" / device / "journal_task").write_text(journal_task + "\n")


def test_nojournal_ext4_names_only_an_ext4_without_a_journal(tool, tmp_path):
    """nojournal_ext4(): the device of an ext4 whose journal_task is <none>; None for an ext4
    with a journal and for a file system that is not ext4; a path not made yet is judged by its
    nearest existing parent."""
    cmp = tool("dev/compare-io500.py")
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    bare, journaled, other = tmp_path / "bare", tmp_path / "journaled", tmp_path / "other"
    _fake_sys(bare, data_dir, "vdz", "<none>")
    _fake_sys(journaled, data_dir, "vdz", "1234")
    _fake_sys(other, data_dir, "vdz", None)
    assert cmp.nojournal_ext4(str(data_dir), str(bare)) == "vdz"
    assert cmp.nojournal_ext4(str(data_dir / "not" / "made"), str(bare)) == "vdz"
    assert cmp.nojournal_ext4(str(data_dir), str(journaled)) is None
    assert cmp.nojournal_ext4(str(data_dir), str(other)) is None


def test_warn_nojournal_names_the_directory_the_device_and_the_way_out(tool, tmp_path, capsys):
    """warn_nojournal(): one warning per directory on an ext4 without a journal, on stderr,
    naming the directory, the device and what to do; nothing for a journaled one."""
    cmp = tool("dev/compare-io500.py")
    bare, journaled = tmp_path / "bare", tmp_path / "journaled"
    _fake_sys(bare, tmp_path, "vdz", "<none>")
    _fake_sys(journaled, tmp_path, "vdz", "1234")
    cmp.warn_nojournal([str(tmp_path / "a"), str(tmp_path / "b")], str(bare))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].startswith(f"compare-io500: warning: {tmp_path / 'a'} is on ext4 without a "
                             "journal (vdz): ")
    assert "compare on a file system with a journal" in err[1]
    cmp.warn_nojournal([str(tmp_path / "a")], str(journaled))
    assert capsys.readouterr().err == ""
