"""Tests for the sense-pair experiments on planted models: workbench.senses (similarity tasks,
SCWS split) and the study workbench.studies.senses (settings, the per-seed studies of notebooks
08 and 09 and their rendered Discussion)."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

from workbench.datasets import SCWSItem
from workbench.embeddings import MultiSenseVectors
from workbench.evaluation import evaluate_scws
from workbench.records import roundtrip
from workbench.rpca import difference_matrix, eliminate_pseudo_senses, pca
from workbench.senses import (
    SenseNeighbours,
    avg_sim_task,
    avg_sim_wordsim,
    scws_split,
    scws_task,
)
from workbench.studies import senses as study
from workbench.studies.senses import (
    discussion_08,
    discussion_09,
    removal_grid,
    run_seeds,
    sense_pair_run,
    sense_pair_study,
    sparse_noise_run,
    sparse_noise_study,
    with_wordnet,
    with_wordnet_elimination,
)

D = 12
N_WORDS = 60


def planted_model(*, systematic: bool = True, shift: float = 3.0, seed: int = 0):
    """Words with a semantic vector ``z_w`` orthogonal to ``u = e_0``; each word has two senses
    ``z_w + (b_w + c_w) u`` and ``z_w + (b_w - c_w) u`` plus small noise (``b_w``, ``c_w``
    random, of the order of ``shift``): pseudo senses separated along one planted direction
    that also hides the semantic similarity. ``systematic``: the larger sense (sense 0) is always on the ``+u``
    side of the other; otherwise the side alternates from word to word."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(N_WORDS)]
    z = rng.standard_normal((N_WORDS, D))
    z[:, 0] = 0.0
    u = np.zeros(D)
    u[0] = 1.0
    senses, centers = [], []
    for i in range(N_WORDS):
        c = shift * (1.0 + 0.3 * rng.random())
        sign = 1.0 if systematic or i % 2 == 0 else -1.0
        b = shift * rng.uniform(0.0, 2.0)
        s = np.vstack([z[i] + (b + sign * c) * u, z[i] + (b - sign * c) * u])
        s = s + 0.05 * rng.standard_normal(s.shape)
        senses.append(s)
        centers.append(np.vstack([z[i], z[i]]) / np.linalg.norm(z[i]))
    return MultiSenseVectors(words, z, senses, centers), z, u


def planted_items(z, n_items=240, seed=1):
    """SCWS-like items between planted words whose gold score is the semantic cosine."""
    rng = np.random.default_rng(seed)
    zu = z / np.linalg.norm(z, axis=1, keepdims=True)
    items = []
    for k in range(n_items):
        a, b = rng.choice(N_WORDS, size=2, replace=False)
        gold = float(zu[a] @ zu[b]) * 5 + 5 + 0.1 * rng.standard_normal()
        items.append(SCWSItem(k, f"w{a}", "n", f"w{b}", "n", f"x <b> w{a} </b> y",
                              f"p <b> w{b} </b> q", gold, ()))  # fmt: skip
    return items


def planted_wordsim(z, n=120, seed=2):
    rng = np.random.default_rng(seed)
    zu = z / np.linalg.norm(z, axis=1, keepdims=True)
    rows = []
    for _ in range(n):
        a, b = rng.choice(N_WORDS, size=2, replace=False)
        rows.append({"word1": f"w{a}", "word2": f"w{b}", "score": float(zu[a] @ zu[b])})
    df = pd.DataFrame(rows)
    df.attrs["name"] = "PLANTED"
    return df


@pytest.fixture(scope="module")
def planted():
    return planted_model()


# ----------------------------------------------------------------------------- similarity tasks


