"""The results site (``python -m workbench report``) and the key numbers of ``summary.md``.

Most tests build a results folder by hand (a result folder as the runner writes it: executed
notebook, records.json, figures/, manifest.json with file hashes, owner marker); one runs
00_tour through the runner.
"""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest

from workbench.cli import main
from workbench.report import (
    SITE_MARKER,
    WIDGET_NOTE,
    ReportError,
    remote_references,
    write_site,
)
from workbench.runner import (
    NotebookResult,
    RunReport,
    mark_owned,
    output_hashes,
    run_notebooks,
    write_summary,
)
from workbench.runner._publish import key_numbers

#: A 2 x 1 PNG (a browser shows it: naturalWidth 2).
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
)
CLAIMS = {
    "larger m helps": {"kind": "direction", "a": "m=300", "b": "m=100", "sets better": 2,
                       "sets worse": 0, "n sets": 3, "reason": ""},
    "k does not matter": {"kind": "invariance", "a": "k=10", "b": "k=20", "sets better": 0,
                          "sets worse": 0, "n sets": 3, "reason": ""},
}  # fmt: skip


def make_result(out: Path, name: str, *, question: str | None = None,
                discussion: str = "* **The finding.** 42 of 50 pairs covered.",
                records: dict | None = None, figures: tuple[str, ...] = ("coverage",),
                widgets: bool = False) -> Path:  # fmt: skip
    """A complete result folder of notebook ``name`` in ``out``, as the runner writes it."""
    folder = out / name
    (folder / "figures").mkdir(parents=True)
    mark_owned(folder)
    nb = nbformat.v4.new_notebook()
    question = question or f"# {name[:2]} · Study {name}\n\n**Question.** Does {name} hold?\n"
    code = nbformat.v4.new_code_cell("x = 1", execution_count=1)
    if widgets:
        code.outputs = [nbformat.v4.new_output(
            "display_data",
            data={"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2,
                                                                 "version_minor": 0},
                  "text/plain": "IntSlider(value=3)"})]  # fmt: skip
    last = nbformat.v4.new_code_cell("discussion()", execution_count=2)
    last.outputs = [nbformat.v4.new_output("execute_result", execution_count=2,
                                           data={"text/markdown": discussion,
                                                 "text/plain": "<Markdown>"})]  # fmt: skip
    nb.cells = [nbformat.v4.new_markdown_cell(question), code, last]
    nbformat.write(nb, folder / f"{name}.ipynb")
    values = {"n_pairs": 50, "covered": 42, "label": "x", "ok": True, "rate": 0.84}
    (folder / "records.json").write_text(json.dumps(records if records is not None else values))
    for fig in figures:
        (folder / "figures" / f"{fig}.png").write_bytes(PNG)
        (folder / "figures" / f"{fig}.pdf").write_bytes(b"%PDF-1.4\n")
    manifest = {
        "notebook": name, "status": "complete", "size": "small",
        "parameters": {"DATA_SIZE": "small", "SEED": 7}, "seeds": {"SEED": 7},
        "git_commit": "0123456789abcdef", "finished": "2026-01-01T00:00:00+00:00",
        "wall_time_s": 1.5, "outputs": output_hashes(folder),
    }  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


@pytest.fixture
def results(tmp_path):
    out = tmp_path / "results"
    make_result(out, "00_alpha", figures=("coverage", "vocabulary"))
    make_result(out, "01_beta", records={"n": 3, "claims": CLAIMS}, figures=())
    return out


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("href", "src") and value:
                self.refs.append((tag, value))
            if key == "id" and value:
                self.ids.add(value)


def parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def broken_links(site: Path) -> list[str]:
    """Every local href/src of every page of ``site`` that does not resolve to a file (or, for
    ``#fragment``, to an id of the target page)."""
    broken = []
    for page in sorted(site.glob("*.html")):
        for tag, ref in parse(page).refs:
            url = urlparse(ref)
            if url.scheme in ("http", "https", "mailto", "data"):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            if not target.is_file():
                broken.append(f"{page.name}: <{tag}> {ref}")
            elif url.fragment and target.suffix == ".html" and url.fragment not in parse(target).ids:
                broken.append(f"{page.name}: <{tag}> {ref} (no such anchor)")
    return broken


