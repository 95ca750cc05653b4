"""Tests of workbench.views: builders against brute-force counts, the validator, the cache."""

from __future__ import annotations

from collections import namedtuple
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

from workbench import views as wv
from workbench._io import CacheWarning
from workbench.views import (
    PreprocessSpec,
    View,
    Vocabulary,
    check_views,
    dependency_views,
    embedding_view,
    encode_corpus,
    positional_views,
    preprocess,
    preprocess_views,
    view_statistics,
    window_view,
)

Tok = namedtuple("Tok", "id form lemma upos xpos head deprel")
Sent = namedtuple("Sent", "id text tokens")


def random_docs(seed=0, lengths=(60, 3, 0, 45, 1, 30), n_types=25):
    rng = np.random.default_rng(seed)
    return [[f"w{x}" for x in rng.zipf(1.5, size=n) % n_types] for n in lengths]


def brute_offset(docs, vocab, k, respect_documents=True):
    n = len(vocab)
    z = np.zeros((n, n))
    if respect_documents:
        seqs = docs
    else:
        seqs = [[t for d in docs for t in d]]
    for d in seqs:
        for t in range(len(d)):
            if 0 <= t - k < len(d) and d[t] in vocab and d[t - k] in vocab:
                z[vocab.id(d[t]), vocab.id(d[t - k])] += 1
    return z


# ----------------------------------------------------------------------------- vocabulary


def test_vocabulary_from_corpus_order_and_filters():
    docs = [["b", "a", "a", "c"], ["a", "b", "d"]]
    v = Vocabulary.from_corpus(docs)
    assert v.words == ("a", "b", "c", "d")  # by count, ties alphabetical
    assert v.counts.tolist() == [3, 2, 1, 1]
    assert len(v) == 4 and "c" in v and v.id("b") == 1
    assert Vocabulary.from_corpus(docs, max_size=2).words == ("a", "b")
    assert Vocabulary.from_corpus(docs, min_count=2).words == ("a", "b")
    with pytest.raises(KeyError, match="'zz' is not in the vocabulary"):
        v.id("zz")
    with pytest.raises(ValueError, match="min_count"):
        Vocabulary.from_corpus(docs, min_count=0)
    with pytest.raises(ValueError, match="max_size"):
        Vocabulary.from_corpus(docs, max_size=0)
    with pytest.raises(ValueError, match="no word has count"):
        Vocabulary.from_corpus(docs, min_count=10)
    with pytest.raises(ValueError, match="duplicate"):
        Vocabulary.from_words(["a", "a"])
    with pytest.raises(TypeError, match="not a string"):
        Vocabulary.from_corpus("a b c")
    assert Vocabulary.from_words(["x", "y"]) == Vocabulary.from_words(("x", "y"))


def test_encode_corpus_ids_and_boundaries():
    docs = [["a", "x", "b"], [], ["b", "a"]]
    v = Vocabulary.from_words(["a", "b"])
    enc = encode_corpus(docs, v)
    assert enc.ids.dtype == np.int32
    assert enc.ids.tolist() == [0, -1, 1, 1, 0]
    assert enc.doc_starts.tolist() == [0, 3, 3]
    assert enc.position_in_document().tolist() == [0, 1, 2, 0, 1]
    enc2 = encode_corpus(docs, v, drop_oov=True)
    assert enc2.ids.tolist() == [0, 1, 1, 0] and enc2.doc_starts.tolist() == [0, 2, 2]


# ----------------------------------------------------------------------------- positional


@pytest.mark.parametrize("respect_documents", [True, False])
def test_positional_views_match_brute_force(respect_documents):
    docs = random_docs()
    vocab = Vocabulary.from_corpus(docs, max_size=15)  # some OOV tokens keep their positions
    offsets = [1, 2, 3, 7, -2]
    views = positional_views(
        docs, vocab, offsets, respect_documents=respect_documents, chunk_size=17
    )
    assert [v.name for v in views] == [f"offset_{k}" for k in offsets]
    for v, k in zip(views, offsets):
        assert isinstance(v.matrix, sp.csr_array) and v.matrix.has_canonical_format
        np.testing.assert_array_equal(
            v.matrix.toarray(), brute_offset(docs, vocab, k, respect_documents)
        )
        assert v.family == "positional" and v.meta["offset"] == k
        np.testing.assert_array_equal(v.observed, v.matrix.toarray().any(axis=1))
        assert v.contexts == vocab.words and v.vocab is vocab


