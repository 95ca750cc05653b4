"""Tests for workbench.senses: multi-prototype trainer, MSSG format, inspection helpers."""

from __future__ import annotations

import gzip
import warnings

import numpy as np
import pandas as pd
import pytest

from workbench.datasets import DataFormatError
from workbench.embeddings import MultiSenseVectors
from workbench.rpca import difference_matrix, ex_rpca
from workbench.senses import (
    MultiSenseConfig,
    SenseNeighbours,
    avg_sim_wordsim,
    component_pairs,
    load_mssg,
    neighbour_overlap,
    online_sense_clustering,
    save_mssg,
    spherical_kmeans,
    train_multisense,
    word_sparse_norms,
)

TOPIC_A = [f"money{i}" for i in range(15)]
TOPIC_B = [f"river{i}" for i in range(15)]
FUNCTION = ["the", "of", "and", "a", "to"]


def planted_corpus(n_docs=40, doc_len=400, seed=0):
    """Documents alternate between two topics; "bank" occurs in both, "coin" only in A."""
    rng = np.random.default_rng(seed)
    docs = []
    for d in range(n_docs):
        topic = TOPIC_A if d % 2 == 0 else TOPIC_B
        toks = []
        for _ in range(doc_len):
            u = rng.random()
            if u < 0.08:
                toks.append("bank")
            elif u < 0.12 and d % 2 == 0:
                toks.append("coin")
            elif u < 0.3:
                toks.append(FUNCTION[rng.integers(len(FUNCTION))])
            else:
                toks.append(topic[rng.integers(len(topic))])
        docs.append(toks)
    return docs


PARAMS = dict(
    dim=16,
    window=3,
    epochs=5,
    min_count=2,
    n_multi=2,
    min_sense_count=50,
    context_window=3,
    max_samples=400,
    seed=0,
)


@pytest.fixture(scope="module")
def corpus():
    return planted_corpus()


@pytest.fixture(scope="module")
def kmeans_model(corpus):
    # only the two most frequent words ("bank" and one function/topic word) get senses
    return train_multisense(corpus, method="kmeans", n_senses=2, progress=False, **PARAMS)


def _topic_share(index, word, sense, topic, topn=10):
    nb = index.neighbours(word, sense, topn)
    return sum(w in topic for w in nb) / topn


def test_kmeans_trainer_separates_planted_senses(kmeans_model):
    msv = kmeans_model
    assert isinstance(msv, MultiSenseVectors)
    assert msv.n_senses("bank") == 2
    assert msv.n_senses("money3") == 1
    index = SenseNeighbours(msv)
    shares = [
        (_topic_share(index, "bank", s, TOPIC_A), _topic_share(index, "bank", s, TOPIC_B))
        for s in range(2)
    ]
    # one sense's neighbours are mostly money words, the other's mostly river words
    a_sense = int(np.argmax([s[0] for s in shares]))
    assert shares[a_sense][0] >= 0.7 and shares[1 - a_sense][1] >= 0.7, shares
    # context centres select the right sense for a topical context
    ctx_a = np.mean([msv.global_vector(w) for w in TOPIC_A], axis=0)
    ctx_b = np.mean([msv.global_vector(w) for w in TOPIC_B], axis=0)
    centres = msv.context_centers("bank")
    assert int(np.argmax(centres @ ctx_a)) == a_sense
    assert int(np.argmax(centres @ ctx_b)) == 1 - a_sense
    # the difference matrix of the model is well formed
    M, labels = difference_matrix(msv)
    assert M.shape[0] == 16 and ("bank", 0, 1) in labels


def test_trainer_reproducible(corpus, kmeans_model):
    again = train_multisense(corpus, method="kmeans", n_senses=2, progress=False, **PARAMS)
    for w in ("bank", "money1", "the"):
        np.testing.assert_array_equal(again.sense_vectors(w), kmeans_model.sense_vectors(w))
        np.testing.assert_array_equal(again.context_centers(w), kmeans_model.context_centers(w))


def test_nonparametric_opens_senses_only_when_needed(corpus):
    msv = train_multisense(
        corpus,
        method="nonparametric",
        threshold=0.2,
        max_senses=4,
        progress=False,
        **{**PARAMS, "n_multi": 3},
    )
    assert 2 <= msv.n_senses("bank") <= 4
    with pytest.raises(TypeError, match="unknown training parameters"):
        train_multisense(corpus, bogus=1)


