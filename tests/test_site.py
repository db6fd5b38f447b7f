"""The static site in a real browser: Playwright driving Debian's Chromium, from file://."""
import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest

import toybench as tb
from claimbench.api import Claim, cfg
from claimbench.checks import Better, Value
from claimbench.report import write_reports
from claimbench.runner import execute_plan, plan, select_cells

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
EVIL = "<img src=x onerror=alert(1)>"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Evil(tb.MeanEstimator):
    name = EVIL


def _need_browser():
    pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"Chromium missing at {CHROMIUM}: .ci/run installs it with apt-get")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from claimbench.store import Store

    tmp = tmp_path_factory.mktemp("site")
    # Pose the toy benchmark as one of the suite's papers, so the index links to it.
    claims = (Claim("c1", "Table 1", "mean beats noop", Better("mean", "noop", "abs_error")),
              Claim("c2", "Fig. 2", "tiny error", Value("mean", "abs_error", hi=1e-9, stat="max")))
    bench = tb.make_bench(slug="ssn_prm", methods=(cfg(tb.MeanEstimator), cfg(tb.Noop), cfg(Evil),
                                                   cfg(tb.Misbehave, how="raise")),
                          seeds=3, claims=claims)
    ext = tmp / "mine.py"
    ext.write_text("from dataclasses import dataclass\nfrom claimbench.api import Method\n"
                   "@dataclass\nclass Half(Method):\n    name = 'half'\n"
                   "    def run(self, data, seed):\n        return {'estimate': float(data.mean()) / 2}\n")
    with Store(tmp / "s.sqlite") as st:
        cells = select_cells(bench, "quick", methods=[f"{ext}:Half"])
        execute_plan(st, {"ssn_prm": bench}, plan(st, {"ssn_prm": tb}, cells, False), jobs=2)
        write_reports([bench], st, tmp / "reports", all_benches={"ssn_prm": bench})
    return tmp / "reports" / "site"


def test_site_files_escape_data(site):
    page = (site / "papers" / "ssn_prm.html").read_text()
    assert EVIL not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "class=ext>external</span>" in page and ">half<" in page
    index = (site / "index.html").read_text()
    assert index.count("<tr data-area=") == 57
    assert "http" not in (site / "site.js").read_text()  # nothing fetched from a CDN


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS,
                              headless=True)
        yield b
        b.close()


def _open(browser, path: Path):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors, dialogs = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, errors, dialogs


def test_index_sorts_filters_and_links(site, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    page, errors, dialogs = _open(browser, site / "index.html")
    rows = page.locator("#papers tbody tr")
    assert rows.count() == 57
    first = lambda: page.locator("#papers tbody tr:visible td:nth-child(2)").first.inner_text()
    before = first()
    page.get_by_role("button", name="Slug").click()
    asc = first()
    page.get_by_role("button", name="Slug").click()
    desc = first()
    assert asc != desc and asc == "a_memguard" and desc == "wiener_chaos_no" and before == "diasr_routing"
    page.select_option("#f-area", "games")
    visible = page.locator("#papers tbody tr:visible")
    assert 0 < visible.count() < 57
    assert set(visible.locator("td:nth-child(1)").all_inner_texts()) == {"games"}
    page.select_option("#f-area", "")
    page.fill("#search", "bandit")
    assert page.locator("#papers tbody tr:visible").count() == 1
    page.fill("#search", "")
    page.screenshot(path=str(ARTIFACTS / "site_index.png"), full_page=True)
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    local = [h for h in hrefs if h.startswith("file://")]
    assert any(h.endswith("papers/ssn_prm.html") for h in local)
    for h in local:
        assert Path(urlparse(h).path).exists(), h
    assert not errors and not dialogs


def test_paper_page_shows_evil_name_as_text(site, browser):
    page, errors, dialogs = _open(browser, site / "papers" / "ssn_prm.html")
    assert page.get_by_text(EVIL).count() >= 1  # shown as text
    assert page.locator("img[src=x]").count() == 0  # never parsed as markup
    table = page.locator("table.leaderboard").first
    methods = lambda: table.locator("tbody tr td:nth-child(1)").all_inner_texts()
    table.get_by_role("button", name="abs_error").click()
    up = methods()
    table.get_by_role("button", name="abs_error").click()
    down = methods()
    assert up != down and up[0] in ("mean", EVIL)  # both estimate exactly: a tie
    assert any("external" in m for m in up)
    page.keyboard.press("Tab")  # headers are buttons: reachable by keyboard
    page.screenshot(path=str(ARTIFACTS / "site_paper.png"), full_page=True)
    for h in page.eval_on_selector_all("a[href], img[src]", "els => els.map(e => e.href || e.src)"):
        if h.startswith("file://"):
            assert Path(urlparse(h).path).exists(), h
    narrow, _, _ = _open(browser, site / "papers" / "ssn_prm.html")
    narrow.set_viewport_size({"width": 380, "height": 800})
    width = narrow.evaluate("document.documentElement.scrollWidth")
    assert width <= 400  # tables scroll inside their wrapper, the page does not
    assert not errors and not dialogs
