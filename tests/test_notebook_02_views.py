"""Notebook 02_views at DATA_SIZE="small": every view family is built and described, and the
Discussion is rendered from the run's records."""

from __future__ import annotations

import json

import pytest

from workbench.runner import run_notebooks

pytestmark = pytest.mark.notebooks

FAMILIES = {"positional", "window", "dependency", "bitext", "morphology", "synonyms", "ppdb",
            "framenet", "embedding"}  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("views")
    report = run_notebooks(["02_views"], parameters={"SEED": 0}, size="small", out=out,
                           force=True, progress=False)  # fmt: skip
    (result,) = report.results
    if result.failure is not None:
        pytest.fail(f"02_views failed at {result.failure.describe()}\n{result.failure.traceback}")
    return result


def rendered_discussion(result) -> str:
    nb = json.loads((result.output_dir / f"{result.name}.ipynb").read_text())
    outputs = nb["cells"][-1]["outputs"]
    texts = [
        "".join(o["data"]["text/markdown"]) for o in outputs if "text/markdown" in o.get("data", {})
    ]
    assert texts, "the last cell must display the Discussion"
    return texts[-1]


def test_every_family_is_built_and_described(run):
    rec = run.records
    assert set(rec["n_views_per_family"]) == FAMILIES
    assert rec["n_offsets"] == 4 and rec["n_views_per_family"]["positional"] == 4
    assert rec["n_dependency_views"] >= 15  # most of the paper's 21 relations occur in EWT dev
    assert rec["n_views"] == sum(rec["n_views_per_family"].values()) >= 30
    assert all(rec["nnz_per_family"][f] > 0 for f in FAMILIES)
    dens = rec["density_per_family"]
    # lexicon and dependency views are much sparser than co-occurrence views (as in the paper)
    for f in ("dependency", "morphology", "framenet", "synonyms", "ppdb", "bitext"):
        assert dens[f] < dens["positional"] < dens["window"]
    obs = rec["observed_fraction_per_family"]
    assert obs["positional"] > 0.99 and obs["dependency"] < 0.5
    # every counted pair is an in-vocabulary pair inside a document: at most tokens x offsets
    n = rec["n_tokens"]
    assert n == 200_000 and rec["vocab_size"] == 5_000
    assert 0.6 * 4 * n < rec["positional_pairs"] <= 4 * n
    assert 0.0 < rec["oov_rate"] < 0.3
    assert rec["bitext_top_god"] == "dios"  # IBM Model 1 aligns god -> dios
    assert 0.8 < rec["glove_coverage"] <= 1.0
    assert rec["preprocessed_is_sparse"] is True and rec["preprocessed_nnz"] > 0


def test_findings_of_the_discussion(run):
    rec = run.records
    pos = [rec["positional_density"][str(k)] for k in (1, 2, 3, 4)]
    assert pos == sorted(pos) and pos[0] < pos[-1]  # density grows with the offset
    dep = rec["dependency_nnz"]
    assert len(dep) == rec["n_dependency_views"] and min(dep.values()) < 20  # rare relations
    assert 20_000 < rec["treebank_tokens"] < 40_000  # the EWT dev split
    text = rendered_discussion(run)
    assert "density *grows* with the offset" in text and "Spearman ρ = 1 over" in text
    assert f"treebank of {rec['treebank_tokens']:,} tokens" in text
    rare = min(dep, key=dep.get)
    assert f"`{rare}`: {dep[rare]}" in text
    assert "*god* is *dios*" in text and "The paper reports densities of morphology" in text
    assert "Nothing here is random" in text and "{{" not in text


def test_executed_notebook_is_clean_and_readable(run):
    from notebook_outputs import unclean_outputs

    executed = run.output_dir / "02_views.ipynb"
    assert unclean_outputs(executed) == []
    nb = json.loads(executed.read_text())
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    html = "".join("".join(o["data"].get("text/html", "")) for o in outputs if "data" in o)
    assert "with a case child &#39;between&#39;" in html or "with a case child 'between'" in html
    assert "..." not in html and "mean density (%)" in html  # relation map whole, densities in %
    markdown = "".join("".join(o["data"].get("text/markdown", "")) for o in outputs if "data" in o)
    assert "*god* → dios (" in markdown


def test_figures(run):
    for fig in ("view_density", "view_families", "view_heatmaps"):
        assert (run.output_dir / "figures" / f"{fig}.png").stat().st_size > 1000
        assert (run.output_dir / "figures" / f"{fig}.pdf").exists()
    for table in ("view_statistics", "family_statistics"):
        assert (run.output_dir / "tables" / f"{table}.csv").stat().st_size > 0
