"""The HTML report in headless Chromium: MathML, anchors, figures, filters, no console errors.

Renders the committed report (reports/results.json, experiments.json, figures/) into a
temporary folder. Screenshots of each paper page's first screen are kept in
$ATTNCHECK_ARTIFACTS (default: the test's temporary folder).
"""
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from browser import Browser, chromium_binary

REPORTS = Path(__file__).resolve().parents[2] / "reports"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_binary() is None, reason="chromium is not installed")]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from attncheck.report import html as report_html

    out = tmp_path_factory.mktemp("site")
    (out / "figures").symlink_to(REPORTS / "figures")
    for name in ("results.json", "experiments.json"):
        shutil.copy(REPORTS / name, out / name)
    (out / "summary.md").write_text("stand-in")
    doc = json.loads((out / "results.json").read_text())
    exps = json.loads((out / "experiments.json").read_text())
    return out, report_html.write_pages(out, doc, exps)


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def _artifacts(tmp_path) -> Path:
    where = Path(os.environ.get("ATTNCHECK_ARTIFACTS", tmp_path))
    where.mkdir(parents=True, exist_ok=True)
    return where


def test_local_links_resolve_in_the_files(site):
    out, pages = site
    for page in pages:
        text = page.read_text()
        for ref in re.findall(r"(?:href|src)='([^'#]+)", text):
            assert (out / ref).exists(), f"{page.name}: {ref}"
        ids = set(re.findall(r" id='([^']+)'", text))
        for anchor in re.findall(r"href='#([^']+)'", text):
            assert anchor in ids, f"{page.name}: #{anchor}"
        for target, anchor in re.findall(r"href='([a-z0-9]+\.html)#([^']+)'", text):
            assert f" id='{anchor}'" in (out / target).read_text(), f"{page.name}: {target}#{anchor}"


def test_paper_pages_in_chromium(site, browser, tmp_path):
    out, pages = site
    for page in pages:
        seconds = browser.open(page.as_uri())
        assert seconds < 30
        if page.name == "index.html":
            continue
        # first screen, then every figure loaded (they are lazy: scrolled into view one by one)
        browser.screenshot(_artifacts(tmp_path) / f"{page.stem}-first-screen.png")
        math = browser.js("[...document.querySelectorAll('math')].filter(m => m.getBoundingClientRect().height > 0)"
                          ".length")
        claims = browser.js("document.querySelectorAll('article.claim').length")
        assert claims > 0 and math >= claims  # the statements render as MathML
        missing = browser.js("[...document.querySelectorAll('a[href^=\"#\"]')].map(a => "
                             "decodeURIComponent(a.getAttribute('href').slice(1)))"
                             ".filter(id => !document.getElementById(id))")
        assert missing == []
        broken = browser.js("""(async () => {
            const imgs = [...document.querySelectorAll('img')];
            imgs.forEach(i => i.loading = 'eager');
            await Promise.all(imgs.map(i => i.complete ? 0 : new Promise(r => { i.onload = i.onerror = r; })));
            return imgs.filter(i => !(i.naturalWidth > 0)).map(i => i.getAttribute('src'));
        })()""")
        assert broken == []
        # the filters hide what is unchecked
        hidden = browser.js("""(() => {
            const box = document.querySelector("#filters input[name=verdict][value=ERRATUM]");
            if (!box) return -1;
            box.click();
            const shown = [...document.querySelectorAll("article.claim[data-col=ERRATUM]")].filter(a => !a.hidden);
            box.click();
            return shown.length;
        })()""")
        assert hidden in (0, -1)
    assert browser.console_errors() == []


def test_first_screen_loads_fast(site, browser, tmp_path):
    out, pages = site
    page = next(p for p in pages if p.name != "index.html")
    seconds = min(browser.open(page.as_uri()) for _ in range(3))
    (_artifacts(tmp_path) / "load-times.txt").write_text(
        "".join(f"{p.name} {p.stat().st_size} bytes\n" for p in pages) + f"{page.name} first screen {seconds:.3f} s\n")
    assert seconds < 10


@pytest.mark.parametrize("width, height, name", [(390, 844, "phone"), (1440, 900, "desktop")])
def test_pages_fit_a_phone_and_a_desktop_width(site, tmp_path, width, height, name):
    """Each page at a phone's and a desktop's width: nothing wider than the window but what scrolls inside its own
    box (tables, statements), no console error; a screenshot of each is kept in the artifacts."""
    out, pages = site
    b = Browser(width=width, height=height)
    try:
        for page in pages:
            b.open(page.as_uri())
            b.screenshot(_artifacts(tmp_path) / f"{page.stem}-{name}.png")
            overflow = b.js("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{page.name} at {width} px is {overflow} px too wide"
        assert b.console_errors() == []
    finally:
        b.close()