def test_scws_task_equals_evaluate_scws_before_and_after_elimination():
    """Senses chosen by the contexts: the task's item similarities equal evaluate_scws's, also
    after removing directions (the choice does not depend on the sense vectors)."""
    rng = np.random.default_rng(3)
    words = ["bank", "money", "river", "cash", "water", "the"]
    glob = rng.standard_normal((len(words), 6))
    senses = [np.vstack([glob[0] + rng.standard_normal(6), glob[0] - rng.standard_normal(6)])]
    senses += [g[None, :] + 0.1 * rng.standard_normal((1, 6)) for g in glob[1:]]
    centers = [np.vstack([glob[1], glob[2]])] + [g[None, :] for g in glob[1:]]
    msv = MultiSenseVectors(words, glob, senses, centers)
    items = [
        SCWSItem(1, "bank", "n", "cash", "n", "money money <b> bank </b> money", "the <b> cash </b>", 7.0, ()),
        SCWSItem(2, "bank", "n", "water", "n", "river <b> bank </b> river", "the <b> water </b>", 6.0, ()),
        SCWSItem(3, "bank", "n", "money", "n", "<b> bank </b>", "<b> money </b>", 5.0, ()),
        SCWSItem(4, "river", "n", "cash", "n", "<b> river </b> the", "<b> cash </b>", 1.0, ()),
        SCWSItem(5, "zzz", "n", "cash", "n", "<b> zzz </b>", "<b> cash </b>", 2.0, ()),
        SCWSItem(6, "water", "n", "money", "n", "<b> water </b>", "<b> money </b>", 3.0, ()),
    ]  # fmt: skip
    task = scws_task(msv, items)
    # the money context chooses sense 0 of "bank", the river context sense 1
    np.testing.assert_allclose(task.first[0, 0], senses[0][0])
    np.testing.assert_allclose(task.first[1, 0], senses[0][1])
    assert task.scored.tolist() == [True, True, True, True, False, True]
    assert task.oov_pairs == (("zzz", "cash"),)
    ref = evaluate_scws(msv, items).scores["maxSimC"].to_numpy()
    np.testing.assert_allclose(task.predictions(), ref, atol=1e-10, equal_nan=True)
    C = rng.standard_normal((6, 2))
    ref_el = evaluate_scws(eliminate_pseudo_senses(msv, C), items).scores["maxSimC"].to_numpy()
    np.testing.assert_allclose(task.predictions(C), ref_el, atol=1e-10, equal_nan=True)
    assert not np.allclose(task.predictions(C)[:4], task.predictions()[:4])


def test_avg_sim_task_equals_avg_sim_wordsim(planted):
    msv, z, u = planted
    df = planted_wordsim(z)
    df.loc[0, "word1"] = "unknown"
    task = avg_sim_task(msv, df)
    for comps in (None, u[:, None], np.eye(D)[:, :3]):
        got = task.evaluate(comps)
        ref = avg_sim_wordsim(msv if comps is None else eliminate_pseudo_senses(msv, comps), df)
        np.testing.assert_allclose(got.pred, ref.pred, atol=1e-10, equal_nan=True)
        assert got.n_scored == ref.n_scored == len(df) - 1
    # the planted pseudo direction hides the semantic similarity; removing it restores it
    assert task.evaluate(u[:, None]).spearman > 0.95 > task.evaluate().spearman + 0.2
    with pytest.raises(ValueError, match="dimension"):
        task.predictions(np.ones((D + 1, 1)))


def test_task_subset_and_scws_split():
    _, z, _ = planted_model()
    items = planted_items(z)
    dev = scws_split(items)
    assert dev.dtype == bool and 0.35 < dev.mean() < 0.65
    pair = [tuple(sorted((it.word1, it.word2))) for it in items]
    dev_pairs = {p for p, m in zip(pair, dev) if m}
    test_pairs = {p for p, m in zip(pair, dev) if not m}
    assert not dev_pairs & test_pairs  # no word pair on both sides
    # fixed: the same mask again, and the same pair assignment whatever the item order
    np.testing.assert_array_equal(scws_split(items), dev)
    rev = scws_split(items[::-1])[::-1]
    np.testing.assert_array_equal(rev, dev)
    assert not np.array_equal(scws_split(items, name="OTHER"), dev)
    msv, _, _ = planted_model()
    task = scws_task(msv, items)
    part = task.subset(dev, "dev")
    assert len(part) == int(dev.sum()) and part.name == "dev"
    np.testing.assert_allclose(part.gold, task.gold[dev])
    with pytest.raises(ValueError, match="mask"):
        task.subset(dev[:-1])
    with pytest.raises(ValueError, match="no SCWS"):
        scws_split([])