# --------------------------------------------------------------------------- the site


def test_index_lists_each_complete_notebook_with_question_findings_and_links(results):
    site = write_site(results)
    assert site.index == results.resolve() / "site" / "index.html"
    assert site.notebooks == ("00_alpha", "01_beta")
    index = site.index.read_text(encoding="utf-8")
    for name in ("00_alpha", "01_beta"):
        assert f"Study {name}" in index  # the title: the first heading of the question
        assert f"Does {name} hold?" in index  # the question
        assert f"href='{name}.html'" in index and f"href='{name}.notebook.html'" in index
        assert (site.index.parent / f"{name}.html").is_file()
        assert (site.index.parent / f"{name}.notebook.html").is_file()
    assert "<strong>The finding.</strong> 42 of 50 pairs covered." in index  # the Discussion


def test_notebook_page_has_question_findings_figures_and_run_details(results):
    site = write_site(results).index.parent
    page = (site / "00_alpha.html").read_text(encoding="utf-8")
    assert "<strong>Question.</strong> Does 00_alpha hold?" in page
    assert page.count("Study 00_alpha") == 2  # the title once on the page (and in <title>)
    assert "42 of 50 pairs covered" in page
    assert "src='figures/00_alpha/coverage.png'" in page
    assert "src='figures/00_alpha/vocabulary.png'" in page
    assert "SEED=7" in page and "0123456789abcdef" in page and "small" in page
    nb_html = (site / "00_alpha.notebook.html").read_text(encoding="utf-8")
    assert "Does 00_alpha hold?" in nb_html and "href=\"00_alpha.html\"" in nb_html


def test_figures_are_copied_into_the_site(results):
    site = write_site(results).index.parent
    for fig in ("coverage", "vocabulary"):
        assert (site / "figures" / "00_alpha" / f"{fig}.png").read_bytes() == PNG
    assert not list(site.rglob("*.pdf"))  # only images a browser shows


def test_every_link_and_image_of_the_site_resolves(results):
    site = write_site(results).index.parent
    assert broken_links(site) == []


def test_link_check_finds_a_missing_file(results):
    site = write_site(results).index.parent
    (site / "figures" / "00_alpha" / "coverage.png").unlink()
    assert any("coverage.png" in b for b in broken_links(site))


def test_claims_table_shown_only_when_records_hold_claims(results):
    site = write_site(results).index.parent
    beta = (site / "01_beta.html").read_text(encoding="utf-8")
    assert "<h3>Claims</h3>" in beta
    assert "<th>larger m helps</th>" in beta and "<th>sets better</th>" in beta
    assert "<h3>Claims</h3>" not in (site / "00_alpha.html").read_text(encoding="utf-8")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert index.count("<h3>Claims</h3>") == 1


def test_the_site_loads_nothing_from_a_network(results):
    site = write_site(results).index.parent
    for page in site.glob("*.html"):
        assert remote_references(page.read_text(encoding="utf-8")) == [], page.name


def test_every_page_typesets_math_with_the_sites_own_mathjax(results):
    """Each page loads MathJax from the site's copy (a relative path, no network) with the
    combined TeX/HTML-CSS configuration; the copy holds what that configuration loads."""
    site = write_site(results).index.parent
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        scripts = [urlparse(ref) for tag, ref in parse(page).refs if tag == "script"]
        assert [(u.path, u.query) for u in scripts].count(
            ("_mathjax/MathJax.js", "config=TeX-AMS-MML_HTMLorMML-full")) == 1, page.name
        assert 'webFont: "STIX-Web"' in text and "tex2jax" in text, page.name
    for part in ("MathJax.js", "config/TeX-AMS-MML_HTMLorMML-full.js", "extensions/tex2jax.js",
                 "extensions/TeX/AMSmath.js", "jax/input/TeX/config.js", "jax/element/mml/jax.js",
                 "jax/output/HTML-CSS/fonts/STIX-Web/fontdata.js",
                 "fonts/HTML-CSS/STIX-Web/woff/STIXMathJax_Main-Regular.woff"):  # fmt: skip
        assert (site / "_mathjax" / part).is_file(), part
    assert not (site / "_mathjax" / "localization").exists()  # only what is loaded


