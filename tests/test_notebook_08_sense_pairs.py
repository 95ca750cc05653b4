"""Notebook 08_sense_pairs (Tables 1-2 analogue of the Ex-RPCA paper) runs at small size."""

from __future__ import annotations

import pytest


@pytest.mark.notebooks
def test_notebook_08_sense_pairs(run_notebook):
    rec = run_notebook("08_sense_pairs", SEED=0)
    assert rec["n_multisense_words"] >= 100
    assert rec["n_columns"] >= 4 * rec["n_multisense_words"]  # K=3: up to 6 columns per word
    assert all(rec["converged"].values())
    evr = rec["evr_x100"]
    for name, values in evr.items():
        assert all(0 <= v <= 100 for v in values), name
        assert sum(values) <= 100 + 1e-6
        assert values == sorted(values, reverse=True) or name.startswith("Ex-RPCA (ALM)")
    # Table 2: Ex-RPCA explains at least as much of its cleaned matrix as PCA does of M
    assert sum(evr["Ex-RPCA r=3"][:3]) >= sum(evr["PCA"][:3]) - 1e-6
    # the listed pairs are far more aligned with the components than with random directions
    avg_cos = rec["avg_cos"]
    assert avg_cos["PCA"] > avg_cos["random directions"] + 0.2
    assert avg_cos["Ex-RPCA r=3"] > avg_cos["random directions"] + 0.2
    assert 0.0 <= rec["base_pseudo_rate"] <= 1.0
    assert all(0.0 <= v <= 1.0 for v in rec["pseudo_fraction"].values())
    assert len(rec["top_words"]["PCA"]) == 15
    # planted-structure section: both Ex-RPCA solvers beat PCA on subspace and support recall
    planted = rec["planted"]
    for name in ("Ex-RPCA iterative", "Ex-RPCA ALM"):
        assert planted[name]["max_angle_deg"] < planted["PCA"]["max_angle_deg"] / 1.5
        assert planted[name]["recall"] > planted["PCA"]["recall"] + 0.05
        assert planted[name]["precision"] > 0.85
