"""pio-report's page in a real browser (Debian's headless Chromium, tests/tools/chromium.py):
every figure renders, nothing is fetched, no script error, and the rendered DOM states the
figure of merit, the warnings and a row per test. A screenshot of the page is kept under
$PIO_REPORT_SCREENSHOTS (default: the test's temporary directory)."""
import os

import pytest

import chromium
from conftest import DATA
from piotools import compare, report, results

PLOTS = os.path.join(DATA, "plots")


def doc(name):
    return results.load(os.path.join(PLOTS, name + ".json"))


@pytest.fixture(scope="module")
def quick_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "quick.html"
    d = doc("quick")
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
  const modules = {};
  for (const sec of document.querySelectorAll('section.module')) {
    modules[sec.querySelector('h3').innerText] = [...sec.querySelectorAll('h4 + table tbody')]
      .map(tb => tb.rows.length);
  }
  return {warnings: text('#warnings li'), merit: text('#merit tbody tr'), svgs, imgs, modules,
          verdicts: text('#compare table.verdicts tbody tr').length,
          title: document.title};
})()"""


def test_report_renders_in_chromium(browser, quick_page, tmp_path):
    path, d = quick_page
    browser.load(path)
    facts = browser.evaluate(DOM_FACTS)
    assert browser.errors == []
    assert all(u.startswith("file:") or u.startswith("data:") for u in browser.requests)
    assert browser.failed == []
    # Every figure is drawn at a visible size with its shapes.
    assert len(facts["svgs"]) >= 12 and all(s["w"] > 200 and s["h"] > 100 and s["shapes"] > 20
                                            for s in facts["svgs"])
    assert all(facts["imgs"])
    assert facts["warnings"] == report.warnings(d)
    value, unit = results.figure_value(
        [b for b in d["modules"] if b["module"] == "beff_io"][0], "b_eff_io")
    assert any(row.startswith("beff_io") and f"{value:.4g}" in row and unit in row
               for row in facts["merit"])
    # A table row per test of every block.
    for module, blocks in results.blocks_by_label(d).items():
        title = [k for k in facts["modules"] if k.startswith(module + " (")]
        assert len(title) == 1
        assert facts["modules"][title[0]][:len(blocks)] == [len(b["tests"]) for b in blocks]
    assert facts["verdicts"] == len(compare.compare_runs([doc("quick2")], d)["rows"])
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
