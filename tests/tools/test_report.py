"""pio-report: what the page says, read from its HTML and from the report's parts (the browser
test is test_report_browser.py)."""
import os
import re

import pytest

from conftest import DATA
from piotools import report, results

PLOTS = os.path.join(DATA, "plots")


def doc(name):
    return results.load(os.path.join(PLOTS, name + ".json"))


@pytest.fixture(scope="module")
def quick_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "quick.html"
    d = doc("quick")
    out.write_text(report.render(d, [doc("quick2")]), encoding="utf-8")
    return str(out), d


def test_page_is_self_contained(quick_page):
    with open(quick_page[0], encoding="utf-8") as f:
        page = f.read()
    assert "<script" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert page.count("<svg") >= 12  # every module's figure inline, and the change figure


def test_warnings_name_rules_not_met_and_hints_not_in_effect():
    d = doc("quick")
    w = report.warnings(d)
    assert any(x.startswith("b_eff_io (") and "does not meet its rule" in x for x in w)
    tuning = report.warnings(doc("tuning"))
    assert any("hint striping_factor=4 requested, in effect: not set" in x for x in tuning)
    broken = doc("quick")
    broken["modules"][0]["tests"][1]["error"] = {"rank": 2, "message": "short write, 0 of 8"}
    broken["status"], broken["exit_code"] = "failed", 1
    w = report.warnings(broken)
    assert w[0] == "the run is failed (exit code 1)"
    assert any("failed: short write, 0 of 8" in x for x in w)


def test_cli_writes_the_page_and_prints_its_path(tool, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert tool("pio-report").main([os.path.join(PLOTS, "imb.json"), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_cli_rejects_what_is_not_a_results_document(tool, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        tool("pio-report").main([os.path.join(DATA, "imb-mpi1.txt"), "-o", str(tmp_path / "x")])
    assert e.value.code == 2
    assert "pio-report: error:" in capsys.readouterr().err
