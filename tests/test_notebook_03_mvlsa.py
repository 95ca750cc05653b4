"""Notebook 03_mvlsa at DATA_SIZE="small": baselines, the dev-tuned path and the test comparison."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from workbench.studies import mvlsa

SYSTEMS = {
    "MVLSA (paper config)",
    "MVLSA (tuned)",
    "MVLSA (tuned, corpus views)",
    "PPMI-SVD",
    "SGNS",
    "GloVe",
}


@pytest.mark.notebooks
def test_notebook_03_mvlsa(run_notebook):
    rec = run_notebook("03_mvlsa", SEED=0, SEEDS=2)
    assert rec["seeds"] == [0, 1]
    assert rec["n_tokens"] == 200_000 and rec["vocab_size"] == 4_000
    assert rec["views_per_family"]["positional"] == 5
    # the baselines were trained with their standard settings and GloVe's loss went down
    assert set(rec["baseline_settings"]) == {"PPMI-SVD", "SGNS", "GloVe"}
    assert rec["baseline_settings"]["PPMI-SVD"]["cds"] == 0.75
    loss = rec["glove_loss"]
    glove = rec["baseline_settings"]["GloVe"]
    assert loss[-1] < loss[0] and len(loss) <= glove["epochs"] == 50 and glove["tol"] == 0.01
    # GloVe ran until its loss flattened (or the cap), and the record says which stopped it
    stop = rec["glove_stop"]
    assert stop["epochs"] == len(loss) and stop["stopped_by"] in ("tolerance", "epoch cap")
    assert (stop["last_change"] < stop["tol"]) == (stop["stopped_by"] == "tolerance")
    assert (stop["stopped_by"] == "epoch cap") == (len(loss) == glove["epochs"] and
                                                   stop["last_change"] >= stop["tol"])  # fmt: skip
    assert set(rec["glove_stop_per_seed"]) == {"0", "1"}
    # GloVe's x_max was chosen on the dev halves of every rating set (pair-weighted dev mean)
    tuning = rec["glove_tuning"]
    cands = tuning["candidates"]
    assert set(cands) == {"x_max=10.0", "x_max=100.0"} and "pair-weighted" in tuning["criterion"]
    best = max(cands, key=lambda k: cands[k]["dev mean (pair-weighted)"])
    assert tuning["chosen"]["x_max"] == cands[best]["x_max"] == glove["x_max"]
    # the path: one row per factor, each choice among its candidates, gains never negative
    path = rec["tuning_path"]
    order = rec["tuning_order"]
    assert order == ["t", "v", "views", "positional", "n_j", "W_j", "r", "m", "k"]
    assert set(rec["tuning_means"]["t"]) == {"100", "all"}  # the paper's t (scaled) or none
    assert set(rec["tuning_means"]["v"]) == {"6", "0"}  # the paper's v (scaled) or none
    assert set(path) == set(order)
    for factor, row in path.items():
        assert row["chosen"] in rec["tuning_means"][factor], factor
        assert row["gain"] >= 0, factor
        assert row["dev mean"] == pytest.approx(rec["tuning_means"][factor][row["chosen"]])
        assert 0 <= row["significantly up"] <= row["sets up"] <= row["n sets"]
    # the dev means of consecutive steps chain: each step starts where the previous ended
    means = [path[factor]["dev mean"] for factor in order]
    assert means == sorted(means)
    # PPMI-type weighting beats the paper's fourth root on dev at this size too
    assert rec["tuning_means"]["n_j"]["PPMI cds=0.75"] > rec["tuning_means"]["n_j"]["Count^0.25"]
    # the test halves: every system scored, the mean row consistent, the tuned MVLSA compared
    test = rec["test_scores"]
    assert set(test) == SYSTEMS
    for name, col in test.items():
        vals = [v for k, v in col.items() if k != "mean"]
        assert col["mean"] == pytest.approx(sum(vals) / len(vals)), name
        assert all(v is None or -1 <= v <= 1 for v in vals)
    assert rec["test_mean"]["MVLSA (tuned)"] > rec["test_mean"]["MVLSA (paper config)"]
    assert {t["system"] for t in rec["test_tests"]} == SYSTEMS - {"MVLSA (tuned)"}
    for t in rec["test_tests"]:
        assert t["pvalue"] is None or t["pvalue"] <= t["pvalue_holm"] <= 1
    assert {t["seed"] for t in rec["test_tests"]} == {0, 1}
    # the mean over the seeds is the mean of the per-seed means; the seeds differ
    per_seed = rec["test_mean_per_seed"]
    for name in SYSTEMS:
        vals = [per_seed[s][name] for s in ("0", "1")]
        assert rec["test_mean"][name] == pytest.approx(sum(vals) / 2), name
    assert per_seed["0"]["SGNS"] != per_seed["1"]["SGNS"]
    assert per_seed["0"]["PPMI-SVD"] == per_seed["1"]["PPMI-SVD"]  # exact SVD: no random stream
    for name, w in rec["test_wins"].items():
        assert w["better, every seed"] <= w["better, some seed"] <= w["sets"], name
        assert w["worse, every seed"] <= w["worse, some seed"] <= w["sets"], name
    # the paper's configuration as stated, scaled to this run: t and v by fraction, m and k to
    # the small size's budget; it starts the path
    pc = rec["paper_config"]
    assert {p: (c["paper"], c["used"]) for p, c in pc.items()} == {
        "n_j": ("Count^1/4", "Count^1/4"), "t": ("12.5K", "100"), "m": ("500", "40"),
        "k": ("300", "40"), "v": ("16", "6"), "r": ("1e-8", "1e-08"),
    }  # fmt: skip
    assert pc["n_j"]["why"] == "" and "500,000" in pc["t"]["why"] and "46" in pc["v"]["why"]
    start = rec["start"]
    assert (start["n_j"], start["t"], start["m"], start["k"], start["v"]) == (
        "Count^0.25", "100", 40, 40, 6)  # fmt: skip
    # the grids (Tables 3-7, r from 1e-10 to 1), scored on the dev halves in every seed
    grids = rec["grids"]
    assert set(grids) == {"n_j", "t", "m", "k", "v", "r"}
    assert grids["t"]["used"] == {"12.5K": 100, "200K": 1600}
    assert grids["v"]["used"] == {"16": 6, "21": 8}
    assert grids["r"]["used"] == {"1e-10": 1e-10, "1": 1.0}
    for p, g in grids.items():
        assert set(g["dev_means"]) == {"0", "1"}, p
        assert set(g["dev_means"]["0"]) == set(g["used"]), p
    # k is sliced from one fit: the k = 40 column is the base configuration's
    assert grids["k"]["dev_means"]["0"]["40"] == pytest.approx(grids["m"]["dev_means"]["0"]["40"])
    # the paper's claims, each tested on its grid in every seed (Holm per grid and seed)
    assert set(rec["claims"]) == {
        "n_j: Count^1/4 beats Log (Table 3)",
        "n_j: Count^1/4 beats Count (Table 3)",
        "t: t = 12.5K beats a larger t (Table 4)",
        "m: larger m is better (Table 5)",
        "k: larger k is better (Table 6)",
        "v: the minimum view support does not matter (Table 7)",
        "r: the absolute r_j does not matter (1e-10 to 1)",
    }
    for claim, c in rec["claims"].items():
        assert c["status"] in (*mvlsa.CLAIM_STATUSES, "varies across seeds"), claim
        assert (c["status"] == "not testable here") == bool(c["reason"]), claim
        assert c["n seeds"] == 2, claim
        assert sum(c[f"seeds {st}"] for st in mvlsa.CLAIM_STATUSES) == 2, claim
    assert len(rec["claims_per_seed"]) == 2 * len(rec["claims"])
    assert rec["claims_family_size"] == {"n_j": 16, "t": 8, "m": 8, "k": 8, "v": 8, "r": 8}
    assert "corpus_views_vs_ppmi" not in rec  # replaced by the headline comparison
    # the headline: corpus views only against the corpus baselines, like for like
    head = rec["corpus_comparison"]
    assert head["reference"] == "MVLSA (tuned, corpus views)"
    assert head["systems"] == ["MVLSA (tuned, corpus views)", "PPMI-SVD", "SGNS", "GloVe"]
    assert head["family_size"] == 3 * len(head["pairs"])  # 3 systems x the test sets
    assert head["pairs"] == {k: v["pairs"] for k, v in rec["wordsim_pairs"].items()}
    for name in head["systems"]:
        scored = {k: head["scored"][k][name] for k in head["pairs"]}
        weighted = sum(scored[k] * head["scores"][name][k] for k in scored) / sum(scored.values())
        assert head["mean_pair_weighted"][name] == pytest.approx(
            sum(head["mean_pair_weighted_per_seed"][s][name] for s in ("0", "1")) / 2)  # fmt: skip
        assert head["mean"][name] == pytest.approx(rec["test_mean"][name])
        # the pairs scored do not depend on the seed: the mean over seeds of the weighted means
        # is the weighted mean of the mean scores
        assert head["mean_pair_weighted"][name] == pytest.approx(weighted, abs=1e-9)
    assert {t["system"] for t in head["tests"]} == {"PPMI-SVD", "SGNS", "GloVe"}
    for t in head["tests"]:
        assert t["pvalue"] is None or t["pvalue"] <= t["pvalue_holm"] <= 1
    # with the lexicons: the same lexicon views for MVLSA and for retrofitting the baselines
    lex = rec["lexicon_comparison"]
    assert lex["reference"] == "MVLSA (tuned, corpus + lexicon views)"
    assert lex["systems"][1:] == ["PPMI-SVD + RF", "SGNS + RF", "GloVe + RF"]
    assert lex["lexicon_families"] == ["ppdb", "framenet"] and lex["retrofit"]["n_iter"] == 10
    assert lex["family_size"] == 3 * len(lex["pairs"])
    # retrofitting changes the vectors: the retrofitted baselines score differently
    assert lex["mean"]["SGNS + RF"] != head["mean"]["SGNS"]
    assert rec["test_mean_pair_weighted"].keys() == rec["test_mean"].keys()
    assert math.isfinite(rec["mrds_dev_men"]) and 0 < rec["mrds_dev_men"] < 0.3
    assert rec["n_factorizations"] > 0
    # the tuned MVLSA's accuracy certificate (MVLSA.accuracy_), degrees: 90 = not certified
    assert isinstance(rec["certificate_angle_bound"], float)
    assert 0 <= rec["certificate_angle_bound"] <= 90


def test_notebook_03_shows_the_certificate_and_scores_in_points():
    """The certificate line follows the tuned configuration; path and claims tables in points."""
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "03_mvlsa.ipynb").read_text())
    code = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "code")
    assert "display(Markdown(mvlsa.certificate_note(result.certificate.angle_bound)))" in code
    assert 'path["dev mean"].map(pts)' in code and "claims.table[c].map(pts)" in code
    assert ".style.format(" not in code


_TIMINGS = ("seconds", "elapsed")


def _without_timings(rec):
    """The records with every timing left out (wall times differ run to run)."""
    if isinstance(rec, dict):
        return {k: _without_timings(v) for k, v in rec.items() if not any(t in k for t in _TIMINGS)}
    if isinstance(rec, list):
        return [_without_timings(v) for v in rec]
    return rec


@pytest.mark.notebooks
def test_notebook_03_mvlsa_on_dask_equals_local(run_notebook):
    """BACKEND="dask" (a LocalCluster started by the notebook) records what the local run does
    (the local run is the one of the test above, shared through the session's run cache)."""
    pytest.importorskip("distributed")
    local = run_notebook("03_mvlsa", SEED=0, SEEDS=2)
    dask = run_notebook("03_mvlsa", SEED=0, SEEDS=2, BACKEND="dask")
    assert _without_timings(dask) == _without_timings(local)


@pytest.mark.notebooks
def test_notebook_03_without_the_grids_records_why_and_changes_nothing_else(run_notebook):
    """PAPER_GRIDS=False leaves the grids out: no claim is tested, the records and the Discussion
    say why, and every other record equals the run with the grids (the store's rank floors
    still cover them, so the factors and shared spaces are the same)."""
    local = run_notebook("03_mvlsa", SEED=0, SEEDS=2)
    bare = run_notebook("03_mvlsa", SEED=0, SEEDS=2, PAPER_GRIDS=False)
    assert local["claims_not_tested"] == "" and local["claims"]
    assert "PAPER_GRIDS = False" in bare["claims_not_tested"]
    assert bare["grids"] == {} and bare["claims"] == {} and bare["claims_per_seed"] == []
    assert bare["paper_config"] == {} and bare["claims_family_size"] == {}
    grid_keys = {"grids", "claims", "claims_per_seed", "claims_family_size", "paper_config",
                 "claims_not_tested", "n_factorizations"}  # (the count depends on the cache)
    rest = [{k: v for k, v in _without_timings(r).items() if k not in grid_keys}
            for r in (bare, local)]  # fmt: skip
    assert rest[0] == rest[1]
    text = mvlsa.discussion_03(bare).data
    assert f"not tested in this run: {bare['claims_not_tested']}." in text
    assert "not tested in this run" not in mvlsa.discussion_03(local).data
