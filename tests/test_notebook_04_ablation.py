"""Notebook 04_ablation at DATA_SIZE="small": Table 8 view ablations with significance."""

from __future__ import annotations

import math

import pytest


@pytest.mark.notebooks
def test_notebook_04_ablation(run_notebook):
    rec = run_notebook("04_ablation", SEED=0)
    removals = rec["removals"]
    # one row per removal: every family of the small view set, plus one single offset view
    assert set(removals) >= {
        "!positional",
        "!dependency",
        "!bitext",
        "!ppdb",
        "!framenet",
        "!offset_1",
    }
    assert rec["n_removal_rows"] == len(removals) == len(rec["drops"])
    assert set(rec["test_sets"]) >= {"MEN", "SCWS", "SIMLEX", "AN-SYN", "AN-SEM"}
    assert set(rec["scores"]) == {"All views", *removals}
    assert math.isfinite(rec["men_all_views"]) and rec["men_all_views"] > 0.05
    for label, row in rec["drops"].items():
        assert row["MEN"] is not None and abs(row["MEN"]) < 0.5, label
        for test_set, p in rec["pvalues"][label].items():
            assert p is None or 0.0 <= p <= 1.0, (label, test_set)
    # dropping one of four offset views changes the embedding much less than dropping all of them
    mean = rec["mean_wordsim_drop"]
    assert all(math.isfinite(v) for v in mean.values())
    assert 0 <= sum(rec["n_significant"].values()) <= len(removals) * len(rec["test_sets"])
