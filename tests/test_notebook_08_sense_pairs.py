"""Notebook 08_sense_pairs (Tables 1-2 analogue of the Ex-RPCA paper) runs at small size over two
seeds; the assertions are on the recorded findings of every seed."""

from __future__ import annotations

import pytest
from scipy import stats


@pytest.mark.notebooks
def test_notebook_08_sense_pairs(run_notebook):
    rec = run_notebook("08_sense_pairs", SEED=0, SEEDS=2)
    assert rec["seeds"] == [0, 1] and rec["data_size"] == "small"
    n = len(rec["seeds"])
    k = rec["n_components"]
    models = list(rec["evr_first"])
    ex = next(m for m in models if m.startswith("Ex-RPCA r="))
    for i in range(n):
        assert rec["n_multisense_words"][i] >= 100
        assert rec["n_columns"][i] >= 4 * rec["n_multisense_words"][i]  # K=3: up to 6 per word
    assert all(all(v) for v in rec["converged"].values())
    for name, values in rec["evr_seed"].items():
        assert all(0 <= v <= 1 for v in values), name
        assert sum(values) <= 1 + 1e-9
        assert values == sorted(values, reverse=True) or name.startswith("Ex-RPCA (ALM)")
    for i in range(n):
        # Table 2: Ex-RPCA explains at least as much of its cleaned matrix as PCA does of M
        assert rec["evr_first"][ex][i] >= rec["evr_first"]["PCA"][i] - 1e-6
        # the listed pairs are far more aligned with the components than with random directions
        assert rec["avg_cos"]["PCA"][i] > rec["avg_cos"]["random directions"][i] + 0.2
        assert rec["avg_cos"][ex][i] > rec["avg_cos"]["random directions"][i] + 0.2
        # §3.2: the PCA residual has heavier tails than Gaussian noise
        assert rec["outside_3sigma"][i] > 2 * (2 * stats.norm.sf(3))
        assert 0.0 <= rec["base_pseudo_rate"][i] <= 1.0
        # at least one component separates larger from smaller senses (sign test, Holm)
        assert any(
            rec["tests"][f"sense size sign test: {ex} component {c}"]["pvalue_holm"][i] < 0.05
            for c in range(1, k + 1)
        )
    for t in rec["tests"].values():
        assert all(0 <= p <= ph <= 1 for p, ph in zip(t["pvalue"], t["pvalue_holm"]))
    assert all(0.0 <= v <= 1.0 for vals in rec["pseudo_fraction"].values() for v in vals)
    assert len(rec["top_words"]["PCA"]) == rec["n_listed_pairs"] == 15
    # planted-structure check: both Ex-RPCA solvers beat PCA on subspace and support recall
    planted = rec["planted"]
    for name in ("Ex-RPCA iterative", "Ex-RPCA ALM"):
        for i in range(n):
            assert planted[name]["max_angle_deg"][i] < planted["PCA"]["max_angle_deg"][i] / 1.5
            assert planted[name]["recall"][i] > planted["PCA"]["recall"][i] + 0.05
            assert planted[name]["precision"][i] > 0.85
    # POS test: six tests (three components of PCA and of Ex-RPCA), Holm within the seed
    assert rec["n_pos_tests"] == 6 and 2 <= rec["n_pos_words"] <= 30
    for name, t in rec["pos_tests"].items():
        assert name.startswith(("PCA component", f"{ex} component")), name
        for i in range(n):
            assert 0.0 <= t["base_rate"][i] <= t["share"][i] <= 1.0
            assert t["statistic"][i] == pytest.approx(t["share"][i] - t["base_rate"][i])
            assert 0.0 < t["pvalue"][i] <= t["pvalue_holm"][i] <= 1.0
    # robustness: the main model (K=3) on the first seed, and NP-MSSG at small size
    rob = rec["robustness"]
    assert list(rob) == ["K=3", "NP-MSSG"] and rec["robustness_seed"] == 0
    assert rob["K=3"]["n_multisense_words"] == rec["n_multisense_words"][0]
    assert rob["K=3"]["outside_3sigma"] == pytest.approx(rec["outside_3sigma"][0])
    assert rob["NP-MSSG"]["threshold"] == 0.2 and rob["NP-MSSG"]["max_senses"] == 5
    # NP-MSSG opens senses only where contexts call for them: fewer than K=3's, within the cap
    assert 1.5 <= rob["NP-MSSG"]["senses_per_word"] < rob["K=3"]["senses_per_word"] <= 3
    assert rec["senses_per_word"][0] == pytest.approx(rob["K=3"]["senses_per_word"])
