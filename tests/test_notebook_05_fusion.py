"""Notebook 05_fusion at DATA_SIZE="small": Table 9 systems, gains and r_s."""

from __future__ import annotations

import math

import pytest

SYSTEMS = ["MVLSA (corpus views)", "MVLSA (all views)", "GloVe", "WSG", "GloVe 6B-50d", "MV-G-WSG"]


@pytest.mark.notebooks
def test_notebook_05_fusion(run_notebook):
    rec = run_notebook("05_fusion", SEED=0)
    assert rec["systems"][:6] == SYSTEMS and rec["n_systems"] == 7  # + the paper's "MVLSA Combined"
    men = rec["men"]
    assert all(men[s] is not None and math.isfinite(men[s]) for s in rec["systems"])
    assert men["MVLSA (all views)"] > 0.05
    # 6B tokens vs 200K: the pretrained vectors are far ahead on the same pairs
    assert men["GloVe 6B-50d"] > 0.4 > men["MVLSA (all views)"]
    gains = rec["gains"]
    assert set(gains) >= {"MV Gain", "G-WSG Gain", "MV Gain_significant", "G-WSG Gain_significant"}
    assert gains["MV Gain"]["MEN"] == pytest.approx(
        men["MVLSA (all views)"] - men["MVLSA (corpus views)"], abs=1e-9
    )
    for col, vals in rec["r_s"].items():
        assert all(v is None or -1 <= v <= 1 for v in vals.values()), col
    assert rec["r_s"]["r_s GloVe (MV-G-WSG)"]["MEN"] is not None
    counts = rec["gain_counts"]
    assert 0 <= counts["MV Gain significant"] <= counts["MV Gain > 0"] + len(rec["scores"]["GloVe"])