def test_remote_reference_check_catches_cdn_scripts_and_styles():
    assert remote_references('<script src="https://cdn.example/require.js"></script>')
    assert remote_references("<link rel='stylesheet' href='//cdn.example/a.css'>")
    assert remote_references("<style>@import url('https://fonts.example/x.css');</style>")
    assert remote_references('<img src="http://example.org/x.png">')
    assert not remote_references('<a href="https://example.org/paper">the paper</a>')


def test_widgets_get_a_note_on_their_pages(tmp_path):
    out = tmp_path / "results"
    make_result(out, "00_plain")
    make_result(out, "01_widgets", widgets=True)
    site = write_site(out).index.parent
    assert WIDGET_NOTE in (site / "01_widgets.html").read_text(encoding="utf-8")
    nb_html = (site / "01_widgets.notebook.html").read_text(encoding="utf-8")
    assert WIDGET_NOTE in nb_html and "IntSlider(value=3)" in nb_html  # the static state
    assert WIDGET_NOTE not in (site / "00_plain.html").read_text(encoding="utf-8")
    assert WIDGET_NOTE not in (site / "00_plain.notebook.html").read_text(encoding="utf-8")


def test_damaged_and_failed_results_are_listed_not_shown(results, capsys):
    (results / "01_beta" / "records.json").write_text('{"n": 4}')  # modified after the run
    failed = results / "02_gamma.failed"
    failed.mkdir()
    mark_owned(failed)
    assert main(["report", str(results)]) == 0
    captured = capsys.readouterr()
    assert "not shown: 01_beta (damaged: records.json has" in captured.err
    assert "not shown: 02_gamma (failed)" in captured.err
    index = (results / "site" / "index.html").read_text(encoding="utf-8")
    assert "Not shown" in index and "damaged: records.json" in index
    assert not (results / "site" / "01_beta.html").exists()


# --------------------------------------------------------------------------- what the site may touch


def test_rerun_replaces_its_own_files_and_keeps_the_users(results):
    site = write_site(results).index.parent
    (site / "my notes.txt").write_text("mine")
    first = json.loads((site / SITE_MARKER).read_text())["files"]
    assert "index.html" in first and "my notes.txt" not in first
    write_site(results)
    assert (site / "my notes.txt").read_text() == "mine"


def test_rerun_removes_the_pages_of_a_notebook_no_longer_there(results, tmp_path):
    site = write_site(results).index.parent
    (results / "00_alpha").rename(tmp_path / "moved_away")
    write_site(results)
    assert not (site / "00_alpha.html").exists()
    assert not (site / "figures" / "00_alpha").exists()
    assert (site / "01_beta.html").is_file()
    assert "00_alpha" not in json.loads((site / SITE_MARKER).read_text())["files"]


def test_site_folder_without_marker_is_refused_and_left_untouched(results):
    site = results / "site"
    site.mkdir()
    (site / "index.html").write_text("the lab's own page")
    with pytest.raises(ReportError, match=r"site exists but was not created by the report"):
        write_site(results)
    assert (site / "index.html").read_text() == "the lab's own page"
    assert sorted(p.name for p in site.iterdir()) == ["index.html"]


def test_site_that_is_a_file_is_refused(results):
    (results / "site").write_text("not a folder")
    with pytest.raises(ReportError, match=r"site is not a folder"):
        write_site(results)
    assert (results / "site").read_text() == "not a folder"


def test_page_changed_since_the_report_wrote_it_is_refused(results):
    site = write_site(results).index.parent
    (site / "00_alpha.html").write_text("edited by hand")
    with pytest.raises(ReportError, match=r"00_alpha\.html \(changed since the report wrote it\)"):
        write_site(results)
    assert (site / "00_alpha.html").read_text() == "edited by hand"


def test_file_the_report_did_not_write_at_one_of_its_names_is_refused(results):
    site = write_site(results).index.parent
    marker = json.loads((site / SITE_MARKER).read_text())
    del marker["files"]["01_beta.notebook.html"]  # as if the user had put it there
    (site / SITE_MARKER).write_text(json.dumps(marker))
    before = (site / "index.html").read_bytes()
    with pytest.raises(ReportError, match=r"01_beta\.notebook\.html \(not written by the report\)"):
        write_site(results)
    assert (site / "index.html").read_bytes() == before  # nothing written


