"""Tables, tests and records of notebook 06's study on planted scores (no training)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from workbench.evaluation.wordsim import WordSimResult
from workbench.records import roundtrip
from workbench.significance import holm
from workbench.studies.eigenwords import (
    EIGEN,
    EmbeddingScores,
    PriorResult,
    PriorStudy,
    baseline_rf_gains,
    comparison_table,
    graph_only_tests,
    holm_marks,
    label_key,
    prior_gains,
    run_prior_study,
    study_tables,
    table1_display,
)
from workbench.studies.eigenwords._run import _sentences

SETS = ["A", "B", "C"]
N_PAIRS = 300


@dataclass
class _Geo:
    hits: np.ndarray
    scorable: np.ndarray

    @property
    def geographic(self) -> float:
        return float(self.hits[self.scorable].mean())

    @property
    def n_scored(self) -> int:
        return int(self.scorable.sum())


def _result(name: str, gold: np.ndarray, pred: np.ndarray) -> WordSimResult:
    from scipy import stats

    ok = ~np.isnan(pred)
    rho = float(stats.spearmanr(pred[ok], gold[ok])[0]) if ok.sum() >= 3 else float("nan")
    return WordSimResult(name, rho, rho, gold.size, int(ok.sum()), (), pred, gold)


class _World:
    """Gold ratings of three sets and embeddings of planted quality."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.gold = {n: self.rng.standard_normal(N_PAIRS) for n in SETS}
        self.eigen_noise = {n: self.rng.standard_normal(N_PAIRS) for n in SETS}
        self.geo_eigen = np.arange(100) % 2 == 0  # half right

    def scores(self, kind: str, *, drop: str | None = None) -> EmbeddingScores:
        res, rows = {}, []
        for n in SETS:
            g = self.gold[n]
            base = g + 1.5 * self.eigen_noise[n]
            if kind == "eigen":
                pred = base
            elif kind == "good":  # much closer to the gold ratings
                pred = g + 0.4 * self.rng.standard_normal(N_PAIRS)
            elif kind == "bad":  # mostly noise
                pred = 0.1 * g + self.rng.standard_normal(N_PAIRS)
            else:  # "same": the eigen predictions, barely perturbed
                pred = base + 1e-3 * self.rng.standard_normal(N_PAIRS)
            pred = pred.astype(float)
            if drop == n:
                pred[5:] = np.nan  # only five pairs scored
            r = _result(n, g, pred)
            res[n] = r
            rows.append({"dataset": n, "n_pairs": r.n_pairs, "n_scored": r.n_scored,
                         "coverage": r.coverage, "spearman": r.spearman, "pearson": r.pearson})  # fmt: skip
        ws = pd.DataFrame(rows)
        ws.attrs["results"] = res
        scorable = np.ones(100, bool)
        hits = {"eigen": self.geo_eigen, "good": np.ones(100, bool)}.get(
            kind, self.geo_eigen.copy()
        )
        return EmbeddingScores(ws, _Geo(hits, scorable))


def _scores(world: _World) -> dict:
    return {
        EIGEN: world.scores("eigen"),
        ("Eigen", "WN", None): world.scores("good"),
        ("CCAPrior", "WN", 0.5): world.scores("good"),
        ("CCAPrior", "PD", 0.5): world.scores("same"),
        ("CCAPrior + RF", "WN", 0.5): world.scores("bad", drop="C"),
    }


def test_comparison_table_tests_every_row_against_eigen():
    world = _World()
    t = comparison_table(_scores(world), SETS, min_pairs=10)
    assert list(t["method"])[0] == "Eigen" and t.loc[0, "lexicon"] == "NPK"
    assert t.loc[0, [f"p {n}" for n in SETS]].isna().all()  # the reference is not tested
    good = t[(t["method"] == "CCAPrior") & (t["lexicon"] == "WN")].iloc[0]
    assert all(good[f"p {n}"] < 1e-6 and good[f"d {n}"] > 0 for n in SETS)
    same = t[(t["method"] == "CCAPrior") & (t["lexicon"] == "PD")].iloc[0]
    assert all(same[f"p {n}"] > 0.05 for n in SETS)
    bad = t[t["method"] == "CCAPrior + RF"].iloc[0]
    assert bad["sets"] == 2 and np.isnan(
        bad["p C"]
    )  # five scored pairs: neither averaged nor tested
    assert bad["avg"] == pytest.approx(np.mean([bad["A"], bad["B"]]))
    assert good["geo p"] < 1e-6 and np.isnan(t.loc[0, "geo p"])
    assert t.loc[1, "block"] == "Retrofitting" and good["row"] == "alpha = 0.5"