def test_neighbours_many_matches_a_brute_force_ranking():
    rng = np.random.default_rng(5)
    words = [f"v{i}" for i in range(40)]
    senses = [rng.standard_normal((1 + i % 3, 8)) for i in range(40)]
    msv = MultiSenseVectors(words, rng.standard_normal((40, 8)), senses, [s.copy() for s in senses])
    index = SenseNeighbours(msv)

    def brute(word, sense, topn):
        q = msv.sense_vectors(word)[sense]
        sims = index.matrix @ (q / np.linalg.norm(q))
        out, seen = [], {word}
        for i in np.argsort(-sims, kind="stable"):
            w = str(index.owners[i])
            if w not in seen:
                seen.add(w)
                out.append(w)
            if len(out) == topn:
                break
        return out

    queries = [(w, s) for w, ss in zip(words, senses) for s in range(ss.shape[0])]
    index.chunk = 7  # several blocks
    got = index.neighbours_many(queries, 6)
    assert got == [brute(w, s, 6) for w, s in queries]
    assert index.neighbours("v5", 1, 39) == brute("v5", 1, 39)  # every other word
    with pytest.raises(ValueError, match="topn"):
        index.neighbours_many(queries, 0)
    assert index.neighbours_many([], 3) == []


# ----------------------------------------------------------------------------- seeds, grid


def _square(seed, offset=0):
    return seed * seed + offset


def test_run_seeds_parallel_equals_serial():
    serial = run_seeds(_square, [3, 1, 2], n_jobs=1, offset=1)
    assert serial == {3: 10, 1: 2, 2: 5} and list(serial) == [3, 1, 2]
    assert run_seeds(_square, [3, 1, 2], n_jobs=2, offset=1) == serial
    with pytest.raises(ValueError, match="distinct"):
        run_seeds(_square, [1, 1])
    with pytest.raises(ValueError, match="no seeds"):
        run_seeds(_square, [])
    with pytest.raises(ValueError, match="n_jobs"):
        run_seeds(_square, [1, 2], n_jobs=0)


def test_removal_grid():
    grid = removal_grid(100)
    assert grid[:11] == list(range(11)) and grid[-1] == 98 and grid == sorted(set(grid))
    assert removal_grid(5) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        removal_grid(2)


# ----------------------------------------------------------------------------- notebook 08 study


def test_sense_pair_run_finds_the_planted_direction(planted):
    msv, _, u = planted
    run = sense_pair_run(seed=0, msv=msv, ranks=[2, 3], n_components=2, n_top=3, base_sample=50,
                         planted_columns=100)  # fmt: skip
    assert run.n_multisense_words == N_WORDS and run.n_columns == 2 * N_WORDS and run.dim == D
    # the planted direction dominates M and every decomposition finds it
    assert run.evr["PCA"][0] > 0.9
    assert run.subspace_angle_deg["Ex-RPCA r=2"] < 5
    first = run.table1[(run.table1["model"] == "PCA") & (run.table1["component"] == 1)]
    assert len(first) == 3 and (first["abs_cos"] > 0.95).all()
    assert run.summary.loc["PCA", "avg_cos"] > run.summary.loc["random directions", "avg_cos"]
    # sense 0 - sense 1 is always +u: the sign test of component 1 is decisive
    t = run.tests.loc["sense size sign test: PCA component 1"]
    assert t["statistic"] == 1.0 and t["pvalue_holm"] < 1e-10
    assert (run.tests["pvalue_holm"] >= run.tests["pvalue"] - 1e-15).all()
    assert set(run.planted.index) == {"PCA", "Ex-RPCA iterative", "Ex-RPCA ALM"}
    assert 0 <= run.outside_3sigma <= 1
    # planted words are not in the treebank: too few tagged words, no POS test
    assert run.pos is None


