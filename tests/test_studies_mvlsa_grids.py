"""The paper's configuration (scaled), the minimum view support v in the study path, the paper's
grids and the claims tested on them per seed (workbench.studies.mvlsa)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from workbench.embeddings import WordVectors
from workbench.evaluation import evaluate_system
from workbench.gcca import MVLSA
from workbench.studies import mvlsa as mx
from workbench.studies.mvlsa import _facts as F
from workbench.views import View, Vocabulary

N = 60


def _support_views() -> tuple[mx.ViewSet, list[View]]:
    """Four views over N words; word w0 is observed in one view only, w1 in two, w2 in three,
    every other word in all four."""
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(N)]
    vocab = Vocabulary.from_words(words)
    z = rng.standard_normal((N, 3))
    views = []
    for j in range(4):
        mat = np.abs(z @ rng.standard_normal((3, 12)) + 0.2 * rng.standard_normal((N, 12))) + 0.1
        for word, n_views in ((0, 1), (1, 2), (2, 3)):
            if j >= n_views:
                mat[word] = 0.0
        m = sp.csr_array(mat)
        views.append(View(f"v{j}", m, tuple(f"c{i}" for i in range(12)),
                          np.diff(m.indptr) > 0, "signal", vocab))  # fmt: skip
    return mx.ViewSet(vocab, tuple(views), {"n_tokens": 0}), views


CFG = mx.MVLSAConfig(transform="identity", view_rank=4, n_components=3, svd_solver="dense")


@pytest.mark.parametrize(("v", "dropped"), [(0, set()), (2, {"w0"}), (3, {"w0", "w1"}),
                                            (4, {"w0", "w1", "w2"})])  # fmt: skip
def test_min_view_support_drops_words_seen_in_fewer_views(v, dropped):
    vs, _ = _support_views()
    choice = mx.MVLSAChoice(dataclasses.replace(CFG, min_view_support=v))
    vec = mx.choice_vectors(vs, choice, mx.FactorStore(svd_solver="dense"))
    assert set(vs.words) - set(vec.words) == dropped


def test_min_view_support_matches_the_estimator():
    """The store applies v as MVLSA.fit does: the kept rows enter every view's SVD."""
    vs, views = _support_views()
    cfg = dataclasses.replace(CFG, min_view_support=3)
    store = mx.FactorStore(svd_solver="dense", dtype=None)
    h = store.combine(store.get_many(views, cfg), N, 3)
    ref = MVLSA(3, view_rank=4, min_view_support=3, svd_solver="dense").fit(
        [v.matrix for v in views], [v.observed for v in views]
    )
    keep = ref.embedding_.any(axis=1)
    assert np.array_equal(h.any(axis=1), keep) and not keep[:2].any()
    assert np.allclose(np.abs(h[keep].T @ ref.embedding_[keep]), np.eye(3), atol=1e-6)
    # the factors of another v are stored apart; v above the number of views is lowered
    assert store.get_many(views, dataclasses.replace(CFG, min_view_support=0))[0].rows.size == N
    assert store.kept_rows(views, dataclasses.replace(CFG, min_view_support=9)).sum() == N - 3


def test_paper_config_reports_scaled_values():
    small = mx.settings("small")
    pc = mx.paper_config(small, n_words=4_000, n_views=23)
    t = pc.table
    assert list(t.index) == ["n_j", "t", "m", "k", "v", "r"]
    assert list(t["paper"]) == ["Count^1/4", "12.5K", "500", "300", "16", "1e-8"]
    assert list(t["used"]) == ["Count^1/4", "100", "40", "40", "8", "1e-08"]
    assert t.at["t", "why"].startswith("t counts context columns") and "2.5 %" in t.at["t", "why"]
    assert "budget" in t.at["m", "why"] and "46" in t.at["v", "why"]
    assert t.at["n_j", "why"] == "" and t.at["r", "why"] == ""
    c = pc.config
    assert (c.transform, c.power, c.top_t, c.view_rank, c.n_components, c.min_view_support,
            c.regularization) == ("pow", 0.25, 100, 40, 40, 8, 1e-8)  # fmt: skip
    # at full size on the paper's 46 views only t is scaled (the vocabulary is smaller)
    full = mx.paper_config(mx.settings("full"), n_words=30_000, n_views=46).table
    assert list(full["used"]) == ["Count^1/4", "750", "500", "300", "16", "1e-08"]
    assert list(full["why"] != "") == [False, True, False, False, False, False]


