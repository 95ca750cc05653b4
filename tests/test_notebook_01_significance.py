"""Run notebooks/01_significance.ipynb at DATA_SIZE="small" and check its recorded numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from workbench.significance import MVLSA_TABLE2


def _frame(d):
    return pd.DataFrame(d["data"], index=d["index"], columns=d["columns"])


@pytest.mark.notebooks
def test_notebook_01_significance(run_notebook):
    rec = run_notebook("01_significance", SEED=0)

    # Table 2 of the MVLSA paper, every cell within 0.15 points
    table = _frame(rec["table2_reproduced"])
    assert list(table.index) == list(MVLSA_TABLE2.index)
    paper = MVLSA_TABLE2.drop(columns="n").to_numpy(float)
    ours = table.drop(columns="n").to_numpy(float)
    filled = ~np.isnan(paper)
    assert np.all(~np.isnan(ours[filled]))
    assert np.max(np.abs(ours[filled] - paper[filled])) <= 0.15
    assert rec["table2_max_abs_diff"] <= 0.15
    assert abs(rec["footnote4_toefl_sigma_005"] - 6.38) <= 0.15

    # the variant analysis identifies a one-sided Williams t, not a two-sided or z test
    err = rec["table2_variant_max_error"]
    assert err["williams1959, one-sided"] <= 0.15
    assert err["mvlsa2015 (script, df=n-2), one-sided"] <= 0.1
    assert err["williams1959, two-sided"] > 2
    assert err["steiger1980 z, one-sided"] > 0.5

    # two real systems on the bundled rating sets
    cmp = _frame(rec["wordsim_comparison"])
    assert len(cmp) >= 10 and {"MEN", "SCWS", "SIMLEX"} <= set(cmp["dataset"])
    assert cmp["pvalue"].between(0, 1).all()
    assert (cmp["pvalue_adjusted"] >= cmp["pvalue"] - 1e-12).all()
    assert (cmp["mrds"] > 0).all() and (cmp["n"] >= 4).all()
    men = cmp.set_index("dataset").loc["MEN"]
    assert men["n"] > 300 and 0.05 < men["r_a"] < 0.9 and 0.05 < men["r_b"] < 0.9
    assert 0.1 < men["r_ab"] < 1

    # all ten tests agree on MEN (large n)
    tests = _frame(rec["men_all_tests"])
    assert len(tests) == 10
    p = tests["pvalue"].dropna()
    assert len(p) == 9 and p.max() - p.min() < 0.05

    assert len(rec["systems"]) == 3 and set(rec["superior_set"]) <= set(rec["systems"])
    assert 0 <= rec["analogy_mcnemar_pvalue"] <= 1 and 0 <= rec["analogy_prob_b_better"] <= 1
    assert all(0 <= a < 0.5 for a in rec["analogy_accuracy"].values())
