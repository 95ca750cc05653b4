"""Widget builders of workbench.explore build without a kernel and their callbacks write output.

The callbacks append to the ``Output`` widget kernel-side (``out.outputs``), so the text and
tables they show can be checked in plain Python.
"""

from __future__ import annotations

import re
from html import escape as html_escape

import ipywidgets as widgets
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from workbench.embeddings import MultiSenseVectors, WordVectors
from workbench.evaluation import WordSimResult
from workbench.explore._output import (
    append_display,
    append_table,
    clamp_note,
    describe,
    output_area,
    resolve_word,
    show_message,
    split_queries,
    word_missing,
)
from workbench.explore.ablation import ablation_detail, ablation_explorer, readable_detail
from workbench.explore.eigenwords import default_word, prior_knowledge_explorer
from workbench.explore.fusion import FusionExplorer, fusion_explorer, readable_rows
from workbench.explore.gcca import fit_error_note, mvlsa_explorer, support_note
from workbench.explore.mvlsa import mvlsa_study_explorer
from workbench.explore.senses import component_browser, word_inspector
from workbench.explore.significance import comparison_explorer, mrds_calculator
from workbench.explore.tour import coverage_explorer
from workbench.explore.views import top_contexts_table, view_inspector
from workbench.lexicons import LexiconGraph
from workbench.rpca import difference_matrix, ex_rpca, pca
from workbench.senses import SenseNeighbours
from workbench.significance import compare_wordsim
from workbench.studies import mvlsa as mx
from workbench.templating import pvalue
from workbench.views import View, Vocabulary


def _texts(out) -> str:
    return "".join(o["text"] for o in out.outputs if o["output_type"] == "stream")


def _is_prose(o) -> bool:
    html = o.get("data", {}).get("text/html", "")
    return o["output_type"] == "display_data" and html.startswith("<p>") and "<table" not in html


def _tables(out) -> list[dict]:
    return [
        o["data"] for o in out.outputs if o["output_type"] == "display_data" and not _is_prose(o)
    ]


def _shown(out) -> str:
    """The text lines of ``out`` in order: its stream text and its paragraphs (``append_text``,
    one per line)."""
    return "".join(o["text"] if o["output_type"] == "stream" else o["data"]["text/plain"] + "\n"
                   for o in out.outputs if o["output_type"] == "stream" or _is_prose(o))  # fmt: skip


def _body_rows(html: str) -> int:
    return html.split("<tbody>")[1].count("<tr>")


def test_append_display_formats_like_display():
    out = widgets.Output()
    append_display(out, pd.DataFrame({"a": [1, 2]}))
    (data,) = _tables(out)
    assert "<table" in data["text/html"] and "a" in data["text/plain"]


def test_coverage_explorer():
    vocab = ["the", "cat", "dog", "sat", "mat", "log"]
    sets = {
        "pairs": pd.DataFrame({"word1": ["cat", "dog", "emu"], "word2": ["dog", "log", "cat"]}),
        "questions": [("cat", "dog", "mat", "log")],
    }
    box = coverage_explorer(vocab, sets, max_examples=5)
    assert isinstance(box, widgets.Widget)
    (slider, dropdown), out = box.children[0].children, box.children[1]
    assert (slider.min, slider.max, slider.value) == (6, 6, 6)  # never beyond the vocabulary
    text = _texts(out)
    assert text == "pairs: 1 of 3 items not covered (33.3 %) by the 6 most frequent words\n"
    missing, coverage = [t["text/html"] for t in _tables(out)]
    assert "emu / cat" in missing and "not in the corpus" in missing
    assert "<b>Coverage of every set at a cut-off of 6 words</b>" in coverage
    assert "<td>66.7</td>" in coverage and "<td>100.0</td>" in coverage  # in %, one decimal
    dropdown.value = "questions"
    assert _texts(out) == (
        "questions: 0 of 1 items not covered (0.0 %) by the 6 most frequent words\n"
    )
    assert len(_tables(out)) == 1  # no empty list of missing items


