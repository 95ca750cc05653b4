"""Unit tests of the tour notebook's Discussion (workbench.studies.tour.discussion_00) on synthetic
records, and the honest-numbers and recording rules for notebooks 00-02 (the facts behind the
words: tests/test_studies_intro_facts.py)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from workbench.coverage import cutoff_label
from workbench.studies import tour
from workbench.studies.tour import _cutoff_value, discussion_00

ROOT = Path(__file__).resolve().parents[1]
DECIMAL = re.compile(r"(?<![\w.])[-+\u2212]?\d+\.\d+")
LABELS = ["10K", "25K", "50K", "100K", "all"]


def _row(*values: float, items: int = 100) -> dict:
    return {"items": items, **dict(zip(LABELS, values))}


def _records(**over) -> dict:
    cov = {
        "MEN": _row(0.54, 0.74, 0.83, 0.88, 0.88, items=3000),
        "SCWS": _row(0.57, 0.78, 0.86, 0.88, 0.88, items=2003),
        "WS": _row(0.5, 0.75, 0.82, 0.84, 0.84, items=353),
        "MTURK-287": _row(0.36, 0.66, 0.82, 0.84, 0.84, items=287),
        "MTURK-771": _row(0.6, 0.78, 0.88, 0.91, 0.91, items=771),
        "SIMLEX": _row(0.74, 0.91, 0.96, 0.98, 0.98, items=999),
        "RG": _row(0.43, 0.92, 1.0, 1.0, 1.0, items=65),
        "RW": _row(0.07, 0.21, 0.38, 0.46, 0.46, items=2034),
        "analogy semantic": _row(0.03, 0.05, 0.08, 0.11, 0.11, items=8869),
        "analogy syntactic": _row(0.37, 0.6, 0.79, 0.83, 0.83, items=10675),
    }
    rec = {
        "corpus": "5M",
        "n_tokens": 5_061_657,
        "n_types": 75_139,
        "n_hapax": 29_117,
        "n_documents": 76,
        "zipf_exponent": -1.158,
        "heaps_beta": 0.596,
        "cutoffs": LABELS,
        "coverage": cov,
        "missing_examples": {"MEN": "computer, movie, {brace}", "WS": "software, computer"},
    }
    rec.update(over)
    return rec


def test_cutoff_value_inverts_cutoff_label():
    for k in (500, 10_000, 25_000, 1_500_000):
        assert _cutoff_value(cutoff_label(k)) == k
    assert _cutoff_value("all") == float("inf")


def _text(rec) -> str:
    return discussion_00(rec).data


def test_discussion_00_states_the_recorded_numbers():
    text = _text(_records())
    assert "Zipf and Heaps hold as expected" in text and "5,061,657 tokens" in text
    assert "slope is -1.16" in text and "tokens^0.6" in text
    assert "38.8 % of the types are hapaxes" in text
    # the largest cut-off below the vocabulary size (100K > 75,139 types)
    assert "well covered, but not completely" in text
    assert "82.0–88.0 % pair coverage at a 50K vocabulary and 84.0–91.0 % with all 75,139 types" in text
    assert "SIMLEX and RG are essentially complete" in text
    assert "A 10K vocabulary loses 46.0 % of MEN and 50.0 % of WS" in text
    assert "*computer, movie, {brace}, software*" in text  # one formatting pass: braces stay
    assert "A plausible reason, not tested here" in text  # no untested causal claim
    assert "RW (rare words) is the exception**: 46.0 %" in text and "biased" not in text
    assert "11.0 % of the semantic questions" in text and "83.0 % of the syntactic" in text
    assert "capitals" not in text  # the missing words are quoted instead of an untested reason
    assert "Nothing here is random" in text


def test_discussion_00_wording_follows_the_numbers():
    rec = _records(zipf_exponent=-2.5, n_types=20_000)
    rec["coverage"]["MEN"] = _row(0.3, 0.5, 0.6, 0.6, 0.6, items=3000)
    rec["coverage"]["RW"] = _row(0.5, 0.8, 0.9, 0.9, 0.9, items=2034)
    rec["coverage"]["analogy semantic"] = _row(0.5, 0.6, 0.7, 0.9, 0.9, items=8869)
    text = _text(rec)
    assert "do not hold as expected" in text
    assert "only partly covered" in text and "at a 10K vocabulary" in text
    assert "RW (rare words) is covered like the rest" in text
    assert "semantic analogies are reachable" in text and "separately for the two halves" not in text


def test_discussion_00_refuses_records_of_another_notebook():
    with pytest.raises(KeyError, match="lacks the records"):
        discussion_00({"corpus": "1M"})
    with pytest.raises(TypeError, match="records of a run of notebook 00"):
        discussion_00([])


@pytest.mark.parametrize("name", ["00_tour", "01_significance", "02_views"])
def test_no_decimal_number_typed_into_markdown(name):
    """Results are stated only through templates filled from the run's records; the notebook
    records with ``record_all(result)`` only (no ``record(`` / ``narrate(`` / ``recorded()``)."""
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=nbformat.NO_CONVERT)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            hits = DECIMAL.findall(re.sub(r"`[^`]*`", "", cell.source))
            assert not hits, f"{name} markdown cell {i} types {hits}"
    last = nb.cells[-1]
    assert last.cell_type == "code" and last.source.startswith("record_all(result)\n")
    assert "discussion_0" in last.source.splitlines()[-1]
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for banned in ("record(", "narrate(", "recorded("):
        assert banned not in code.replace("record_all(", ""), f"{name} calls {banned}"


def test_settings_per_size():
    assert tour.settings("full") == tour.TourSettings("full", "5M", None)
    assert tour.settings("small") == tour.TourSettings("small", "1M", 500_000)
    assert tour.settings("small", small_max_tokens=1_000).max_tokens == 1_000
    with pytest.raises(ValueError, match="size"):
        tour.settings("large")


@pytest.mark.parametrize(
    ("name", "equations"),
    [
        ("00_tour", [r"\rho =", r"\hat d = \arg\max"]),
        ("01_significance", [r"\sigma^r_{p_0} = \min", r"\sigma_{p_0} = \min", "t = (", "eq. 7"]),
        ("02_views", ["eq. 1 of Rastogi", "eq. 10", "[Z_k]_{ij}", "eqs. 8 and 9", "SPPMI"]),
    ],
)
def test_notebooks_00_02_explain_their_maths_units_and_explorers(name, equations):
    """Issue 31: displayed equations with their source, the unit stated once near the top, and a
    sentence saying what to try before each explorer."""
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=nbformat.NO_CONVERT)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert markdown.count("$$") >= 2
    for eq in equations:
        assert eq in markdown, f"{name}: {eq!r} missing"
    intro = nb.cells[0].source
    assert ("points" in intro and "Spearman" in intro) or "densities in %" in intro
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and "if INTERACTIVE:" in cell.source:
            before = nb.cells[i - 1]
            assert before.cell_type == "markdown" and before.source.startswith("**Try it.**")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for cell in nb.cells:  # only a cell's last line is echoed
        last = cell.source.rstrip().splitlines()[-1] if cell.source.strip() else ""
        if cell.cell_type == "code" and last.strip().startswith("save_figure("):
            assert last.rstrip().endswith(";"), f"{name}: {last.strip()} echoes its paths"
    assert "describe()}" not in code  # the data line is rendered, not a dict
