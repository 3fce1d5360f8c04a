"""pio-report's page in a real browser (Debian's headless Chromium, tests/tools/chromium.py):
every figure renders, nothing is fetched, no script error, and the rendered DOM states the
first screen (banners, verdicts, figures of merit with their flags' badges and reasons), the
warnings and a row per test in folded tables; and the nightly job's page shows each night's
verdict. Screenshots are kept under $PIO_REPORT_SCREENSHOTS (default: the test's temporary
directory)."""
import os

import pytest

import chromium
from conftest import DATA, with_flag_keys
from piotools import compare, report, results

PLOTS = os.path.join(DATA, "plots")


def doc(name):
    return results.load(os.path.join(PLOTS, name + ".json"))


PAGE_CACHE = {"flag": "page_cache", "reason": "97% of the bytes read were resident in the page "
                                             "cache"}
WARM_UP = {"flag": "warm_up", "reason": "2.3x slower than the other repetitions"}


@pytest.fixture(scope="module")
def quick_page(tmp_path_factory):
    """The quick run against quick2, with two flags set by hand as the harness writes them."""
    out = tmp_path_factory.mktemp("report") / "quick.html"
    d = doc("quick")
    with_flag_keys(d)
    blocks = {b["label"]: b for b in d["modules"]}
    blocks["simple_strided(read)"]["tests"][-1]["flags"] = [PAGE_CACHE]
    blocks["imb_pingpong"]["tests"][0]["reps"][0]["flags"] = [WARM_UP]
    out.write_text(report.render(d, [doc("quick2")]), encoding="utf-8")
    return str(out), d



@pytest.fixture(scope="module")
def browser():
    if not chromium.binary():
        pytest.fail("Debian's chromium is not installed (tools/install-deps.sh installs it)")
    with chromium.Browser() as b:
        yield b


DOM_FACTS = """(() => {
  const text = s => [...document.querySelectorAll(s)].map(e => e.innerText.trim());
  const svgs = [...document.querySelectorAll('svg')].map(s => {
    const r = s.getBoundingClientRect();
    return {w: r.width, h: r.height, shapes: s.querySelectorAll('path,use,text,rect').length};
  });
  const imgs = [...document.querySelectorAll('img')].map(i => i.complete && i.naturalWidth > 0);
  const modules = {}, openTables = [];
  for (const sec of document.querySelectorAll('section.module')) {
    modules[sec.querySelector('h3').innerText] =
      [...sec.querySelectorAll('h4 + details > table tbody')].map(tb => tb.rows.length);
    for (const t of sec.querySelectorAll('table'))
      if (t.checkVisibility()) openTables.push(t.innerText.slice(0, 40));
  }
  const summary = document.querySelector('#summary');
  const badges = [...document.querySelectorAll('#merit .badge')].map(b => {
    const r = b.getBoundingClientRect(), reason = b.nextElementSibling;
    const rr = reason.getBoundingClientRect();
    return {flag: b.innerText, row: b.closest('tr').cells[1].innerText, w: r.width,
            reason: reason.innerText, reasonVisible: rr.width > 0 && rr.height > 0,
            beside: Math.abs(rr.top - r.bottom) < 40 && b.closest('td') === reason.closest('td')};
  });
  return {warnings: text('#warnings li'), merit: text('#merit tbody tr'), svgs, imgs, modules,
          verdicts: text('#compare table.verdicts tbody tr').length,
          banners: text('#banners > li > .title'), verdictSummary: text('#verdicts li'),
          verdictHead: text('#verdicts > p')[0],
          summaryTop: summary ? summary.getBoundingClientRect().top : -1,
          badges, openTables, title: document.title};
})()"""

NIGHTLY_FACTS = """(() => ({
  nights: [...document.querySelectorAll('#nights tbody tr')].map(tr => {
    const v = tr.querySelector('.verdict');
    return {date: tr.cells[0].innerText, verdict: v.innerText,
            colour: getComputedStyle(v).backgroundColor, w: v.getBoundingClientRect().width};
  }),
  figures: [...document.querySelectorAll('#tests figure')].map(f => {
    const r = f.querySelector('svg').getBoundingClientRect();
    return {test: f.dataset.test, w: r.width, h: r.height};
  }),
  tally: document.querySelector('#tally').innerText
}))()"""