def test_coverage_explorer_lists_the_chosen_set_first_with_ranks_and_a_count():
    vocab = [f"w{i}" for i in range(3000)]
    pairs = pd.DataFrame({"word1": [f"w{i}" for i in range(0, 3000, 100)] + ["zzz"],
                          "word2": ["w0"] * 31})  # fmt: skip
    box = coverage_explorer(vocab, {"RW": pairs}, max_examples=5)
    (slider, dropdown), out = box.children[0].children, box.children[1]
    assert slider.description == "vocabulary cut-off" and slider.tooltip
    assert dropdown.description == "evaluation set" and dropdown.tooltip
    assert slider.readout_format == ",d" and slider.value == 3000
    slider.value = 1000
    assert _texts(out).startswith("RW: 21 of 31 items not covered (67.7 %) by the 1,000 most")
    missing = _tables(out)[0]["text/html"]
    assert out.outputs[0]["output_type"] == "stream"  # the chosen set first
    assert "rank 1,001" in missing and "not in the corpus" in missing
    assert "show all 21 rows (16 more)" in missing


def _wsr(pred, gold, name="x"):
    return WordSimResult(
        name, float("nan"), float("nan"), len(gold), int(np.sum(~np.isnan(pred))), (), pred, gold
    )


def test_significance_widgets():
    calc = mrds_calculator(n=353, r_ab=0.9)
    assert isinstance(calc, widgets.Widget)
    html = calc.children[-1]
    assert "correlation MRDS</b> σ = 3.9 points" in html.value  # Table 2: WS, r 0.9, p 0.05
    calc.children[0].value = 2000
    assert "correlation MRDS" in html.value and "n = 2,000" in html.value

    rng = np.random.default_rng(0)
    gold = rng.normal(size=60)
    a = _wsr(gold + rng.normal(size=60), gold)
    b = _wsr(gold + 0.5 * rng.normal(size=60), gold)
    box = comparison_explorer({"x": a}, {"x": b}, labels=("A", "B"))
    assert isinstance(box, widgets.Widget)
    out = box.children[-1]
    assert _texts(out).startswith("A: Spearman ")
    assert "MRDS at the observed r_AB" in _texts(out)
    assert len(_tables(out)) == 1  # the table of dependent-correlation tests
    box.children[1].value = "greater"
    assert _texts(out).count("A: Spearman ") == 1


def test_significance_widgets_speak_in_points_and_one_p_format():
    rng = np.random.default_rng(0)
    gold = rng.normal(size=200)
    a = _wsr(gold + rng.normal(size=200), gold)
    b = _wsr(gold + 0.3 * rng.normal(size=200), gold)
    box = comparison_explorer({"x": a}, {"x": b}, labels=("A", "B"))
    out = box.children[-1]
    c = compare_wordsim(a, b)
    text = _texts(out)
    assert f"A: Spearman {100 * c.r_a:.1f} points; B: {100 * c.r_b:.1f} points" in text
    assert f"difference B − A: {100 * c.difference:+.1f} points" in text
    assert "p = < 0.001" in text  # B is much better: the one p format, not 0.0000
    table = _tables(out)[0]["text/html"]
    assert "<td>&lt; 0.001</td>" in table and "e-" not in table
    assert "points</td>" in table  # zou2007's interval of the difference, in points
    assert not re.search(r"\d\.\d{4}", text + table)  # no raw fractions with 4+ decimals


def test_mrds_calculator_labels_its_controls_and_says_when_it_limits_n():
    calc = mrds_calculator()
    w_n, w_r, w_p, w_m, w_alt, html = calc.children
    for w in (w_n, w_r, w_p, w_m, w_alt):
        assert w.description and w.tooltip, w
    assert w_alt.description == "alternative" and len(w_alt.tooltips) == 2
    w_n.value = 2
    assert "n = 2 is less than allowed" in html.value and "n = 5," in html.value
    w_n.value = 50_000_000
    assert "n = 50,000,000 is more than allowed" in html.value and "n = 10,000,000" in html.value
    w_n.value = 5
    assert "allowed" not in html.value
    assert "none — no difference is significant at this size" in html.value


