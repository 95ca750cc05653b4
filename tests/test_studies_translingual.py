"""The Bible experiment of notebook 07 on a tiny configuration: verse matrices, fitted models
reused by the verse evaluation, and results that do not depend on the number of processes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from workbench.records import roundtrip
from workbench.studies.translingual import (
    ExperimentConfig,
    TranslingualStudyResult,
    prepare_bible,
    run_study,
    run_translingual,
    run_verse_retrieval,
)
from workbench.studies.translingual._comparable import comparable_data, run_comparable
from workbench.studies.translingual._plsa import PLSAFit, extension, grid_end

TINY = dataclasses.replace(
    ExperimentConfig.small(),
    n_terms=300,
    dims=(10, 25),
    topics=(8,),
    jplsa_iter=4,
    cplsa_iter=2,
    projection_steps=2,
    eval_every=2,
    verse_pool=60,
    topics_cap=16,
    fold_in_priors=(0.0, 0.1),
    cplsa_penalties=(None, 3.0),
    term_sweep=(),
    comparable=False,
    methods=("OPCA", "CPLSA", "JPLSA", "CCA", "CL-LSI", "Untranslated"),
)


@pytest.fixture(scope="module")
def data():
    return prepare_bible(n_terms=TINY.n_terms)


def test_held_out_verses_are_built(data):
    parts = set(data.verse_part)
    assert parts == {"dev", "test"}
    n = len(data.verse_ids)
    assert all(m.shape == (n, len(data.space)) for m in data.verse_counts.values())
    dev_books = set(data.split.dev)
    assert all(
        b in dev_books for (b, _, _), p in zip(data.verse_ids, data.verse_part) if p == "dev"
    )
    summary = data.summary().set_index("part")
    assert summary.loc["test", "verses"] == int(np.sum(data.verse_part == "test"))


def test_run_is_deterministic_across_processes_and_feeds_the_verse_test(data, tmp_path,
                                                                        monkeypatch):  # fmt: skip
    # each run with a cache of its own, so that the parallel run fits rather than reads
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "serial"))
    serial = run_translingual(data, TINY, n_jobs=1)
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "parallel"))
    parallel = run_translingual(data, TINY, n_jobs=2)
    pd.testing.assert_frame_equal(serial.test_table.drop(columns="fit seconds"),
                                  parallel.test_table.drop(columns="fit seconds"))  # fmt: skip
    pd.testing.assert_frame_equal(serial.dev_curves, parallel.dev_curves)
    pd.testing.assert_frame_equal(serial.plsa_history, parallel.plsa_history)
    # one fitted model per method and setting, with every swept dimension
    by = {(m.method, m.setting) for m in serial.models}
    assert ("OPCA", "gamma=0.1") in by and ("JPLSA", "topics=8, prior=0.0") in by
    # one model per fold-in prior, and for CPLSA per penalty; the grid (8,) was doubled once,
    # to the cap 16 (the best of a one-point grid is at its top)
    assert ("CPLSA", "topics=16, prior=0.1, penalty=inf") in by
    assert ("CPLSA", "topics=8, prior=0.0, penalty=3.0") in by
    assert serial.plsa_grid == {"JPLSA": [8, 16], "CPLSA": [8, 16]}
    assert all(m.dims == (10, 25) for m in serial.models if m.method in ("OPCA", "CCA"))
    # early stopping on dev: the kept iteration is one that was evaluated
    for m in serial.models:
        if m.method in ("JPLSA", "CPLSA"):
            hist = serial.plsa_history[serial.plsa_history["method"] == m.method]
            assert m.params["iterations"] in set(hist["iteration"])
    verse = run_verse_retrieval(serial, [3])
    assert set(verse.tests[3].index) == set(TINY.methods)
    assert verse.pools[3]["test"].size == TINY.verse_pool
    study = TranslingualStudyResult("small", serial, verse, {"paper setup": 1.0,
                                                             "verse evaluation": 2.0})  # fmt: skip
    rec = study.records()
    assert rec["seeds"] == [3] and set(rec["verse_top1"]) == set(TINY.methods)
    assert rec["n_terms_language"] == {"en": TINY.n_terms, "es": TINY.n_terms}
    assert roundtrip(rec) == rec  # JSON values only
    # every fit recorded with its log-likelihood curve, stop reason and dev-chosen prior
    fits = rec["plsa_fits"]
    assert [(f["method"], f["topics"], f["penalty"]) for f in fits] == [
        ("JPLSA", 8, None), ("JPLSA", 16, None), ("CPLSA", 8, None), ("CPLSA", 8, 3.0),
        ("CPLSA", 16, None), ("CPLSA", 16, 3.0)]  # fmt: skip
    for f in fits:
        cap = rec["plsa_max_iterations"][f["method"]]
        assert len(f["log likelihood"]) == f["iterations"] + 1
        assert f["stop"] == "cap" if f["iterations"] == cap else f["stop"] == "converged"
        assert f["prior"] in (0.0, 0.1) and 0 < f["iteration"] <= f["iterations"]
    for m in ("JPLSA", "CPLSA"):
        dev = rec["dev_mrr_by_dim"][m]
        assert rec["plsa_grid_end"][m] == ("cap" if dev["16"] > dev["8"] else "turned")
        assert rec["plsa_chosen"][m]["prior"] in (0.0, 0.1)
        best = max(f["dev mrr"] for f in fits if f["method"] == m)
        assert max(dev.values()) == pytest.approx(best)
    assert rec["plsa_tol"] == TINY.plsa_tol and rec["plsa_penalties"] == [None, 3.0]
    assert rec["term_sweep"] == []
    # the pre-stated claims: Holm over the claims of the seed, recorded with the raw p
    assert rec["claims_family"]["claims"] == ["OPCA > CL-LSI", "CPLSA > JPLSA", "OPCA > CCA"]
    assert set(rec["verse_claims"]) == set(rec["claims_family"]["claims"])
    assert all(c["holm p"][0] >= c["mcnemar p"][0] for c in rec["verse_claims"].values())
    assert study.table1["superior top1"].sum() == len(rec["superior_set_top1"])
    with pytest.raises(ValueError, match="n_jobs"):
        run_translingual(data, TINY, n_jobs=0)
    with pytest.raises(ValueError, match="data_size"):
        run_study(data, TINY, [0], data_size="medium")


def _fit(name, topics, mrr):
    return PLSAFit(name, topics, math.nan, {0.0: (mrr, 1, np.zeros((1, 1)))}, 0.0, [], 1, "cap",
                   [0.0], None)  # fmt: skip


def test_topic_grid_doubles_while_the_best_is_at_its_top():
    fits = [_fit("JPLSA", 50, 0.5), _fit("JPLSA", 100, 0.6), _fit("CPLSA", 50, 0.7),
            _fit("CPLSA", 100, 0.6)]  # fmt: skip
    assert extension(fits, cap=400) == {"JPLSA": [200]}
    assert grid_end(fits, cap=400) == {"JPLSA": "cap", "CPLSA": "turned"}
    assert extension(fits, cap=199) == {"JPLSA": [199]}  # doubling would pass the cap: the cap
    assert extension([*fits, _fit("JPLSA", 199, 0.7)], cap=199) == {}  # the cap was fitted
    # ties go to the smaller number: a flat top is a turn
    fits.append(_fit("JPLSA", 200, 0.6))
    assert extension(fits, cap=400) == {} and grid_end(fits, 400)["JPLSA"] == "turned"
    # the best over a number's fits (penalties) counts
    fits.append(_fit("CPLSA", 100, 0.8))
    assert extension(fits, cap=400) == {"CPLSA": [200]}


@pytest.mark.parametrize(
    ("field", "value", "error", "match"),
    [
        ("cplsa_penalties", (None, -1.0), ValueError, r"cplsa_penalties\[1\]"),
        ("fold_in_priors", (-0.1,), ValueError, r"fold_in_priors\[0\]"),
        ("fold_in_priors", (), TypeError, "fold_in_priors must be a non-empty tuple"),
        ("plsa_tol", -1e-3, ValueError, "plsa_tol"),
        ("topics_cap", -1, ValueError, "topics_cap"),
        ("term_sweep", "5000", TypeError, "term_sweep must be a tuple"),
        ("term_sweep", (0,), ValueError, r"term_sweep\[0\]"),
    ],
)
def test_plsa_settings_are_checked(field, value, error, match):
    with pytest.raises(error, match=match):
        dataclasses.replace(ExperimentConfig(), **{field: value})


def test_comparable_halves_split_every_chapter_without_overlap(data):
    for lang in data.languages:
        first, second = data.halves[lang]
        # the two halves add up to the chapter: no verse on both sides, none lost
        assert abs(first + second - data.counts[lang]).max() == 0
        assert first.sum() > 0.4 * data.counts[lang].sum() and second.sum() > 0.3 * first.sum()
    comp = comparable_data(data)
    en, es = data.languages
    kept = [data.ids.index(c) for c in comp.ids]
    assert len(kept) > 0.95 * len(data.ids)
    assert (comp.counts[en] != data.halves[en][0][kept]).nnz == 0
    assert (comp.counts[es] != data.halves[es][1][kept]).nnz == 0
    assert all(np.asarray(c.sum(axis=1)).min() > 0 for c in comp.counts.values())
    assert not comp.labelled and "comparable" in comp.name
    for part, idx in comp.parts.items():  # the same chapters, reindexed
        assert {comp.ids[i] for i in idx} <= {data.ids[i] for i in data.parts[part]}
        assert len(idx) > 0.95 * len(data.parts[part])
    assert run_comparable(data, TINY) is None  # off in TINY
    with pytest.raises(ValueError, match="halves"):
        comparable_data(dataclasses.replace(data, halves={}))


def test_comparable_condition_runs_and_tests_the_claims(data):
    cfg = dataclasses.replace(TINY, comparable=True, topics_cap=0, cplsa_penalties=(None,))
    comp = run_comparable(data, cfg)
    rec = comp.records()
    assert set(rec["test_top1"]) == set(TINY.methods)
    assert [c["claim"] for c in rec["claims"]] == ["OPCA > CL-LSI", "CPLSA > JPLSA", "OPCA > CCA"]
    raw = sorted(c["mcnemar p"] for c in rec["claims"])
    assert min(c["holm p"] for c in rec["claims"]) == pytest.approx(min(1.0, 3 * raw[0]))
    # harder than parallel chapters: below the parallel condition's Top-1
    parallel = run_translingual(data, dataclasses.replace(cfg, methods=("OPCA",)))
    assert rec["test_top1"]["OPCA"] < parallel.test_table.set_index("method").at["OPCA", "top1"]


def test_plsa_fits_are_cached_by_content(tmp_path, monkeypatch):
    """A fit made before is read back, not refitted, and equals the fit; another penalty, other
    counts or another fold-in prior fit anew."""
    import scipy.sparse as sp

    from workbench.studies.translingual import _plsa

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    made = []
    real = _plsa._fit
    monkeypatch.setattr(_plsa, "_fit", lambda *a: made.append(a[:3]) or real(*a))
    rng = np.random.default_rng(0)
    views = [sp.csr_matrix(rng.poisson(0.5, (20, 15)).astype(float)) for _ in range(2)]
    dev = [sp.csr_matrix(rng.poisson(0.5, (8, 15)).astype(float)) for _ in range(2)]
    for name, penalty in (("JPLSA", None), ("CPLSA", 3.0)):
        first = _plsa._fit_task(name, 4, penalty, views, dev, TINY)
        again = _plsa._fit_task(name, 4, penalty, views, dev, TINY)
        assert made[-1] == (name, 4, penalty) and len([m for m in made if m[0] == name]) == 1
        assert (again.name, again.topics, again.iterations, again.stop) == (
            first.name, first.topics, first.iterations, first.stop)  # fmt: skip
        assert again.penalty == first.penalty or (math.isnan(again.penalty)
                                                  and math.isnan(first.penalty))  # fmt: skip
        assert again.history == first.history and again.log_likelihood == first.log_likelihood
        assert again.seconds == first.seconds and again.prior == first.prior
        assert set(again.best) == set(first.best)
        for p in first.best:
            assert again.best[p][:2] == first.best[p][:2]
            np.testing.assert_array_equal(again.best[p][2], first.best[p][2])
        assert again.template.get_params() == first.template.get_params()
        # one topic matrix per distinct best iteration, shared by the priors it is best for
        from workbench._io import Cache

        entry = Cache(_plsa.FIT_CACHE[0], version=_plsa.FIT_CACHE[1]).load(
            _plsa.fit_inputs(name, 4, penalty, views, dev, TINY))
        assert len(entry.arrays) == len({b[1] for b in first.best.values()})
        assert all(again.best[p][2] is again.best[q][2] for p in again.best for q in again.best
                   if again.best[p][1] == again.best[q][1])  # fmt: skip
    n = len(made)
    _plsa._fit_task("CPLSA", 4, 1.0, views, dev, TINY)  # another penalty
    _plsa._fit_task("JPLSA", 4, None, [v * 2 for v in views], dev, TINY)  # other counts
    _plsa._fit_task("JPLSA", 4, None, views, dev, dataclasses.replace(TINY, fold_in_priors=(0.0,)))
    _plsa._fit_task("JPLSA", 4, None, views, dev, TINY, cache=False)
    assert len(made) == n + 4


def test_a_warm_run_reads_every_plsa_fit_and_gives_the_cold_runs_results(data, tmp_path,
                                                                        monkeypatch):  # fmt: skip
    """Run twice on one cache: the second run fits no PLSA model and its tables, curves and verse
    tests equal the first's."""
    from workbench.studies.translingual import _plsa

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    cold = run_translingual(data, TINY, n_jobs=1)
    fits = []
    real = _plsa._fit
    monkeypatch.setattr(_plsa, "_fit", lambda *a: fits.append(a[:3]) or real(*a))
    warm = run_translingual(data, TINY, n_jobs=1)
    assert fits == []
    pd.testing.assert_frame_equal(cold.test_table.drop(columns="fit seconds"),
                                  warm.test_table.drop(columns="fit seconds"))  # fmt: skip
    plsa = cold.test_table["method"].isin(["JPLSA", "CPLSA"])  # a read fit keeps its time
    pd.testing.assert_series_equal(cold.test_table.loc[plsa, "fit seconds"],
                                   warm.test_table.loc[plsa, "fit seconds"])  # fmt: skip
    pd.testing.assert_frame_equal(cold.dev_curves, warm.dev_curves)
    pd.testing.assert_frame_equal(cold.plsa_history, warm.plsa_history)
    a, b = run_verse_retrieval(cold, [3]), run_verse_retrieval(warm, [3])
    pd.testing.assert_frame_equal(a.tests[3], b.tests[3])