def test_trainer_bad_config(corpus):
    with pytest.raises(ValueError, match="method"):
        train_multisense(corpus, method="dbscan")
    with pytest.raises(ValueError, match="threshold"):
        train_multisense(corpus, method="nonparametric", threshold=2.0)
    with pytest.raises(ValueError, match="empty"):
        train_multisense([[], []])
    with pytest.raises(ValueError, match="min_count"):
        train_multisense([["a", "b"]], min_count=5)
    with pytest.raises(ValueError, match="cache=True"):
        train_multisense(corpus, cache=True)
    with pytest.raises(ValueError, match="separator"):
        train_multisense(
            corpus + [["bank_0"] * 3], method="kmeans", n_senses=2, progress=False, **PARAMS
        )


def test_trainer_cache(tmp_path, monkeypatch):
    from workbench.datasets import load_corpus

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    path = tmp_path / "tiny.txt"
    text = "\n".join(" ".join(doc) for doc in planted_corpus(n_docs=6, doc_len=300))
    path.write_text("@@DOC\t0\ttiny\n" + text + "\n")
    corpus = load_corpus(path)
    cfg = MultiSenseConfig(**{**PARAMS, "min_sense_count": 20})
    a = train_multisense(corpus, config=cfg, cache=True, progress=False)
    files = list((tmp_path / "multisense").glob("*.npz"))
    assert len(files) == 1
    b = train_multisense(corpus, config=cfg, cache=True, progress=False)
    for w in a.words[:20]:
        np.testing.assert_array_equal(a.sense_vectors(w), b.sense_vectors(w))


def test_models_differing_in_senses_share_stage_one(tmp_path, monkeypatch):
    from workbench.datasets import load_corpus

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    path = tmp_path / "tiny.txt"
    text = "\n".join(" ".join(doc) for doc in planted_corpus(n_docs=6, doc_len=300))
    path.write_text("@@DOC\t0\ttiny\n" + text + "\n")
    corpus = load_corpus(path)
    cfg = MultiSenseConfig(**{**PARAMS, "min_sense_count": 20})
    a = train_multisense(corpus, config=cfg, method="kmeans", n_senses=2, cache=True,
                         progress=False)  # fmt: skip
    b = train_multisense(corpus, config=cfg, method="nonparametric", threshold=0.2, cache=True,
                         progress=False)  # fmt: skip
    assert len(list((tmp_path / "multisense-stage1").glob("*.npz"))) == 1
    assert len(list((tmp_path / "multisense").glob("*.npz"))) == 2
    g = a.as_word_vectors().vectors
    np.testing.assert_array_equal(g, b.as_word_vectors().vectors)
    # the shared stage 1 is the one training without the cache computes
    c = train_multisense(corpus, config=cfg, method="kmeans", n_senses=2, progress=False)
    np.testing.assert_array_equal(g, c.as_word_vectors().vectors)
    np.testing.assert_array_equal(a.sense_vectors("bank"), c.sense_vectors("bank"))


def test_clustering_primitives():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal([5, 0, 0], 0.3, (50, 3)), rng.normal([0, 5, 0], 0.3, (50, 3))])
    C, lab = spherical_kmeans(X, 2, random_state=0)
    assert np.allclose(np.linalg.norm(C, axis=1), 1)
    assert len(set(lab[:50])) == 1 and len(set(lab[50:])) == 1 and lab[0] != lab[-1]
    C2, lab2 = online_sense_clustering(X, threshold=0.5, max_senses=5)
    assert C2.shape[0] == 2 and lab2[0] != lab2[-1]
    C3, _ = online_sense_clustering(X, threshold=-1.0, max_senses=5)
    assert C3.shape[0] == 1


# ----------------------------------------------------------------------------- MSSG format


def _small_msv():
    rng = np.random.default_rng(3)
    words = ["bank", "river", "the"]
    k = [3, 1, 2]
    return MultiSenseVectors(
        words,
        rng.standard_normal((3, 4)),
        [rng.standard_normal((n, 4)) for n in k],
        [rng.standard_normal((n, 4)) for n in k],
    )


@pytest.mark.parametrize("name", ["vectors.txt", "vectors.txt.gz"])
def test_mssg_roundtrip(tmp_path, name):
    msv = _small_msv()
    path = save_mssg(msv, tmp_path / name)
    back = load_mssg(path)
    assert back.words == msv.words
    for w in msv.words:
        np.testing.assert_array_equal(back.sense_vectors(w), msv.sense_vectors(w))
        np.testing.assert_array_equal(back.context_centers(w), msv.context_centers(w))
        np.testing.assert_array_equal(back.global_vector(w), msv.global_vector(w))
    assert load_mssg(path, limit=2).words == ["bank", "river"]