def test_scaled_value_rules_and_errors():
    kw = {"n_words": 50_000, "n_views": 23}
    assert mx.scaled_value("t", 200_000, **kw)[0] == 20_000
    assert mx.scaled_value("t", None, **kw) == (None, "")
    # never below the per-view rank m (the paper's 500, or the budget)
    assert mx.scaled_value("t", 12_500, n_words=1_000, n_views=5)[0] == 500
    used, why = mx.scaled_value("t", 12_500, n_words=1_000, n_views=5, budget=40)
    assert used == 40 and why.endswith("raised to the per-view rank m = 40")
    assert mx.scaled_value("t", 6_250, n_words=600_000, n_views=46) == (6_250, "")
    assert mx.scaled_value("v", 29, **kw)[0] == 14 and mx.scaled_value("v", 0, **kw) == (0, "")
    assert mx.scaled_value("v", 1, n_words=10, n_views=2)[0] == 1  # at least one view
    assert mx.scaled_value("m", 500, budget=40, **kw)[0] == 40
    assert mx.scaled_value("k", 30, budget=40, **kw) == (30, "")
    with pytest.raises(ValueError, match="param must be one of"):
        mx.scaled_value("q", 1, **kw)
    with pytest.raises(ValueError, match="n_views"):
        mx.scaled_value("v", 16, n_words=10, n_views=0)
    # the grids: scaled values that repeat an earlier one are left out
    s = dataclasses.replace(mx.settings("small"), grids=(("v", (16, 17, 29)),))
    assert [u for _, u, _ in mx.grid_values(s, "v", n_words=4_000, n_views=5)] == [2, 3]


def test_settings_grids_are_the_papers_at_full_size():
    full, small = mx.settings("full"), mx.settings("small")
    assert dict(full.grids) == dict(mx.PAPER_GRIDS)
    assert full.grid("m")[-1] == 500 and full.grid("k")[-2:] == (300, 500)
    assert full.grid("r") == (1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1.0)
    assert small.budget == 40 and full.budget is None
    assert set(dict(small.grids)) == set(mx.PARAM_ALIASES)
    assert all(len(v) <= 3 for _, v in small.grids)  # CI runs the small size


# ----------------------------------------------------------------------------- grid claims
def _evaluation(name: str, noise: float, ratings: pd.DataFrame, z: np.ndarray, seed: int):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(len(z))]
    vec = WordVectors(words, z + noise * rng.standard_normal(z.shape))
    return evaluate_system(vec, name=name, wordsim=[ratings], analogies=False)


