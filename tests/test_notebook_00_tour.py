"""Runs notebooks/00_tour.ipynb through the runner on small data and checks its numbers and files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from workbench.datasets import WORDSIM_NAMES
from workbench.runner import run_notebooks

pytestmark = pytest.mark.notebooks

CUTOFFS = [1000, 5000, 10000]


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    out = tmp_path_factory.mktemp("tour")
    report = run_notebooks(
        ["00_tour"],
        parameters={"CUTOFFS": CUTOFFS, "SEED": 0},
        size="small",
        out=out,
        force=True,
        progress=False,
    )
    (result,) = report.results
    if result.failure is not None:
        pytest.fail(f"00_tour failed at {result.failure.describe()}\n{result.failure.traceback}")
    return result


def coverage_matrix(records):
    labels = records["cutoffs"]
    table = records["coverage"]
    return labels, {name: np.array([row[c] for c in labels]) for name, row in table.items()}


def test_corpus_statistics(tour):
    rec = tour.records
    assert rec["corpus"] == "1M"
    assert rec["n_tokens"] == 500_000  # SMALL_MAX_TOKENS of the 1M corpus
    assert 10_000 < rec["n_types"] < 60_000
    assert 0.3 < rec["n_hapax"] / rec["n_types"] < 0.7  # about half the types occur once
    assert -1.4 < rec["zipf_exponent"] < -0.8  # Zipf's law, slope near -1
    assert 0.4 < rec["heaps_beta"] < 0.8  # Heaps' law
    assert rec["n_documents"] >= 5
    assert rec["data_files"] >= 30 and rec["data_bytes"] > 30e6


def test_coverage_of_every_evaluation_set(tour):
    labels, cov = coverage_matrix(tour.records)
    assert labels == ["1K", "5K", "10K", "all"]
    assert set(WORDSIM_NAMES) | {"analogy", "analogy semantic", "analogy syntactic"} == set(cov)
    for name, values in cov.items():
        assert ((values >= 0) & (values <= 1)).all(), name
        assert (np.diff(values) >= 0).all(), f"{name}: coverage must grow with the cut-off"
    assert cov["MEN"][0] < cov["MEN"][-1]  # a larger vocabulary covers strictly more
    assert cov["MEN"][-1] > 0.5
    assert cov["SIMLEX"][-1] > 0.8  # common words
    assert cov["RW"][-1] < 0.5 * cov["MEN"][-1]  # rare words stay rare
    assert cov["analogy semantic"][-1] < cov["analogy syntactic"][-1]  # place names, currencies
    assert tour.records["coverage"]["MEN"]["items"] == 3000


def rendered_discussion(result) -> str:
    """The Markdown the notebook's last cell displayed (the rendered Discussion template)."""
    nb = json.loads((result.output_dir / f"{result.name}.ipynb").read_text())
    outputs = nb["cells"][-1]["outputs"]
    texts = [
        "".join(o["data"]["text/markdown"]) for o in outputs if "text/markdown" in o.get("data", {})
    ]
    assert texts, "the last cell must display the Discussion"
    return texts[-1]


def test_discussion_is_rendered_from_the_run(tour):
    rec = tour.records
    text = rendered_discussion(tour)
    assert f"{rec['n_tokens']:,} tokens, {rec['n_types']:,} types" in text
    assert f"slope is {rec['zipf_exponent']:.3g}" in text and "hold as expected" in text
    rw = rec["coverage"]["RW"]["all"]
    assert f"RW (rare words) is the exception**: {100 * rw:.1f} %" in text
    assert "semantic analogies are mostly out of reach" in text
    assert "Nothing here is random" in text and "{{" not in text
    assert rec["missing_examples"]["MEN"]  # the most used missing words, quoted in the text
    assert rec["missing_examples"]["MEN"].split(", ")[0] in text


def test_executed_notebook_is_clean_and_readable(tour):
    from notebook_outputs import unclean_outputs

    executed = tour.output_dir / "00_tour.ipynb"
    assert unclean_outputs(executed) == []
    nb = json.loads(executed.read_text())
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    markdown = ["".join(o["data"]["text/markdown"]) for o in outputs
                if "text/markdown" in o.get("data", {})]  # fmt: skip
    assert any(m.startswith("**Data:** the bundled Gutenberg corpus") for m in markdown)
    html = "".join("".join(o["data"].get("text/html", "")) for o in outputs if "data" in o)
    assert "500,000" in html  # the corpus summary with thousands separators
    assert "missing (%)" in html and "..." not in html  # examples whole, shares in %


def test_outputs_and_manifest(tour):
    folder = tour.output_dir
    assert (folder / "00_tour.ipynb").exists()
    for table in ("coverage", "data_files", "data_folders", "missing_words"):
        assert (folder / "tables" / f"{table}.csv").stat().st_size > 0
    for fig in ("coverage", "vocabulary"):
        assert (folder / "figures" / f"{fig}.png").stat().st_size > 1000
        assert (folder / "figures" / f"{fig}.pdf").exists()
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["size"] == "small"
    assert manifest["parameters"]["CUTOFFS"] == CUTOFFS
    assert manifest["data_checksums"]  # provenance of the bundled data


@pytest.mark.slow
def test_full_size_claims_of_the_discussion(tmp_path):
    """The numbers the notebook's discussion quotes (5M corpus); about a minute."""
    report = run_notebooks(["00_tour"], size="full", out=tmp_path, progress=False)
    (result,) = report.results
    assert result.failure is None, result.failure and result.failure.describe()
    rec = result.records
    assert rec["corpus"] == "5M" and 5.0e6 < rec["n_tokens"] < 5.2e6
    assert 70_000 < rec["n_types"] < 80_000 and 0.35 < rec["n_hapax"] / rec["n_types"] < 0.45
    assert -1.2 < rec["zipf_exponent"] < -1.1 and 0.55 < rec["heaps_beta"] < 0.65
    labels, cov = coverage_matrix(rec)
    assert labels == ["10K", "25K", "50K", "100K", "all"]
    for name in ("MEN", "SCWS", "WS", "MTURK-287", "MTURK-771"):
        assert 0.8 < cov[name][2] < 0.9, name  # 50K
        assert 0.84 <= cov[name][-1] < 0.92, name
    for name in ("SIMLEX", "RG", "MC", "VERB-143"):
        assert cov[name][-1] > 0.97, name
    assert 0.45 < cov["MEN"][0] < 0.6 and 0.45 < cov["WS"][0] < 0.6  # 10K loses about half
    assert 0.4 < cov["RW"][-1] < 0.5
    assert 0.1 < cov["analogy semantic"][-1] < 0.13 and 0.8 < cov["analogy syntactic"][-1] < 0.86
    text = rendered_discussion(result)
    assert "well covered, but not completely" in text and "at a 50K vocabulary" in text
