"""Notebook 05_fusion at DATA_SIZE="small": Table 9 on the dev-tuned MVLSA, gains and r_s."""

from __future__ import annotations

import math

import pytest

SYSTEMS = ["MVLSA (corpus views)", "MVLSA (all views)", "GloVe", "WSG", "PPMI-SVD",
           "GloVe 6B-50d", "MV-G-WSG", "MVLSA Combined"]  # fmt: skip


@pytest.mark.notebooks
def test_notebook_05_fusion(run_notebook):
    rec = run_notebook("05_fusion", SEED=0, SEEDS=2)
    assert rec["seeds"] == [0, 1]
    assert rec["systems"] == SYSTEMS and rec["n_systems"] == len(SYSTEMS)
    men = rec["men"]
    assert all(men[s] is not None and math.isfinite(men[s]) for s in rec["systems"])
    assert men["MVLSA (all views)"] > 0.05
    # billions of tokens vs 200K: the pretrained vectors are far ahead on the same pairs
    assert men["GloVe 6B-50d"] > 0.4
    assert men["GloVe 6B-50d"] > men["MVLSA (all views)"]
    gains = rec["gains"]
    first = rec["gains_seed0"]
    assert set(gains) == {"MV Gain", "G-WSG Gain"}  # the paper's two gain columns
    for g in ("MV Gain", "G-WSG Gain"):
        for test_set, p in first[f"{g}_pvalue"].items():
            holm = first[f"{g}_pvalue_holm"][test_set]
            assert p is None or p <= holm <= 1
            assert first[f"{g}_significant"][test_set] == (holm is not None and holm < 0.05)
            # significant in k of the 2 seeds; mean and sd over the seeds
            assert 0 <= rec["gain_up_seeds"][g][test_set] + rec["gain_down_seeds"][g][test_set] <= 2
            assert rec["gains_sd"][g][test_set] is None or rec["gains_sd"][g][test_set] >= 0
    per_seed = rec["wordsim_mean_per_seed"]
    assert rec["wordsim_mean"]["MVLSA (all views)"] == pytest.approx(
        sum(m["MVLSA (all views)"] for m in per_seed.values()) / 2, abs=1e-9
    )
    # the seeds train their own skip-gram: the two differ
    assert per_seed["0"]["WSG"] != per_seed["1"]["WSG"]
    assert gains["MV Gain"]["MEN"] == pytest.approx(
        men["MVLSA (all views)"] - men["MVLSA (corpus views)"], abs=1e-9
    )
    # the paper's G-WSG Gain: MVLSA Combined (all views + GloVe + WSG) - MVLSA (all views)
    assert gains["G-WSG Gain"]["MEN"] == pytest.approx(
        men["MVLSA Combined"] - men["MVLSA (all views)"], abs=1e-9
    )
    for col, vals in rec["r_s"].items():
        assert all(v is None or -1 <= v <= 1 for v in vals.values()), col
    counts = rec["gain_counts"]
    n_sets = len(rec["scores"]["GloVe"])
    for g in ("MV Gain", "G-WSG Gain"):
        assert counts[f"{g} significant up"] <= counts[f"{g} > 0"] <= n_sets
    assert rec["wordsim_mean"]["GloVe 6B-50d"] > rec["wordsim_mean"]["MVLSA (all views)"]
    # what each system is trained on: the corpus alone, or with the side views
    inputs = rec["system_inputs"]
    assert set(inputs) == set(SYSTEMS)
    assert inputs["MVLSA (corpus views)"] == inputs["GloVe"] == inputs["PPMI-SVD"] == ["corpus"]
    assert inputs["MV-G-WSG"] == ["corpus"]  # GloVe and WSG fused alone
    assert inputs["MVLSA Combined"] == inputs["MVLSA (all views)"]
    assert inputs["MVLSA (all views)"][0] == "corpus" and len(inputs["MVLSA (all views)"]) > 1
