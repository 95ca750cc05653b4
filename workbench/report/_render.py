"""The HTML of the results site: the index, one page per notebook, and the executed notebook
rendered by nbconvert -- all offline (no script, style sheet or font is loaded from a network).
"""

from __future__ import annotations

import html
import json
import logging
import re
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import DictLoader
from nbconvert import HTMLExporter
from nbconvert.filters import markdown2html

from workbench.report._collect import NotebookResultView
from workbench.report._mathjax import mathjax_head

__all__ = ["WIDGET_NOTE", "index_html", "notebook_html", "page_html", "remote_references"]

#: nbconvert's own log (e.g. "alternative text is missing on 2 images"): errors only.
_NBCONVERT_LOG = logging.getLogger(__name__ + ".nbconvert")
_NBCONVERT_LOG.setLevel(logging.ERROR)

#: Shown wherever a notebook with widgets is rendered.
WIDGET_NOTE = ("interactive widgets are shown as their static state; open the notebook in "
               "JupyterLab to use them")  # fmt: skip

#: nbconvert's ``lab`` template without what it loads from a CDN (require.js, mermaid, the
#: widget manager), MathJax from the site's own copy, with a link back to the notebook's page
#: and the widget note.
_OFFLINE_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}
{%- block html_head_js_mathjax -%}
{{ resources.workbench_mathjax }}
{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block body_header -%}
{{ super() }}
<nav class="workbench-nav" style="padding: 8px 16px; font-family: sans-serif;">
<a href="{{ resources.workbench_page }}">&larr; results of {{ resources.workbench_name }}</a> &middot;
<a href="index.html">all results</a>
{%- if resources.workbench_note %}
<p class="workbench-widget-note" style="background: #fff8e1; padding: 6px 10px;">
{{ resources.workbench_note }}</p>
{%- endif %}
</nav>
{%- endblock body_header -%}
"""

_CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 0 auto; padding: 0 16px 40px;
       color: #222; line-height: 1.45; }
nav { margin: 12px 0; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
figure { display: inline-block; margin: 8px 12px 8px 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figure.thumb img { max-width: 320px; }
.note { background: #fff8e1; padding: 6px 10px; }
.notebook { border-top: 2px solid #888; margin-top: 28px; }
.status { color: #a33; }
a.anchor-link { display: none; }
code, pre { background: #f6f6f6; }
"""

#: A resource a page would load from a network: ``src``/``href`` of a script, link, img or
#: iframe, or a CSS ``url()``/``@import`` with an http(s) address.
_REMOTE = re.compile(
    r"<(?:script|link|img|iframe|source|video|audio)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//"
    r"|url\(\s*[\"']?(?:https?:)?//|@import\s+[\"']?(?:url\()?[\"']?(?:https?:)?//",
    re.IGNORECASE,
)


def remote_references(text: str) -> list[str]:
    """The places in the HTML ``text`` that would load something from a network (none in a
    page of the site; links a reader may follow, ``<a href>``, are not loads)."""
    return [text[m.start(): m.start() + 120] for m in _REMOTE.finditer(text)]


def _markdown(text: str) -> str:
    return str(markdown2html(text))


def _e(value: Any) -> str:
    return html.escape(str(value))


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if value is None:
        return "n/a"
    if isinstance(value, (dict, list)):
        return f"<code>{_e(json.dumps(value, sort_keys=True))}</code>"
    return _e(value)


