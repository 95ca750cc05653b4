"""Notebook 09_sparse_noise (Table 3, Table 4, Figure 2 analogue of the Ex-RPCA paper) at small size."""

from __future__ import annotations

import pytest


@pytest.mark.notebooks
def test_notebook_09_sparse_noise(run_notebook):
    rec = run_notebook("09_sparse_noise", SEED=0)
    assert 0.0 < rec["sparse_nonzero_fraction"] < 0.2  # S is sparse but not empty
    assert rec["wordnet_n_words"] >= 100
    for name, rho in rec["wordnet_spearman"].items():
        assert -1.0 <= rho <= 1.0, name
        assert 0.0 <= rec["wordnet_pvalue"][name] <= 1.0, name
    assert len(rec["table3_words"]) == 8
    curve = rec["scws_curve"]
    dim = rec["dim"]
    assert set(curve) == {"PCA", "Ex-RPCA"}
    assert curve["PCA"]["0"] == pytest.approx(curve["Ex-RPCA"]["0"])
    assert str(dim - 1) in curve["PCA"]
    # all scores are correlations; the original vectors correlate positively with SCWS
    assert all(-1 <= v <= 1 for m in curve.values() for v in m.values())
    assert curve["PCA"]["0"] > 0.1
    # keeping a single dimension destroys the similarity structure (Figure 2's right end)
    assert curve["PCA"][str(dim - 1)] < curve["PCA"]["0"] - 0.05
    table4 = rec["table4"]
    assert set(table4) == {"V (original)", "V~ PCA", "V~ Ex-RPCA"}
    for name in ("V~ PCA", "V~ Ex-RPCA"):
        row = table4[name]
        assert 1 <= row["removed"] < dim
        assert 0.0 <= row["p (SCWS)"] <= 1.0 and 0.0 <= row["p (WS)"] <= 1.0
    assert 0 <= rec["max_removed_keeping_original_scws"] < dim