def test_negative_offset_is_transpose_and_threads_agree():
    docs = random_docs(1)
    vocab = Vocabulary.from_corpus(docs)
    a = positional_views(docs, vocab, [3, -3], n_jobs=2)
    np.testing.assert_array_equal(a[0].matrix.toarray().T, a[1].matrix.toarray())
    b = positional_views(encode_corpus(docs, vocab), vocab, [3, -3], n_jobs=1)
    assert (a[0].matrix != b[0].matrix).nnz == 0


def test_no_pair_crosses_documents():
    docs = [["a", "b"], ["c", "d"]]
    vocab = Vocabulary.from_words("abcd")
    (z1,) = positional_views(docs, vocab, [1])
    assert z1.matrix.sum() == 2  # (b<-a) and (d<-c), not (c<-b)
    assert z1.matrix[vocab.id("c"), vocab.id("b")] == 0
    (z1x,) = positional_views(docs, vocab, [1], respect_documents=False)
    assert z1x.matrix[vocab.id("c"), vocab.id("b")] == 1
    # "j occurred k words behind i": row = later word, column = earlier word
    assert z1.matrix[vocab.id("b"), vocab.id("a")] == 1


@pytest.mark.parametrize("symmetric,weighting", [(True, "uniform"), (False, "harmonic")])
def test_window_view_matches_brute_force(symmetric, weighting):
    docs = random_docs(2)
    vocab = Vocabulary.from_corpus(docs, max_size=12)
    w = 3
    v = window_view(docs, vocab, w, symmetric=symmetric, weighting=weighting)
    expect = np.zeros((len(vocab), len(vocab)))
    for k in range(1, w + 1):
        zk = brute_offset(docs, vocab, k) * (1.0 if weighting == "uniform" else 1.0 / k)
        expect += zk + (zk.T if symmetric else 0)
    np.testing.assert_allclose(v.matrix.toarray(), expect)
    assert v.family == "window"


def test_positional_bad_input():
    docs = random_docs()
    vocab = Vocabulary.from_corpus(docs)
    with pytest.raises(ValueError, match="non-zero"):
        positional_views(docs, vocab, [0, 1])
    with pytest.raises(ValueError, match="empty"):
        positional_views(docs, vocab, [])
    with pytest.raises(ValueError, match="duplicate"):
        positional_views(docs, vocab, [1, 1])
    with pytest.raises(ValueError, match="no tokens"):
        positional_views([[]], vocab, [1])
    with pytest.raises(ValueError, match="window"):
        window_view(docs, vocab, 0)
    other = Vocabulary.from_words(["w1", "w2"])
    with pytest.raises(ValueError, match="encode it with this vocabulary"):
        positional_views(encode_corpus(docs, vocab), other, [1])


def test_cache_reuses_built_views(tmp_path, monkeypatch):
    docs = random_docs(3)
    vocab = Vocabulary.from_corpus(docs)
    first = positional_views(docs, vocab, [1, 2], cache=tmp_path)
    folder = tmp_path / "views"  # the "views" namespace of the verified cache (workbench._io)
    assert len(list(folder.glob("*.npz"))) == 1 and len(list(folder.glob("*.json"))) == 1

    def boom(*a, **k):
        raise AssertionError("rebuilt although cached")

    monkeypatch.setattr(wv._cooccurrence, "count_offset", boom)
    again = positional_views(docs, vocab, [1, 2], cache=tmp_path)
    for a, b in zip(first, again):
        assert (a.matrix != b.matrix).nnz == 0 and a.name == b.name
    with pytest.raises(AssertionError, match="rebuilt"):  # other parameters -> other key
        positional_views(docs, vocab, [1, 2], cache=tmp_path, respect_documents=False)
    with pytest.raises(AssertionError, match="rebuilt"):  # other corpus -> other key
        positional_views(random_docs(4), vocab, [1, 2], cache=tmp_path)
    # a damaged entry is rebuilt with one warning, never used and never an error
    monkeypatch.undo()
    (data,) = folder.glob("*.npz")
    data.write_bytes(data.read_bytes()[:-10])
    with pytest.warns(CacheWarning, match=data.stem.split("-")[0]):
        rebuilt = positional_views(docs, vocab, [1, 2], cache=tmp_path)
    for a, b in zip(first, rebuilt):
        assert (a.matrix != b.matrix).nnz == 0
    # default cache location follows WORKBENCH_CACHE
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "c"))
    assert str(wv.views_cache_dir()).startswith(str(tmp_path / "c"))


