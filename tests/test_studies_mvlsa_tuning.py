"""Tests of the MVLSA-by-parts path (factors, combine) and the dev-tuned path."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from workbench.gcca import MVLSA
from workbench.studies import mvlsa as mx
from workbench.studies.mvlsa._factors import compute_factor
from workbench.views import View, Vocabulary


def planted_views(n=200, n_views=4, seed=0):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(n)]
    vocab = Vocabulary.from_words(words)
    base = rng.standard_normal((n, 3))
    views = []
    for j in range(n_views):
        x = np.abs(base @ rng.standard_normal((3, 30)) + 0.5 * rng.standard_normal((n, 30)))
        x[rng.random((n, 30)) < 0.5] = 0
        obs = rng.random(n) > 0.2 * j
        x[~obs] = 0
        ctx = [f"c{i}" for i in range(30)]
        views.append(View(f"v{j}", sp.csr_array(x), ctx, obs, "positional", vocab))
    return views


@pytest.mark.parametrize("row_weighting", [None, "glove"])
@pytest.mark.parametrize("relative,reg", [(False, 1e-3), (True, 0.1), (True, 10.0)])
def test_combined_factors_equal_mvlsa(row_weighting, relative, reg):
    views = planted_views()
    est = MVLSA(
        5,
        view_rank=8,
        regularization=reg,
        relative_regularization=relative,
        row_weighting=row_weighting,
        svd_solver="dense",
    )
    est.fit([v.matrix for v in views], masks=[v.observed for v in views])
    fac = [compute_factor(v, 8, row_weighting=row_weighting, svd_solver="dense") for v in views]
    h = mx.combine_factors(fac, 200, 5, regularization=reg, relative_regularization=relative)
    np.testing.assert_allclose(h, est.embedding_, atol=1e-10)


def test_factor_store_slices_and_does_not_depend_on_the_other_views():
    views = planted_views()
    cfg = mx.MVLSAConfig(transform="ppmi", view_rank=10, n_components=4)
    store = mx.FactorStore(svd_solver="dense", n_jobs=2)
    big = store.get_many(views, cfg)
    assert store.n_computed == 4
    small = store.get(views[0], dataclasses.replace(cfg, view_rank=5))
    assert store.n_computed == 4  # served by slicing the rank-10 factor
    np.testing.assert_array_equal(small.U, big[0].U[:, :5])
    alone = mx.FactorStore(n_jobs=1).get(views[2], cfg)
    together = mx.FactorStore(n_jobs=2).get_many(views, cfg)[2]
    np.testing.assert_allclose(alone.U, together.U)


def test_factor_store_prune_keeps_the_named_configurations():
    views = planted_views()
    ppmi = mx.MVLSAConfig(transform="ppmi", view_rank=6, n_components=4)
    pow_ = mx.MVLSAConfig(transform="pow", view_rank=6, n_components=4)
    other_seed = dataclasses.replace(pow_, random_state=1)
    store = mx.FactorStore(svd_solver="dense", n_jobs=1)
    for cfg in (ppmi, pow_, other_seed):
        store.get_many(views, cfg)
    assert store.n_computed == 12
    store.prune(ppmi, pow_)
    assert store.n_computed == 8  # the other seed's factors are forgotten
    store.get_many(views, ppmi)
    store.get_many(views, pow_)
    assert store.n_computed == 8  # both kept: served from the store
    store.get_many(views, other_seed)
    assert store.n_computed == 12  # recomputed


def test_positional_schemes_from_offset_views():
    rng = np.random.default_rng(1)
    vocab = Vocabulary.from_words([f"w{i}" for i in range(20)])
    offs = []
    for k in range(1, 11):
        z = sp.random_array((20, 20), density=0.3, random_state=rng, format="csr")
        offs.append(
            View(
                f"offset_{k}",
                z,
                vocab.words,
                np.diff(z.indptr) > 0,
                "positional",
                vocab,
                {"offset": k},
            )
        )
    vs = mx.ViewSet(vocab, tuple(offs))
    assert [v.name for v in mx.positional_scheme(vs, "offsets 1-5")] == [
        f"offset_{k}" for k in range(1, 6)
    ]
    both = mx.positional_scheme(vs, "offsets ±1-5")
    np.testing.assert_allclose(both[7].matrix.toarray(), offs[2].matrix.toarray().T)
    win = mx.positional_scheme(vs, "windows 2,5,10")
    total = sum(o.matrix.toarray() for o in offs[:5])
    np.testing.assert_allclose(win[1].matrix.toarray(), total + total.T)
    assert [v.name for v in win] == ["window_2", "window_5", "window_10"]
    with pytest.raises(ValueError, match="scheme"):
        mx.positional_scheme(vs, "window 7")
    short = mx.ViewSet(vocab, tuple(offs[:3]))
    with pytest.raises(ValueError, match="missing"):
        mx.positional_scheme(short, "window 5")
    with pytest.raises(ValueError, match="positional"):
        mx.MVLSAChoice(mx.MVLSAConfig(), positional="diagonal")


def test_tuning_path_drops_noise_views_and_uses_dev_only():
    from test_studies_mvlsa import _planted

    vs, _, ratings = _planted()
    start = mx.MVLSAChoice(mx.MVLSAConfig(transform="identity", view_rank=6, n_components=3))
    steps = [
        (
            "views",
            {
                "all": lambda c: dataclasses.replace(c, families=None),
                "signal": lambda c: dataclasses.replace(c, families=("signal",)),
            },
        ),
        (
            "r",
            {
                "1e-8": lambda c: c,
                "rho=1": lambda c: dataclasses.replace(
                    c,
                    config=dataclasses.replace(
                        c.config, regularization=1.0, relative_regularization=True
                    ),
                ),
            },
        ),
    ]
    res = mx.tuning_path(vs, start, steps, dev_names=[ratings], store=mx.FactorStore(n_jobs=1))
    assert res.best.families == ("signal",)
    summary = res.summary()
    assert summary.loc["views", "chosen"] == "signal"
    assert summary.loc["views", "gain"] > 0
    assert summary.loc["views", "previous"] == "all"
    assert res.steps[0].scores.shape == (1, 2)
    # the dev part only: its pairs are those wordsim_split marks as dev
    from workbench.datasets import wordsim_split

    n_dev = int(wordsim_split(ratings).sum())
    ev = mx.evaluate_system(
        mx.choice_vectors(vs, res.best, mx.FactorStore()),
        wordsim=mx.split_wordsim([ratings], "dev"),
        analogies=False,
    )
    assert ev.n_scored()["PLANTED"] == n_dev
    t = res.steps[0].tests
    assert set(t.columns) >= {"difference", "pvalue", "pvalue_holm", "significant"}
    # the final comparison on the test part
    systems = {
        "tuned": mx.choice_vectors(vs, res.best, mx.FactorStore()),
        "start": mx.choice_vectors(vs, start, mx.FactorStore()),
    }
    cmp = mx.test_comparison(systems, reference="tuned", names=[ratings])
    assert cmp.n_scored.loc["PLANTED", "tuned"] == len(ratings) - n_dev
    assert cmp.scores.loc["mean", "tuned"] > cmp.scores.loc["mean", "start"]
    assert list(cmp.tests["system"]) == ["start"]
    with pytest.raises(ValueError, match="reference"):
        mx.test_comparison(systems, reference="nope", names=[ratings])


def test_store_combine_reuses_the_gram_and_equals_combine_factors():
    views = planted_views()
    cfg = mx.MVLSAConfig(transform="pow", view_rank=8, n_components=5)
    store = mx.FactorStore(svd_solver="dense", n_jobs=1)
    fac = store.get_many(views, cfg)
    for reg, rel, k in [(1e-8, False, 5), (0.1, True, 5), (0.1, True, 3), (1e-8, False, 7)]:
        got = store.combine(fac, 200, k, regularization=reg, relative_regularization=rel)
        ref = mx.combine_factors(fac, 200, k, regularization=reg, relative_regularization=rel)
        np.testing.assert_allclose(got, ref, atol=1e-10)
    again = store.get_many(views, cfg)
    assert all(a is b for a, b in zip(fac, again))  # same objects: the cached Gram is reused


def test_find_records_and_compare_sizes(tmp_path):
    import hashlib
    import json

    from workbench.records import find_records, project_root

    current = hashlib.sha256(
        (project_root() / "notebooks" / "03_mvlsa.ipynb").read_bytes()
    ).hexdigest()

    def write(folder, size, status, records, finished, sha=current):
        d = tmp_path / folder / "03_mvlsa"
        d.mkdir(parents=True)
        meta = {"status": status, "parameters": {"DATA_SIZE": size}, "finished": finished,
                "notebook_sha256": sha}  # fmt: skip
        (d / "manifest.json").write_text(json.dumps(meta))
        (d / "records.json").write_text(json.dumps(records))

    path = {"n_j": {"chosen": "PPMI cds=0.75"}, "r": {"chosen": "rho=0.1"}}
    write("a", "large", "complete", {"tuning_path": path, "test_mean": {}}, "2026-01-02")
    write("b", "large", "failed", {"tuning_path": {}}, "2026-01-03")
    write("c", "full", "complete", {"tuning_path": {}}, "2026-01-04")
    # a newer run of an older version of the notebook is not compared as if it were this one
    write("d", "large", "complete", {"tuning_path": {"old": 1}}, "2026-01-05", sha="0" * 64)
    assert find_records("03_mvlsa", "large", root=tmp_path)["tuning_path"] == path
    assert find_records("03_mvlsa", "large", root=tmp_path, current_only=False)["tuning_path"] == {
        "old": 1
    }
    assert find_records("03_mvlsa", "small", root=tmp_path) is None
    means = {"n_j": {"Log": 0.1, "PPMI cds=0.75": 0.2}, "r": {"1e-8": 0.1, "rho=0.1": 0.2}}
    here = {"tuning_path": {"n_j": {"chosen": "Log"}, "r": {"chosen": "rho=0.1"}},
            "tuning_means": means}  # fmt: skip
    other = find_records("03_mvlsa", "large", root=tmp_path)
    other["tuning_means"] = means
    cmp = mx.compare_sizes("03", here, other)
    assert cmp.moved == {"chosen n_j": ("Log", "PPMI cds=0.75")}
    assert cmp.unchanged == ["chosen r"]
    assert mx.compare_sizes("03", here, None) is None
    with pytest.raises(ValueError, match="notebook"):
        mx.findings("07", here)


def test_bad_tuning_arguments_name_the_parameter():
    from test_studies_mvlsa import _planted

    from workbench.datasets import load_wordsim

    vs, _, ratings = _planted()
    start = mx.MVLSAChoice(mx.MVLSAConfig(transform="identity", view_rank=6, n_components=3))
    with pytest.raises(ValueError, match="min_gain"):
        mx.tuning_path(vs, start, [], dev_names=[ratings], min_gain=-1)
    with pytest.raises(ValueError, match="unknown n_j options"):
        mx.default_tuning_steps(vs, nj=("Count^0.25", "Sqrt"))
    with pytest.raises(ValueError, match="split"):
        mx.split_wordsim([ratings], "train")
    with pytest.raises(ValueError, match="split"):
        load_wordsim("MEN", split="validation")
    with pytest.raises(ValueError, match="unknown view families"):
        mx.choice_vectors(vs, dataclasses.replace(start, families=("nope",)), mx.FactorStore())
    with pytest.raises(ValueError, match="stacked rank"):
        mx.combine_factors(
            mx.FactorStore(n_jobs=1).get_many(list(vs.views), start.config), len(vs.vocab), 10_000
        )


def _planted_ratings(n_words=300, n_sets=3, seed=0):
    """Rating sets whose gold scores are cosines of planted vectors."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(n_words)]
    planted = rng.standard_normal((n_words, 10))
    unit = planted / np.linalg.norm(planted, axis=1, keepdims=True)
    sets = []
    for s in range(n_sets):
        i, j = rng.integers(0, n_words, (2, 400))
        keep = i != j
        df = pd.DataFrame({"word1": [words[a] for a in i[keep]], "word2": [words[b] for b in j[keep]],
                           "score": np.sum(unit[i[keep]] * unit[j[keep]], axis=1)})  # fmt: skip
        df.attrs["name"] = f"SET{s}"
        sets.append(df)
    return words, planted, sets


