"""pio-report: what the page says, read from its HTML and from the report's parts (the browser
test is test_report_browser.py)."""
import os
import re

import pytest

from conftest import DATA, with_flag_keys
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
    # Every module's figure inline (but the 7 modules of one size per block) and the change figure.
    assert page.count("<svg") == len(results.blocks_by_label(quick_page[1])) - 7 + 1


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


IO500 = os.path.join(DATA, "io500", "pio-round1.json")


def outside_svg(page):
    """The page's HTML without its inline pictures."""
    return re.sub(r"<svg.*?</svg>", "", page, flags=re.S)


def test_the_io500_page_of_a_short_run_says_it_is_not_valid_and_shows_the_score():
    from piotools import io500
    d = results.load(IO500)
    page = report.render(d)
    rows, (bw, md, score), notes = io500.summary(d)
    first = page[page.index('<section id="summary">'):page.index('<section id="warnings">')]
    assert "NOT a valid IO500 result" in first
    assert f"IO500 score {score:.4g}" in first and f"score <b>{score:.4g}</b>" in first
    # Phases in IO500's order, as pio-io500 prints them.
    table = first[first.index('<table class="io500">'):]
    shown = re.findall(r"<tr><td>([a-zA-Z0-9-]+)</td>", table[:table.index("</table>")])
    assert shown == io500.ORDER
    assert "none: every test completed" not in page
    assert any("NOT a valid IO500 result" in w for w in report.warnings(d))


def test_the_first_screen_speaks_one_unit_per_kind_and_plain_numbers(quick_page):
    with open(quick_page[0], encoding="utf-8") as f:
        page = outside_svg(f.read())
    first = page[page.index('<section id="summary">'):page.index('<section id="warnings">')]
    assert "MB/s" not in first and "MiB/s" in first  # b_eff_io's MB/s shown in MiB/s
    value, unit = results.figure_value(
        [b for b in quick_page[1]["modules"] if b["module"] == "beff_io"][0], "b_eff_io")
    assert unit == "MB/s" and f"{value * 1e6 / 2**20:.4g}" in first
    assert not re.search(r"\d\.?\d*e[+-]\d", page)  # no 1.139e+04 anywhere
    # b_eff_io's rules in words, not raw fields.
    assert "within_10_percent" not in first and "deviation" not in first
    assert re.search(r"the partition of 4 processes ran 14\.35 s against its scheduled 6\.000 s "
                     r"\(\+139%\); b_eff_io keeps each partition within 10 % of its scheduled "
                     r"time", first)


def test_raw_tables_are_folded_and_one_size_blocks_draw_no_point(quick_page):
    with open(quick_page[0], encoding="utf-8") as f:
        page = f.read()
    modules = page[page.index('<section id="modules">'):]
    assert modules.count("<table") >= 17  # a table per block, and b_eff_io's
    assert "<table" not in re.sub(r"<details>.*?</details>", "", modules, flags=re.S)
    sec = modules[modules.index('id="m-tiled"'):]
    sec = sec[:sec.index("</section>")]
    assert "<svg" not in sec and "one size per block: no curve to draw" in sec
    sec = modules[modules.index('id="m-simple_strided"'):]
    assert "<svg" in sec[:sec.index("</section>")]


def test_each_flagged_figure_carries_its_badge_and_reason():
    d = doc("quick")
    with_flag_keys(d)
    read = [b for b in d["modules"] if b["label"] == "simple_strided(read)"][0]["tests"][-1]
    read["flags"] = [{"flag": "page_cache", "reason": "97% of the bytes read were resident"}]
    page = report.render(d)
    first = page[page.index('<section id="summary">'):page.index('<section id="warnings">')]
    assert re.search(r'<td class="num value">359\.6<span class="badge" data-flag="page_cache">'
                     r'page_cache</span><span class="flag-reason">97% of the bytes read were '
                     r'resident</span></td>', first)
    assert "1 of 40 tests are flagged: page_cache (1)" in first
    assert page.count('data-flag="page_cache"') == 2  # the headline and the block's table
    assert "simple_strided(read) / 1M is flagged: page_cache: 97%" in "".join(report.warnings(d))


def test_the_nightly_page_shows_each_nights_verdict(tool, tmp_path):
    from conftest import make_doc, scaled, write_doc
    tests = {("simple_strided", "S", "1M", "write", 1 << 20): [100.0, 100.5, 99.5]}
    job = tmp_path / "job"
    job.mkdir()
    cmp = tool("pio-compare")
    from piotools import history
    runs, verdicts = [], []
    for i, f in enumerate((1.0, 1.02, 0.98, 1.01, 0.4)):
        runs.append(write_doc(job / f"r{i}.json", scaled(make_doc(
            tests, date=f"2026-11-1{i}T00:00:00Z"), f)))
        saved = str(job / f"r{i}.compare.json")
        base = runs[:min(i, 3)] or [str(tmp_path / "empty")]
        status = cmp.main(base + [runs[-1], "--save", saved, "--threshold", "20%"])
        verdicts.append(history.NIGHT_VERDICTS[status])
        cmp.main(["--history", str(job / "history.sqlite"), "--append", runs[-1],
                  "--comparison", saved])
    out = tmp_path / "nightly.html"
    assert tool("pio-report").main(["--nightly", str(job), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    rows = re.findall(r"<tr><td>(2026-11-1\d)T[^<]*</td><td><span class=\"verdict\"[^>]*>"
                      r"([^<]*)</span>", page)
    assert rows == [(f"2026-11-1{i}", v) for i, v in reversed(list(enumerate(verdicts)))]
    assert verdicts[0] == "first night" and verdicts[-1] == "regression"
    assert page.count("<svg") == 1 and 'data-verdicts="regression"' in page