# ----------------------------------------------------------------------------- check_views


def test_check_views_accepts_and_normalises():
    rng = np.random.default_rng(0)
    dense = rng.standard_normal((6, 3))
    dense[2] = 0
    s = sp.coo_matrix(([1, 2, 3], ([0, 0, 5], [1, 1, 2])), shape=(6, 4))  # duplicates
    ints = np.arange(12).reshape(6, 2)
    out, masks = check_views([dense, s, ints])
    assert isinstance(out[0], np.ndarray) and out[0].dtype == np.float64
    assert sp.issparse(out[1]) and out[1].format == "csr" and out[1].has_canonical_format
    assert out[1][0, 1] == 3.0
    assert out[2].dtype == np.float64
    # all-zero rows are unobserved (documented)
    assert masks[0].tolist() == [True, True, False, True, True, True]
    assert masks[1].tolist() == [True, False, False, False, False, True]
    assert masks[2].all()
    _, m2 = check_views([dense], masks=[np.array([False] + [True] * 5)])
    assert m2[0].tolist() == [False, True, False, True, True, True]
    f32, _ = check_views([dense.astype(np.float32)])
    assert f32[0].dtype == np.float32


def test_check_views_dense_rows_by_sums_are_exact():
    """Dense rows are screened by one pass of row sums: a row summing to zero is still
    observed, and a sum that overflows (finite entries) is not taken for inf."""
    x = np.array([[1.0, -1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, -2.0], [0.5, 0.0, 0.0]], dtype=np.float32)
    _, masks = check_views([x])
    assert masks[0].tolist() == [True, False, True, True]
    big = np.full((3, 4), 3e38, dtype=np.float32)  # every row sum overflows to inf
    out, masks = check_views([big])
    assert masks[0].all() and np.isfinite(out[0]).all()
    ninf = big.copy()
    ninf[0, 0], ninf[0, 1] = np.inf, -np.inf  # sum NaN: still reported as infinite
    with pytest.raises(ValueError, match=r"contains 2 non-finite \(infinite\)"):
        check_views([ninf])


def test_check_views_sparse_explicit_zeros_are_not_observations():
    """A sparse row holding only stored zeros is unobserved, like an empty one; a row with a
    stored zero and a nonzero is observed."""
    x = sp.csr_array((np.array([0.0, 0.0, 1.0, 0.0, 2.0]), np.array([0, 2, 1, 0, 2]),
                      np.array([0, 2, 4, 4, 5])), shape=(4, 3))
    assert not x.data.all()
    _, masks = check_views([x])
    assert masks[0].tolist() == [False, True, False, True]
    _, masks = check_views([sp.csr_array(x.toarray())])  # no stored zeros: fast path
    assert masks[0].tolist() == [False, True, False, True]


