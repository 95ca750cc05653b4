"""Widgets of the eigenwords-with-prior-knowledge notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Mapping

import ipywidgets as widgets
import pandas as pd

from workbench.embeddings import WordVectors
from workbench.explore._output import (
    append_table,
    clamp_note,
    describe,
    output_area,
    resolve_word,
    show_message,
)
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
        One column per embedding (``"word (cos)"`` strings) plus ``"graph neighbours"``; as
        many rows as the longest column (at most ``topn``), shorter columns end in empty
        cells. A word missing everywhere gives no rows.
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
    n = min(topn, max(len(v) for v in cols.values()))
    data = {k: v[:n] + [""] * (n - len(v[:n])) for k, v in cols.items()}
    return pd.DataFrame(data, index=pd.RangeIndex(1, n + 1, name="rank"))


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
    embedding has it and it has graph neighbours, else :func:`default_word` picks one. The
    word is looked up as typed, then in lower case (:func:`workbench.explore._output.resolve_word`);
    the number of neighbours is limited to the vocabulary size, with a note saying so.

    Returns
    -------
    ipywidgets.VBox
        A row of controls (word, lexicon, neighbours) above the output area.
    """
    shown = [v for group in embeddings.values() for v in group.values()]
    known = {w for v in shown for w in v.words} | {w for g in graphs.values() for w in g.words}
    largest = max(min(len(v.words) for v in shown) - 1, 1) if shown else 1
    text = describe(
        widgets.Text(value=default_word(graphs, embeddings, word), continuous_update=False),
        "word",
        "a word of the vocabulary (looked up as typed, then in lower case); press Enter",
    )
    lex = describe(
        widgets.Dropdown(options=list(graphs)),
        "lexicon",
        "the lexicon graph whose neighbours are listed and whose CCAPrior / retrofitted "
        "embeddings are compared",
    )
    n_shown = describe(
        widgets.IntSlider(value=topn, min=1, max=max(topn, 25), continuous_update=False),
        "neighbours",
        "how many graph neighbours and nearest neighbours to list",
    )
    out = output_area()

    def refresh(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        typed = text.value.strip()
        if not typed:
            show_message(out, "type a word")
            return
        if lex.value is None:
            show_message(out, "no lexicon to show")
            return
        w = resolve_word(typed, known)
        if w is None:
            show_message(out, f"{typed!r} is not in the vocabulary ({len(known)} words)")
            return
        g = graphs[lex.value]
        n = min(n_shown.value, largest)
        out.outputs = ()
        if w != typed:
            out.append_stdout(f"{typed!r} is looked up as {w!r}\n")
        if n < n_shown.value:
            out.append_stdout(
                clamp_note(
                    "neighbours",
                    n_shown.value,
                    n,
                    f"the smallest embedding has {largest + 1} words",
                )
                + "\n"
            )
        degree = len(g.neighbors(w)) if w in g else 0
        out.append_stdout(f"{w!r}: {degree} neighbour{'' if degree == 1 else 's'} in {lex.value}\n")
        table = neighbour_table(w, lex.value, graphs, embeddings, topn=n)
        append_table(
            out,
            table,
            caption=f"graph neighbours and nearest neighbours of {w!r} (cosine in brackets)",
        )

    text.observe(refresh, names="value")
    lex.observe(refresh, names="value")
    n_shown.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([text, lex, n_shown]), out])
