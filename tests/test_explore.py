"""Widget builders of workbench.explore build without a kernel and their callbacks write output.

The callbacks append to the ``Output`` widget kernel-side (``out.outputs``), so the text and
tables they show can be checked in plain Python.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

widgets = pytest.importorskip("ipywidgets")


def _texts(out) -> str:
    return "".join(o["text"] for o in out.outputs if o["output_type"] == "stream")


def _tables(out) -> list[dict]:
    return [o["data"] for o in out.outputs if o["output_type"] == "display_data"]


def test_append_display_formats_like_display():
    from workbench.explore._output import append_display

    out = widgets.Output()
    append_display(out, pd.DataFrame({"a": [1, 2]}))
    (data,) = _tables(out)
    assert "<table" in data["text/html"] and "a" in data["text/plain"]


def test_coverage_explorer():
    from workbench.explore.tour import coverage_explorer

    vocab = ["the", "cat", "dog", "sat", "mat", "log"]
    sets = {
        "pairs": pd.DataFrame({"word1": ["cat", "dog", "emu"], "word2": ["dog", "log", "cat"]}),
        "questions": [("cat", "dog", "mat", "log")],
    }
    box = coverage_explorer(vocab, sets, max_examples=5)
    assert isinstance(box, widgets.Widget)
    (slider, dropdown), out = box.children[0].children, box.children[1]
    text = _texts(out)
    assert text.startswith("pairs: 1 of 3 items not covered, e.g.:\n")
    assert "emu / cat" in text
    assert len(_tables(out)) == 1
    dropdown.value = "questions"
    assert _texts(out) == "questions: 0 of 1 items not covered, e.g.:\n\n"
    slider.value = slider.max
    assert len(out.outputs) == 3  # cleared, not accumulated


def _wsr(pred, gold, name="x"):
    from workbench.evaluation import WordSimResult

    return WordSimResult(
        name, float("nan"), float("nan"), len(gold), int(np.sum(~np.isnan(pred))), (), pred, gold
    )


def test_significance_widgets():
    from workbench.explore.significance import comparison_explorer, mrds_calculator

    calc = mrds_calculator(n=353, r_ab=0.9)
    assert isinstance(calc, widgets.Widget)
    html = calc.children[-1]
    assert "correlation MRDS" in html.value
    calc.children[0].value = 2000
    assert "correlation MRDS" in html.value

    rng = np.random.default_rng(0)
    gold = rng.normal(size=60)
    a = _wsr(gold + rng.normal(size=60), gold)
    b = _wsr(gold + 0.5 * rng.normal(size=60), gold)
    box = comparison_explorer({"x": a}, {"x": b}, labels=("A", "B"))
    assert isinstance(box, widgets.Widget)
    out = box.children[-1]
    assert _texts(out).startswith("A: r=")
    assert "MRDS at observed r_AB" in _texts(out)
    assert len(_tables(out)) == 1  # the table of dependent-correlation tests
    box.children[1].value = "greater"
    assert _texts(out).count("A: r=") == 1


def test_prior_knowledge_explorer():
    from workbench.embeddings import WordVectors
    from workbench.explore.eigenwords import prior_knowledge_explorer
    from workbench.lexicon_graphs import LexiconGraph

    words = ["king", "queen", "monarch", "apple"]
    A = np.zeros((4, 4))
    A[0, 1] = A[1, 0] = A[0, 2] = A[2, 0] = 1
    g = LexiconGraph("wn", tuple(words), sp.csr_matrix(A))
    vecs = WordVectors(words, np.array([[1.0, 0.1], [0.9, 0.2], [0.2, 1.0], [-1.0, 0.0]]))
    box = prior_knowledge_explorer({"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    assert isinstance(box, widgets.Widget)
    text_w, out = box.children[0].children[0], box.children[1]
    assert _texts(out) == "'king': 2 neighbours in wn\n"
    assert "queen" in _tables(out)[0]["text/plain"]
    text_w.value = "apple"
    assert _texts(out) == "'apple': 0 neighbours in wn\n"


def test_sense_widgets():
    from workbench.embeddings import MultiSenseVectors
    from workbench.explore.senses import component_browser, word_inspector
    from workbench.rpca import difference_matrix, ex_rpca, pca
    from workbench.senses import SenseNeighbours

    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(8)]
    n_senses = [3, 2, 2, 1, 2, 1, 3, 1]
    senses = [rng.standard_normal((k, 6)) for k in n_senses]
    centers = [rng.standard_normal((k, 6)) for k in n_senses]
    msv = MultiSenseVectors(words, rng.standard_normal((8, 6)), senses, centers)
    M, labels = difference_matrix(msv)
    index = SenseNeighbours(msv)
    results = {"Ex-RPCA": ex_rpca(M, 2, random_state=0), "PCA": pca(M, 3)}

    box = component_browser(M, labels, results, index, n_top=2)
    assert isinstance(box, widgets.Widget)
    out = box.children[1]
    assert _texts(out).startswith("Ex-RPCA: component 1, explained variance ")
    assert len(_tables(out)) == 1
    box.children[0].children[0].value = "PCA"
    box.children[0].children[1].value = 3
    assert _texts(out).startswith("PCA: component 3, explained variance ")

    insp = word_inspector(msv, labels, results["Ex-RPCA"], index, topn=3)
    assert isinstance(insp, widgets.Widget)
    word, out = insp.children
    lines = _texts(out).splitlines()
    assert lines[0].startswith("w0_0: ") and len(lines) == 3 + 3  # 3 senses, 3 pairs
    assert lines[3].startswith("pair (0, 1): ||S_p||_2 = ")
    word.value = "w3"  # one sense, no pairs -> not an option; still handled
    assert _texts(out).splitlines() == [f"w3_0: {', '.join(index.neighbours('w3', 0, 3))}"]
    word.value = "zzz"
    assert _texts(out) == "'zzz' is not in the vocabulary\n"
