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
    stop = rec["glove_stop"]
    assert stop["tol"] == 0.01 and stop["epochs"] == 4
    for seed, loss in rec["glove_loss"].items():
        assert 2 <= len(loss) <= 4 and loss[1] < loss[0]  # AdaGrad lowers the loss
        # what stopped it follows from the recorded loss and the rule
        fall = (loss[-2] - loss[-1]) / loss[-2]
        assert stop["stopped_by"][seed] == ("tolerance" if fall < 0.01 else "epochs")


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


@pytest.mark.notebooks
def test_notebook_06_prior_chunks_table2_matched_and_sweeps(rec):
    assert rec["prior_chunk_length"] == 13
    # Table 2: Eigen, graph-only and its retrofit on the same pairs, with the pair counts
    for lex in LEX:
        m = rec["table2_matched"][lex]
        assert 1 <= m["sets"] <= rec["table2_sets_tested"][lex] and m["pairs"] >= 10 * m["sets"]
        assert m["eigen"] == pytest.approx(rec["table2_eigen_matched_avg_spearman"][lex])
    sw = rec["sweep"]
    assert sw["dims"] == [10, 20, 40] and sw["data_dim"] == 40
    assert sw["sizes"] == ["25%", "50%", "100%"]
    assert sw["tokens"] == [50_000, 100_000, 200_000]
    assert len(sw["avg"]) == 3 and all(len(row) == 3 for row in sw["avg"])
    assert [len(row) for row in sw["dim_better"]] == [2, 2, 2] and len(sw["data_better"]) == 2
    assert 0 < sw["dim_n_tests"] <= 3 * 2 * 11 and 0 < sw["data_n_tests"] <= 2 * 11
    assert 1 <= len(sw["sets"]) <= 11 and sw["pairs"] >= 10 * len(sw["sets"])
    # the full corpus at the run's dimension is the run's Eigen (on fewer, matched pairs)
    assert all(0.0 < v < 0.9 for row in sw["avg"] for v in row)
    assert "sweeps" in rec["seconds"]
