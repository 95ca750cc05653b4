"""Widgets of the eigenwords-with-prior-knowledge notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Mapping

import ipywidgets as widgets
import pandas as pd

from workbench.embeddings import WordVectors
from workbench.explore._output import append_display, output_area, show_message
from workbench.lexicons import LexiconGraph

__all__ = ["FALLBACK_WORDS", "default_word", "neighbour_table", "prior_knowledge_explorer"]

#: Common content words tried, in order, when the requested initial word is missing.
FALLBACK_WORDS = ("good", "house", "man", "great", "time", "water", "king")


def neighbour_table(
    word: str,
    lexicon: str,
    graphs: Mapping[str, LexiconGraph],
    embeddings: Mapping[str, Mapping[str, WordVectors]],
    *,
    topn: int = 10,
) -> pd.DataFrame:
    """Graph neighbours and nearest neighbours of ``word`` side by side.

    Parameters
    ----------
    word : str
    lexicon : str
        Key of ``graphs`` (e.g. ``"wordnet"``).
    graphs : mapping lexicon -> LexiconGraph
    embeddings : mapping lexicon -> (mapping label -> WordVectors)
        The embeddings to compare for that lexicon, e.g. ``{"Eigen": ..., "CCAPrior a=0.5":
        ..., "Eigen + RF": ...}``; a key ``"*"`` holds embeddings shown for every lexicon.

    Returns
    -------
    DataFrame
        One column per embedding (``"word (cos)"`` strings) plus ``"graph neighbours"``;
        ``topn`` rows. Missing words give empty columns.
    """
    if lexicon not in graphs:
        raise KeyError(f"unknown lexicon {lexicon!r}; available: {sorted(graphs)}")
    g = graphs[lexicon]
    nbrs = g.neighbors(word) if word in g else []
    cols: dict[str, list[str]] = {"graph neighbours": nbrs[:topn]}
    shown = {**embeddings.get("*", {}), **embeddings.get(lexicon, {})}
    for label, vecs in shown.items():
        if word in vecs:
            cols[label] = [f"{w} ({c:.2f})" for w, c in vecs.most_similar(word, topn=topn)]
        else:
            cols[label] = []
    n = max([topn] + [len(v) for v in cols.values()])
    data = {k: v + [""] * (n - len(v)) for k, v in cols.items()}
    return pd.DataFrame(data).head(topn)


def default_word(
    graphs: Mapping[str, LexiconGraph],
    embeddings: Mapping[str, Mapping[str, WordVectors]],
    preferred: str = "king",
) -> str:
    """A word whose neighbour table is full: ``preferred`` if every embedding has it and it has
    neighbours in the first lexicon's graph, else the first such of :data:`FALLBACK_WORDS`, else
    the first content-looking word (alphabetic, four letters or more, three graph neighbours or
    more) of the first embedding (the most frequent for embeddings ordered by frequency), else
    any word with graph neighbours.

    Raises ValueError when no word qualifies (e.g. no embedding given).
    """
    shown = [v for group in embeddings.values() for v in group.values()]
    if not graphs or not shown:
        raise ValueError(
            "prior_knowledge_explorer needs at least one lexicon graph and one embedding"
        )
    g = graphs[next(iter(graphs))]

    def full(w: str) -> bool:
        return all(w in v for v in shown) and w in g and len(g.neighbors(w)) > 0

    for w in (preferred, *FALLBACK_WORDS):
        if full(w):
            return w
    for w in shown[0]:
        if full(w) and len(w) >= 4 and w.isalpha() and len(g.neighbors(w)) >= 3:
            return str(w)
    for w in shown[0]:
        if full(w):
            return str(w)
    for w in shown[0]:  # no word with graph neighbours: at least the nearest neighbours
        if all(w in v for v in shown):
            return str(w)
    raise ValueError("no word is in every embedding")


def prior_knowledge_explorer(
    graphs: Mapping[str, LexiconGraph],
    embeddings: Mapping[str, Mapping[str, WordVectors]],
    *,
    word: str = "king",
    topn: int = 10,
) -> widgets.VBox:
    """Pick a word and a lexicon; see its graph neighbours and its nearest neighbours
    before/after prior knowledge (CCAPrior) and retrofitting.

    Parameters are as in :func:`neighbour_table`; ``word`` is the initial word when every
    embedding has it and it has graph neighbours, else :func:`default_word` picks one.

    Returns
    -------
    ipywidgets.VBox
    """
    vocab = [v for group in embeddings.values() for v in group.values()]
    text = widgets.Text(value=default_word(graphs, embeddings, word), description="word",
                        continuous_update=False)  # fmt: skip
    lex = widgets.Dropdown(options=list(graphs), description="lexicon")
    out = output_area()

    def refresh(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        w = text.value.strip()
        if not w:
            show_message(out, "type a word")
            return
        if lex.value is None:
            show_message(out, "no lexicon to show")
            return
        g = graphs[lex.value]
        if w not in g and not any(w in v for v in vocab):
            show_message(out, f"{w!r} is not in the vocabulary")
            return
        out.outputs = ()
        degree = len(g.neighbors(w)) if w in g else 0
        out.append_stdout(f"{w!r}: {degree} neighbours in {lex.value}\n")
        append_display(out, neighbour_table(w, lex.value, graphs, embeddings, topn=topn))

    text.observe(refresh, names="value")
    lex.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([text, lex]), out])