def test_mssg_reads_release_layout_and_maxout(tmp_path):
    # trailing spaces as written by the Scala release, maxout=1: no centre lines
    p = tmp_path / "maxout.txt"
    p.write_text("2 2 2 1\nfoo 2\n0.1 0.2 \n1 0 \n0 1 \nbar 1\n0.5 0.5 \n1 1 \n")
    msv = load_mssg(p)
    np.testing.assert_array_equal(msv.context_centers("foo"), msv.sense_vectors("foo"))
    assert msv.n_senses("bar") == 1


GOOD = ["2 2 2 0", "foo 2", "0 1", "1 0", "1 1", "0 2", "2 0", "bar 1", "1 1", "1 0", "0 1"]


@pytest.mark.parametrize(
    "lineno, replacement, match",
    [
        (1, "2 two", "line 1: header"),
        (2, "foo", "line 2: expected a word line"),
        (2, "foo zero", "line 2: sense count"),
        (2, "foo 0", "line 2: word 'foo' has sense count 0"),
        (4, "1 0 3", "line 4: sense 0 vector of 'foo' has 3 values, expected 2"),
        (5, "1 x", "line 5: sense 0 centre of 'foo' contains a non-numeric"),
        (6, "nan 1", "line 6: sense 1 vector of 'foo' contains NaN"),
        (8, "foo 1", "line 8: duplicate word 'foo'"),
    ],
)
def test_mssg_malformed_names_line(tmp_path, lineno, replacement, match):
    lines = list(GOOD)
    lines[lineno - 1] = replacement
    p = tmp_path / "bad.txt"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFormatError, match=match):
        load_mssg(p)


def test_mssg_truncated_and_missing(tmp_path):
    p = tmp_path / "trunc.txt.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("\n".join(GOOD[:9]) + "\n")
    with pytest.raises(DataFormatError, match="line 10: unexpected end of file"):
        load_mssg(p)
    with pytest.raises(FileNotFoundError, match="nope"):
        load_mssg(tmp_path / "nope.txt")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(DataFormatError, match="line 1"):
        load_mssg(empty)


def test_mssg_writer_rejects_unrepresentable(tmp_path):
    msv = MultiSenseVectors(["a b"], np.ones((1, 2)), [np.ones((1, 2))], [np.ones((1, 2))])
    with pytest.raises(ValueError, match="whitespace"):
        save_mssg(msv, tmp_path / "x.txt")
    msv = MultiSenseVectors(["a"], np.ones((1, 2)), [np.ones((1, 2))], [np.ones((1, 3))])
    with pytest.raises(ValueError, match="dimension"):
        save_mssg(msv, tmp_path / "x.txt")


# ----------------------------------------------------------------------------- inspection


def test_inspection_helpers():
    rng = np.random.default_rng(4)
    d = 5
    words = ["w0", "w1", "w2", "w3"]
    base = rng.standard_normal((4, d))
    senses = [
        np.vstack([base[0], base[0] + 0.01]),
        np.vstack([base[1], -base[1]]),
        base[2][None],
        base[3][None],
    ]
    msv = MultiSenseVectors(words, base, senses, [s.copy() for s in senses])
    index = SenseNeighbours(msv)
    assert index.neighbours("w0", 0, 3)[0] != "w0"
    assert neighbour_overlap(index, "w0", 0, 1, topn=3) == 1.0  # near-identical senses
    with pytest.raises(IndexError):
        index.neighbours("w0", 5)
    M, labels = difference_matrix(msv)
    res = ex_rpca(M, 1)
    table = component_pairs(
        M, labels, res.components, n_top=2, index=index, topn_neighbours=2, overlap_topn=3
    )
    assert set(table.columns) >= {"component", "word", "abs_cos", "overlap", "pseudo"}
    assert len(table) == 2 and table["abs_cos"].between(0, 1 + 1e-12).all()
    norms = word_sparse_norms(M, labels)
    assert list(norms.index) == ["w0", "w1"]
    assert norms["w1"] > norms["w0"]
    with pytest.raises(ValueError, match="labels"):
        word_sparse_norms(M[:, :1], labels)