def test_seed_comparison_counts_replicated_wins():
    """The planted system beats random vectors on every set in every seed; a slightly noisier
    copy of it is not significantly different everywhere; scores average over the seeds."""
    from workbench.embeddings import WordVectors

    words, planted, sets = _planted_ratings()
    systems = {}
    for seed in (0, 1, 2):
        rng = np.random.default_rng(100 + seed)
        systems[seed] = {
            "planted": WordVectors(words, planted + 0.3 * rng.standard_normal(planted.shape)),
            "noisier": WordVectors(words, planted + 0.35 * rng.standard_normal(planted.shape)),
            "random": WordVectors(words, rng.standard_normal(planted.shape)),
        }
    cmp = mx.seed_comparison(systems, reference="planted", names=sets)
    wins = cmp.wins()
    assert wins.loc["random", "better, every seed"] == len(sets) == wins.loc["random", "sets"]
    assert wins.loc["random", "worse, some seed"] == 0
    assert wins.loc["noisier", "better, every seed"] < len(sets)
    per = np.array([c.scores.loc["mean", "planted"] for c in cmp.per_seed.values()])
    assert cmp.scores.mean.loc["mean", "planted"] == pytest.approx(per.mean())
    assert cmp.scores.sd.loc["mean", "planted"] == pytest.approx(per.std(ddof=1))
    assert set(cmp.tests["seed"]) == {0, 1, 2}
    with pytest.raises(ValueError, match="non-empty"):
        mx.seed_comparison({}, reference="planted", names=sets)


