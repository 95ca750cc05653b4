"""Notebook 06 (eigenwords with prior knowledge) on small data, two seeds: what it records."""

from __future__ import annotations

import math

import pytest

LEX = ("WN", "PD", "FN")


@pytest.fixture
def rec(run_notebook):
    return run_notebook("06_eigenwords_prior", SEED=0, SEEDS=2)


@pytest.mark.notebooks
def test_notebook_06_runs_and_records_its_tables(rec):
    assert rec["data_size"] == "small"
    assert rec["seeds"] == [0, 1]
    assert rec["n_tokens"] == 200_000 and rec["n_words"] == 2000
    alphas = rec["alphas"]
    keys = {f"{lex} {a:g}" for lex in LEX for a in alphas}
    # eigenwords carry signal: positive average Spearman, well below 1
    assert 0.0 < rec["eigen_avg_spearman"] < 0.9
    assert set(rec["ccaprior_avg_spearman"]) == keys
    assert set(rec["ccaprior_rf_avg_spearman"]) == keys
    assert all(-1.0 <= v <= 1.0 for v in rec["ccaprior_avg_spearman"].values())
    # the prior changes the embedding (otherwise the counts were not added)
    assert any(
        abs(v - rec["eigen_avg_spearman"]) > 1e-4 for v in rec["ccaprior_avg_spearman"].values()
    )
    best = rec["best_ccaprior"]
    assert best["avg"] == max(rec["ccaprior_avg_spearman"].values())
    assert set(rec["eigen_rf_avg_spearman"]) == set(LEX)
    assert all(e > 100 for e in rec["graph_edges"].values())
    assert all(not math.isnan(v) for v in rec["table2_avg_spearman"].values())


@pytest.mark.notebooks
def test_notebook_06_seeds(rec):
    # the SVDs do not depend on the start vectors: the same Eigen from every seed's start
    starts = list(rec["eigen_avg_by_start"].values())
    assert len(starts) == 2 and max(starts) - min(starts) < 1e-6
    assert rec["eigen_avg_by_start"]["0"] == pytest.approx(rec["eigen_avg_spearman"])
    # the trained baselines do: one value per seed, and the seeds differ
    sg = rec["baseline_avg_spearman"]["Skip-Gram NPK"]
    glove = rec["baseline_avg_spearman"]["GloVe NPK"]
    assert len(sg) == len(glove) == 2
    assert sg[0] != sg[1] and glove[0] != glove[1]
    assert set(rec["glove_loss"]) == {"0", "1"}
    for loss in rec["glove_loss"].values():
        assert len(loss) == 2 and loss[1] < loss[0]  # AdaGrad lowers the loss


@pytest.mark.notebooks
def test_notebook_06_tests_are_holm_corrected_counts(rec):
    n_sets = rec["n_sets_in_average"]
    assert 1 <= n_sets <= 11
    n_rows = 3 + 2 * 3 * len(rec["alphas"])  # Eigen + RF, CCAPrior, CCAPrior + RF
    assert 0 < rec["n_tests"]["spectral"] <= 11 * n_rows
    assert 0 < rec["n_tests"]["baselines per seed"] <= 11 * 8
    for key, better in rec["ccaprior_sets_better"].items():
        assert 0 <= better + rec["ccaprior_sets_worse"][key] <= 11
    for counts in rec["baseline_sets_better"].values():
        assert len(counts) == 2 and all(0 <= c <= 11 for c in counts)
    geo = rec["geo_questions"]
    assert geo["total"] == 506 and 0 <= geo["answerable"] <= geo["total"]
    assert {"CCAPrior WN " + f"{rec['alphas'][0]:g}", "Eigen PD"} <= set(rec["spectral_geo"])
    assert set(rec["seconds"]) >= {"setup", "study", "jobs", "total"}