def test_holm_marks_correct_one_family_and_leave_the_rest():
    world = _World()
    t = comparison_table(_scores(world), SETS, min_pairs=10)
    fam = (t["method"] == "CCAPrior").to_numpy()
    m = holm_marks(t, SETS, fam)
    p = t.loc[fam, [f"p {n}" for n in SETS]].to_numpy().ravel()
    q = m.loc[fam, [f"q {n}" for n in SETS]].to_numpy().ravel()
    assert np.allclose(q, holm(p))
    assert (q >= p - 1e-15).all()
    rows = m.set_index(["method", "lexicon"])
    assert (
        rows.loc[("CCAPrior", "WN"), "better"] == 3 and rows.loc[("CCAPrior", "PD"), "better"] == 0
    )
    assert pd.isna(rows.loc[("CCAPrior + RF", "WN"), "better"])  # outside the family
    m2 = holm_marks(m, SETS, ~fam)
    rows = m2.set_index(["method", "lexicon"])
    assert rows.loc[("CCAPrior + RF", "WN"), "worse"] == 2
    assert rows.loc[("CCAPrior + RF", "WN"), "tested"] == 2
    assert bool(rows.loc[("Eigen", "WN"), "geo significant"])
    # the first family's marks are kept
    assert rows.loc[("CCAPrior", "WN"), "better"] == 3


def test_table1_display_counts_only_findings_of_every_seed():
    world = _World()
    spectral = _scores(world)
    tables = {}
    for seed, kind in ((0, "good"), (1, "same")):
        sc = {**spectral, ("Skip-Gram", "NPK", None): world.scores(kind)}
        t = comparison_table(sc, SETS, min_pairs=10)
        trained = (t["method"] == "Skip-Gram").to_numpy()
        tables[seed] = holm_marks(holm_marks(t, SETS, ~trained), SETS, trained)
    out = table1_display(tables, SETS)
    sg = out.loc[("Retrofitting", "Skip-Gram"), ("avg", "NPK")]
    assert "±" in sg and "↑0/↓0" in sg  # significant in one seed only: not counted
    cp = out.loc[("CCAPrior", "alpha = 0.5"), ("avg", "WN")]
    assert "±" not in cp and cp.endswith("↑3/↓0")  # seed-independent, significant on all sets
    assert out.loc[("CCAPrior", "alpha = 0.5"), ("avg", "NPK")] == "-"
    assert out.loc[("Retrofitting", "Eigen"), ("geo", "WN")].endswith("*")
    assert not out.loc[("Retrofitting", "Skip-Gram"), ("geo", "NPK")].endswith("*")
    assert list(out.index.get_level_values("block")).index("CCAPrior") > 0


def test_prior_gains_against_the_paper():
    world = _World()
    t = holm_marks(comparison_table(_scores(world), SETS, min_pairs=10), SETS)
    paper = pd.DataFrame(
        {"WordSim NPK": [59.5, None, None], "WordSim WN": [62.2, 61.0, 63.0],
         "WordSim PD": [63.6, 58.0, 62.0]},
        index=["Eigen (CCA)", "CCAPrior alpha=0.5", "CCAPrior+RF alpha=0.5"],
    )  # fmt: skip
    g = prior_gains(t, paper).set_index(["method", "lexicon"])
    eig = float(t.loc[0, "avg"])
    assert g.loc[("CCAPrior", "WN"), "gain"] == pytest.approx(
        g.loc[("CCAPrior", "WN"), "avg"] - eig
    )
    assert g.loc[("CCAPrior", "WN"), "paper gain"] == pytest.approx(0.015)
    assert g.loc[("CCAPrior", "PD"), "paper gain"] == pytest.approx(-0.015)
    assert g.loc[("Eigen + RF", "WN"), "paper gain"] == pytest.approx(0.027)
    assert g.loc[("CCAPrior + RF", "WN"), "paper gain"] == pytest.approx(0.035)
    with pytest.raises(ValueError, match="no Eigen"):
        prior_gains(t[t["method"] != "Eigen"])


def _study(world: _World) -> PriorStudy:
    spectral = _scores(world)
    baselines = {}
    for seed, kind in ((3, "good"), (4, "bad")):
        baselines[seed] = {("Skip-Gram", "NPK", None): world.scores(kind),
                           ("Skip-Gram", "WN", None): world.scores("good"),
                           ("GloVe", "NPK", None): world.scores("same"),
                           ("GloVe", "WN", None): world.scores("same")}  # fmt: skip
    graph_only = pd.DataFrame({"words": [10, 10], "avg": [0.2, 0.3], "avg + RF": [0.25, 0.3],
                               "mean coverage": [0.5, 0.5], "sets": [3, 3]},
                              index=["WN", "PD"])  # fmt: skip
    graph_scores = {"WN": world.scores("bad", drop="C").wordsim,
                    "PD": world.scores("same").wordsim}  # fmt: skip
    return PriorStudy(spectral, baselines, graph_only, {3: 0.3, 4: 0.3},
                      {3: np.array([2.0, 1.0]), 4: np.array([2.0, 1.5])},
                      graph_scores=graph_scores)  # fmt: skip