def test_check_views_bad_input_errors():
    a = np.ones((4, 2))
    with pytest.raises(ValueError, match="view 1 has 3 rows but view 0 has 4"):
        check_views([a, np.ones((3, 2))])
    bad = a.copy()
    bad[1, 1] = np.nan
    with pytest.raises(ValueError, match=r"view 1 contains 1 non-finite \(NaN\)"):
        check_views([a, bad])
    inf = sp.csr_array(np.array([[0, np.inf], [1, 0]]))
    with pytest.raises(ValueError, match="view 0 contains 1 non-finite \\(infinite\\)"):
        check_views([inf])
    with pytest.raises(ValueError, match="view 1 is empty: shape"):
        check_views([a, np.ones((4, 0))])
    with pytest.raises(ValueError, match="view 0 is empty: all entries are zero"):
        check_views([sp.csr_array((4, 3))])
    with pytest.raises(ValueError, match="must be 2-D"):
        check_views([np.ones(4)])
    with pytest.raises(ValueError, match="not real numeric"):
        check_views([np.array([["a"], ["b"]])])
    with pytest.raises(ValueError, match="list of matrices"):
        check_views(a)
    with pytest.raises(ValueError, match="at least 2"):
        check_views([a], min_views=2)
    with pytest.raises(ValueError, match="got 1 masks for 2 views"):
        check_views([a, a], masks=[None])
    with pytest.raises(ValueError, match="mask of view 0 must be boolean"):
        check_views([a], masks=[np.ones(4)])
    with pytest.raises(ValueError, match=r"mask of view 0 has shape \(3,\)"):
        check_views([a], masks=[np.ones(3, dtype=bool)])
    with pytest.raises(ValueError, match="view 0 has no observed rows"):
        check_views([a], masks=[np.zeros(4, dtype=bool)])


def test_check_views_views_over_different_vocabularies():
    docs = random_docs()
    v1 = Vocabulary.from_corpus(docs, max_size=10)
    v2 = Vocabulary.from_words(reversed(v1.words))
    (a,) = positional_views(docs, v1, [1])
    (b,) = positional_views(docs, v2, [1])
    with pytest.raises(ValueError, match=r"view 1 \('offset_1'\) is over a different vocabulary"):
        check_views([a, b])
    out, masks = check_views([a, a.matrix])  # View objects and raw matrices mix
    assert len(out) == 2 and masks[0].dtype == bool


# ----------------------------------------------------------------------------- dependency


def _sentences():
    # "the dog chased a cat of mine and the bird" + "he wants to run" + "it was eaten by him"
    s1 = Sent("s1", "", (
        Tok(1, "The", "the", "DET", "_", 2, "det"),
        Tok(2, "dog", "dog", "NOUN", "_", 3, "nsubj"),
        Tok(3, "chased", "chase", "VERB", "_", 0, "root"),
        Tok(4, "a", "a", "DET", "_", 5, "det"),
        Tok(5, "cat", "cat", "NOUN", "_", 3, "obj"),
        Tok(6, "of", "of", "ADP", "_", 7, "case"),
        Tok(7, "mine", "mine", "PRON", "_", 5, "nmod"),
        Tok(8, "and", "and", "CCONJ", "_", 10, "cc"),
        Tok(9, "the", "the", "DET", "_", 10, "det"),
        Tok(10, "bird", "bird", "NOUN", "_", 5, "conj"),
    ))  # fmt: skip
    s2 = Sent("s2", "", (
        Tok(1, "he", "he", "PRON", "_", 2, "nsubj"),
        Tok(2, "wants", "want", "VERB", "_", 0, "root"),
        Tok(3, "to", "to", "PART", "_", 4, "mark"),
        Tok(4, "run", "run", "VERB", "_", 2, "xcomp"),
    ))  # fmt: skip
    s3 = Sent("s3", "", (
        Tok(1, "it", "it", "PRON", "_", 3, "nsubj:pass"),
        Tok(2, "was", "be", "AUX", "_", 3, "aux:pass"),
        Tok(3, "eaten", "eat", "VERB", "_", 0, "root"),
        Tok(4, "by", "by", "ADP", "_", 5, "case"),
        Tok(5, "him", "he", "PRON", "_", 3, "obl:agent"),
    ))  # fmt: skip
    return [s1, s2, s3]