def test_avg_sim_wordsim():
    msv = _small_msv()
    df = pd.DataFrame(
        {
            "word1": ["bank", "bank", "the", "zzz"],
            "word2": ["river", "the", "river", "bank"],
            "score": [1.0, 2.0, 3.0, 4.0],
        }
    )
    res = avg_sim_wordsim(msv, df)
    assert res.n_scored == 3 and res.oov_pairs == (("zzz", "bank"),)
    s1 = msv.sense_vectors("bank") / np.linalg.norm(
        msv.sense_vectors("bank"), axis=1, keepdims=True
    )
    s2 = msv.sense_vectors("river") / np.linalg.norm(
        msv.sense_vectors("river"), axis=1, keepdims=True
    )
    assert res.pred[0] == pytest.approx(float(np.mean(s1 @ s2.T)))


def test_widgets_build(kmeans_model):
    pytest.importorskip("ipywidgets")
    from workbench.explore.senses import component_browser, word_inspector

    M, labels = difference_matrix(kmeans_model)
    index = SenseNeighbours(kmeans_model)
    res = {"Ex-RPCA": ex_rpca(M, 2), "PCA": ex_rpca(M, 1)}
    box = component_browser(M, labels, res, index, n_top=2)
    box.children[0].children[0].value = "PCA"
    box.update()
    insp = word_inspector(kmeans_model, labels, res["Ex-RPCA"], index)
    insp.children[0].value = "bank"
    insp.update()
    with pytest.raises(ValueError):
        component_browser(M, labels, {}, index)


def test_partial_spearman():
    from scipy import stats

    from workbench.senses import partial_spearman

    rng = np.random.default_rng(8)
    z = rng.standard_normal(400)
    x = z + 0.5 * rng.standard_normal(400)
    y = z + 0.5 * rng.standard_normal(400)
    assert stats.spearmanr(x, y).statistic > 0.6
    res = partial_spearman(x, y, z)  # x and y are independent given z
    assert abs(res.statistic) < 0.15 and res.pvalue > 0.01 and res.n == 400
    res2 = partial_spearman(x, x + 0.1 * rng.standard_normal(400), z)
    assert res2.statistic > 0.5 and res2.pvalue < 1e-6
    with pytest.raises(ValueError, match="same length"):
        partial_spearman(x, y[:3], z)
    with warnings.catch_warnings():  # a constant variable: NaN, without numpy's divide warning
        warnings.simplefilter("error")
        for const in (np.ones(400), np.full(400, 2.0)):
            for args in ((const, y, z), (x, const, z), (x, y, const)):
                res3 = partial_spearman(*args)
                assert np.isnan(res3.statistic) and np.isnan(res3.pvalue) and res3.n == 400


# ----------------------------------------------------------------------------- NP-MSSG rule


def test_nonparametric_rule_opens_a_sense_exactly_below_the_threshold():
    """Planted contexts with known cosines to the running centres: a context opens a new sense
    exactly when its cosine to every existing centre is below lambda, and never past the cap."""
    lam = 0.5

    def unit_at(angle_cos):  # a unit vector with cosine angle_cos to e1, in the (e1, e2) plane
        return np.array([angle_cos, np.sqrt(1 - angle_cos**2), 0.0, 0.0])

    e1, e3, e4 = np.eye(4)[0], np.eye(4)[2], np.eye(4)[3]
    X = np.vstack([
        e1,                  # first context: always opens sense 0
        unit_at(lam + 0.01),  # cosine just above lambda with centre 0: joins it
        e3,                  # cosine 0 with centre 0: opens sense 1
        e3 * 0.9 + e1 * 0.1,  # close to centre 1: joins it
        e4,                  # below lambda to both: opens sense 2
    ])  # fmt: skip
    C, lab = online_sense_clustering(X, threshold=lam, max_senses=5)
    assert lab.tolist() == [0, 0, 1, 1, 2] and C.shape[0] == 3
    # a context just below lambda with the running centre of sense 0 opens a new sense
    c0 = (e1 + unit_at(lam + 0.01)) / np.linalg.norm(e1 + unit_at(lam + 0.01))
    ortho = np.array([-c0[1], c0[0], 0.0, 0.0])
    below = (lam - 0.01) * c0 + np.sqrt(1 - (lam - 0.01) ** 2) * ortho
    above = (lam + 0.01) * c0 + np.sqrt(1 - (lam + 0.01) ** 2) * ortho
    _, lab_b = online_sense_clustering(np.vstack([X[:2], below]), threshold=lam, max_senses=5)
    _, lab_a = online_sense_clustering(np.vstack([X[:2], above]), threshold=lam, max_senses=5)
    assert lab_b.tolist() == [0, 0, 1] and lab_a.tolist() == [0, 0, 0]
    # the cap: with max_senses=2 the third unlike context joins its most similar centre
    C2, lab2 = online_sense_clustering(X, threshold=lam, max_senses=2)
    assert C2.shape[0] == 2 and lab2.tolist()[:4] == [0, 0, 1, 1] and lab2[4] in (0, 1)


