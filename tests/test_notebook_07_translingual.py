"""Notebook 07 (translingual projections) runs at DATA_SIZE="small" and records sane numbers."""

from __future__ import annotations

import pytest

METHODS = {
    "OPCA",
    "CPLSA",
    "Word-by-word",
    "Word-by-word+LSA",
    "JPLSA",
    "CCA",
    "CL-LSI",
    "Untranslated",
}


@pytest.mark.notebooks
def test_notebook_07_translingual(run_notebook):
    rec = run_notebook("07_translingual", SEED=0)
    assert rec["data_size"] == "small"
    # split by book: every chapter in exactly one part
    assert sum(rec["n_chapters"].values()) == 1189
    assert all(n > 100 for n in rec["n_chapters"].values())
    # about 1,000 terms per language, a few shared
    assert 1000 < rec["n_terms_joint"] < 2000
    top1, mrr = rec["test_top1"], rec["test_mrr"]
    assert set(top1) == METHODS
    assert all(0.0 <= mrr[m] <= 1.0 and top1[m] <= mrr[m] + 1e-12 for m in METHODS)
    # learned projections retrieve parallel chapters far above chance (211 test chapters)
    for m in ("OPCA", "CCA", "CL-LSI", "Word-by-word"):
        assert mrr[m] > 0.8, m
    assert mrr["OPCA"] > mrr["Untranslated"] + 0.3
    assert mrr["JPLSA"] > 0.1 and mrr["CPLSA"] > 0.1
    assert rec["chosen_dim"]["Untranslated"] == "N/A"
    assert set(rec["superior_set_top1"]) <= METHODS and rec["superior_set_top1"]
    # classification into 6 divisions: better than the majority class would give (~0.3)
    acc = rec["classification_accuracy"]
    assert set(acc) == METHODS
    assert acc["OPCA"] > 0.5 and acc["CL-LSI"] > 0.5
    assert all(s >= 0 for s in rec["fit_seconds"].values())
    assert isinstance(rec["opca_beats_cllsi_mrr"], bool)
    # the supplementary matched-dimension comparison covers every method with a dimension
    assert rec["matched_dim"] == 25
    assert set(rec["matched_dim_mrr"]) == METHODS - {"Untranslated", "Word-by-word"}
    assert rec["matched_dim_mrr"]["OPCA"] > 0.5
    assert set(rec["superior_set_matched_dim"]) <= set(rec["matched_dim_mrr"])
    assert set(rec["dim10_top1"]) == {"OPCA", "CCA", "CL-LSI", "Word-by-word+LSA"}
    assert set(rec["superior_set_dim10"]) <= set(rec["dim10_top1"])
