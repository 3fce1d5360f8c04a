"""pio-compare --history: appending runs to SQLite and showing a test's trend."""
import json

import pytest

from conftest import data, make_doc, scaled, write_doc
from piotools import history, results

TESTS = {("simple_strided", "S", "64K", "write", 65536): [100.0, 110.0]}


def test_append_keys_runs_by_date_and_system_label_and_skips_duplicates(tmp_path):
    db = history.open_db(str(tmp_path / "h.sqlite"))
    doc = results.load(write_doc(tmp_path / "a.json", make_doc(TESTS)))
    assert history.append(db, doc, "ssd-raid")[1] == 1
    assert history.append(db, doc, "ssd-raid") == (None, 0)
    assert history.append(db, doc, "hdd")[1] == 1  # another system label is another run
    doc2 = results.load(write_doc(tmp_path / "b.json",
                                  make_doc(TESTS, system_label="own", date="2026-11-24T00:00:00Z")))
    history.append(db, doc2, "ignored: the document has its own")
    labels = [r[0] for r in db.execute("SELECT system_label FROM runs ORDER BY id")]
    assert labels == ["ssd-raid", "hdd", "own"]


def test_trend_shows_the_last_n_runs_oldest_first(tmp_path):
    db = history.open_db(str(tmp_path / "h.sqlite"))
    for day, f in zip(range(10, 16), (1, 2, 3, 4, 5, 6)):
        d = scaled(make_doc(TESTS, date=f"2026-11-{day}T00:00:00Z"), f)
        history.append(db, results.load(write_doc(tmp_path / f"{day}.json", d)))
    t = history.trend(db, "S/64K", last=3)
    (name, rows), = t.items()
    assert name == "S / 64K [buffer_size=65536 mode=write]"
    assert [r["date"][:10] for r in rows] == ["2026-11-13", "2026-11-14", "2026-11-15"]
    assert [r["median"] for r in rows] == [420.0, 525.0, 630.0]
    assert [r["system_label"] for r in rows] == ["ext4"] * 3  # file system when unlabelled
    assert history.trend(db, "S", last=1)[name][0]["median"] == 630.0
    assert history.trend(db, "nothing") == {}


def test_cli_append_and_trend(tool, tmp_path, capsys):
    db = str(tmp_path / "h.sqlite")
    cmp = tool("pio-compare")
    assert cmp.main(["--history", db, "--append", data("aa1.json"), data("aa2.json"),
                     "--system-label", "shm"]) == 0
    out = capsys.readouterr().out
    assert out.count("added 26 tests") == 2
    assert cmp.main(["--history", db, "--trend", "Simple Strided (write)/1M", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    (series,) = rows.values()
    assert [r["system_label"] for r in series] == ["shm", "shm"]  # the flag, as the runs carry none
    assert cmp.main(["--history", db, "--trend", "Simple Strided (write)/1M"]) == 0
    assert "vs previous" in capsys.readouterr().out


def test_trend_names_the_file_system_and_an_unknown_label_lists_the_known_ones(tool, tmp_path,
                                                                               capsys):
    db = str(tmp_path / "h.sqlite")
    cmp = tool("pio-compare")
    assert cmp.main(["--history", db, "--append", data("aa1.json"), data("ab-disk.json")]) == 0
    capsys.readouterr()
    assert cmp.main(["--history", db, "--trend", "Simple Strided (write)/1M"]) == 0
    out = capsys.readouterr().out
    # one series per file-system configuration, each named by it, with its own rows
    tables = {t.split("] on ")[1].split()[0]: t.strip("\n").splitlines()
              for t in out.split("\n\n") if "] on " in t}
    assert sorted(tables) == ["ext4", "tmpfs"]
    for fs, lines in tables.items():
        assert lines[0].startswith("Simple Strided (write) / 1M [buffer_size=1048576 ")
        assert "file system" in lines[1]
        assert [line.split()[2] for line in lines[3:] if line] == [fs]
    with pytest.raises(SystemExit) as e:
        cmp.main(["--history", db, "--trend", "simple_strided(write)/1M"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "no test 'simple_strided(write)/1M' in" in err
    assert "It knows these BLOCK/TEST labels:\n  Flash I/O (write)/" in err
    assert "\n  Simple Strided (write)/1M\n" in err