def _prior_result(study: PriorStudy, tables: dict[int, pd.DataFrame]) -> PriorResult:
    return PriorResult(
        data_size="small", seeds=study.seeds, n_tokens=1000, n_words=50, dim=4, alphas=(0.5,),
        graph_edges={"WN": 12, "PD": 20}, n_questions=506, study=study, tables=tables,
        table2_tests=graph_only_tests(study, SETS, min_pairs=10), names=tuple(SETS),
        seconds={"setup": 1.0, "study": 2.0, "total": 3.0},
    )  # fmt: skip


def test_study_tables_records_and_rf_gains():
    world = _World()
    study = _study(world)
    tables = study_tables(study, SETS, min_pairs=10)
    assert list(tables) == [3, 4]
    # the seed-independent rows are identical across seeds (their own Holm family)
    cols = ["avg", "better", "worse", *[f"q {n}" for n in SETS]]
    spec = ~tables[3]["method"].isin(["Skip-Gram", "GloVe"])
    pd.testing.assert_frame_equal(tables[3].loc[spec, cols], tables[4].loc[spec, cols])
    result = _prior_result(study, tables)
    rec = result.records()
    assert roundtrip(rec) == rec  # JSON values only
    assert rec["alphas"] == [0.5] and rec["seeds"] == [3, 4] and rec["data_size"] == "small"
    assert set(rec["seconds"]) == {"setup", "study", "total", "jobs"}
    assert rec["geo_questions"] == {"total": 506, "answerable": 100}
    assert rec["ccaprior_sets_better"] == {"WN 0.5": 3, "PD 0.5": 0}
    assert rec["best_ccaprior"]["lexicon"] == "WN"
    sg = rec["baseline_avg_spearman"]["Skip-Gram NPK"]
    assert len(sg) == 2 and sg[0] > sg[1]
    assert rec["baseline_sets_better"]["Skip-Gram NPK"] == [3, 0]
    assert rec["baseline_sets_worse"]["Skip-Gram NPK"][1] == 3
    assert {"CCAPrior WN 0.5", "CCAPrior + RF WN 0.5", "Eigen WN"} <= set(rec["spectral_geo"])
    assert rec["spectral_geo"]["CCAPrior WN 0.5"]["significant"] is True
    assert rec["n_tests"]["spectral"] == 3 * 3 + 2
    assert rec["glove_loss"] == {"3": [2.0, 1.0], "4": [2.0, 1.5]}
    gains = baseline_rf_gains(tables)
    assert gains[4].loc["Skip-Gram", "WN"] > 0  # retrofitting rescues the bad seed
    assert list(gains[3].columns) == ["WN"]
    assert label_key(("CCAPrior", "FN", 0.7)) == "FN 0.7"
    assert label_key(("GloVe", "PD", None)) == "GloVe PD"


def test_sentences_drop_unknown_tokens_and_keep_documents():
    from workbench.views import EncodedCorpus

    enc = EncodedCorpus(np.array([0, -1, 2, 1, -1, -1, 2], dtype=np.int32),
                        np.array([0, 3, 3]), 3)  # fmt: skip
    assert _sentences(enc, ["a", "b", "c"]) == [["a", "c"], [], ["b", "c"]]


@pytest.mark.parametrize(
    "kwargs, match",
    [({"seeds": []}, "seeds"), ({"seeds": [1, 1]}, "seeds"), ({"n_jobs": 0}, "n_jobs"),
     ({"prior": {"XX": None}}, "without a graph")],
)  # fmt: skip
def test_run_prior_study_rejects_bad_arguments(kwargs, match):
    args = dict(encoded=None, words=["a"], counts=None, prior={}, graphs={}, cooc=None,
                alphas=[0.5], dim=2, seeds=[0], word2vec={}, glove={}, questions=None,
                names=["A"])  # fmt: skip
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        run_prior_study(**args)


def test_per_set_display_keeps_every_row_and_marks_seed_dependence():
    from workbench.studies.eigenwords import per_set_display

    world = _World()
    study = _study(world)
    tables = study_tables(study, SETS, min_pairs=10)
    out = per_set_display(tables, SETS)
    assert len(out) == len(tables[3])  # rows without an alpha are kept (NaN keys are not dropped)
    assert out.loc[("Eigen", "NPK", "-"), "A"] == f"{100 * tables[3].loc[0, 'A']:.1f}"
    assert "±" in out.loc[("Skip-Gram", "NPK", "-"), "A"]  # good in one seed, bad in the other
    assert "±" not in out.loc[("CCAPrior", "WN", "0.5"), "B"]