def test_sense_pair_run_pos_table_with_given_tags(planted):
    msv, _, _ = planted
    tags = {f"w{i}": ("ADV" if i % 3 == 0 else "NOUN") for i in range(N_WORDS)}
    run = sense_pair_run(seed=0, msv=msv, ranks=[2], n_components=2, n_top=3, base_sample=50,
                         planted_columns=100, pos_tags=tags, n_pos_words=10,
                         n_permutations=200)  # fmt: skip
    pos = run.pos
    assert list(pos.index) == [f"{m} component {c}" for m in ("PCA", "Ex-RPCA r=2")
                               for c in (1, 2)]  # fmt: skip
    assert (pos["n_tagged"] == 10).all() and set(pos["tag"]) <= {"ADV", "NOUN"}
    assert (pos["base_rate"].isin([20 / 60, 40 / 60])).all()
    assert (pos["pvalue_holm"] >= pos["pvalue"] - 1e-15).all()
    # tags unrelated to the planted direction: no component concentrates a part of speech
    assert (pos["pvalue_holm"] > 0.05).all()


def test_sense_pair_sign_test_not_significant_without_systematic_side():
    msv, _, _ = planted_model(systematic=False)
    run = sense_pair_run(seed=0, msv=msv, ranks=[2], n_components=2, n_top=3, base_sample=50,
                         planted_columns=100)  # fmt: skip
    t = run.tests.loc["sense size sign test: PCA component 1"]
    assert t["statistic"] == 0.5 and t["pvalue"] == 1.0


@pytest.fixture(scope="module")
def pair_study(planted):
    msv, _, _ = planted
    # one listed component: the planted direction (a second one would be noise)
    return sense_pair_study(study.settings("small"), [0, 1], n_jobs=1, msv=msv, ranks=[2, 3],
                            n_components=1, n_top=3, base_sample=50,
                            planted_columns=100)  # fmt: skip


def test_sense_pair_study_summaries(pair_study):
    st = pair_study
    assert st.seeds == [0, 1] and st.n_seeds == 2
    # the model is the same; only the seeded parts differ (random directions, planted problem)
    assert st.table2.sd.loc[("PCA", 1), "evr"] == pytest.approx(0, abs=1e-12)
    assert st.planted.sd.loc["PCA", "max_angle_deg"] > 0
    tests = st.tests_table()
    assert tests["significant (Holm)"].str.endswith("of 2").all()
    assert tests.loc["sense size sign test: PCA component 1", "significant (Holm)"] == "2 of 2"
    assert "†" in tests.loc["sense size sign test: PCA component 1", "p Holm, per seed"]
    assert "±" in st.table2_table().iloc[0]["rho_var x 100"]
    assert set(st.long_table("tests")["seed"]) == {0, 1}
    rec = st.records()
    assert rec["seeds"] == [0, 1] and len(rec["base_pseudo_rate"]) == 2
    assert len(rec["top_words"]["PCA"]) == 3
    assert rec["data_size"] == "small"
    assert roundtrip(rec) == rec  # JSON values only


def _text(md) -> str:
    """A rendered Discussion as one line per bullet (the template wraps its bullets)."""
    return md.data.replace("\n  ", " ")