# ----------------------------------------------------------------------------- POS test


def test_majority_pos_and_treebank_tags():
    from workbench.senses import majority_pos, treebank_majority_pos

    assert majority_pos([("A", "X"), ("a", "Y"), ("a", "Y"), ("b", "Z"), ("b", "A")]) == {
        "a": "Y", "b": "A"}  # fmt: skip
    tags = treebank_majority_pos(("dev",))
    assert tags["the"] == "DET" and tags["and"] == "CCONJ" and tags["said"] == "VERB"
    with pytest.raises(ValueError, match="splits"):
        treebank_majority_pos(("bogus",))


def test_pos_purity_test_on_planted_component():
    """A planted direction along which the adverb pairs differ: its top words are adverbs, and
    the test finds that tag and rejects; a random direction's top words do not reject."""
    from workbench.senses import component_top_words, pos_purity_test

    rng = np.random.default_rng(0)
    d, words = 10, [f"w{i}" for i in range(120)]
    tags = {w: ("ADV" if i < 20 else "NOUN" if i < 80 else "VERB") for i, w in enumerate(words)}
    planted = np.eye(d)[0]
    cols, labels = [], []
    for w in words:
        v = rng.normal(0, 0.3, d)
        v[0] = 0.0
        if tags[w] == "ADV":
            v += 3.0 * planted
        cols.append(v)
        labels.append((w, 0, 1))
    M = np.array(cols).T
    top = component_top_words(M, labels, planted, 15)
    assert all(tags[w] == "ADV" for w in top)
    res = pos_purity_test(top, tags, words, n_permutations=500, random_state=0)
    assert res.tag == "ADV" and res.share == 1.0
    assert res.base_rate == pytest.approx(20 / 120) and res.pvalue < 0.01
    assert res.pvalue == pytest.approx(1 / 501)  # no random draw of 15 is all adverbs
    # random word sets: the test keeps its level (rejects about 5 % of them at 5 %)
    ps = [pos_purity_test(list(rng.choice(words, 15, replace=False)), tags, words,
                          n_permutations=200, random_state=s).pvalue for s in range(200)]  # fmt: skip
    assert 0.01 <= np.mean(np.array(ps) < 0.05) <= 0.10
    with pytest.raises(ValueError, match="at least two"):
        pos_purity_test(["w0", "unknown"], tags, words)
    with pytest.raises(ValueError, match="population"):
        pos_purity_test(words[:30], tags, words[:20])


# ----------------------------------------------------------------------------- V~_WordNet


def test_wordnet_row_definition_pairs_of_single_synset_words():
    """V~_WordNet's directions are the principal components of the pairs of words with one
    WordNet synset, and of those alone: planted so that those pairs differ along e0 and all
    others along e1, the direction found is e0 although e1 carries more variance overall."""
    from workbench.senses import wordnet_directions, wordnet_pseudo_pairs

    rng = np.random.default_rng(0)
    d = 6
    synsets = {"cat": 1, "engine": 1, "yard": 3, "bank": 18, "the": 0}
    labels, cols = [], []
    for w in synsets:
        for a, b in ((0, 1), (0, 2), (1, 2)):
            labels.append((w, a, b))
            axis = 0 if synsets[w] == 1 else 1
            v = rng.normal(0, 0.05, d)
            v[axis] += (2.0 if axis == 0 else 5.0) * rng.choice([-1, 1])
            cols.append(v)
    M = np.array(cols).T
    mask = wordnet_pseudo_pairs(labels, synsets)
    assert mask.tolist() == [True] * 6 + [False] * 9  # cat and engine only
    assert wordnet_pseudo_pairs([("unknown", 0, 1)], synsets).tolist() == [False]
    C = wordnet_directions(M, labels, synsets, 1)
    assert C.shape == (d, 1) and abs(C[0, 0]) > 0.99
    from workbench.rpca import pca

    assert abs(pca(M, 1).components[1, 0]) > 0.99  # all pairs: the other direction
    with pytest.raises(ValueError, match="WordNet calls 6 sense pairs pseudo"):
        wordnet_directions(M, labels, synsets, 7)