def test_graph_only_tests_compare_with_eigen_on_the_same_pairs():
    world = _World()
    study = _study(world)
    t = graph_only_tests(study, SETS, min_pairs=10)
    # WN scores only five pairs of C: that set is not tested; PD is Eigen barely perturbed
    assert list(zip(t["lexicon"], t["dataset"])) == [("WN", "A"), ("WN", "B"), ("PD", "A"),
                                                      ("PD", "B"), ("PD", "C")]  # fmt: skip
    assert (t.loc[t["lexicon"] == "WN", "difference"] < 0).all()
    assert t.loc[t["lexicon"] == "WN", "significant"].all()  # "bad" is far below Eigen
    assert not t.loc[t["lexicon"] == "PD", "significant"].any()
    # Holm over the whole Table 2 family
    np.testing.assert_allclose(t["q"], holm(t["p"].to_numpy()))
    tables = study_tables(study, SETS, min_pairs=10)
    rec = _prior_result(study, tables).records()
    assert rec["table2_n_tests"] == 5
    assert rec["table2_sets_worse"] == {"WN": 2, "PD": 0}
    assert rec["table2_sets_better"] == {"WN": 0, "PD": 0}
    assert rec["table2_sets_tested"] == {"WN": 2, "PD": 3}
    eig = [tables[3].loc[0, n] for n in SETS]  # Eigen scores every pair of every set
    assert rec["table2_eigen_matched_avg_spearman"]["PD"] == pytest.approx(np.mean(eig))


def test_trained_baselines_are_cached_by_content(tmp_path, monkeypatch):
    """A second run with the same inputs trains no skip-gram or GloVe model and returns the
    same vectors and losses; another seed, corpus or co-occurrence matrix trains anew; no cache
    key, no cache."""
    import scipy.sparse as sp

    from workbench._io import content_hash
    from workbench.studies.eigenwords import _run
    from workbench.views import EncodedCorpus

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    trained = []
    real_w2v, real_glove = _run.train_word2vec, _run.fit_glove
    monkeypatch.setattr(_run, "train_word2vec",
                        lambda *a, **k: trained.append("sg") or real_w2v(*a, **k))  # fmt: skip
    monkeypatch.setattr(_run, "fit_glove", lambda *a, **k: trained.append("gl") or real_glove(*a, **k))
    seen = []

    def capture(label, vectors, graphs, rf_method, questions, names, keep):
        seen.append(vectors)
        return _run._JobResult()

    monkeypatch.setattr(_run, "_with_retrofits", capture)
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(30)]
    enc = EncodedCorpus(rng.integers(0, 30, 3000).astype(np.int32), np.array([0, 1500]), 30)
    cooc = sp.random(30, 30, density=0.3, random_state=1, format="csr") * 10
    common = dict(words=words, dim=4, graphs={}, questions=None, names=[], keep=False)
    sg = dict(encoded=enc, settings={"window": 2, "epochs": 1, "workers": 1}, **common)
    gl = dict(cooc=cooc, settings={"epochs": 3, "x_max": 5.0}, **common)

    def run(seed, key_sg, key_gl):
        seen.clear()
        _run._skipgram_job(seed=seed, cache_key=key_sg, **sg)
        out = _run._glove_job(seed=seed, cache_key=key_gl, **gl)
        return seen[0], seen[1], out.loss

    k_sg, k_gl = _run.corpus_key(enc, words), content_hash(cooc)
    first = run(0, k_sg, k_gl)
    assert trained == ["sg", "gl"]
    again = run(0, k_sg, k_gl)
    assert trained == ["sg", "gl"]  # nothing trained the second time
    for a, b in zip(first[:2], again[:2]):
        assert a.words == b.words
        np.testing.assert_array_equal(a.vectors, b.vectors)
    np.testing.assert_array_equal(first[2], again[2])
    assert content_hash(sp.csc_matrix(cooc)) == k_gl  # storage order does not matter
    run(1, k_sg, k_gl)  # another seed
    assert trained == ["sg", "gl"] * 2
    other = EncodedCorpus(enc.ids[::-1].copy(), enc.doc_starts, 30)
    run(0, _run.corpus_key(other, words), content_hash(cooc * 2))  # other inputs
    assert trained == ["sg", "gl"] * 3
    run(0, None, None)  # no cache key: trained, not stored
    assert trained == ["sg", "gl"] * 4