def test_ablation_and_fusion_seed_summaries():
    """Seed summaries of ablation and fusion results: means, sds and significance counts."""
    import pandas as pd

    def ablation(drop, sig):
        d = pd.DataFrame({"MEN": [drop, -drop]}, index=["!a", "!b"])
        s = pd.DataFrame({"MEN": [sig, sig]}, index=["!a", "!b"])
        return mx.AblationResult(d, d, d, d, s, None, {}, ())

    out = mx.ablation_seeds({0: ablation(0.1, True), 1: ablation(0.2, False)})
    assert out.drops.mean.loc["!a", "MEN"] == pytest.approx(0.15)
    assert out.helped.loc["!a", "MEN"] == 1 and out.hurt.loc["!b", "MEN"] == 1
    assert out.table().loc["!a", "MEN"] == "15.0 ± 7.1†1"

    def fusion(gain, sig):
        g = pd.DataFrame({"MV Gain": [gain], "MV Gain_significant": [sig]}, index=["MEN"])
        sc = pd.DataFrame({"x": [0.5]}, index=["MEN"])
        return mx.FusionResult(sc, g, sc, sc, None, {}, {})

    fs = mx.fusion_seeds({0: fusion(0.05, True), 1: fusion(0.03, True), 2: fusion(-0.01, False)})
    assert fs.gains.mean.loc["MEN", "MV Gain"] == pytest.approx(0.07 / 3)
    assert fs.up.loc["MEN", "MV Gain"] == 2 and fs.down.loc["MEN", "MV Gain"] == 0
    assert fs.gain_table().loc["MEN", "MV Gain"].endswith("†2")