def test_dependency_views_relations_and_mapping():
    sents = _sentences()
    words = sorted({t.form.lower() for s in sents for t in s.tokens})
    vocab = Vocabulary.from_words(words)
    views = {v.meta["relation"]: v for v in dependency_views(sents, vocab)}

    def edges(rel):
        m = views[rel].matrix.tocoo()
        return {(vocab.words[i], vocab.words[j]) for i, j in zip(m.row, m.col)}

    assert edges("nsubj") == {("dog", "chased"), ("he", "wants")}  # (dependent, governor)
    assert edges("dobj") == {("cat", "chased")}
    assert edges("prep_of") == {("mine", "cat")}
    assert edges("conj_and") == {("bird", "cat")}
    assert edges("pobj") == {("mine", "of"), ("him", "by")}  # inverted case
    assert edges("xsubj") == {("he", "run")}
    assert edges("agent") == {("him", "eaten")}
    assert "prep_by" not in views  # the agent's "by" is not prep_by; empty views are dropped
    assert views["nsubj"].name == "dep_nsubj" and views["dobj"].meta["ud"] == "obj"
    direct = dependency_views(sents, vocab, ["det", "nsubj:pass"])
    assert [v.name for v in direct] == ["dep_det", "dep_nsubj:pass"]
    assert direct[0].matrix.sum() == 3  # the->dog, a->cat, the->bird
    assert len(dependency_views(sents, vocab, "all")) >= 8
    with pytest.raises(ValueError, match="no relation"):
        dependency_views(sents, Vocabulary.from_words(["zzz"]))
    with pytest.raises(ValueError, match="no sentences"):
        dependency_views([], vocab)


# ----------------------------------------------------------------------------- bitext


def test_bitext_view_recovers_planted_translation():
    rng = np.random.default_rng(0)
    lex = {"house": "casa", "dog": "perro", "red": "rojo", "big": "grande", "the": "el"}
    en_words = list(lex)
    src, tgt = [], []
    for _ in range(300):
        s = list(rng.choice(en_words, size=rng.integers(2, 5), replace=False))
        src.append(s)
        tgt.append([lex[w] for w in rng.permutation(s)])
    vocab = Vocabulary.from_words(en_words + ["unused"])
    v = wv.bitext_view(vocab, (src, tgt), n_iter=10)
    z = v.matrix.toarray()
    for e, f in lex.items():
        assert v.contexts[int(z[vocab.id(e)].argmax())] == f
    assert v.family == "bitext" and not v.observed[vocab.id("unused")]
    with pytest.raises(ValueError, match="differ in length"):
        wv.bitext_view(vocab, (src, tgt[:-1]))


# ----------------------------------------------------------------------------- embeddings


def test_embedding_view_masks_missing_words():
    vecs = SimpleNamespace(index={"a": 0, "b": 1, "c": 2}, vectors=np.arange(6.0).reshape(3, 2))
    vocab = Vocabulary.from_words(["b", "zz", "A"])
    v = embedding_view(vecs, vocab)
    assert v.observed.tolist() == [True, False, True]  # "A" found lower-cased
    np.testing.assert_array_equal(v.matrix, [[2, 3], [0, 0], [0, 1]])
    out, masks = check_views([v])
    assert masks[0].tolist() == [True, False, True]
    bad = SimpleNamespace(index={"a": 0}, vectors=np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="NaN"):
        embedding_view(bad, Vocabulary.from_words(["a"]))
    with pytest.raises(ValueError, match="no vocabulary word"):
        embedding_view(vecs, Vocabulary.from_words(["q"]))


# ----------------------------------------------------------------------------- preprocessing


def test_preprocess_transforms_and_truncation():
    z = sp.csr_array(np.array([[0, 4, 1, 0], [16, 0, 0, 1], [0, 0, 0, 2]], dtype=float))
    view = View("v", z, ("a", "b", "c", "d"), np.ones(3, dtype=bool), "positional")
    lg = preprocess(view, "log")
    assert sp.issparse(lg.matrix) and lg.matrix.nnz == z.nnz
    np.testing.assert_allclose(lg.matrix.toarray(), np.log1p(z.toarray()))
    pw = preprocess(view, "pow", power=0.25)
    np.testing.assert_allclose(pw.matrix.toarray(), z.toarray() ** 0.25)
    tr = preprocess(view, spec=PreprocessSpec("identity", top_t=2))  # column sums 16,4,1,3
    assert tr.contexts == ("a", "b")
    np.testing.assert_array_equal(tr.matrix.toarray(), [[0, 4], [16, 0], [0, 0]])
    assert tr.observed.tolist() == [True, True, False]
    assert tr.meta["preprocess"]["top_t"] == 2 and view.observed.all()
    dense = View("e", np.array([[-16.0, 1.0]]), ("x", "y"), np.ones(1, dtype=bool), "embedding")
    np.testing.assert_allclose(preprocess(dense, "pow", power=0.5).matrix, [[-4.0, 1.0]])
    out = preprocess_views([view, dense], {"positional": PreprocessSpec("log")})
    assert out[1] is dense and out[0].meta["preprocess"]["transform"] == "log"
    with pytest.raises(ValueError, match="transform must be one of"):
        PreprocessSpec("sqrt")
    with pytest.raises(ValueError, match="top_t"):
        PreprocessSpec(top_t=0)
    with pytest.raises(ValueError, match="power"):
        PreprocessSpec("pow", power=-1)


