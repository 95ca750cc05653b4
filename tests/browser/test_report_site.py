"""Browser tier: the results site of a real run of 00_tour, opened from disk in Chromium.

The test runs 00_tour through the runner on small data, writes the site with
``python -m workbench report``, opens ``index.html`` through ``file://`` and then every page the
site links to. On every page every ``<img>`` must have loaded (``naturalWidth > 0``), every
local link must open a page or image without error, and no console error and no failed or
remote (non-``file:``) request may occur: the site works offline.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from workbench.cli import main
from workbench.runner import run_notebooks

pytestmark = pytest.mark.browser

_LINKS = "() => Array.from(document.querySelectorAll('a[href]'), a => a.href)"
_IMAGES = """() => Array.from(document.images, img => ({
  src: img.currentSrc || img.src, complete: img.complete, width: img.naturalWidth }))"""


@pytest.fixture(scope="module")
def site(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<out>/site`` of a fresh run of 00_tour (only when the browser tier can run)."""
    out = tmp_path_factory.mktemp("report_site")
    report = run_notebooks(["00_tour"], size="small", out=out, force=True, progress=False)
    assert report.ok, report.summary_table()
    assert main(["report", str(out)]) == 0
    return out / "site"


@pytest.fixture
def site_page(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page whose console errors, page errors, failed and remote requests are collected."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(30_000)
    problems: list[str] = []
    page = context.new_page()
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" else None)  # fmt: skip
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("requestfailed", lambda req: _request_problem(req.url, req.failure, problems))
    page.on("request", lambda req: problems.append(f"remote request: {req.url}")
            if not req.url.startswith(("file:", "data:", "about:")) else None)  # fmt: skip
    try:
        yield page, problems
    finally:
        context.close()


def _request_problem(url: str, failure: str | None, problems: list[str]) -> None:
    """Add a failed request to ``problems``, unless it is the load of a local file that exists,
    cut short because the test opened the next page (``net::ERR_ABORTED``: MathJax loads its
    fonts lazily, so one can still be loading then). A missing file fails with another error
    (``net::ERR_FILE_NOT_FOUND``), and an aborted load of a missing file is still reported."""
    if failure and "ERR_ABORTED" in failure and url.startswith("file:"):
        if Path(unquote(url.removeprefix("file://").split("?", 1)[0])).is_file():
            return
    problems.append(f"request failed: {url} ({failure})")


def _without_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def test_every_page_link_and_image_of_the_site_works_offline(site: Path, site_page) -> None:
    page, problems = site_page
    index = site / "index.html"
    assert index.is_file()
    to_visit = [index.as_uri()]
    visited: set[str] = set()
    images_seen = 0
    while to_visit:
        url = to_visit.pop()
        if url in visited:
            continue
        visited.add(url)
        response = page.goto(url, wait_until="load")
        assert response is None or response.ok, f"{url} did not open"
        if not url.endswith(".html"):
            continue  # an image opened by its link: it loaded (goto raised otherwise)
        page.wait_for_load_state("load")
        images = page.evaluate(_IMAGES)
        broken = [img["src"][:120] for img in images if not img["complete"] or img["width"] == 0]
        assert not broken, f"{url}: images that did not load: {broken}"
        images_seen += len(images)
        for href in page.evaluate(_LINKS):
            target = _without_fragment(href)
            if target.startswith("file:"):
                assert Path(unquote(target.removeprefix("file://"))).is_file(), f"{url} links to {href}"
                to_visit.append(target)
    pages = {u.rsplit("/", 1)[-1] for u in visited}
    assert {"index.html", "00_tour.html", "00_tour.notebook.html"} <= pages
    assert images_seen >= 4  # the figures on the index and the page, and those in the notebook
    assert problems == []


_TYPESET = """() => new Promise(done => MathJax.Hub.Queue(() => done({
  typeset: document.querySelectorAll('.MathJax, .MathJax_Display').length,
  errors: document.querySelectorAll('.MathJax_Error, .MathJax .merror').length,
  source: document.body.innerText.includes('\\\\frac'),
  font: MathJax.OutputJax['HTML-CSS'].fontInUse })))"""


def test_the_executed_notebook_shows_typeset_math(site: Path, site_page) -> None:
    """00_tour's displayed equations (Spearman's rho, 3CosAdd) are typeset by the site's MathJax
    copy with its STIX-Web web fonts: no TeX source is left on the page, no TeX error, nothing
    loaded remotely, no console error."""
    page, problems = site_page
    page.goto((site / "00_tour.notebook.html").as_uri(), wait_until="load")
    page.wait_for_function("() => window.MathJax && MathJax.isReady")
    state = page.evaluate(_TYPESET)
    assert state["typeset"] >= 4, state
    assert state["errors"] == 0 and not state["source"], state
    assert state["font"] == "STIX-Web", state
    assert problems == []


def test_links_are_clickable_from_the_index(site: Path, site_page) -> None:
    """A reader's path: index -> the notebook's page -> the executed notebook -> back."""
    page, problems = site_page
    page.goto((site / "index.html").as_uri())
    page.click("text=results page")
    assert page.url.endswith("/00_tour.html")
    assert page.locator("h2", has_text="Key findings").count() == 1
    page.click("text=The full executed notebook")
    assert page.url.endswith("/00_tour.notebook.html")
    page.locator(".jp-Cell").first.wait_for()
    page.click("text=results of 00_tour")
    assert page.url.endswith("/00_tour.html")
    page.click("text=all results")
    assert page.url.endswith("/index.html")
    assert problems == []