def test_discussion_08_verdicts_follow_the_records(pair_study):
    rec = {**pair_study.records(), "data_size": "full"}
    text = _text(discussion_08(rec))
    assert "2 seed(s) (0, 1)" in text
    assert ("sign test is significant after Holm over the 7 tests of a seed for all 1 components "
            "in every seed (2 of 2)") in text  # fmt: skip
    ex = "Ex-RPCA r=2"
    rec["pseudo_fraction"] = {**rec["pseudo_fraction"], ex: [1.0, 1.0]}
    assert 'pseudo multi-senses" **replicates**' in _text(discussion_08(rec))
    rec["pseudo_fraction"][ex] = [1.0, 0.4]
    assert "pseudo in 1 of 2 seeds" in _text(discussion_08(rec))
    assert "holds only for some seeds" in _text(discussion_08(rec))
    rec["data_size"] = "small"
    assert "should not be read as results" in _text(discussion_08(rec))


# ----------------------------------------------------------------------------- notebook 09 study


@pytest.fixture(scope="module")
def noise_run(planted):
    msv, z, _ = planted
    return sparse_noise_run(seed=0, msv=msv, items=planted_items(z), wordsim=planted_wordsim(z),
                            rank=2, n_high=2, n_low=2, wordnet=False)  # fmt: skip


def test_sparse_noise_run_chooses_on_dev_and_gains_on_test(noise_run):
    run = noise_run
    curve = run.curve.set_index("removed")
    assert curve.index[0] == 0 and curve.index[-1] == D - 2
    # chosen on dev: the best dev score (the planted direction is removed first)
    for m in ("PCA", "Ex-RPCA"):
        assert run.chosen[m] == int(curve.loc[curve.index > 0, m].idxmax())
        assert curve.loc[run.chosen[m], m] > curve.loc[0, m] + 0.3
    t4 = run.table4
    assert list(t4.index) == ["V (original)", "V~ PCA", "V~ Ex-RPCA"]
    for row in ("V~ PCA", "V~ Ex-RPCA"):
        assert t4.loc[row, "SCWS gain"] == pytest.approx(
            t4.loc[row, "SCWS test maxSimC"] - t4.loc["V (original)", "SCWS test maxSimC"]
        )
        assert t4.loc[row, "SCWS gain"] > 0.2 and t4.loc[row, "WS-353 gain"] > 0.2
        assert t4.loc[row, "p_holm (SCWS)"] < 0.01
        assert t4.loc[row, "p_holm (SCWS)"] >= t4.loc[row, "p (SCWS)"]
    assert run.n_dev + run.n_test == 240 and run.wordnet is None
    assert "n_synsets" not in run.table3.columns and len(run.table3) == 4


def test_with_wordnet_recovers_a_planted_link(noise_run):
    sig = noise_run.signals
    # planted: synset counts rise with the sparse norm (and not with frequency)
    order = sig["sparse_norm"].rank(method="dense").astype(int)
    counts = {w: int(order[w]) for w in sig.index}
    counts.update({w: 1 for w in noise_run.table3["word"] if w not in counts})
    run = with_wordnet(noise_run, counts)
    wn = run.wordnet
    assert wn.loc["mean ||S_p|| (Ex-RPCA)", "spearman"] == pytest.approx(1.0)
    assert wn.loc["||S_p|| given frequency (partial)", "pvalue_holm"] < 1e-6
    assert (wn["pvalue_holm"].dropna() >= wn["pvalue"].dropna() - 1e-15).all()
    assert "n_synsets" in run.table3.columns and (wn["n_words"] == len(sig)).all()