def test_report_writes_only_inside_site(results):
    def snapshot():
        return {p: p.read_bytes() for p in results.rglob("*") if p.is_file() and "site" not in p.parts}

    before = snapshot()
    write_site(results)
    assert snapshot() == before


# --------------------------------------------------------------------------- command line


def test_cli_report_prints_the_index_and_exits_0(results, capsys):
    assert main(["report", str(results)]) == 0
    assert capsys.readouterr().out.strip() == str(results.resolve() / "site" / "index.html")


def test_cli_report_defaults_to_results(results, monkeypatch, capsys):
    monkeypatch.chdir(results.parent)
    assert main(["report"]) == 0
    assert capsys.readouterr().out.strip().endswith("results/site/index.html")


def test_cli_report_without_complete_notebook_exits_2(tmp_path, capsys):
    out = tmp_path / "results"
    failed = out / "00_alpha.failed"
    failed.mkdir(parents=True)
    mark_owned(failed)
    assert main(["report", str(out)]) == 2
    err = capsys.readouterr().err
    assert "holds no notebook with a complete result; found: 00_alpha (failed)" in err
    assert "python -m workbench run" in err
    assert not (out / "site").exists()


def test_cli_report_missing_folder_exits_2(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nope")]) == 2
    assert f"results folder '{tmp_path / 'nope'}' does not exist" in capsys.readouterr().err


def test_cli_report_refused_site_exits_2(results, capsys):
    (results / "site").mkdir()
    assert main(["report", str(results)]) == 2
    assert "was not created by the report" in capsys.readouterr().err


# --------------------------------------------------------------------------- summary.md


def test_key_numbers_rule():
    records = {"corpus": "1M", "a": 1, "flag": True, "b": 2.5, "none": None, "table": {"x": 1},
               "c": 3, "d": 4, "e": 5, "f": 6}  # fmt: skip
    assert key_numbers(records) == [("a", 1), ("b", 2.5), ("c", 3), ("d", 4), ("e", 5)]
    assert key_numbers({"only": "text"}) == []


def test_summary_md_gains_key_numbers(results):
    report = RunReport(results=(NotebookResult("00_alpha", "complete", results / "00_alpha"),
                                NotebookResult("01_beta", "skipped", results / "01_beta")),
                       out=results)  # fmt: skip
    assert write_summary(report) == []
    md = (results / "summary.md").read_text(encoding="utf-8")
    section = md.split("## Key numbers", 1)[1]
    assert "### 00_alpha" in section and "| n_pairs | 50 |" in section
    assert "| rate | 0.84 |" in section
    assert "| ok |" not in section and "label" not in section  # no bools, no strings
    assert "### 01_beta" in section and "| n | 3 |" in section


def test_summary_md_names_unreadable_records(results):
    (results / "00_alpha" / "records.json").write_text("{not json")
    report = RunReport(results=(NotebookResult("00_alpha", "complete", results / "00_alpha"),),
                       out=results)  # fmt: skip
    assert write_summary(report) == []
    md = (results / "summary.md").read_text(encoding="utf-8")
    assert re.search(r"### 00_alpha\n\nrecords unreadable: .*records\.json.*not valid JSON", md)


# --------------------------------------------------------------------------- a real run


@pytest.mark.notebooks
def test_report_of_a_real_00_tour_run(tmp_path_factory, capsys):
    out = tmp_path_factory.mktemp("report_tour")
    report = run_notebooks(["00_tour"], size="small", out=out, force=True, progress=False)
    assert report.ok, report.summary_table()
    assert "## Key numbers" in (out / "summary.md").read_text(encoding="utf-8")
    assert main(["report", str(out)]) == 0
    site = out / "site"
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Tour of the workbench" in index and "Zipf" in index  # title and Discussion
    assert len(list((site / "figures" / "00_tour").glob("*.png"))) >= 1
    assert broken_links(site) == []
    for page in site.glob("*.html"):
        assert remote_references(page.read_text(encoding="utf-8")) == [], page.name
