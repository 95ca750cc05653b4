"""Widgets of the views notebook (only used under ``if INTERACTIVE:``)."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets
import numpy as np
import pandas as pd
import scipy.sparse as sp

from workbench.explore._output import (
    append_table,
    describe,
    output_area,
    resolve_word,
    show_message,
    word_missing,
)
from workbench.views import View
from workbench.viz.views import context_value

__all__ = ["top_contexts_table", "view_inspector", "word_contexts_frame"]


def _row(view: View, word: str) -> int:
    if view.vocab is None:
        raise ValueError(f"view {view.name!r} has no vocabulary")
    return view.vocab.id(word)


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
        One column per view (``"context (value)"`` strings, values as :func:`context_value`
        writes them) and as many rows as the longest column (at most ``topn``); a shorter column
        ends in empty cells, a view in which the word is unobserved gives an empty column.
        Raises ``KeyError`` naming the word if it is not in the vocabulary.
    """
    cols: dict[str, list[str]] = {}
    for v in views:
        row = _row(v, word)
        if not v.observed[row]:
            cols[v.name] = []
            continue
        cols[v.name] = [f"{c} ({context_value(x)})" for c, x in v.top_contexts(row, topn)]
    n = max([len(c) for c in cols.values()], default=0)
    return pd.DataFrame({k: c + [""] * (n - len(c)) for k, c in cols.items()})


def word_contexts_frame(views: Sequence[View], word: str, *, topn: int = 10) -> pd.DataFrame:
    """A word's top contexts, one row per view (what :func:`view_inspector` shows).

    Returns
    -------
    DataFrame
        Index: the view names; columns ``contexts`` (how many nonzero contexts the word has in
        the view, or "not observed") and ``top contexts (value)`` (up to ``topn``, largest first,
        joined by commas; values as :func:`context_value` writes them). Raises ``KeyError``
        naming the word if it is not in the vocabulary.
    """
    rows = []
    for v in views:
        row = _row(v, word)
        if not v.observed[row]:
            rows.append((v.name, "not observed", ""))
            continue
        top = v.top_contexts(row, topn)
        m = v.matrix
        nnz = int(sp.csr_array(m[[row]]).nnz if sp.issparse(m) else np.count_nonzero(m[row]))
        rows.append((v.name, f"{nnz:,}", ", ".join(f"{c} ({context_value(x)})" for c, x in top)))
    frame = pd.DataFrame(rows, columns=["view", "contexts", "top contexts (value)"])
    return frame.set_index("view")


def view_inspector(
    views: Sequence[View], *, topn: int = 10, default_word: str | None = None
) -> widgets.VBox:
    """Type a word, tick view families: its top contexts in each view, one table per family.

    A family's table lists the views that observe the word (all of them, never folded); the
    caption names the others.

    Returns
    -------
    ipywidgets.VBox
        Children: an HBox of the word box and the ``top n`` slider, an HBox of one checkbox per
        family, the output area.
    """
    views = list(views)
    if not views or views[0].vocab is None:
        raise ValueError("view_inspector needs views built over a Vocabulary")
    vocab = views[0].vocab
    families = sorted({v.family for v in views})
    sizes = {f: sum(v.family == f for v in views) for f in families}
    if default_word is None or resolve_word(default_word, vocab) is None:
        default_word = vocab.words[min(100, len(vocab) - 1)]
    word = describe(widgets.Text(value=default_word, continuous_update=False), "word",
                    "a vocabulary word (looked up as typed, then in lower case)")  # fmt: skip
    n = describe(
        widgets.IntSlider(value=topn, min=1, max=50, continuous_update=False),
        "contexts per view",
        "how many of the word's largest contexts to list in each view",
    )
    checks = {
        f: describe(
            widgets.Checkbox(value=True, indent=False),
            f"{f} ({sizes[f]})",
            f"show the {sizes[f]} {f} view{'s' if sizes[f] != 1 else ''}",
        )  # fmt: skip
        for f in families
    }
    out = output_area()

    def refresh(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if word_missing(out, word.value, vocab, size=len(vocab)):
            return
        w = resolve_word(word.value, vocab)
        assert w is not None  # word_missing said it resolves
        chosen = [f for f in families if checks[f].value]
        if not chosen:
            show_message(out, "tick at least one view family")
            return
        out.outputs = ()
        typed = word.value.strip()
        shown = w if w == typed else f"{w} (typed {typed!r})"
        out.append_stdout(
            f"top {n.value} contexts of {shown}, per view; value = the view's entry\n"
        )
        for fam in chosen:
            group = [v for v in views if v.family == fam]
            frame = word_contexts_frame(group, w, topn=n.value)
            seen = frame["contexts"] != "not observed"
            caption = f"{fam}: observed in {int(seen.sum())} of {len(group)} views"
            if not seen.all():
                caption += f"; not in {', '.join(frame.index[~seen])}"
            if seen.any():
                append_table(out, frame[seen], caption=caption, rows=int(seen.sum()))
            else:
                out.append_stdout(caption + "\n")

    for control in (word, n, *checks.values()):
        control.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([word, n]), widgets.HBox(list(checks.values())), out])
