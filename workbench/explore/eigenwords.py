"""Widgets of the eigenwords-with-prior-knowledge notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from workbench.explore._output import append_display

__all__ = ["neighbour_table", "prior_knowledge_explorer"]


def neighbour_table(
    word: str,
    lexicon: str,
    graphs: Mapping[str, Any],
    embeddings: Mapping[str, Mapping[str, Any]],
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


def prior_knowledge_explorer(
    graphs: Mapping[str, Any],
    embeddings: Mapping[str, Mapping[str, Any]],
    *,
    word: str = "king",
    topn: int = 10,
) -> Any:
    """Pick a word and a lexicon; see its graph neighbours and its nearest neighbours
    before/after prior knowledge (CCAPrior) and retrofitting.

    Parameters are as in :func:`neighbour_table`.

    Returns
    -------
    ipywidgets.VBox
    """
    import ipywidgets as widgets

    text = widgets.Text(value=word, description="word", continuous_update=False)
    lex = widgets.Dropdown(options=list(graphs), description="lexicon")
    out = widgets.Output()

    def refresh(_: Any = None) -> None:
        # kernel-side output (see workbench.explore._output)
        out.outputs = ()
        w = text.value.strip()
        g = graphs[lex.value]
        degree = len(g.neighbors(w)) if w in g else 0
        out.append_stdout(f"{w!r}: {degree} neighbours in {lex.value}\n")
        append_display(out, neighbour_table(w, lex.value, graphs, embeddings, topn=topn))

    text.observe(refresh, names="value")
    lex.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([text, lex]), out])
