"""Widgets of the views notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets
import pandas as pd

from workbench.explore._output import append_display, output_area, show_message, word_missing
from workbench.views import View

__all__ = ["top_contexts_table", "view_inspector"]


def top_contexts_table(views: Sequence[View], word: str, *, topn: int = 10) -> pd.DataFrame:
    """A word's top contexts in each view, side by side.

    Parameters
    ----------
    views : sequence of View
        Views over one vocabulary.
    word : str
    topn : int
        Contexts shown per view (largest values first).

    Returns
    -------
    DataFrame
        One column per view (``"context (value)"`` strings), ``topn`` rows; a view in which
        the word is unobserved gives an empty column. Raises ``KeyError`` naming the word if it
        is not in the vocabulary.
    """
    cols: dict[str, list[str]] = {}
    for v in views:
        if v.vocab is None:
            raise ValueError(f"view {v.name!r} has no vocabulary")
        row = v.vocab.id(word)
        if not v.observed[row]:
            cols[v.name] = []
            continue
        cols[v.name] = [f"{c} ({x:.3g})" for c, x in v.top_contexts(row, topn)]
    n = max([topn] + [len(c) for c in cols.values()])
    return pd.DataFrame({k: c + [""] * (n - len(c)) for k, c in cols.items()})


def view_inspector(
    views: Sequence[View], *, topn: int = 10, default_word: str | None = None
) -> widgets.VBox:
    """Type a word, pick view families: its top contexts in each view.

    Returns
    -------
    ipywidgets.VBox
    """
    views = list(views)
    if not views or views[0].vocab is None:
        raise ValueError("view_inspector needs views built over a Vocabulary")
    vocab = views[0].vocab
    families = sorted({v.family for v in views})
    if default_word is None or default_word not in vocab:
        default_word = vocab.words[min(100, len(vocab) - 1)]
    word = widgets.Text(value=default_word, description="word", continuous_update=False)
    fams = widgets.SelectMultiple(options=families, value=tuple(families), description="families")
    n = widgets.IntSlider(value=topn, min=1, max=50, description="top n", continuous_update=False)
    out = output_area()

    def refresh(_: object = None) -> None:
        w = word.value.strip().lower()
        if word_missing(out, w, vocab, size=len(vocab)):
            return
        if not fams.value:
            show_message(out, "select at least one view family")
            return
        out.outputs = ()
        chosen = [v for v in views if v.family in fams.value]
        for fam in [f for f in families if f in fams.value]:
            group = [v for v in chosen if v.family == fam]
            out.append_stdout(f"— {fam} —\n")
            append_display(out, top_contexts_table(group, w, topn=n.value))

    for w_ in (word, fams, n):
        w_.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([word, n]), fams, out])