def test_tuning_path_reads_its_dev_evaluations_back_from_the_cache(tmp_path, monkeypatch):
    """A second walk over the same views fits nothing and chooses the same with the same
    scores; a walk over other views fits again."""
    from test_studies_mvlsa import _planted

    from workbench.studies.mvlsa import _tuning

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    fits = []
    real = _tuning.choice_vectors
    monkeypatch.setattr(_tuning, "choice_vectors", lambda *a, **k: fits.append(1) or real(*a, **k))
    vs, _, ratings = _planted()
    start = mx.MVLSAChoice(mx.MVLSAConfig(transform="identity", view_rank=6, n_components=3))
    steps = [("k", {str(k): (lambda c, k=k: dataclasses.replace(
        c, config=dataclasses.replace(c.config, n_components=k))) for k in (2, 3)})]  # fmt: skip
    first = mx.tuning_path(vs, start, steps, dev_names=[ratings], store=mx.FactorStore(n_jobs=1))
    assert len(fits) == 2
    again = mx.tuning_path(vs, start, steps, dev_names=[ratings], store=mx.FactorStore(n_jobs=1))
    assert len(fits) == 2  # nothing fitted
    assert again.best == first.best
    pd.testing.assert_frame_equal(again.summary(), first.summary())
    pd.testing.assert_frame_equal(again.steps[0].scores, first.steps[0].scores)
    other = dataclasses.replace(vs, views=vs.views[:-1])
    mx.tuning_path(other, start, steps, dev_names=[ratings], store=mx.FactorStore(n_jobs=1))
    assert len(fits) == 4
