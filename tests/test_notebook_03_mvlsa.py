"""Notebook 03_mvlsa at DATA_SIZE="small": the hyper-parameter grids of Tables 3-7."""

from __future__ import annotations

import math

import pytest


@pytest.mark.notebooks
def test_notebook_03_mvlsa(run_notebook):
    rec = run_notebook("03_mvlsa", SEED=0)
    assert rec["n_tokens"] == 200_000 and rec["vocab_size"] == 4_000
    assert rec["n_views"] >= 10 and rec["views_per_family"]["positional"] == 4
    assert rec["grids"]["n_j"] == ["Count", "Log", "Count^0.25"]
    assert set(rec["grids"]) == {"n_j", "t", "m", "k", "v", "r"}
    men = rec["men_base"]
    assert math.isfinite(men) and men > 0.05  # MVLSA learns something on 200K tokens
    assert rec["men_n_scored"] > 300
    assert 0 < rec["mrds_men"] < 0.2
    for param, table in rec["scores"].items():
        assert set(table) == set(rec["grids"][param])
        for col in table.values():
            assert set(col) >= {"MEN", "SCWS", "AN-SYN", "AN-SEM"}
            assert all(v is None or -1 <= v <= 1 for v in col.values())
            assert 0 <= col["AN-SYN"] <= 1
    # Table 6: k slices one fit; 40 dimensions beat 10 on MEN; the fitted k equals the base run
    k = rec["scores"]["k"]
    assert k["40"]["MEN"] > k["10"]["MEN"]
    assert k["40"]["MEN"] == pytest.approx(men)
    assert rec["fit_seconds"]["k"] == [0.0, 0.0, 0.0]
    # Table 3: raw counts are not better than the fourth root on MEN (the robust paper finding)
    nj = rec["scores"]["n_j"]
    assert nj["Count^0.25"]["MEN"] > nj["Count"]["MEN"]
    assert len(rec["replicates"]) == 7
