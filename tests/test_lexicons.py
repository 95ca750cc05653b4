"""Tests of workbench.lexicons: the lexicon adjacency, the similarity graphs (WordNet / PPDB /
FrameNet) and the lexicon views."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.lexicons import (
    LexiconGraph,
    base_forms,
    framenet_graph,
    graph_from_lexicon,
    graph_view,
    lexicon_adjacency,
    lexicon_graph,
    lexicon_view,
    membership_view,
    ppdb_graph,
    wordnet_graph,
    wordnet_relations,
)
from workbench.views import Vocabulary


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


# ----------------------------------------------------------------------------- lexicon views


def test_graph_and_membership_views():
    vocab = Vocabulary.from_words(["car", "auto", "bike", "tree"])
    g = graph_view(
        {"car": {"auto", "vehicle", "car"}, "bike": {"car"}}, vocab, name="g", family="ppdb"
    )
    z = g.matrix.toarray()
    assert z[0, 1] == z[1, 0] == 1 and z[2, 0] == z[0, 2] == 1 and z[0, 0] == 0
    assert z.sum() == 4 and not g.observed[3]
    fr = membership_view({"Vehicle": {"car", "bike", "boat"}, "Plant": {"tree"}, "X": {"zz"}}, vocab,
                         name="fn", family="framenet")  # fmt: skip
    assert fr.contexts == ("Plant", "Vehicle")
    assert fr.matrix.toarray().tolist() == [[0, 1], [0, 0], [0, 1], [1, 0]]
    v = lexicon_view("framenet", vocab, source={"Vehicle": {"car", "auto"}})
    assert v.family == "framenet" and v.nnz == 2
    p = lexicon_view("ppdb", vocab, source={"car": {"auto"}})
    assert p.name == "ppdb" and p.nnz == 2
    with pytest.raises(ValueError, match="unknown lexicon kind"):
        lexicon_view("thesaurus", vocab)
    with pytest.raises(ValueError, match="no edge"):
        graph_view({"a": {"b"}}, vocab, name="g", family="ppdb")


class _FakeLemma:
    def __init__(self, name, related=()):
        self._name, self._related = name, related

    def name(self):
        return self._name

    def derivationally_related_forms(self):
        return [_FakeLemma(r) for r in self._related]


class _FakeSynset:
    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name


class _FakeWordNet:
    """morphy / lemmas / synsets of a tiny WordNet (duck-typed like nltk's reader)."""

    base = {"dogs": "dog", "dog": "dog", "ran": "run", "run": "run", "runner": "runner"}
    deriv = {"run": ("runner",)}
    syn = {
        "car": ["car.n.01"],
        "automobile": ["car.n.01"],
        "dog": ["dog.n.01"],
        "dogs": ["dog.n.01"],
    }

    def morphy(self, word, pos):
        return self.base.get(word) if pos == "n" else None

    def lemmas(self, word):
        return [_FakeLemma(word, self.deriv.get(word, ()))]

    def synsets(self, word):
        return [_FakeSynset(s) for s in self.syn.get(word, [])]


def test_morphology_and_synonym_views_with_a_small_wordnet():
    vocab = Vocabulary.from_words(
        ["dogs", "dog", "ran", "run", "runner", "car", "automobile", "zzzq"]
    )
    m = lexicon_view("morphology", vocab, source=_FakeWordNet())
    assert set(m.contexts) == {"dog", "run", "runner"}
    z = m.matrix.toarray()
    col = {c: i for i, c in enumerate(m.contexts)}
    assert z[vocab.id("ran"), col["run"]] == 1 and z[vocab.id("ran"), col["runner"]] == 1
    assert z[vocab.id("dogs"), col["dog"]] == 1 and z[vocab.id("dog"), col["dog"]] == 1
    assert not m.observed[vocab.id("zzzq")] and not m.observed[vocab.id("car")]
    s = lexicon_view("synonyms", vocab, source=_FakeWordNet())
    assert s.contexts == ("car.n.01", "dog.n.01")
    assert s.matrix.sum() == 4 and s.family == "synonyms"


@pytest.mark.slow
def test_wordnet_morphology_and_synonym_views():
    from workbench.datasets import load_wordnet

    wn = load_wordnet()
    vocab = Vocabulary.from_words(
        ["dogs", "dog", "ran", "run", "runner", "car", "automobile", "zzzq"]
    )
    m = lexicon_view("morphology", vocab, source=wn)
    row = dict(m.top_contexts("ran", 20))
    assert "run" in row and "dog" in dict(m.top_contexts("dogs", 20))
    assert not m.observed[vocab.id("zzzq")]
    s = lexicon_view("synonyms", vocab, source=wn)
    z = s.matrix.toarray()
    assert (z[vocab.id("car")] * z[vocab.id("automobile")]).sum() >= 1  # share car.n.01
    assert s.family == "synonyms"


# ----------------------------------------------------------------------------- lexicon adjacency


def test_lexicon_adjacency_directed_symmetric_and_from_a_graph():
    words = ["a", "b", "c", "d"]
    lex = {
        "a": {"b", "a", "zz"},
        "c": ["b", "b"],
        "zz": {"d"},
    }  # self-loop, unknown word, duplicate
    A = lexicon_adjacency(words, lex)
    assert A.dtype == np.float64 and A.shape == (4, 4)
    np.testing.assert_array_equal(
        A.toarray(), [[0, 1, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    )
    S = lexicon_adjacency(words, lex, symmetric=True)
    np.testing.assert_array_equal(
        S.toarray(), [[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    )
    g = graph_from_lexicon(words, lex)  # the graphs are built on the same adjacency
    np.testing.assert_array_equal(g.adjacency.toarray(), S.toarray())
    np.testing.assert_array_equal(lexicon_adjacency(["c", "b", "q"], g).toarray(),
                                  [[0, 1, 0], [1, 0, 0], [0, 0, 0]])  # fmt: skip
    with pytest.raises(TypeError, match="LexiconGraph or a mapping"):
        lexicon_adjacency(words, [("a", "b")])
    with pytest.raises(TypeError, match=r"lexicon\['a'\] must be an iterable of words"):
        lexicon_adjacency(words, {"a": "b"})