def _planted_grids(seeds=(0, 1)) -> mx.PaperGrids:
    """Grids whose evaluations are planted: Count^1/4 clean, Log and Count noisy; m = 20 much
    worse than m = 10; both r values the same vectors."""
    rng = np.random.default_rng(1)
    n = 400
    z = rng.standard_normal((n, 3))
    pairs = rng.choice(n, size=(600, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    zn = z / np.linalg.norm(z, axis=1, keepdims=True)
    ratings = pd.DataFrame({"word1": [f"w{i}" for i in pairs[:, 0]],
                            "word2": [f"w{i}" for i in pairs[:, 1]],
                            "score": np.einsum("ij,ij->i", zn[pairs[:, 0]], zn[pairs[:, 1]])})  # fmt: skip
    ratings.attrs["name"] = "PLANTED"
    plan = {"n_j": {"Count": 3.0, "Log": 2.0, "Count^1/4": 0.05},
            "m": {"10": 0.05, "20": 3.0}, "r": {"1e-10": 0.5, "1": 0.5}}  # fmt: skip
    values = {p: pd.DataFrame({"used": list(v), "why": "", "left out": ""}, index=pd.Index(list(v), name="value"))
              for p, v in plan.items()}  # fmt: skip
    evals = {s: {p: {lab: _evaluation(lab, noise, ratings, z, seed=7 if p == "r" else 1000 + 100 * s + i)
                     for i, (lab, noise) in enumerate(v.items())} for p, v in plan.items()}
             for s in seeds}  # fmt: skip
    scores = {s: {p: pd.DataFrame({lab: e.scores() for lab, e in ev.items()})
                  for p, ev in evals[s].items()} for s in seeds}  # fmt: skip
    base = mx.MVLSAChoice(mx.MVLSAConfig())
    return mx.PaperGrids(base, pd.DataFrame(), values, scores, evals, tuple(seeds), ("PLANTED",))


def test_grid_claims_are_decided_per_seed_with_holm_per_grid():
    claims = mx.grid_claims(_planted_grids())
    t = claims.table
    assert t.at["n_j: Count^1/4 beats Log (Table 3)", "status"] == "holds"
    assert t.at["n_j: Count^1/4 beats Count (Table 3)", "seeds holds"] == 2
    assert t.at["m: larger m is better (Table 5)", "status"] == "does not hold"
    r = "r: the absolute r_j does not matter (1e-10 to 1)"
    assert t.at[r, "status"] == "no detectable difference" and t.at[r, "kind"] == "invariance"
    # grids the run did not score are not testable, with the reason
    assert t.at["t: t = 12.5K beats a larger t (Table 4)", "status"] == "not testable here"
    assert "no t grid" in t.at["t: t = 12.5K beats a larger t (Table 4)", "reason"]
    assert "no v grid" in t.at["v: the minimum view support does not matter (Table 7)", "reason"]
    # Holm over one grid's family per seed: Table 3 has two claims x one dev set
    assert claims.family_sizes == {"m": 1, "n_j": 2, "r": 1}
    nj = claims.tests[(claims.tests["grid"] == "n_j") & (claims.tests["seed"] == 0)]
    p = np.sort(nj["pvalue"].to_numpy())
    assert np.allclose(np.sort(nj["pvalue_holm"].to_numpy()), np.minimum(1, [2 * p[0],
                       max(2 * p[0], p[1])]))  # fmt: skip
    assert set(claims.per_seed["seed"]) == {0, 1} and len(claims.per_seed) == 2 * len(t)


def test_claim_facts_rules():
    assert F.claim_over_seeds(["holds", "holds", "holds"]) == "holds"
    assert F.claim_over_seeds(["holds", "no detectable difference"]) == "varies across seeds"
    assert F.claim_over_seeds([]) == "not testable here"
    rec = {"claims": {
        "a": {"table": "Table 3", "kind": "direction", "a": "Count^1/4", "b": "Log",
              "dev mean a": 0.5, "dev mean b": 0.4, "seeds holds": 2,
              "seeds no detectable difference": 1, "n seeds": 3, "status": "holds", "reason": ""},
        "b": {"kind": "invariance", "seeds no detectable difference": 3, "n seeds": 3,
              "reason": ""},
        "c": {"kind": "direction", "n seeds": 3, "reason": "no t grid at this size"},
    }}  # fmt: skip
    by = {c.claim: c for c in F.seed_claims(rec)}
    # the status is re-derived from the seed counts, not read from the record
    assert by["a"].status == "varies across seeds" and by["a"].seeds["holds"] == F.SeedCount(2, 3)
    assert by["b"].status == "no detectable difference"
    assert by["c"].status == "not testable here" and by["c"].seeds == {}
    rows = F.paper_values({"paper_config": {"t": {"paper": "12.5K", "used": "100", "why": "x"},
                                            "r": {"paper": "1e-8", "used": "1e-08", "why": ""}}})  # fmt: skip
    assert [(v.parameter, v.changed) for v in rows] == [("t", True), ("r", False)]
    # the Holm family of each grid as recorded; an older record's one int is one family
    assert F.family_sizes({"claims_family_size": {"m": 8, "n_j": 16}}) == {"m": 8, "n_j": 16}
    assert F.family_sizes({"claims_family_size": 12}) == {"all": 12}
    assert F.family_sizes({}) == {}


def test_min_view_support_keeps_its_fraction_on_fewer_views():
    """A choice over two of the four views keeps half of v = 4, i.e. v = 2: w0 (one view) is
    dropped, w1 (two views) kept."""
    vs, views = _support_views()
    vs = dataclasses.replace(vs, views=tuple(
        dataclasses.replace(v, family="a" if i < 2 else "b") for i, v in enumerate(views)))  # fmt: skip
    choice = mx.MVLSAChoice(dataclasses.replace(CFG, min_view_support=4), families=("a",))
    vec = mx.choice_vectors(vs, choice, mx.FactorStore(svd_solver="dense"))
    assert set(vs.words) - set(vec.words) == {"w0"}


def test_path_can_keep_or_undo_the_papers_t_and_v():
    vs, _ = _support_views()
    steps = dict(mx.default_tuning_steps(vs, view_ranks=(4,), rhos=(1.0,), ks=(3,),
                                         top_ts=(5, None), supports=(3, 0)))  # fmt: skip
    assert list(steps)[:4] == ["t", "v", "views", "positional"]
    assert set(steps["t"]) == {"5", "all"} and set(steps["v"]) == {"3", "0"}
    start = mx.MVLSAChoice(dataclasses.replace(CFG, top_t=5, min_view_support=3))
    assert steps["t"]["all"](start).config.top_t is None
    assert steps["v"]["0"](start).config.min_view_support == 0
    assert "t" not in dict(mx.default_tuning_steps(vs, view_ranks=(4,), rhos=(1.0,), ks=(3,)))
    with pytest.raises(ValueError, match="supports entries"):
        mx.default_tuning_steps(vs, supports=(-1,))


def test_budget_and_paper_grids_bad_input():
    with pytest.raises(ValueError, match="budget"):
        mx.settings("small", budget=0)
    vs, _ = _support_views()
    with pytest.raises(TypeError, match="StudySettings"):
        mx.paper_grids(vs, "small", seeds=[0])  # type: ignore[arg-type]
    no_dev = dataclasses.replace(mx.settings("small"), tuning_wordsim=())
    with pytest.raises(ValueError, match="no rating set to tune on"):
        mx.paper_grids(vs, no_dev, seeds=[0])
    with pytest.raises(TypeError, match="PaperGrids"):
        mx.grid_claims("grids")  # type: ignore[arg-type]


def test_grid_evaluations_are_cached_by_the_content_of_the_views(tmp_path, monkeypatch):
    """A second scoring of the grids on the same views reads every dev evaluation from the cache
    (no fit) and gives the same scores, predictions and claims; changed views fit again."""
    from workbench import datasets as ds
    from workbench.studies.mvlsa import _claims

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    men = ds.load_wordsim("MEN")
    words = sorted(set(men.iloc[:, 0]) | set(men.iloc[:, 1]))[:300]
    rng = np.random.default_rng(0)
    vocab = Vocabulary.from_words(words)
    z = rng.standard_normal((len(words), 5))

    def view_set(noise):
        views = []
        for j in range(3):
            mat = np.abs(z @ rng.standard_normal((5, 30)) + noise * rng.standard_normal((len(words), 30)))
            m = sp.csr_array(mat)
            views.append(View(f"v{j}", m, tuple(f"c{i}" for i in range(30)),
                              np.diff(m.indptr) > 0, "signal", vocab))  # fmt: skip
        return mx.ViewSet(vocab, tuple(views), {"n_tokens": 0})

    vs = view_set(0.3)
    st = mx.settings("small", wordsim=["MEN"], grids=(("k", (5, 10)), ("r", (1e-10, 1.0))))
    fits = []
    real = _claims.choice_vectors
    monkeypatch.setattr(_claims, "choice_vectors", lambda *a, **k: fits.append(1) or real(*a, **k))
    first = mx.paper_grids(vs, st, seeds=[0, 1], progress=False)
    assert len(fits) == 8  # 2 seeds x 4 grid points
    again = mx.paper_grids(vs, st, seeds=[0, 1], progress=False)
    assert len(fits) == 8  # nothing fitted the second time
    for seed in (0, 1):
        for p in ("k", "r"):
            pd.testing.assert_frame_equal(first.scores[seed][p], again.scores[seed][p])
            for label, ev in first.evaluations[seed][p].items():
                for name, r in ev.wordsim.items():
                    r2 = again.evaluations[seed][p][label].wordsim[name]
                    np.testing.assert_array_equal(r.pred, r2.pred)
                    assert (r.n_scored, r.oov_pairs, r.spearman) == (r2.n_scored, r2.oov_pairs,
                                                                     r2.spearman)  # fmt: skip
    pd.testing.assert_frame_equal(mx.grid_claims(first).table, mx.grid_claims(again).table)
    mx.paper_grids(view_set(0.5), st, seeds=[0], progress=False)  # other views: fitted
    assert len(fits) == 12


def test_a_store_with_floors_gives_the_same_result_whatever_was_asked_before(monkeypatch):
    """With min_rank / min_components at the largest m / k, every factor is computed at the floor
    and every shared space solved at it, so a request's result does not depend on which
    requests came before it (a cached result must not)."""
    from workbench.gcca import StackedFactors

    _, views = _support_views()
    small = dataclasses.replace(CFG, view_rank=2, svd_solver="randomized")
    large = dataclasses.replace(small, view_rank=4)
    solves = []
    real_eig = StackedFactors.eig
    monkeypatch.setattr(StackedFactors, "eig",
                        lambda self, t, k, g: solves.append(k) or real_eig(self, t, k, g))  # fmt: skip

    def fresh() -> mx.FactorStore:
        return mx.FactorStore(n_jobs=1, dtype=None, min_rank=4, min_components=3)

    alone = fresh()
    h_alone = alone.combine(alone.get_many(views, small), N, 2)
    assert solves == [3]  # solved at the floor k
    assert [alone.eigenpairs_to_solve(k, 8) for k in (1, 3, 5)] == [3, 3, 5]
    assert alone.eigenpairs_to_solve(2, 2) == 2  # never more than the order
    assert alone.n_computed == len(views)
    alone.get_many(views, large)  # the floor rank was computed: nothing new
    assert alone.n_computed == len(views)
    after = fresh()
    after.combine(after.get_many(views, large), N, 3)  # a larger m and k first
    h_after = after.combine(after.get_many(views, small), N, 2)
    np.testing.assert_array_equal(h_alone, h_after)
    assert [f.s.size for f in after.get_many(views, small)] == [2] * len(views)
    # without floors the smaller request is solved at its own size
    plain = mx.FactorStore(n_jobs=1, dtype=None)
    solves.clear()
    plain.combine(plain.get_many(views, small), N, 2)
    assert solves == [2] and plain.get_many(views, small)[0].s.size == 2


def test_rank_floors_cover_every_rank_a_run_asks_for():
    st = mx.settings("small")
    vs, _ = _support_views()
    m, k = mx.rank_floors(st, n_words=N, n_views=4)
    tuning = dict(st.tuning)
    assert m >= max([st.config.view_rank, *tuning["view_ranks"]])
    assert k >= max([st.config.n_components, *tuning["ks"]])
    full = mx.settings("full")
    assert mx.rank_floors(full, n_words=28_000, n_views=40) == (500, 500)
    store = mx.study_store(vs, st)
    assert (store.min_rank, store.min_components) == mx.rank_floors(st, n_words=N, n_views=4)
    with pytest.raises(TypeError, match="StudySettings"):
        mx.rank_floors("small", n_words=N, n_views=4)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="store must be a FactorStore"):
        mx.study_store(vs, st, store="x")  # type: ignore[arg-type]