def test_prior_knowledge_explorer():
    words = ["king", "queen", "monarch", "apple"]
    A = np.zeros((4, 4))
    A[0, 1] = A[1, 0] = A[0, 2] = A[2, 0] = 1
    g = LexiconGraph("wn", tuple(words), sp.csr_matrix(A))
    vecs = WordVectors(words, np.array([[1.0, 0.1], [0.9, 0.2], [0.2, 1.0], [-1.0, 0.0]]))
    box = prior_knowledge_explorer({"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    assert isinstance(box, widgets.Widget)
    text_w, out = box.children[0].children[0], box.children[1]
    assert _texts(out) == "'king': 2 neighbours in wn\n"
    assert "queen" in _tables(out)[0]["text/html"]
    text_w.value = "apple"
    assert _texts(out) == "'apple': 0 neighbours in wn\n"


def test_prior_knowledge_explorer_labels_lookup_and_clamp():
    """Notebook 06: labelled controls, case-insensitive lookup, a note when the number of
    neighbours is limited, and a table without padding rows."""
    words = ["king", "queen", "monarch", "apple"]
    A = np.zeros((4, 4))
    A[0, 1] = A[1, 0] = A[0, 2] = A[2, 0] = 1
    g = LexiconGraph("wn", tuple(words), sp.csr_matrix(A))
    vecs = WordVectors(words, np.array([[1.0, 0.1], [0.9, 0.2], [0.2, 1.0], [-1.0, 0.0]]))
    box = prior_knowledge_explorer({"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    text_w, lex, n_shown = box.children[0].children
    out = box.children[1]
    for w in (text_w, lex, n_shown):
        assert w.description and w.tooltip
    text_w.value = "KING"
    assert _texts(out) == "'KING' is looked up as 'king'\n'king': 2 neighbours in wn\n"
    assert "queen" in _tables(out)[0]["text/html"]
    n_shown.value = 8
    text = _texts(out)
    assert "neighbours = 8 is more than allowed (the smallest embedding has 4 words); " in text
    assert "showing neighbours = 3." in text
    assert _body_rows(_tables(out)[0]["text/html"]) == 3  # no padding rows


def test_sense_widgets():
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
    model, comp = box.children[0].children
    assert model.description and model.tooltip and comp.description and comp.tooltip
    assert comp.max == 3  # the largest rank of the models
    model.value = "PCA"
    comp.value = 3
    assert _texts(out).startswith("PCA: component 3, explained variance ")
    model.value = "Ex-RPCA"  # rank 2: component 3 is limited, with a note
    assert _texts(out).splitlines() == [
        "component = 3 is more than allowed (Ex-RPCA has rank 2); showing component = 2.",
        _texts(out).splitlines()[1],
    ]
    assert _texts(out).splitlines()[1].startswith("Ex-RPCA: component 2, explained variance ")
    html = _tables(out)[0]["text/html"]
    assert "sense pair" in html and "|cos|" in html and "pseudo" in html

    insp = word_inspector(msv, labels, results["Ex-RPCA"], index, topn=3, word="w0")
    assert isinstance(insp, widgets.Widget)
    word, out = insp.children
    assert word.description and word.tooltip
    senses_t, pairs_t = (t["text/html"] for t in _tables(out))
    assert senses_t.count("w0_") == 3 and pairs_t.count("(0, 1)") == 1  # 3 senses, 3 pairs
    assert _body_rows(pairs_t) == 3 and "||S_p||_2" in pairs_t
    word.value = "w3"  # one sense, no pairs -> not an option; still handled
    assert _texts(out) == "'w3' has one sense: no sense pair\n"
    assert ", ".join(index.neighbours("w3", 0, 3)) in _tables(out)[0]["text/html"]
    word.value = "W0"  # looked up in lower case
    assert _texts(out) == "'W0' is looked up as 'w0'\n" and len(_tables(out)) == 2
    word.value = "zzz"
    assert _texts(out) == "'zzz' is not in the vocabulary\n"


# ------------------------------------------------------------------ every explorer: defaults,
# unknown words and empty selections give a short message, never a stale result


def test_output_area_grows_with_its_content_and_messages_replace_results():
    out = output_area()
    assert not out.layout.max_height and out.layout.overflow == "visible"
    append_display(out, pd.DataFrame({"a": [1]}))
    show_message(out, "nothing to show")
    assert _texts(out) == "nothing to show\n" and not _tables(out)


def test_long_tables_fold_their_rest_and_say_how_many_rows():
    out = output_area()
    append_table(out, pd.DataFrame({"a": range(45)}), caption="Scores", rows=20)
    (html_out,) = [o["data"]["text/html"] for o in out.outputs]
    visible, folded = html_out.split("<details>")
    assert "<b>Scores</b>" in visible and visible.count("<td>") == 20
    assert "show all 45 rows (25 more)" in folded and folded.count("<td>") == 25
    out = output_area()
    append_table(out, pd.DataFrame({"a": range(3)}))
    assert "<details>" not in out.outputs[0]["data"]["text/html"]


def test_words_are_looked_up_the_same_way_everywhere():
    vocab = {"king", "Paris"}
    assert resolve_word(" King ", vocab) == "king" and resolve_word("Paris", vocab) == "Paris"
    assert resolve_word("paris", vocab) is None and resolve_word("", vocab) is None
    assert split_queries("KING, zzz", vocab) == (["KING", "zzz"], ["king"], ["zzz"])
    out = output_area()
    assert not word_missing(out, "King", vocab) and word_missing(out, "Queen", vocab)
    assert _texts(out) == "'Queen' is not in the vocabulary\n"


def test_controls_carry_labels_tooltips_and_clamping_notes():
    w = describe(widgets.IntSlider(), "neighbours", "how many nearest words to list")
    assert (w.description, w.tooltip, w.style.description_width) == (
        "neighbours",
        "how many nearest words to list",
        "initial",
    )
    assert clamp_note("n", 500, 40, "the vocabulary has 40 words") == (
        "n = 500 is more than allowed (the vocabulary has 40 words); showing n = 40."
    )


def test_p0_sliders_reach_the_conventional_thresholds():
    calc = mrds_calculator()
    slider = calc.children[2]
    assert slider.value == 0.05 and slider.label == "0.05"  # exactly, not 10^-1.3
    assert {0.05, 0.01, 0.001} <= {v for _, v in slider.options}
    slider.value = 0.01
    assert "correlation MRDS" in calc.children[-1].value
    rng = np.random.default_rng(0)
    gold = rng.normal(size=40)
    box = comparison_explorer({"x": _wsr(gold + rng.normal(size=40), gold)},
                              {"x": _wsr(gold + rng.normal(size=40), gold)})  # fmt: skip
    assert box.children[0].children[1].value == 0.05
    empty = comparison_explorer({"x": _wsr(gold, gold)}, {"y": _wsr(gold, gold)})
    assert _texts(empty.children[-1]) == "the two systems share no rating set\n"


def test_prior_knowledge_explorer_default_word_has_a_full_table():
    """Notebook 06: the default word must be in the (small) vocabulary with graph neighbours."""

    words = ["the", "queen", "monarch", "apple"]  # no "king" in this vocabulary
    A = np.zeros((4, 4))
    A[1, 2] = A[2, 1] = 1
    g = LexiconGraph("wn", tuple(words), sp.csr_matrix(A))
    vecs = WordVectors(words, np.array([[1.0, 0.1], [0.9, 0.2], [0.2, 1.0], [-1.0, 0.0]]))
    assert default_word({"wn": g}, {"*": {"Eigen": vecs}}) == "queen"
    box = prior_knowledge_explorer({"wn": g}, {"*": {"Eigen": vecs}}, topn=2)
    text_w, out = box.children[0].children[0], box.children[1]
    assert text_w.value == "queen" and _texts(out) == "'queen': 1 neighbour in wn\n"
    table = _tables(out)[0]["text/html"]
    assert "monarch" in table and "Eigen" in table
    text_w.value = "zebra"
    assert _texts(out) == "'zebra' is not in the vocabulary (4 words)\n" and not _tables(out)
    text_w.value = " "
    assert _texts(out) == "type a word\n"


def test_word_inspector_unknown_word_replaces_the_previous_result():
    """Notebook 09: an unknown word gives a message, not the previous word's senses."""

    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(6)]
    n_senses = [3, 2, 2, 1, 2, 1]
    msv = MultiSenseVectors(words, rng.standard_normal((6, 5)),
                            [rng.standard_normal((k, 5)) for k in n_senses],
                            [rng.standard_normal((k, 5)) for k in n_senses])  # fmt: skip
    M, labels = difference_matrix(msv)
    ex = ex_rpca(M, 2, random_state=0)
    box = word_inspector(msv, labels, ex, SenseNeighbours(msv))
    word, out = box.children
    assert not word.ensure_option  # the frontend must send unknown words too
    noisiest = labels[int(np.argmax(np.linalg.norm(ex.sparse, axis=0)))][0]
    assert word.value == noisiest and f"{noisiest}_0" in _tables(out)[0]["text/html"]
    word.value = "nope"
    assert _texts(out) == "'nope' is not in the vocabulary\n" and not _tables(out)
    word.value = ""
    assert "type a word" in _texts(out)
    assert not out.layout.max_height  # the output grows with its content


def _small_views(families=("a", "a", "b"), n_words=12):
    vocab = Vocabulary.from_words([f"w{i}" for i in range(n_words)] + ["Paris"])
    rng = np.random.default_rng(0)
    return [View(f"v{j}", sp.csr_array(rng.poisson(1.0, (n_words + 1, 5)).astype(float)),
                 tuple(f"c{i}" for i in range(5)), np.ones(n_words + 1, bool), fam, vocab)
            for j, fam in enumerate(families)]  # fmt: skip


def test_view_inspector_grows_and_messages(tmp_path):
    views = _small_views()
    box = view_inspector(views, default_word="not-a-word")  # falls back to a vocabulary word
    (word, n), checks, out = box.children[0].children, box.children[1], box.children[2]
    ticks = dict(zip(["a", "b"], checks.children))
    assert word.value in views[0].vocab and len(_tables(out)) == 2
    assert not out.layout.max_height and out.layout.overflow == "visible"
    for w in (word, n, *ticks.values()):
        assert w.description and w.tooltip
    assert ticks["a"].description == "a (2)" and ticks["a"].value  # every family ticked, visibly
    ticks["a"].value = ticks["b"].value = False
    assert _texts(out) == "tick at least one view family\n" and not _tables(out)
    ticks["b"].value = True
    word.value = "zzz"
    assert _texts(out).startswith("'zzz' is not in the vocabulary") and not _tables(out)
    word.value = "w3"
    assert (
        len(_tables(out)) == 1
        and "<b>b: observed in 1 of 1 views</b>" in _tables(out)[0]["text/html"]
    )


def test_view_inspector_looks_words_up_like_every_explorer():
    views = _small_views()
    box = view_inspector(views)
    word, out = box.children[0].children[0], box.children[2]
    word.value = "W3"  # lower case found
    assert _texts(out).startswith("top 10 contexts of w3 (typed 'W3')")
    word.value = "Paris"  # as typed first
    assert _texts(out).startswith("top 10 contexts of Paris, per view")
    word.value = "paris"  # not lower-cased into a match the other way
    assert "'paris' is not in the vocabulary" in _texts(out)


def test_view_inspector_tables_are_neither_padded_nor_cut_and_counts_are_integers():
    vocab = Vocabulary.from_words(["god", "lord"])
    one = sp.csr_array(np.array([[1024.0, 0, 0], [0, 2, 3]]))
    many = [View(f"rel{j}", one, ("dios", "señor", "x"), np.array([True, True]), "dependency",
                 vocab) for j in range(25)]  # fmt: skip
    bitext = View("bitext", one, ("dios", "señor", "x"), np.array([True, True]), "bitext", vocab)
    box = view_inspector([*many, bitext], default_word="god")
    out = box.children[2]
    bi, dep = [t["text/html"] for t in _tables(out)]
    assert bi.count("<tr>") == 2  # header + one row: no empty padding rows
    assert "dios (1,024)" in bi and "e+03" not in bi
    assert dep.count("<tr>") == 26 and "<details>" not in dep and "…" not in dep
    assert "rel24" in dep  # every view shown, none cut
    unseen = View("rel_x", one, ("dios", "señor", "x"), np.array([False, True]), "dependency",
                  vocab)  # fmt: skip
    box = view_inspector([*many, unseen], default_word="god")
    (dep,) = [t["text/html"] for t in _tables(box.children[2])]
    assert "observed in 25 of 26 views; not in rel_x" in dep and dep.count("<tr>") == 26
    table = top_contexts_table([bitext], "god", topn=10)
    assert len(table) == 1 and table.iloc[0, 0] == "dios (1,024)"


def test_coverage_explorer_without_datasets_says_so():
    box = coverage_explorer(["a", "b"], {})
    assert _texts(box.children[1]) == "no evaluation set to show\n"


# ------------------------------------------------------------------ MVLSA explorers (03, 04, 05)


def _planted(n=80, seed=0):
    """Two 'signal' views and one 'noise' view over n words, and a rating set on the signal."""

    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(n)]
    vocab = Vocabulary.from_words(words)
    z = rng.standard_normal((n, 3))
    views = []
    for j, fam in enumerate(["signal", "signal", "noise"]):
        mat = (z @ rng.standard_normal((3, 20)) + 0.3 * rng.standard_normal((n, 20))
               if fam == "signal" else rng.poisson(1.0, (n, 20)).astype(float))  # fmt: skip
        m = sp.csr_array(mat)
        views.append(View(f"{fam}{j}", m, tuple(f"c{i}" for i in range(20)),
                          np.diff(m.indptr) > 0, fam, vocab))  # fmt: skip
    vs = mx.ViewSet(vocab, tuple(views), {"n_tokens": 0})
    pairs = rng.choice(n, size=(200, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    zn = z / np.linalg.norm(z, axis=1, keepdims=True)
    ratings = pd.DataFrame({"word1": [words[i] for i in pairs[:, 0]],
                            "word2": [words[i] for i in pairs[:, 1]],
                            "score": np.einsum("ij,ij->i", zn[pairs[:, 0]], zn[pairs[:, 1]])})  # fmt: skip
    ratings.attrs["name"] = "MEN"
    return vs, z, ratings


CFG_KW = dict(transform="identity", view_rank=6, n_components=3, random_state=0)


def test_mvlsa_study_explorer_t_dropdown_and_messages():
    """Notebook 03: "all" is a real (non-blank) dropdown value; unknown queries and an empty
    family selection give messages; the output names the setting it shows."""

    vs, _, ratings = _planted()
    box = mvlsa_study_explorer(vs, mx.MVLSAConfig(**CFG_KW), queries=("w0", "nope"),
                               view_ranks=(3, 6), top_ts=(10,), wordsim=(ratings,))  # fmt: skip
    w_n, w_t, w_m = box.children[0].children
    fams, queries, out = box.children[2], box.children[3], box.children[5]
    assert w_t.value == "all" and w_t.label == "all"  # a blank dropdown had value None
    assert w_n.label == "Count"  # the paper's name, not the parameter value "identity"
    text = _shown(out)
    assert text.startswith("setting shown: n_j = Count, t = all, m = 3, r = 1e-08, v = 0, k = ")
    assert text.endswith("view families: signal, noise\nnot in the vocabulary: 'nope'\n")
    tables = _tables(out)
    assert len(tables) == 2 and "w0" in tables[0]["text/html"]
    assert "Spearman ρ × 100 (points)" in tables[1]["text/html"]
    w_t.value = 10
    w_t.value = "all"
    fams.value = ()
    assert _shown(out) == "select at least one view family\n" and not _tables(out)
    fams.value = ("signal",)
    status = box.children[4].children[1]
    assert "press <b>fit</b>" in status.value
    box.children[4].children[0].click()
    assert "view families: signal\n" in _shown(out)
    assert status.value == "fitted (2 setting(s) in the cache)"
    queries.value = "zzz"
    assert _shown(out).endswith("not in the vocabulary: 'zzz'\n") and len(_tables(out)) == 1
    box.children[1].children[1].value = len(vs.views)  # v = 3 > the 2 chosen views: a message
    box.children[4].children[0].click()
    assert _shown(out) == (
        "v (minimum support) = 3 is more than the 2 chosen views: no word can be observed in "
        "more views than there are, so none would be kept; choose v <= 2.\n"
    )
    assert "min_view_support" not in _shown(out) and not _tables(out)


def test_mvlsa_study_explorer_refits_only_on_the_button(monkeypatch):
    """Notebook 03: a changed setting, query or k never fits; "fit" does (once per setting);
    k and the queries re-render the fitted setting, and a k above the fit says so."""

    import workbench.explore.mvlsa as explore_mvlsa

    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return mx.fit_mvlsa(*args, **kwargs)

    monkeypatch.setattr(explore_mvlsa, "fit_mvlsa", counted)
    vs, _, ratings = _planted()
    box = mvlsa_study_explorer(vs, mx.MVLSAConfig(**CFG_KW), queries=("w0",),
                               view_ranks=(3, 6), top_ts=(10,), wordsim=(ratings,))  # fmt: skip
    (w_n, w_t, w_m), (w_r, w_v, w_k) = box.children[0].children, box.children[1].children
    fams, queries, buttons, out = box.children[2:]
    fit, status = buttons.children

    def fitted():
        return len(calls)

    assert fitted() == 1
    for w, value in ((w_m, 6), (w_n, "log"), (w_t, 10), (w_r, 1.0), (w_v, 1)):
        w.value = value
    fams.value = ("signal",)
    queries.value = "w1, w2"
    w_k.value = 2
    assert fitted() == 1 and "press <b>fit</b>" in status.value
    text = _shown(out)
    assert "m = 3" in text and "k = 2" in text and "w1" in _tables(out)[0]["text/html"]
    fit.click()
    assert fitted() == 2 and "m = 6, r = 1, v = 1" in _shown(out)
    assert "n_j = Log: log(1 + count), t = 10" in _shown(out)
    fit.click()
    assert fitted() == 2  # cached
    w_m.value, w_v.value, fams.value = 3, 0, ("noise",)  # one view of rank 3: k <= 3
    fit.click()
    w_k.value = 6
    assert fitted() == 3 and "k = 3;" in _shown(out)
    assert "k = 6 is more than allowed (this fit has 3 dimensions); showing k = 3." in _shown(out)
    # every control carries a label and a tooltip
    for w in (w_n, w_t, w_m, w_r, w_v, w_k, fams, queries, fit):
        assert w.tooltip, w
    assert [w.description for w in (w_n, w_t, w_m, w_r, w_v, w_k, fams, queries)] == [
        "n_j (count transform)", "t (contexts kept)", "m (view rank)", "r (regularization)",
        "v (minimum support)", "k (dimensions)", "view families", "query words",
    ]  # fmt: skip
    assert fams.rows == len(fams.options)  # every family visible, so is the selection


def test_gcca_explorer_unknown_query():
    vs, _, _ = _planted()
    box = mvlsa_explorer([v.matrix for v in vs.views], vs.words, queries=["w1", "nope"],
                         view_ranks=(4,), max_components=4)  # fmt: skip
    w_rw = box.children[1].children[0]
    assert w_rw.value == "none" and w_rw.label == "K only"  # not a blank dropdown
    out = box.children[-1]
    assert _shown(out) == "not in the vocabulary: 'nope'\n" and len(_tables(out)) == 1


def test_explorers_name_v_as_the_reader_knows_it():
    """The minimum support is "v" in the explorers, never the estimator's min_view_support."""
    err = ValueError("no row is observed in at least min_view_support=3 views")
    assert (
        fit_error_note(err) == "cannot fit this setting: no row is observed in at least v = 3 views"
    )
    assert support_note(3, 3) is None
    assert support_note(4, 3).startswith("v (minimum support) = 4 is more than the 3 chosen views")


@pytest.fixture(scope="module")
def ablation():
    vs, _, ratings = _planted()
    cfg = mx.MVLSAConfig(**CFG_KW)
    runs = {s: mx.ablation_study(vs, mx.MVLSAConfig(**{**CFG_KW, "random_state": s}),
                                 {"!signal": ["signal"], "!noise": ["noise"]},
                                 wordsim=[ratings], analogies=False)
            for s in (0, 1)}  # fmt: skip
    assert cfg.n_components == 3
    return mx.ablation_seeds(runs)


def test_ablation_detail(ablation):
    text, table = ablation_detail(ablation, "!signal", "MEN")
    assert list(table.index) == [0, 1]
    assert list(table.columns) == ["All views", "without (!signal)", "drop (points)", "p",
                                   "p (Holm)", "significant"]  # fmt: skip
    assert table["drop (points)"].gt(20).all() and table["significant"].all()
    mean = 100 * ablation.drops.mean.loc["!signal", "MEN"]
    assert text.startswith(f"!signal (removes signal) on MEN: drop +{mean:.1f} ± ")
    assert "the removed views helped in 2 of 2 seed(s)" in text
    with pytest.raises(KeyError, match="unknown removal"):
        ablation_detail(ablation, "!nope", "MEN")


def test_ablation_explorer(ablation):
    """Notebook 04: choose the removed family and the rating set; see the drop and its test,
    in points and with p-values in one format; every control labelled."""

    box = ablation_explorer(ablation)
    (w_rem, w_set), out = box.children[0].children, box.children[1]
    assert (w_rem.value, w_set.value) == ("!signal", "MEN")  # a meaningful default
    assert w_rem.label == "!signal (signal)"
    assert (w_rem.description, w_set.description) == ("views removed", "test set")
    assert w_rem.tooltip and w_set.tooltip
    assert _shown(out).startswith("!signal (removes signal) on MEN: drop +")
    assert out.outputs[0]["data"]["text/html"].startswith("<p>")  # wraps between words
    (table,) = _tables(out)
    html = table["text/html"]
    assert "<table" in html and "p (Holm)" in html and "in points" in html
    _, raw = ablation_detail(ablation, "!signal", "MEN")
    for _, row in raw.iterrows():
        assert f"<td>{row['All views']:.1f}</td>" in html
        assert f"<td>{row['drop (points)']:+.1f}</td>" in html
        assert f"<td>{html_escape(pvalue(row['p (Holm)']))}</td>" in html
    assert "<td>yes</td>" in html and "True" not in html
    w_rem.value = "!noise"
    assert _shown(out).startswith("!noise (removes noise) on MEN: drop ")
    assert len(_tables(out)) == 1  # replaced, not appended
    assert not out.layout.max_height  # grows with its content


def test_readable_detail_formats_points_and_p_values():
    raw = pd.DataFrame({"All views": [52.84], "without (!x)": [31.2], "drop (points)": [21.64],
                        "p": [0.0004], "p (Holm)": [0.04412], "significant": [True]},
                       index=pd.Index([0], name="seed"))  # fmt: skip
    text = readable_detail(raw)
    assert text.loc[0].tolist() == ["52.8", "31.2", "+21.6", "< 0.001", "0.044", "yes"]
    assert (
        readable_detail(raw.assign(**{"drop (points)": [np.nan]})).loc[0, "drop (points)"] == "n/a"
    )


@pytest.fixture(scope="module")
def fusion():
    vs, z, ratings = _planted()
    rng = np.random.default_rng(1)
    n = len(vs.words)
    glove = WordVectors(
        vs.words, z @ rng.standard_normal((3, 8)) + 0.3 * rng.standard_normal((n, 8))
    )
    wsg = WordVectors(vs.words, z @ rng.standard_normal((3, 8)) + 0.3 * rng.standard_normal((n, 8)))
    noise = WordVectors(vs.words, rng.standard_normal((n, 6)))
    cfg = mx.MVLSAConfig(**CFG_KW)
    res = mx.fusion_study(vs, cfg, glove=glove, wsg=wsg, corpus_families=("signal",),
                          wordsim=[ratings], analogies=False, extra={"noise": noise})  # fmt: skip
    return vs, cfg, ratings, res


def test_fusion_explorer_reproduces_mv_g_wsg_and_tests_each_part(fusion):
    vs, cfg, ratings, res = fusion
    ex = FusionExplorer.from_result(res, vs.vocab, cfg, wordsim=[ratings], analogies=False)
    table = ex.report(["WSG", "GloVe"])  # any order: the systems' order
    assert list(table.index.get_level_values("part")) == ["GloVe", "WSG"]
    men = table.xs("MEN", level="test set")
    # the default fusion is the notebook's MV-G-WSG (GloVe and WSG alone)
    assert men["fused score"].iloc[0] == pytest.approx(100 * res.scores.loc["MEN", "MV-G-WSG"])
    gain = res.scores.loc["MEN", "MV-G-WSG"] - res.scores.loc["MEN", "GloVe"]
    assert men.loc["GloVe", "gain (points)"] == pytest.approx(100 * gain)
    assert (men["p"] <= men["p (Holm)"]).all() and men["significant"].dtype == bool
    assert len(ex) == 1
    ex.report(["GloVe", "noise"])
    assert len(ex) == 2
    with pytest.raises(ValueError, match="at least two"):
        ex.report(["GloVe"])
    with pytest.raises(KeyError, match="unknown systems"):
        ex.report(["GloVe", "nope"])


def test_fusion_explorer_widget(fusion):
    """Notebook 05: choose systems to fuse; see the score and the test against each part."""

    vs, cfg, ratings, res = fusion
    box = fusion_explorer(res, vs.vocab, cfg, wordsim=[ratings], analogies=False)
    parts = box.children[0].children[0]
    w_set, (w_fuse, status) = (
        box.children[0].children[1].children[0],
        box.children[0].children[1].children[1].children,
    )
    out = box.children[1]
    assert parts.value == ("GloVe", "WSG") and w_set.value == "MEN"  # MV-G-WSG's parts
    assert parts.rows == len(parts.options)  # every system and the selection visible
    assert (parts.description, w_set.description) == ("systems to fuse", "test set")
    assert parts.tooltip and w_set.tooltip and w_fuse.tooltip
    fused = 100 * res.scores.loc["MEN", "MV-G-WSG"]
    assert _shown(out) == (
        f"fusion of GloVe + WSG on MEN: {fused:.1f} points; against each part "
        "(Holm over every part x test set of this fusion):\n"
    )
    (table,) = _tables(out)
    html = table["text/html"]
    assert all(p in html for p in ("GloVe", "WSG"))
    assert "True" not in html and "False" not in html
    parts.value = ("GloVe",)
    assert _shown(out) == "choose at least two systems to fuse\n" and not _tables(out)
    w_fuse.click()
    assert _shown(out) == "choose at least two systems to fuse\n"
    parts.value = ("GloVe", "noise")
    assert _shown(out).startswith("press fuse") and not _tables(out)  # no stale result
    w_fuse.click()
    assert _shown(out).startswith("fusion of GloVe + noise on MEN: ")
    assert "2 fusion(s)" in status.value and len(_tables(out)) == 1


def test_readable_rows_formats_points_and_p_values():
    rows = pd.DataFrame({"part score": [26.34], "fused score": [37.5], "gain (points)": [11.25],
                         "p": [0.0314], "p (Holm)": [0.00012], "significant": [True]},
                        index=pd.Index(["GloVe"], name="part"))  # fmt: skip
    assert readable_rows(rows).loc["GloVe"].tolist() == ["26.3", "+11.2", "0.031", "< 0.001", "yes"]