def table_html(value: Any) -> str:
    """A recorded table as HTML: a mapping of rows (name -> fields), a list of rows, a recorded
    DataFrame (``{"__type__": "DataFrame", ...}``) or, for anything else, its JSON."""
    rows: list[tuple[str, Mapping[str, Any]]] = []
    if isinstance(value, Mapping) and value.get("__type__") == "DataFrame":
        columns = [str(c) for c in value.get("columns", [])]
        data = value.get("data", [])
        index = value.get("index", list(range(len(data))))
        rows = [(str(i), dict(zip(columns, r))) for i, r in zip(index, data)]
    elif isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()):
        rows = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        rows = [(str(i + 1), v) for i, v in enumerate(value)]
    else:
        return f"<pre>{_e(json.dumps(value, indent=2, sort_keys=True))}</pre>"
    columns = list(dict.fromkeys(k for _, r in rows for k in r))
    head = "<tr><th></th>" + "".join(f"<th>{_e(c)}</th>" for c in columns) + "</tr>"
    body = "".join(
        f"<tr><th>{_e(name)}</th>" + "".join(f"<td>{_cell(r.get(c))}</td>" for c in columns)
        + "</tr>"
        for name, r in rows
    )
    return f"<table>{head}{body}</table>"


def _manifest_table(manifest: Mapping[str, Any]) -> str:
    rows = []
    for key, label in (("size", "data size"), ("parameters", "parameters"), ("seeds", "seeds"),
                       ("git_commit", "git commit"), ("finished", "finished"),
                       ("wall_time_s", "wall time (s)"), ("packages", "packages")):  # fmt: skip
        value = manifest.get(key)
        if value is None:
            continue
        if isinstance(value, Mapping):
            shown = ", ".join(f"{_e(k)}={_e(json.dumps(v))}" for k, v in value.items())
        else:
            shown = _e(value)
        rows.append(f"<tr><th>{label}</th><td>{shown}</td></tr>")
    return f"<table class='manifest'>{''.join(rows)}</table>"


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n{mathjax_head()}\n</head>\n"
        f"<body>\n{body}\n</body>\n"
        "</html>\n"
    )


