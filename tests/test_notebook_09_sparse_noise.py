"""Notebook 09_sparse_noise (Table 3, Table 4, Figure 2 analogue of the Ex-RPCA paper) at small
size over two seeds; the assertions are on the recorded findings of every seed."""

from __future__ import annotations

import pytest


@pytest.mark.notebooks
def test_notebook_09_sparse_noise(run_notebook):
    rec = run_notebook("09_sparse_noise", SEED=0, SEEDS=2)
    assert rec["seeds"] == [0, 1] and rec["data_size"] == "small"
    n = len(rec["seeds"])
    dim = rec["dim"]
    assert all(0.0 < f < 0.2 for f in rec["sparse_nonzero_fraction"])  # S sparse, not empty
    assert all(w >= 100 for w in rec["wordnet_n_words"])
    for name, cols in rec["wordnet"].items():
        for rho, p, ph in zip(cols["spearman"], cols["pvalue"], cols["pvalue_holm"]):
            assert -1.0 <= rho <= 1.0 and 0.0 <= p <= ph <= 1.0, name
    assert len(rec["table3_words"]) == 8
    # dev/test discipline: the splits are disjoint halves and the choice is the dev optimum
    assert rec["n_scws_dev"] > 200 and rec["n_scws_test"] > 200
    curve = rec["dev_curve"]
    assert set(curve) == {"PCA", "Ex-RPCA", "WordNet"}
    assert str(dim - 2) in curve["PCA"]
    for i in range(n):
        assert curve["PCA"]["0"][i] == pytest.approx(curve["Ex-RPCA"]["0"][i])
        assert curve["PCA"]["0"][i] > 0.1  # the original vectors correlate with SCWS
        # keeping two dimensions loses what the best elimination has (Figure 2's right end)
        best_pca = max(v[i] for v in curve["PCA"].values())
        assert curve["PCA"][str(dim - 2)][i] < best_pca - 0.03
        for m in ("PCA", "Ex-RPCA", "WordNet"):
            chosen = rec["chosen_removed"][m][i]
            best = max(v[i] for r, v in curve[m].items() if int(r) > 0)
            assert 1 <= chosen <= dim - 2 and curve[m][str(chosen)][i] == pytest.approx(best)
        assert 0 <= rec["keep_original_removed"][i] <= dim - 2
    assert all(-1 <= v <= 1 for m in curve.values() for vals in m.values() for v in vals)
    table4 = rec["table4"]
    assert set(table4) == {"V (original)", "V~ PCA", "V~ Ex-RPCA", "V~ WordNet"}
    assert rec["n_table4_tests"] == 7  # three eliminations x two sets, Ex-RPCA against WordNet
    assert all(n >= 20 for n in rec["n_wordnet_pseudo"])
    orig = table4["V (original)"]
    for name in ("V~ PCA", "V~ Ex-RPCA", "V~ WordNet"):
        row = table4[name]
        assert row["removed"] == rec["chosen_removed"][name.split()[-1]]
        for i in range(n):
            assert row["SCWS gain"][i] == pytest.approx(
                row["SCWS test maxSimC"][i] - orig["SCWS test maxSimC"][i]
            )
            for col in ("SCWS", "WS-353"):
                assert 0.0 <= row[f"p ({col})"][i] <= row[f"p_holm ({col})"][i] <= 1.0
    vs = table4["V~ WordNet"]
    for i in range(n):
        assert 0.0 <= vs["p (SCWS, against Ex-RPCA)"][i] <= vs["p_holm (SCWS, against Ex-RPCA)"][i]
