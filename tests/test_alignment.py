"""Tests for workbench.alignment (IBM Model 1)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from workbench.alignment import NULL_TOKEN, IBM1Model, train_ibm1, viterbi_align

# Koehn, Statistical Machine Translation (2010), section 4.2.3 example
DE = [["das", "haus"], ["das", "buch"], ["ein", "buch"]]
EN = [["the", "house"], ["the", "book"], ["a", "book"]]


def naive_ibm1(source, target, n_iter, null):
    """Reference EM with explicit loops (textbook pseudo-code)."""
    tgt_vocab = {w for s in target for w in s}
    t = defaultdict(lambda: 1.0 / len(tgt_vocab))
    for _ in range(n_iter):
        count = defaultdict(float)
        total = defaultdict(float)
        for es, fs in zip(source, target):
            es = ([NULL_TOKEN] if null else []) + list(es)
            for f in fs:
                z = sum(t[(e, f)] for e in es)
                for e in es:
                    c = t[(e, f)] / z
                    count[(e, f)] += c
                    total[e] += c
        t = defaultdict(float, {(e, f): c / total[e] for (e, f), c in count.items()})
    return t


def test_textbook_example_converges():
    m = train_ibm1(DE, EN, n_iter=50, null=False)
    assert isinstance(m, IBM1Model)
    assert m.prob("haus", "house") > 0.95
    assert m.prob("buch", "book") > 0.95
    assert m.prob("das", "the") > 0.95
    assert m.prob("ein", "a") > 0.95
    assert m.best_translations("das", 1)[0][0] == "the"
    # rows are distributions
    np.testing.assert_allclose(np.asarray(m.translation.sum(axis=1)).ravel(), 1.0)


@pytest.mark.parametrize("null", [True, False])
def test_matches_naive_em(null):
    rng = np.random.default_rng(0)
    src_words = [f"s{i}" for i in range(12)]
    tgt_words = [f"t{i}" for i in range(10)]
    source = [list(rng.choice(src_words, rng.integers(1, 7))) for _ in range(40)]
    target = [list(rng.choice(tgt_words, rng.integers(1, 7))) for _ in range(40)]
    m = train_ibm1(source, target, n_iter=4, null=null)
    ref = naive_ibm1(source, target, 4, null)
    for (e, f), p in ref.items():
        assert m.prob(e, f) == pytest.approx(p, rel=1e-9, abs=1e-12)
    if null:
        assert m.source_vocab[0] == NULL_TOKEN


def test_log_likelihood_monotone():
    rng = np.random.default_rng(1)
    source = [list(rng.choice(list("abcdefgh"), rng.integers(1, 9))) for _ in range(200)]
    target = [[w.upper() for w in s] + ["X"] for s in source]
    m = train_ibm1(source, target, n_iter=10)
    ll = np.array(m.log_likelihood)
    assert len(ll) == 11
    assert np.all(np.diff(ll) >= -1e-8)
    assert ll[-1] > ll[0]
    assert m.prob("c", "C") > 0.8


def test_viterbi_alignment():
    m = train_ibm1(DE, EN, n_iter=50, null=False)
    links = viterbi_align(
        m, [["das", "buch"], ["haus", "das"]], [["the", "book"], ["the", "house"]]
    )
    assert links == [[(0, 0), (1, 1)], [(1, 0), (0, 1)]]
    # unknown target word stays unaligned
    assert viterbi_align(m, [["das"]], [["the", "zebra"]]) == [[(0, 0)]]
    assert viterbi_align(m, [], []) == []


def test_viterbi_with_null_positions_are_word_positions():
    m = train_ibm1(DE, EN, n_iter=30, null=True)
    links = viterbi_align(m, DE, EN)
    for sent_links, es, fs in zip(links, DE, EN):
        for i, j in sent_links:
            assert 0 <= i < len(es) and 0 <= j < len(fs)


def test_empty_sentences_allowed():
    m = train_ibm1([["a"], [], ["b"]], [["x"], ["y"], []], n_iter=3)
    assert m.prob(NULL_TOKEN, "y") > 0
    m2 = train_ibm1([["a"], [], ["b"]], [["x"], ["y"], []], n_iter=3, null=False)
    assert m2.prob("a", "x") == pytest.approx(1.0)


def test_bad_input():
    with pytest.raises(ValueError, match="misaligned"):
        train_ibm1([["a"]], [["b"], ["c"]])
    with pytest.raises(TypeError, match="list of tokens"):
        train_ibm1(["a b"], [["b"]])
    with pytest.raises(ValueError, match="empty"):
        train_ibm1([], [])
    with pytest.raises(ValueError, match="n_iter"):
        train_ibm1([["a"]], [["b"]], n_iter=-1)
    m = train_ibm1([["a"]], [["b"]])
    with pytest.raises(ValueError, match="misaligned"):
        viterbi_align(m, [["a"]], [])
    with pytest.raises(TypeError, match="IBM1Model"):
        viterbi_align("model", [["a"]], [["b"]])
    with pytest.raises(KeyError, match="zzz"):
        m.best_translations("zzz")