def test_wordnet_elimination_row_on_planted_pseudo_pairs(planted, noise_run):
    """WordNet knows the even words in one meaning: their pairs are pseudo, differ along the
    planted direction, and eliminating it recovers the semantic similarity, as PCA's does."""
    msv, z, u = planted
    counts = {f"w{i}": 1 if i % 2 == 0 else 4 for i in range(N_WORDS)}
    run = with_wordnet_elimination(noise_run, msv, counts, items=planted_items(z),
                                   wordsim=planted_wordsim(z))  # fmt: skip
    assert run.n_wordnet_pseudo == N_WORDS // 2  # two senses a word: one pair each
    row = run.table4.loc["V~ WordNet"]
    assert row["removed"] == run.chosen["WordNet"] >= 1
    assert row["SCWS gain"] > 0.1 and row["p_holm (SCWS)"] < 0.05
    t4 = run.table4
    for col in [c for c in t4.columns if c.startswith("p (")]:
        ok = t4[col].notna()
        assert (t4.loc[ok, col.replace("p (", "p_holm (")] >= t4.loc[ok, col] - 1e-15).all()
    # Holm's family grew: the PCA row's corrected p is at least the one of the smaller table
    assert t4.loc["V~ PCA", "p_holm (SCWS)"] >= noise_run.table4.loc["V~ PCA", "p_holm (SCWS)"]
    assert (
        "WordNet" in run.curve.columns and run.curve["WordNet"].iloc[0] == run.curve["PCA"].iloc[0]
    )
    # WordNet knows none of the words: no row
    none = with_wordnet_elimination(noise_run, msv, {}, items=planted_items(z),
                                    wordsim=planted_wordsim(z))  # fmt: skip
    assert none.n_wordnet_pseudo == 0 and "V~ WordNet" not in none.table4.index


def test_sparse_noise_study_and_discussion(planted):
    msv, z, _ = planted
    st = sparse_noise_study(study.settings("small"), [0, 1], n_jobs=1, msv=msv,
                            items=planted_items(z), wordsim=planted_wordsim(z), rank=2, n_high=2,
                            n_low=2)  # fmt: skip
    assert st.n_seeds == 2 and st.runs[0].wordnet is not None
    table = st.table4_table()
    assert table.loc["V~ PCA", "significant (SCWS)"] == "2 of 2"
    assert st.curve_table().shape[0] == len(removal_grid(D))
    rec = st.records()
    assert rec["data_size"] == "small" and roundtrip(rec) == rec
    rec = {**rec, "data_size": "full"}
    text = _text(discussion_09(rec))
    assert "significantly for both in every seed (2 of 2)" in text
    assert "The SCWS gain **replicates**" in text
    assert "touched once" in text
    rec["table4"]["V~ PCA"]["SCWS gain"] = [-0.01, -0.02]
    text = _text(discussion_09(rec))
    assert "holds only in no seed" not in text
    assert "Both methods gain on SCWS in the same seed in no seed (0 of 2)" in text
    assert "The SCWS gain **replicates**" not in text


# ----------------------------------------------------------------------------- training cache


def test_cache_lock_trains_once_under_concurrency(tmp_path, monkeypatch):
    from workbench.senses import _training

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    calls = []
    msv, _, _ = planted_model()

    def fake_train(corpus, cfg, max_tokens, progress, stage1_key=None):
        calls.append(1)
        threading.Event().wait(0.3)
        return msv

    class Corpus:
        name, sha256, lowercase = "planted", "0" * 64, True

    monkeypatch.setattr(_training, "_train_single_threaded", fake_train)
    out = []
    threads = [
        threading.Thread(
            target=lambda: out.append(_training.train_multisense(Corpus(), cache=True))
        )
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(out) == 3
    np.testing.assert_allclose(out[2].sense_vectors("w3"), msv.sense_vectors("w3"))


def test_planted_model_difference_matrix_is_the_planted_direction(planted):
    msv, _, u = planted
    M, _ = difference_matrix(msv)
    comp = pca(M, 1).components[:, 0]
    assert abs(comp @ u) > 0.99


# ----------------------------------------------------------------------------- settings


def test_settings_per_size_and_refused_input():
    small, full = study.settings("small"), study.settings("full")
    assert (small.corpus, small.max_tokens, small.config.dim) == ("1M", 200_000, 25)
    assert (full.corpus, full.max_tokens, full.config.dim) == ("5M", None, 100)
    with pytest.raises(ValueError, match="size"):
        study.settings("large")
    with pytest.raises(TypeError, match=r"senses\.settings\('small'\)"):
        sense_pair_run("small", 0)
    with pytest.raises(TypeError, match="SenseSettings"):
        study.train_preset("small")