def test_view_statistics_and_top_contexts():
    docs = random_docs()
    vocab = Vocabulary.from_corpus(docs)
    views = positional_views(docs, vocab, [1, 2])
    df = view_statistics(views)
    assert list(df.index) == ["offset_1", "offset_2"]
    assert df.loc["offset_1", "nnz"] == views[0].nnz
    assert 0 < df.loc["offset_1", "density"] < 1
    top = views[0].top_contexts(vocab.words[0], 3)
    assert len(top) <= 3 and all(c in vocab for c, _ in top)
    assert top == sorted(top, key=lambda x: -x[1])


@pytest.mark.parametrize("drop_oov", [False, True])
def test_vocabulary_and_encoding_single_pass_matches_two_passes(drop_oov):
    docs = random_docs(5, lengths=(80, 0, 5, 50), n_types=40)
    vocab1 = Vocabulary.from_corpus(docs, max_size=12, min_count=2)
    enc1 = encode_corpus(docs, vocab1, drop_oov=drop_oov)
    vocab2, enc2 = wv.vocabulary_and_encoding(docs, max_size=12, min_count=2, drop_oov=drop_oov)
    assert vocab1 == vocab2 and vocab1.counts.tolist() == vocab2.counts.tolist()
    np.testing.assert_array_equal(enc1.ids, enc2.ids)
    np.testing.assert_array_equal(enc1.doc_starts, enc2.doc_starts)
    with pytest.raises(ValueError, match="min_count"):
        wv.vocabulary_and_encoding(docs, min_count=10_000)


def test_embedding_view_from_word_vectors():
    from workbench.embeddings import WordVectors

    wvecs = WordVectors(["house", "dog"], np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32))
    vocab = Vocabulary.from_words(["dog", "cat", "house"])
    v = embedding_view(wvecs, vocab, name="toy")
    assert v.matrix.dtype == np.float32 and v.observed.tolist() == [True, False, True]
    np.testing.assert_array_equal(v.matrix[2], [1.0, 2.0])
    assert v.meta["coverage"] == pytest.approx(2 / 3)


def test_explore_and_viz_helpers():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from workbench.explore.views import top_contexts_table, view_inspector
    from workbench.viz.views import plot_view_density, plot_view_family

    docs = random_docs()
    vocab = Vocabulary.from_corpus(docs)
    views = positional_views(docs, vocab, [1, 2]) + [window_view(docs, vocab, 2)]
    word = vocab.words[0]
    table = top_contexts_table(views, word, topn=3)
    assert list(table.columns) == ["offset_1", "offset_2", "window_2"] and len(table) == 3
    assert table["window_2"][0].startswith(views[2].top_contexts(word, 1)[0][0])
    with pytest.raises(KeyError, match="not in the vocabulary"):
        top_contexts_table(views, "no-such-word")
    box = view_inspector(views, default_word=word)
    assert box.children
    out = box.children[-1]
    tables = [o["data"]["text/html"] for o in out.outputs if o["output_type"] == "display_data"]
    assert len(tables) == 2  # one table per family (positional, window), each with its caption
    assert all("<b>" in t and "observed in" in t for t in tables)
    box.children[0].children[0].value = "no-such-word"  # the word box
    assert "not in the vocabulary" in out.outputs[0]["text"]
    fig = plot_view_density(view_statistics(views))
    assert len(fig.axes[0].patches) == 3
    fig2 = plot_view_family(views[:2])
    assert len(fig2.axes) == 3  # CCDF, heatmap, colorbar
    plt.close("all")
