"""pio-results (CSV and table), pio-plot (files written) and every tool's --help."""
import copy
import io
import re
import subprocess
import sys

import pytest

from conftest import TOOLS, data, make_doc, write_doc
from piotools import csvout, results


@pytest.mark.parametrize("run", ["small", "wide"])
def test_csv_matches_the_harness_csv_of_the_same_run(run):
    """data/<run>.csv is the harness's own -o csv= file of data/<run>.json, recorded together
    (mpiexec -n 2 build/harness/pio-harness -c a.conf -o csv=r.csv, a.conf the document's
    config_text, paths under the build made repo-relative): re-record both when the harness's
    CSV gains a column. "wide" has the rows and columns "small" lacks: io_uring's clat columns,
    a file-per-process test with a hint, a failed test's and a failed block's error rows and
    a figure's rows (COMMTEST, whose Protocols setting is quoted)."""
    out = io.StringIO()
    csvout.write(results.load(data(f"{run}.json")), out)
    with open(data(f"{run}.csv"), encoding="utf-8") as f:
        assert out.getvalue() == f.read()


def test_csv_has_one_row_per_repetition_and_error_rows(tool, tmp_path, capsys):
    doc = make_doc({("m", "B", "x", "write", 8): [1.0, 2.0, 3.0]})
    doc["modules"].append(copy.deepcopy(doc["modules"][0]))
    doc["modules"][1]["label"] = "C"
    doc["modules"][1]["tests"][0]["error"] = {"rank": 1, "message": "short write, 0 of 8"}
    assert tool("pio-results").main(["csv", write_doc(tmp_path / "r.json", doc)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 3 + 3 + 1
    # error, then the test's start and finish times, the figure columns and the cache,
    # steadiness and flag columns
    assert lines[-1].endswith('"short write, 0 of 8"' + "," * 15)
    # the block's settings, then the test's parameters (one named like a fixed column)
    assert lines[0].split(",")[17:20] == ["setting:Mode", "param:buffer_size", "mode"]


def test_table_puts_runs_side_by_side(tool, capsys):
    assert tool("pio-results").main(["table", data("aa1.json"), data("aa2.json"),
                                     "--names", "one,two"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("| block | test | metric | one median | one min-max | two median |"
                      " two min-max |")
    assert len(out) == 2 + 26
    # Plain numbers, 4 significant digits, never 1.744e+04.
    seg = next(line for line in out if line.startswith("| Segmented (write) | 64K |"))
    assert not re.search(r"\de[+-]\d", "\n".join(out))
    assert seg.split("|")[4].strip().isdigit()  # a median above 1000 MiB/s, as an integer


def test_numbers_are_plain_with_4_significant_digits():
    from piotools import text
    assert [text.number(x) for x in (17443.2, 1744.4, 1.2345, 0.629, 0.000123, 0.0, None)] == [
        "17443", "1744", "1.234", "0.6290", "0.0001230", "0", ""]


def test_plot_writes_png_and_svg_per_module(tool, tmp_path, capsys):
    assert tool("pio-plot").main([data("small.json"), "-o", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    assert sorted(p.rsplit("/", 1)[1] for p in written) == [
        "imb_pingpong.png", "imb_pingpong.svg", "simple_strided.png", "simple_strided.svg"]
    for p in written:
        with open(p, "rb") as f:
            head = f.read(8)
        assert head.startswith(b"\x89PNG") if p.endswith(".png") else b"<?xml" in head


def test_plot_compare_draws_the_b_eff_io_figure_of_each_run(tool, tmp_path, capsys):
    doc = make_doc({("beff_io", "beff_io", "all", "write", 1 << 20): [5.0, 6.0]})
    doc["modules"][0]["figure"] = {"name": "b_eff_io", "notes": [], "values": [
        {"name": "b_eff_io", "value": 12.0, "unit": "MB/s"},
        {"name": "P2 b_eff_io", "value": 12.0, "unit": "MB/s"}], "tables": [
        {"name": "chunks", "columns": ["partition", "method", "chunk", "type 0 scatter MB/s",
                                       "type 1 shared MB/s"],
         "rows": [[2, "write", "1K", 10.0, 20.0], [2, "write", "1M", 11.0, "-"]]}]}
    a = write_doc(tmp_path / "a.json", doc)
    out = str(tmp_path / "o")
    assert tool("pio-plot").main(["--compare", a, data("small.json"), "-o", out]) == 0
    names = sorted(p.rsplit("/", 1)[1] for p in capsys.readouterr().out.split())
    assert "A_beff_io-P2.png" in names and "B_beff_io-P2.png" not in names
    assert "simple_strided.svg" in names


@pytest.mark.parametrize("name", ["pio-compare", "pio-plot", "pio-score", "pio-results"])
def test_every_tool_has_help(name):
    p = subprocess.run([sys.executable, f"{TOOLS}/{name}", "--help"], capture_output=True,
                       text=True, check=False)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: " + name)


def _with_figure(doc):
    doc["modules"][0]["figure"] = {
        "name": "b_eff", "tables": [], "notes": [],
        "values": [{"name": "b_eff", "value": 17443.26, "unit": "MB/s"},
                   {"name": "L_max", "value": 98734480.0, "unit": "B"},
                   {"name": "ping-pong bandwidth at L_max", "value": None, "unit": "MB/s"}]}
    return doc


def test_table_ends_with_every_figure_value_plain(tool, tmp_path, capsys):
    doc = _with_figure(make_doc({("m", "B", "x", "write", 8): [1.0, 2.0, 3.0]}))
    assert tool("pio-results").main(["table", write_doc(tmp_path / "r.json", doc),
                                     "--names", "one"]) == 0
    out = capsys.readouterr().out.splitlines()
    fig = [line for line in out if "| figure b_eff:" in line]
    label = doc["modules"][0]["label"]
    assert fig == [f"| {label} | figure b_eff: b_eff | MB/s | 17443 | |",
                   f"| {label} | figure b_eff: L_max | B | 98734480 | |",
                   f"| {label} | figure b_eff: ping-pong bandwidth at L_max | MB/s |"
                   " not measured | |"]
    assert not re.search(r"\de[+-]\d", "\n".join(out))


def test_csv_has_a_row_per_figure_value_as_in_the_json(tool, tmp_path, capsys):
    doc = _with_figure(make_doc({("m", "B", "x", "write", 8): [1.0, 2.0, 3.0]}))
    assert tool("pio-results").main(["csv", write_doc(tmp_path / "r.json", doc)]) == 0
    import csv as csvlib
    rows = list(csvlib.DictReader(io.StringIO(capsys.readouterr().out)))
    fig = [r for r in rows if r["figure"]]
    assert len(rows) == 3 + 3 and len(fig) == 3
    for r, v in zip(fig, doc["modules"][0]["figure"]["values"]):
        assert r["figure"] == "b_eff" and r["figure_value"] == v["name"] and r["rep"] == ""
        if v["value"] is None:
            assert (r["value"], r["unit"]) == ("", "not measured")
        else:
            assert "e" not in r["value"] and float(r["value"]) == pytest.approx(v["value"])
            assert r["unit"] == v["unit"]