def test_report_renders_in_chromium(browser, quick_page, tmp_path):
    path, d = quick_page
    browser.load(path)
    facts = browser.evaluate(DOM_FACTS)
    assert browser.errors == []
    assert all(u.startswith("file:") or u.startswith("data:") for u in browser.requests)
    assert browser.failed == []
    # Every figure is drawn at a visible size with its shapes (the 7 modules of one size per
    # block draw none: a point in a large frame says nothing the table does not).
    assert len(facts["svgs"]) == len(results.blocks_by_label(d)) - 7 + 1
    assert all(s["w"] > 200 and s["h"] > 100 and s["shapes"] > 20 for s in facts["svgs"])
    assert all(facts["imgs"])
    assert facts["warnings"] == report.warnings(d)
    value, unit = results.figure_value(
        [b for b in d["modules"] if b["module"] == "beff_io"][0], "b_eff_io")
    assert unit == "MB/s"  # shown in the page's one bandwidth unit
    assert any(row.startswith("beff_io") and f"{value * 1e6 / 2**20:.4g}" in row and
               row.endswith("MiB/s") for row in facts["merit"])
    assert not any("MB/s" in row or "e+" in row for row in facts["merit"])
    # The first screen: banners, then the verdicts, then the figures of merit.
    assert 0 <= facts["summaryTop"] < 100
    assert facts["banners"][0].startswith("b_eff_io 18.49 MiB/s (beff_io): does not keep "
                                          "b_eff_io's rules")
    assert facts["banners"][1].startswith("2 of 40 tests are flagged: page_cache (1), "
                                          "warm_up (1)")
    res = compare.compare_runs([doc("quick2")], d)
    assert facts["verdictHead"].startswith("Against 1 baseline run(s): NOT COMPARABLE (")
    assert {x.split()[0] for x in facts["verdictSummary"]} == {"flagged", "inconclusive", "not"}
    assert any(x.startswith("flagged simple_strided(read) / 1M") or
               x.startswith("flagged imb_pingpong") for x in facts["verdictSummary"])
    # A badge beside each flagged figure with its reason as visible text, in its cell.
    assert sorted((b["flag"], b["row"], b["reason"]) for b in facts["badges"]) == [
        ("page_cache", "simple_strided(read)", PAGE_CACHE["reason"]),
        ("warm_up", "imb_pingpong", "repetition 1: " + WARM_UP["reason"])]
    assert all(b["w"] > 20 and b["reasonVisible"] and b["beside"] for b in facts["badges"])
    # Raw tables are folded: none rendered until opened.
    assert facts["openTables"] == []
    # A table row per test of every block.
    for module, blocks in results.blocks_by_label(d).items():
        title = [k for k in facts["modules"] if k.startswith(module + " (")]
        assert len(title) == 1
        assert facts["modules"][title[0]][:len(blocks)] == [len(b["tests"]) for b in blocks]
    assert facts["verdicts"] == len(res["rows"])
    shots = os.environ.get("PIO_REPORT_SCREENSHOTS") or str(tmp_path)
    os.makedirs(shots, exist_ok=True)
    png = browser.screenshot(os.path.join(shots, "report-quick.png"))
    with open(png, "rb") as f:
        head = f.read(24)
    assert head.startswith(b"\x89PNG")
    assert int.from_bytes(head[16:20], "big") == 1280
    assert int.from_bytes(head[20:24], "big") > 3000


def test_a_page_with_a_broken_figure_is_caught(browser, tmp_path):
    """The browser check fails when a figure does not render: the test is not vacuous."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><body><img src="missing.png"><svg width="0" '
                    'height="0"></svg><script>nosuch()</script></body></html>', encoding="utf-8")
    browser.errors.clear()
    browser.load(str(page))
    facts = browser.evaluate(DOM_FACTS)
    assert facts["imgs"] == [False]
    assert facts["svgs"][0]["w"] == 0
    assert any("nosuch" in e or "ReferenceError" in e for e in browser.errors)


def test_the_nightly_page_renders_each_nights_verdict(browser, tool, tmp_path):
    from conftest import make_doc, scaled, write_doc
    from piotools import history
    tests = {("simple_strided", "S", "1M", "write", 1 << 20): [100.0, 100.5, 99.5],
             ("simple_strided", "R", "1M", "read", 1 << 20): [300.0, 301.0, 299.0]}
    job = tmp_path / "job"
    job.mkdir()
    cmp = tool("pio-compare")
    runs, verdicts = [], []
    for i, f in enumerate((1.0, 1.02, 0.98, 1.01, 0.4, 1.0)):
        runs.append(write_doc(job / f"r{i}.json", scaled(make_doc(
            tests, date=f"2026-11-1{i}T00:00:00Z"), f)))
        saved = str(job / f"r{i}.compare.json")
        status = cmp.main((runs[:min(i, 3)] or [str(tmp_path / "empty")]) +
                          [runs[-1], "--save", saved, "--threshold", "20%"])
        verdicts.append(history.NIGHT_VERDICTS[status])
        cmp.main(["--history", str(job / "history.sqlite"), "--append", runs[-1],
                  "--comparison", saved])
    page = tmp_path / "nightly.html"
    assert tool("pio-report").main(["--nightly", str(job), "-o", str(page)]) == 0
    browser.errors.clear()
    browser.load(str(page))
    facts = browser.evaluate(NIGHTLY_FACTS)
    assert browser.errors == []
    assert [(n["date"][:10], n["verdict"]) for n in facts["nights"]] == \
        [(f"2026-11-1{i}", v) for i, v in reversed(list(enumerate(verdicts)))]
    assert "regression" in verdicts and all(n["w"] > 30 for n in facts["nights"])
    red = [n["colour"] for n in facts["nights"] if n["verdict"] == "regression"]
    assert red == ["rgb(198, 40, 40)"]
    assert sorted(f["test"] for f in facts["figures"]) == [
        "R / 1M [buffer_size=1048576 mode=read]", "S / 1M [buffer_size=1048576 mode=write]"]
    assert all(f["w"] > 200 and f["h"] > 80 for f in facts["figures"])
    shots = os.environ.get("PIO_REPORT_SCREENSHOTS") or str(tmp_path)
    os.makedirs(shots, exist_ok=True)
    browser.screenshot(os.path.join(shots, "report-nightly.png"))