def _first_paragraph(markdown: str) -> str:
    """The first paragraph after the heading of ``markdown`` (the question, in short)."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", markdown) if b.strip()]
    blocks = [b for b in blocks if not b.lstrip().startswith("#")]
    return blocks[0] if blocks else ""


def _figures_html(view: NotebookResultView, figure_paths: Sequence[str], thumb: bool) -> str:
    if not figure_paths:
        return "<p>No figures.</p>"
    cls = " class='thumb'" if thumb else ""
    return "".join(
        f"<figure{cls}><a href='{_e(path)}'><img src='{_e(path)}' alt='{_e(Path(path).stem)}'>"
        f"</a><figcaption>{_e(Path(path).name)}</figcaption></figure>"
        for path in figure_paths
    )


def _findings_html(view: NotebookResultView) -> str:
    if view.discussion.strip():
        return _markdown(view.discussion)
    return "<p>This notebook writes no Discussion.</p>"


def _claims_html(view: NotebookResultView) -> str:
    if view.claims is None:
        return ""
    return f"<h3>Claims</h3>{table_html(view.claims)}"


def page_html(view: NotebookResultView, figure_paths: Sequence[str]) -> str:
    """The page of one notebook: its question, key findings, claims, figures, run details and
    a link to the executed notebook. ``figure_paths`` are relative to the page."""
    note = f"<p class='note widget-note'>{_e(WIDGET_NOTE)}</p>" if view.has_widgets else ""
    body = (
        f"<nav><a href='index.html'>&larr; all results</a> &middot; "
        f"<a href='{_e(view.name)}.notebook.html'>the executed notebook</a></nav>\n"
        f"<h1>{_e(view.title)}</h1>\n{note}"
        f"<h2>The question</h2>\n<div class='question'>{_markdown(_without_title(view))}</div>\n"
        f"<h2>Key findings</h2>\n<div class='findings'>{_findings_html(view)}</div>\n"
        f"{_claims_html(view)}\n"
        f"<h2>Figures</h2>\n{_figures_html(view, figure_paths, thumb=False)}\n"
        f"<h2>Run</h2>\n{_manifest_table(view.manifest)}\n"
        f"<p><a href='{_e(view.name)}.notebook.html'>The full executed notebook</a></p>\n"
    )
    return _page(f"{view.name} - {view.title}", body)


def _without_title(view: NotebookResultView) -> str:
    """The question's Markdown without its first heading when that heading is the page's
    title (already shown above it)."""
    lines = view.question.splitlines()
    for i, line in enumerate(lines):
        if line.strip():
            if line.lstrip().startswith("#") and line.lstrip("# ").strip() == view.title:
                return "\n".join(lines[:i] + lines[i + 1 :])
            break
    return view.question


def index_html(
    views: Sequence[NotebookResultView],
    figures: Mapping[str, Sequence[str]],
    others: Mapping[str, str],
    results: Path,
) -> str:
    """The index: per notebook its question in short, key findings, claims, figures and links;
    then the notebooks found without a complete result, with their status."""
    parts = [f"<h1>Results</h1>\n<p>Results folder: <code>{_e(results)}</code>; "
             f"{len(views)} notebook{'' if len(views) == 1 else 's'} with a complete result.</p>"]
    toc = "".join(f"<li><a href='#{_e(v.name)}'>{_e(v.name)}</a> &mdash; {_e(v.title)}</li>"
                  for v in views)  # fmt: skip
    parts.append(f"<ul class='toc'>{toc}</ul>")
    if any(v.has_widgets for v in views):
        parts.append(f"<p class='note widget-note'>{_e(WIDGET_NOTE)}</p>")
    for v in views:
        parts.append(
            f"<section class='notebook' id='{_e(v.name)}'>\n"
            f"<h2><a href='{_e(v.name)}.html'>{_e(v.name)} &mdash; {_e(v.title)}</a></h2>\n"
            f"<p class='links'><a href='{_e(v.name)}.html'>results page</a> &middot; "
            f"<a href='{_e(v.name)}.notebook.html'>executed notebook</a></p>\n"
            f"<div class='question'>{_markdown(_first_paragraph(v.question))}</div>\n"
            f"<h3>Key findings</h3>\n<div class='findings'>{_findings_html(v)}</div>\n"
            f"{_claims_html(v)}\n"
            f"<h3>Figures</h3>\n{_figures_html(v, figures.get(v.name, ()), thumb=True)}\n"
            "</section>"
        )
    if others:
        rows = "".join(f"<tr><td>{_e(n)}</td><td class='status'>{_e(s)}</td></tr>"
                       for n, s in others.items())  # fmt: skip
        parts.append("<h2>Not shown</h2>\n<p>Notebook folders without a complete result "
                     f"(re-run them with <code>python -m workbench run</code>):</p>"
                     f"<table><tr><th>notebook</th><th>status</th></tr>{rows}</table>")  # fmt: skip
    return _page("Results", "\n".join(parts))


def notebook_html(view: NotebookResultView) -> str:
    """The executed notebook rendered by nbconvert's ``lab`` template, offline: images
    embedded, nothing loaded from a network (math typeset by the site's MathJax copy, widgets as
    their static state with :data:`WIDGET_NOTE`)."""
    exporter = HTMLExporter(template_name="lab", embed_images=True,
                            extra_loaders=[DictLoader({"workbench_offline.html.j2": _OFFLINE_TEMPLATE})],
                            template_file="workbench_offline.html.j2", log=_NBCONVERT_LOG)  # fmt: skip
    source_dir = Path(str(view.manifest.get("notebook_path") or view.folder)).parent
    resources = {
        "metadata": {"name": view.name, "path": str(source_dir if source_dir.is_dir() else view.folder)},
        "workbench_page": f"{view.name}.html",
        "workbench_name": view.name,
        "workbench_note": WIDGET_NOTE if view.has_widgets else "",
        "workbench_mathjax": mathjax_head(),
    }
    with warnings.catch_warnings():
        # the records the runner embeds (application/vnd.workbench.record+json) have no HTML form
        warnings.filterwarnings("ignore", message="Your element with mimetype", category=UserWarning)
        body, _ = exporter.from_notebook_node(view.notebook, resources=resources)
    return str(body)
