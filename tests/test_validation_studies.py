"""Bad input at the public entry points of workbench.studies.mvlsa.

Every case asserts the error type and that the message names the problem (the parameter, the
value given or what is allowed). The view set is the small planted one of
``test_studies_mvlsa``; no case fits a full model.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from test_studies_mvlsa import CFG, N, _planted

from workbench.embeddings import WordVectors
from workbench.studies import mvlsa as mx


@pytest.fixture(scope="module")
def c() -> SimpleNamespace:
    vs, z, ratings = _planted()
    rng = np.random.default_rng(1)
    store = mx.FactorStore(n_jobs=1)
    v0 = vs.views[0]
    bad = v0.matrix.toarray()
    bad[0, 0] = np.nan
    nan_view = v0.with_matrix(sp.csr_array(bad))
    return SimpleNamespace(
        vs=vs,
        ratings=ratings,
        wv=WordVectors(vs.words, z),
        glove=WordVectors(vs.words, z @ rng.standard_normal((3, 8))),
        start=mx.MVLSAChoice(CFG),
        store=store,
        factors=store.get_many(list(vs.views), CFG),
        nan_vs=dataclasses.replace(vs, views=(nan_view, *vs.views[1:])),
        nan_view=nan_view,
        sets=[ratings],
    )


def _ev(c: SimpleNamespace, **kw: Any) -> Any:
    return mx.evaluate_system(c.wv, **{"wordsim": c.sets, "analogies": False, **kw})


def _fusion(c: SimpleNamespace, **kw: Any) -> Any:
    args = {"glove": c.glove, "wsg": c.glove, "corpus_families": ("signal",),
            "wordsim": c.sets, "analogies": False, **kw}  # fmt: skip
    return mx.fusion_study(c.vs, CFG, **args)


def _ablation(c: SimpleNamespace, removals: Any = None, **kw: Any) -> Any:
    rem = {"!noise": ["noise"]} if removals is None else removals
    return mx.ablation_study(c.vs, CFG, rem, wordsim=c.sets, analogies=False, **kw)


# ------------------------------------------------------------------------- settings / config
SETTINGS_CASES = [
    ("size unknown", lambda c: mx.settings("huge"), ValueError, "size must be one of"),
    ("unknown override", lambda c: mx.settings("small", bogus=1), TypeError, "bogus"),
    ("vocab_size < 1", lambda c: mx.settings("small", vocab_size=-5), ValueError,
     "vocab_size must be an integer >= 1, got -5"),
    ("vocab_size str", lambda c: mx.settings("small", vocab_size="10"), TypeError,
     "vocab_size .*'10'"),
    ("max_tokens 0", lambda c: mx.settings("small", max_tokens=0), ValueError, "max_tokens"),
    ("offset 0", lambda c: mx.settings("small", offsets=(0,)), ValueError, "offsets"),
    ("offsets duplicated", lambda c: mx.settings("small", offsets=(1, 1)), ValueError,
     "offsets has duplicates"),
    ("config not MVLSAConfig", lambda c: mx.settings("small", config="x"), TypeError,
     "config must be an MVLSAConfig"),
    ("unknown rating set", lambda c: mx.settings("small", wordsim=("NOPE",)), ValueError,
     "wordsim .*MEN.*'NOPE'"),
    ("wordsim a string", lambda c: mx.settings("small", wordsim="MEN"), TypeError,
     "wordsim must be a list"),
    ("unknown lexicon", lambda c: mx.settings("small", lexicons=("nope",)), ValueError,
     "lexicons .*'ppdb'.*'nope'"),
    ("unknown corpus", lambda c: mx.settings("small", corpus="9M"), ValueError,
     "corpus must be one of 1M, 5M, 25M.*'9M'"),
    ("unknown treebank split", lambda c: mx.settings("small", conllu="xx"), ValueError,
     "conllu must be one of train, dev, test"),
    ("min_count 0", lambda c: mx.settings("small", min_count=0), ValueError, "min_count"),
    ("min_view_rows < 0", lambda c: mx.settings("small", min_view_rows=-1), ValueError,
     "min_view_rows"),
    ("ablation_rank 0", lambda c: mx.settings("small", ablation_rank=0), ValueError,
     "ablation_rank"),
    ("bitext_verses < 0", lambda c: mx.settings("small", bitext_verses=-1), ValueError,
     "bitext_verses"),
    ("unknown grid parameter", lambda c: mx.settings("small", grids=(("q", (1,)),)),
     ValueError, "grids parameter must be one of"),
    ("unknown tuning key", lambda c: mx.settings("small", tuning=(("zz", (1,)),)),
     ValueError, "tuning key must be one of 'view_ranks'"),
    ("ablation_config seed < 0", lambda c: mx.settings("small").ablation_config(-1),
     ValueError, "seed must be an integer >= 0"),
    ("row_weighting unknown", lambda c: mx.MVLSAConfig(row_weighting="x"), ValueError,
     "row_weighting must be one of None, 'glove'; got 'x'"),
    ("svd_solver unknown", lambda c: mx.MVLSAConfig(svd_solver="x"), ValueError,
     "svd_solver must be one of 'randomized'"),
    ("random_state < 0", lambda c: mx.MVLSAConfig(random_state=-1), ValueError, "random_state"),
    ("random_state str", lambda c: mx.MVLSAConfig(random_state="0"), TypeError, "random_state"),
    ("relative_regularization str", lambda c: mx.MVLSAConfig(relative_regularization="yes"),
     TypeError, "relative_regularization must be True or False"),
    ("regularization str", lambda c: mx.MVLSAConfig(regularization="1"), TypeError,
     "regularization"),
    ("label of unknown param", lambda c: mx.MVLSAConfig().label("zz"), ValueError,
     "param must be a paper name .*'zz'"),
    ("choice config", lambda c: mx.MVLSAChoice("x"), TypeError,
     "MVLSAChoice.config must be an MVLSAConfig"),
    ("choice families a string", lambda c: mx.MVLSAChoice(CFG, families="positional"),
     TypeError, "families must be a list"),
]  # fmt: skip


# ------------------------------------------------------------------------- views, one system
SYSTEM_CASES = [
    ("build_view_set of a size name", lambda c: mx.build_view_set("small"), TypeError,
     r"mvlsa\.settings\('small'\)"),
    ("build_view_set None", lambda c: mx.build_view_set(None), TypeError,
     "settings must be a StudySettings"),
    ("select exclude a string", lambda c: c.vs.select(exclude="noise"), TypeError,
     "exclude must be a list"),
    ("select families a string", lambda c: c.vs.select(families="signal"), TypeError,
     "families must be a list"),
    ("usable_views min_rows < 0", lambda c: mx.usable_views(list(c.vs.views), min_rows=-1),
     ValueError, "min_rows must be an integer >= 0"),
    ("usable_views of None", lambda c: mx.usable_views(None), TypeError, "views must be a list"),
    ("usable_views NaN view", lambda c: mx.usable_views([c.nan_view]), ValueError,
     "view 'sig0' has NaN"),
    ("fit_mvlsa view_set None", lambda c: mx.fit_mvlsa(None, CFG), TypeError,
     "view_set must be a ViewSet"),
    ("fit_mvlsa config dict", lambda c: mx.fit_mvlsa(c.vs, {"view_rank": 3}), TypeError,
     "config must be an MVLSAConfig, got dict"),
    ("fit_mvlsa NaN view", lambda c: mx.fit_mvlsa(c.nan_vs, CFG), ValueError,
     "view 'sig0' has NaN or infinite"),
    ("evaluate_system None", lambda c: mx.evaluate_system(None, wordsim=c.sets, analogies=False),
     TypeError, "vectors must be word vectors"),
    ("evaluate_system array", lambda c: mx.evaluate_system(np.zeros((3, 2)), wordsim=c.sets,
                                                           analogies=False),
     TypeError, "vectors must be word vectors .*ndarray"),
    ("wordsim a string", lambda c: _ev(c, wordsim="MEN"), TypeError,
     "wordsim must be a list .*'MEN'"),
    ("unknown rating set", lambda c: _ev(c, wordsim=["NOPE"]), ValueError,
     "unknown word-similarity set 'NOPE'; valid names: MEN"),
    ("nothing to evaluate", lambda c: _ev(c, wordsim=[]), ValueError, "nothing to evaluate"),
    ("analogies a string", lambda c: _ev(c, analogies="no"), TypeError,
     "analogies must be True or False"),
    ("name not str", lambda c: _ev(c, name=3), TypeError, "name must be a string"),
    ("rating set twice", lambda c: _ev(c, wordsim=[c.ratings, c.ratings]), ValueError,
     "'PLANTED' twice"),
    ("scores_frame of ints", lambda c: mx.scores_frame([1]), TypeError,
     "SystemEvaluation"),
    ("scores_frame duplicate names", lambda c: mx.scores_frame([_ev(c), _ev(c)]), ValueError,
     "distinct names"),
    ("mrds_column empty", lambda c: mx.mrds_column([]), ValueError, "no evaluation given"),
]  # fmt: skip


# ------------------------------------------------------------------------- grids, ablation, fusion
STUDY_CASES = [
    ("run_mvlsa with_grids a string", lambda c: mx.run_mvlsa(c.vs, mx.settings("small"), seeds=[0],
                                                             with_grids="no"),
     TypeError, "with_grids must be True or False, got 'no'"),
    ("grid values an int", lambda c: mx.run_grid(c.vs, "k", 5, base=CFG, wordsim=c.sets,
                                                 analogies=False),
     TypeError, "values of the grid over 'k' must be a list"),
    ("grid values a string", lambda c: mx.run_grid(c.vs, "m", "ab", base=CFG, wordsim=c.sets,
                                                   analogies=False),
     TypeError, "values of the grid over 'm' must be a list"),
    ("grid k fractional", lambda c: mx.run_grid(c.vs, "k", [2.5, 3], base=CFG, wordsim=c.sets,
                                                analogies=False),
     ValueError, "grid over 'k' must be an integer >= 1, got 2.5"),
    ("grid k string", lambda c: mx.run_grid(c.vs, "k", ["2"], base=CFG, wordsim=c.sets,
                                            analogies=False),
     TypeError, "grid over 'k' must be an integer"),
    ("grid base None", lambda c: mx.run_grid(c.vs, "m", [3], base=None, wordsim=c.sets,
                                             analogies=False),
     TypeError, "base must be an MVLSAConfig"),
    ("run_study grids a string", lambda c: mx.run_study(c.vs, "m", base=CFG), TypeError,
     "grids must be a list"),
    ("run_study no grid", lambda c: mx.run_study(c.vs, {}, base=CFG), ValueError,
     "grids is empty"),
    ("ablation alpha > 1", lambda c: _ablation(c, alpha=2), ValueError,
     "alpha must be a finite number > 0 and < 1, got 2"),
    ("ablation alpha str", lambda c: _ablation(c, alpha="0.05"), TypeError, "alpha"),
    ("ablation removal a string", lambda c: _ablation(c, {"!noise": "noise"}), TypeError,
     r"removals\['!noise'\] must be a list"),
    ("ablation removals a list", lambda c: _ablation(c, ["noise"]), TypeError,
     "removals must be a mapping"),
    ("ablation empty removal", lambda c: _ablation(c, {"!x": []}), ValueError,
     r"removals\['!x'\] is empty"),
    ("ablation label All views", lambda c: _ablation(c, {"All views": ["noise"]}), ValueError,
     "'All views' labels the system without removal"),
    ("ablation config None", lambda c: mx.ablation_study(c.vs, None, {"!n": ["noise"]}),
     TypeError, "config must be an MVLSAConfig"),
    ("default_removals single view a string",
     lambda c: mx.default_removals(c.vs, single_views="sig0"), TypeError,
     "single_views must be a list"),
    ("default_removals unknown view", lambda c: mx.default_removals(c.vs, single_views=["zz"]),
     ValueError, r"unknown views \['zz'\]; views: \['sig0'"),
    ("ablation_seeds of ints", lambda c: mx.ablation_seeds({0: 1}), TypeError,
     r"results\[0\] must be an AblationResult"),
    ("fusion glove None", lambda c: _fusion(c, glove=None), TypeError,
     "glove must be word vectors"),
    ("fusion corpus_families a string", lambda c: _fusion(c, corpus_families="signal"),
     TypeError, "corpus_families must be a list"),
    ("fusion unknown corpus family", lambda c: _fusion(c, corpus_families=("signal", "zz")),
     ValueError, r"no corpus view family \['zz'\].*families: \['signal', 'noise'\]"),
    ("fusion fuse a string", lambda c: _fusion(c, fuse="GloVe"), TypeError,
     "fuse must be a list"),
    ("fusion fuse twice", lambda c: _fusion(c, fuse=("GloVe", "GloVe")), ValueError,
     "fuse names a system twice"),
    ("fusion alpha < 0", lambda c: _fusion(c, alpha=-1), ValueError, "alpha"),
    ("fusion combined str", lambda c: _fusion(c, combined="yes"), TypeError,
     "combined must be True or False"),
    ("fusion extra a list", lambda c: _fusion(c, extra=[1]), TypeError,
     "extra must be a mapping"),
    ("fusion extra None vectors", lambda c: _fusion(c, extra={"x": None}), TypeError,
     r"extra\['x'\] must be word vectors"),
    ("fusion extra clash", lambda c: _fusion(c, extra={"GloVe": c.glove}), ValueError,
     "clashes with a Table 9 system"),
    ("fusion_seeds of ints", lambda c: mx.fusion_seeds({0: 1}), TypeError,
     r"results\[0\] must be a FusionResult"),
]  # fmt: skip


# ------------------------------------------------------------------------- factors, tuning path
TUNING_CASES = [
    ("FactorStore n_iter < 0", lambda c: mx.FactorStore(n_iter=-1), ValueError,
     "FactorStore.n_iter must be an integer >= 0, got -1"),
    ("FactorStore svd_solver", lambda c: mx.FactorStore(svd_solver="x"), ValueError,
     "svd_solver must be one of 'randomized'"),
    ("FactorStore n_jobs 0", lambda c: mx.FactorStore(n_jobs=0), ValueError, "n_jobs"),
    ("FactorStore min_rank < 0", lambda c: mx.FactorStore(min_rank=-1), ValueError, "min_rank"),
    ("FactorStore min_components", lambda c: mx.FactorStore(min_components=1.5), TypeError,
     "min_components"),
    ("eigenpairs_to_solve k 0", lambda c: mx.FactorStore().eigenpairs_to_solve(0, 5), ValueError,
     "n_components must be an integer >= 1, got 0"),
    ("eigenpairs_to_solve order", lambda c: mx.FactorStore().eigenpairs_to_solve(2, 1.5),
     TypeError, "order"),
    ("FactorStore dtype", lambda c: mx.FactorStore(dtype="x"), TypeError,
     "dtype must be a floating dtype"),
    ("store.get config None", lambda c: c.store.get(c.vs.views[0], None), TypeError,
     "config must be an MVLSAConfig"),
    ("store.get m 0", lambda c: c.store.get(c.vs.views[0], CFG, m=0), ValueError,
     "m must be an integer >= 1, got 0"),
    ("store.get view None", lambda c: c.store.get(None, CFG), TypeError, "view must be a View"),
    ("store.get NaN view", lambda c: mx.FactorStore(n_jobs=1).get(c.nan_view, CFG), ValueError,
     "view 'sig0' has NaN"),
    ("combine k 0", lambda c: c.store.combine(c.factors, N, 0), ValueError,
     "n_components must be an integer >= 1, got 0"),
    ("combine k fractional", lambda c: mx.combine_factors(c.factors, N, 2.5), ValueError,
     "n_components"),
    ("combine n_rows too small", lambda c: c.store.combine(c.factors, 5, 2), ValueError,
     "n_rows=5 is too small"),
    ("combine regularization < 0",
     lambda c: c.store.combine(c.factors, N, 2, regularization=-1), ValueError,
     "regularization must be a finite number >= 0"),
    ("combine relative str",
     lambda c: mx.combine_factors(c.factors, N, 2, relative_regularization="yes"), TypeError,
     "relative_regularization must be True or False"),
    ("store.prune None", lambda c: c.store.prune(None), TypeError, "keep must be an MVLSAConfig"),
    ("split_wordsim a string", lambda c: mx.split_wordsim("MEN", "dev"), TypeError,
     "names must be a list"),
    ("split_wordsim empty", lambda c: mx.split_wordsim([], "dev"), ValueError,
     "names is empty"),
    ("split_wordsim DataFrame without columns",
     lambda c: mx.split_wordsim([pd.DataFrame({"a": [1, 2]})], "dev"), ValueError,
     "lacks the columns"),
    ("positional_scheme without offsets", lambda c: mx.positional_scheme(c.vs, "offsets"),
     ValueError, "no positional views"),
    ("tuning steps view_ranks 0", lambda c: mx.default_tuning_steps(c.vs, view_ranks=[0]),
     ValueError, "view_ranks entries must be an integer >= 1"),
    ("tuning steps rhos < 0", lambda c: mx.default_tuning_steps(c.vs, rhos=[-1]), ValueError,
     "rhos entries"),
    ("tuning steps ks empty", lambda c: mx.default_tuning_steps(c.vs, ks=[]), ValueError,
     "ks is empty"),
    ("tuning steps nj a string", lambda c: mx.default_tuning_steps(c.vs, nj="Log"), TypeError,
     "nj must be a list"),
    ("tuning_path alpha", lambda c: mx.tuning_path(c.vs, c.start, [], dev_names=c.sets,
                                                    alpha=5), ValueError, "alpha"),
    ("tuning_path start config", lambda c: mx.tuning_path(c.vs, CFG, [], dev_names=c.sets),
     TypeError, "start must be an MVLSAChoice, got MVLSAConfig"),
    ("tuning_path empty step", lambda c: mx.tuning_path(c.vs, c.start, [("x", {})],
                                                         dev_names=c.sets),
     ValueError, "step 'x' must map candidate labels"),
    ("tuning_path store", lambda c: mx.tuning_path(c.vs, c.start, [], dev_names=c.sets,
                                                    store="x"),
     TypeError, "store must be a FactorStore"),
    ("tuning_path no dev sets", lambda c: mx.tuning_path(c.vs, c.start, [], dev_names=[]),
     ValueError, "names is empty"),
    ("test_comparison systems None", lambda c: mx.test_comparison(None, reference="a"),
     TypeError, "systems must be a mapping"),
    ("test_comparison alpha", lambda c: mx.test_comparison({"a": c.wv}, reference="a",
                                                           names=c.sets, alpha=1.5),
     ValueError, "alpha"),
    ("test_comparison vectors None",
     lambda c: mx.test_comparison({"a": c.wv, "b": None}, reference="a", names=c.sets),
     TypeError, r"systems\['b'\] must be word vectors"),
    ("seed_comparison seed str",
     lambda c: mx.seed_comparison({"x": {"a": c.wv}}, reference="a", names=c.sets), TypeError,
     "seeds .* must be an integer >= 0, got 'x'"),
    ("seed_comparison mismatched systems",
     lambda c: mx.seed_comparison({0: {"a": c.wv, "b": c.wv}, 1: {"a": c.wv}}, reference="a",
                                  names=c.sets),
     ValueError, "every seed must have the same systems"),
    ("path_claims None", lambda c: mx.path_claims(None), TypeError,
     "result must be a TuningResult"),
    ("path_claims alpha > 1",
     lambda c: mx.path_claims(mx.TuningResult((), c.start, c.start, (c.start,), ()), alpha=2),
     ValueError, "alpha"),
    ("choice_vectors choice config", lambda c: mx.choice_vectors(c.vs, CFG, c.store), TypeError,
     "choice must be an MVLSAChoice"),
    ("choice_vectors store None", lambda c: mx.choice_vectors(c.vs, c.start, None), TypeError,
     "store must be a FactorStore"),
    ("choice_ablation store None",
     lambda c: mx.choice_ablation(c.vs, c.start, store=None), TypeError,
     "store must be a FactorStore"),
    ("tuned_choice settings", lambda c: mx.tuned_choice(c.vs, "small"), TypeError,
     "settings must be a StudySettings"),
    ("corpus_baselines seeds", lambda c: mx.corpus_baselines_seeds(
        c.vs, mx.settings("small"), n_components=2, seeds=[1.5]), ValueError,
     "seeds entries must be an integer >= 0, got 1.5"),
    ("corpus_baselines n_components", lambda c: mx.corpus_baselines_seeds(
        c.vs, mx.settings("small"), n_components=0, seeds=[0]), ValueError,
     "n_components"),
]  # fmt: skip


# ------------------------------------------------------------------------- discussions
DISCUSSION_CASES = [
    ("discussion_03 no records", lambda c: mx.discussion_03({}), KeyError,
     "lacks the records .*'test_mean'"),
    ("discussion_04 no records", lambda c: mx.discussion_04({}), KeyError, "'drops'"),
    ("discussion_05 no records", lambda c: mx.discussion_05({}), KeyError, "'wordsim_mean'"),
    ("discussion_03 None", lambda c: mx.discussion_03(None), TypeError, "rec must be the records"),
    ("other without other_size",
     lambda c: mx.discussion_04({"drops": {}, "n_significantly_helped": {},
                                 "n_significantly_hurt": {}, "mean_wordsim_drop": {},
                                 "test_sets": []}, {}),
     ValueError, "other_size"),
    ("findings of None", lambda c: mx.findings("03", None), TypeError, "rec must be"),
    ("findings unknown notebook", lambda c: mx.findings("07", {}), ValueError,
     "notebook must be '03', '04' or '05'"),
    ("compare_sizes other not records",
     lambda c: mx.compare_sizes("03", {}, [1]), TypeError, "other must be a mapping"),
]  # fmt: skip


def _ids(cases: list[tuple[Any, ...]]) -> list[str]:
    return [case[0] for case in cases]


@pytest.mark.parametrize("label, call, exc, match", SETTINGS_CASES, ids=_ids(SETTINGS_CASES))
def test_settings_and_config(c, label, call, exc, match):
    with pytest.raises(exc, match=match):
        call(c)


@pytest.mark.parametrize("label, call, exc, match", SYSTEM_CASES, ids=_ids(SYSTEM_CASES))
def test_view_sets_and_systems(c, label, call, exc, match):
    with pytest.raises(exc, match=match):
        call(c)


@pytest.mark.parametrize("label, call, exc, match", STUDY_CASES, ids=_ids(STUDY_CASES))
def test_grids_ablations_fusion(c, label, call, exc, match):
    with pytest.raises(exc, match=match):
        call(c)


@pytest.mark.parametrize("label, call, exc, match", TUNING_CASES, ids=_ids(TUNING_CASES))
def test_factors_and_tuning(c, label, call, exc, match):
    with pytest.raises(exc, match=match):
        call(c)


@pytest.mark.parametrize("label, call, exc, match", DISCUSSION_CASES,
                         ids=_ids(DISCUSSION_CASES))  # fmt: skip
def test_discussions(c, label, call, exc, match):
    with pytest.raises(exc, match=match):
        call(c)


def test_valid_input_is_normalized_not_refused(c):
    """Lists are accepted where a tuple is meant; an integral float is not an int (as in
    scikit-learn) and is refused, naming the parameter."""
    assert mx.MVLSAConfig(view_rank=5).view_rank == 5
    with pytest.raises(TypeError, match="view_rank must be an integer.*5.0"):
        mx.MVLSAConfig(view_rank=5.0)
    choice = mx.MVLSAChoice(CFG, families=["signal"])
    assert choice.families == ("signal",) and hash(choice)  # a tuple: still hashable
    assert mx.settings("small", offsets=(1, 2)).offsets == (1, 2)
    assert c.vs.select(exclude=["noise"]).names == ["sig0", "sig1", "sig2"]
