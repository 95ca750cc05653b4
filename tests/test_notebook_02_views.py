"""Notebook 02_views at DATA_SIZE="small": every view family is built and described."""

from __future__ import annotations

import pytest


@pytest.mark.notebooks
def test_notebook_02_views(run_notebook):
    rec = run_notebook("02_views", SEED=0)
    families = {"positional", "window", "dependency", "bitext", "morphology", "synonyms", "ppdb",
                "framenet", "embedding"}  # fmt: skip
    assert set(rec["n_views_per_family"]) == families
    assert rec["n_offsets"] == 4 and rec["n_views_per_family"]["positional"] == 4
    assert rec["n_dependency_views"] >= 15  # most of the paper's 21 relations occur in EWT dev
    assert rec["n_views"] == sum(rec["n_views_per_family"].values()) >= 30
    assert all(rec["nnz_per_family"][f] > 0 for f in families)
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
