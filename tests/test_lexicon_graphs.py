"""Tests for workbench.lexicon_graphs (WordNet / PPDB / FrameNet similarity graphs)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.lexicon_graphs import (
    LexiconGraph,
    base_forms,
    framenet_graph,
    graph_from_lexicon,
    lexicon_graph,
    ppdb_graph,
    wordnet_graph,
    wordnet_relations,
)


@pytest.fixture(scope="module")
def wn():
    from workbench.datasets import load_wordnet

    return load_wordnet()


def test_lexicon_graph_container():
    A = sp.csr_matrix(np.array([[1, 1, 0], [0, 0, 2], [0, 0, 0]]))
    g = LexiconGraph("t", ("x", "y", "z"), A)
    np.testing.assert_array_equal(g.adjacency.toarray(), [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    assert g.n_edges == 2 and list(g.degree) == [1, 2, 1]
    assert g.neighbors("y") == ["x", "z"]
    assert g.to_dict() == {"x": {"y"}, "y": {"x", "z"}, "z": {"y"}}
    h = g.reindex(["z", "y", "new"])
    assert h.neighbors("z") == ["y"] and h.neighbors("new") == []
    assert g.coverage(["x", "q"]) == 0.5
    with pytest.raises(KeyError, match="'q'"):
        g.neighbors("q")
    with pytest.raises(ValueError, match="shape"):
        LexiconGraph("t", ("x", "y"), A)
    with pytest.raises(ValueError, match="unique"):
        LexiconGraph("t", ("x", "x", "y"), A)


def test_graph_from_lexicon_exact_and_symmetrised():
    words = ["car", "auto", "Car", "tree", "bush"]
    lex = {"car": {"auto", "vehicle"}, "bush": {"tree"}}
    g = graph_from_lexicon(words, lex, name="toy")
    assert g.neighbors("auto") == ["car"]  # symmetrised
    assert g.neighbors("Car") == []  # case-sensitive
    assert g.neighbors("tree") == ["bush"]
    empty = graph_from_lexicon(words, {"zzz": {"yyy"}})
    assert empty.n_edges == 0


def test_wordnet_graph_uses_base_forms(wn):
    assert base_forms("dogs", wn) >= {"dogs", "dog"}
    words = ["dog", "dogs", "canine", "puppy", "car", "automobile", "cars", "the", "run", "ran"]
    g = wordnet_graph(words, wordnet=wn)
    assert "canine" in g.neighbors("dogs")  # dogs -> dog, hypernym canine
    assert "puppy" in g.neighbors("dog")  # hyponym
    assert "automobile" in g.neighbors("cars")  # synonym through morphy
    assert g.neighbors("the") == []
    assert "dogs" not in g.neighbors("dog")  # same base form: not linked by default
    g2 = wordnet_graph(words, wordnet=wn, link_inflections=True)
    assert "dogs" in g2.neighbors("dog") and "ran" in g2.neighbors("run")
    syn_only = wordnet_graph(words, wordnet=wn, relations=("synonym",))
    assert "canine" not in syn_only.neighbors("dog") and "automobile" in syn_only.neighbors("car")
    with pytest.raises(ValueError, match="relations"):
        wordnet_relations(wn, relations=("antonym",))


def test_framenet_graph_shared_frames(wn):
    frames = {"Vehicle": {"car", "automobile", "truck"}, "Buy": {"buy", "purchase"}}
    g = framenet_graph(["cars", "truck", "bought", "purchase", "apple"], frames=frames, wordnet=wn)
    assert g.neighbors("cars") == ["truck"]
    assert g.neighbors("bought") == ["purchase"]
    assert g.neighbors("apple") == []
    g_real = framenet_graph(["king", "queen", "monarch", "table"], wordnet=wn)
    assert "queen" in g_real.neighbors("king")


def test_ppdb_graph_bundled():
    g = ppdb_graph(["car", "automobile", "cars", "zzzz"])
    assert "automobile" in g.neighbors("car")
    assert g.neighbors("zzzz") == []
    assert lexicon_graph("ppdb", ["car", "automobile"]).n_edges == 1
    with pytest.raises(ValueError, match="unknown lexicon graph"):
        lexicon_graph("thesaurus", ["car"])
