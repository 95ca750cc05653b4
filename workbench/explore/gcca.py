"""Widgets of the MVLSA notebooks (only used under ``if INTERACTIVE:``).

:func:`mvlsa_explorer` lets a reader pick MVLSA settings (``m``, ``r``, ``v``, row weighting)
and the embedding size ``k`` and see a query word's nearest neighbours (and optional scores)
change. Fits are cached per setting; changing ``k`` only slices ``embedding_`` (no refit).
The widget-free pieces (:func:`neighbours_table`, :class:`MVLSACache`) are testable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from workbench._typing import Matrix
from workbench.embeddings import WordVectors
from workbench.explore._output import (
    append_display,
    append_query_notes,
    append_table,
    clamp_note,
    describe,
    output_area,
    show_message,
    split_queries,
)
from workbench.gcca import MVLSA
from workbench.views import View

__all__ = ["neighbours_table", "MVLSACache", "mvlsa_explorer", "support_note", "fit_error_note"]


def support_note(v: int, n_views: int) -> str | None:
    """Why the minimum support ``v`` cannot be used with ``n_views`` views (None if it can):
    no word is observed in more views than there are."""
    if v <= n_views:
        return None
    return (
        f"v (minimum support) = {v} is more than the {n_views} chosen views: no word can be "
        f"observed in more views than there are, so none would be kept; choose v <= {n_views}."
    )


def fit_error_note(exc: Exception) -> str:
    """The line an explorer shows for a setting the estimator refuses, in the explorer's names
    (``v`` for the estimator's ``min_view_support``)."""
    text = str(exc).replace("min_view_support=", "v = ").replace("min_view_support", "v")
    return f"cannot fit this setting: {text}"


def neighbours_table(
    embedding: np.ndarray,
    words: Sequence[str],
    queries: Sequence[str],
    *,
    n_components: int | None = None,
    topn: int = 10,
    row_mask: np.ndarray | None = None,
) -> pd.DataFrame:
    """Cosine nearest neighbours of each query word, one column per query.

    Parameters
    ----------
    embedding : ndarray, shape (N, k)
        E.g. ``MVLSA.embedding_``; only the first ``n_components`` columns are used.
    words : sequence of str
        Row labels.
    queries : sequence of str
        Query words; one missing from ``words`` (or dropped by ``row_mask``) gives a column
        reading ``"(not in vocabulary)"``.
    row_mask : ndarray of bool, optional
        Rows that may appear as neighbours (e.g. ``MVLSA.row_mask_``).

    Returns
    -------
    DataFrame
        ``topn`` rows of ``"word (cosine)"`` strings.
    """
    words = list(words)
    emb = np.asarray(embedding, dtype=np.float64)
    if emb.ndim != 2 or emb.shape[0] != len(words):
        raise ValueError(f"embedding has shape {emb.shape} for {len(words)} words")
    if n_components is not None:
        if not 1 <= n_components <= emb.shape[1]:
            raise ValueError(f"n_components must be in [1, {emb.shape[1]}], got {n_components}")
        emb = emb[:, :n_components]
    norms = np.linalg.norm(emb, axis=1)
    ok = norms > 0 if row_mask is None else (norms > 0) & np.asarray(row_mask, bool)
    unit = np.where(ok[:, None], emb / np.where(norms > 0, norms, 1.0)[:, None], 0.0)
    index = {w: i for i, w in enumerate(words)}
    cols: dict[str, list[str]] = {}
    for q in queries:
        i = index.get(q)
        if i is None or not ok[i]:
            cols[q] = ["(not in vocabulary)"] + [""] * (topn - 1)
            continue
        sims = unit @ unit[i]
        sims[i] = -np.inf
        sims[~ok] = -np.inf
        top = np.argsort(-sims, kind="stable")[:topn]
        col = [f"{words[t]} ({sims[t]:.3f})" for t in top if np.isfinite(sims[t])]
        cols[q] = col + [""] * (topn - len(col))
    return pd.DataFrame(cols)


class MVLSACache:
    """Fit :class:`MVLSA` once per setting and reuse it (settings differ only in ``k``: sliced).

    Parameters
    ----------
    views : sequence of matrices or View
        Views passed to ``MVLSA.fit``.
    masks : sequence of boolean row masks (or None), optional
    max_components : int
        Every fit uses this ``n_components`` (capped by the stack's rank); smaller ``k`` are
        slices of ``embedding_``.
    **fixed : Any
        Other fixed :class:`MVLSA` parameters (e.g. ``random_state=0``).
    """

    def __init__(
        self,
        views: Sequence[Matrix | View],
        masks: Sequence[np.ndarray | None] | None = None,
        *,
        max_components: int = 300,
        **fixed: Any,
    ):
        self.views = list(views)
        self.masks = masks
        self.max_components = int(max_components)
        self.fixed = fixed
        self._fits: dict[tuple[int, float, int, str | None], MVLSA] = {}

    def get(
        self,
        view_rank: int,
        regularization: float = 1e-8,
        min_view_support: int = 0,
        row_weighting: str | None = None,
    ) -> MVLSA:
        """The fitted model for these settings (fitted on first request)."""
        key = (int(view_rank), float(regularization), int(min_view_support), row_weighting)
        if key not in self._fits:
            k = min(self.max_components, int(view_rank) * len(self.views))
            model = MVLSA(
                k,
                view_rank=int(view_rank),
                regularization=float(regularization),
                min_view_support=int(min_view_support),
                row_weighting=row_weighting,
                **self.fixed,
            )
            self._fits[key] = model.fit(self.views, masks=self.masks)
        return self._fits[key]

    def __len__(self) -> int:
        return len(self._fits)


def mvlsa_explorer(
    views: Sequence[Matrix | View],
    words: Sequence[str],
    *,
    queries: Sequence[str] = ("king", "good", "run"),
    view_ranks: Sequence[int] = (50, 100, 300),
    regularizations: Sequence[float] = (1e-8, 1e-2, 1.0, 100.0),
    max_components: int = 300,
    topn: int = 10,
    score_fn: Callable[[WordVectors], pd.DataFrame | dict[str, float]] | None = None,
    masks: Sequence[np.ndarray | None] | None = None,
    random_state: int = 0,
) -> widgets.VBox:
    """Pick MVLSA settings and ``k``; see nearest neighbours (and scores) change.

    Parameters
    ----------
    views, words :
        As for ``MVLSA.fit`` and the row labels (e.g. ``vocab.words``).
    queries : sequence of str
        Initial query words (editable, comma separated).
    view_ranks, regularizations : sequences
        Choices offered for ``m`` and ``r``.
    max_components : int
        Largest ``k`` (the ``k`` slider slices without refitting).
    score_fn : callable, optional
        ``WordVectors -> DataFrame | dict`` shown under the neighbours, e.g.
        ``lambda wv: workbench.evaluation.wordsim_suite(wv, names=("MEN", "WS"))``.
    masks : optional
        Row masks for ``MVLSA.fit``.

    Returns
    -------
    ipywidgets.VBox
        Fits run when "fit" is pressed (cached per setting); ``k`` and the queries update at
        once.
    """
    words = list(words)
    vocabulary = set(words)
    cache = MVLSACache(views, masks, max_components=max_components, random_state=random_state)
    n_views = len(cache.views)
    w_m = describe(widgets.Dropdown(options=list(view_ranks), value=list(view_ranks)[0]),
                   "m (view rank)",
                   "m: how many left singular vectors of each view enter the GCCA")  # fmt: skip
    w_r = describe(
        widgets.Dropdown(options=[(f"{r:g}", r) for r in regularizations],
                         value=list(regularizations)[0]),
        "r (regularization)",
        "r_j: the ridge added to each view's scatter matrix X_j'X_j before it is inverted (eq. 6)",
    )  # fmt: skip
    w_v = describe(
        widgets.IntSlider(value=0, min=0, max=n_views, continuous_update=False),
        "v (minimum support)",
        "v: keep only the words observed in at least v views (0 keeps every word)",
    )
    w_rw = describe(
        widgets.Dropdown(options=[("K only", "none"), ("eq. 12 (GloVe-like)", "glove")],
                         value="none"),
        "row weights W_j",
        "K only: every observed row of a view weighs 1 (eq. 10); eq. 12: rows weighted by "
        "(w_i / w_max)^(3/4) of their counts, as GloVe weighs pairs",
    )  # fmt: skip
    w_k = describe(
        widgets.IntSlider(value=min(100, max_components), min=1, max=max_components,
                          continuous_update=False),
        "k (dimensions)",
        "k: dimensions of the embedding used for the neighbours (the first k columns of the "
        "fitted embedding; no refit)",
    )  # fmt: skip
    w_q = describe(
        widgets.Text(value=", ".join(queries), continuous_update=False), "query words",
        "comma-separated words whose nearest neighbours are listed (looked up as typed, then "
        "in lower case)",
    )  # fmt: skip
    w_fit = widgets.Button(description="fit", button_style="primary",
                           tooltip="fit MVLSA with these settings (a setting fitted before is "
                           "reused from the cache)")  # fmt: skip
    status = widgets.HTML()
    out = output_area()
    state: dict[str, MVLSA | None] = {"model": None}

    def show(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        model = state["model"]
        if model is None:
            show_message(out, "no fitted model: press fit")
            return
        width = model.embedding_.shape[1]
        k = min(w_k.value, width)
        qs, known, unknown = split_queries(w_q.value, vocabulary)
        out.outputs = ()
        if w_k.value > width:
            out.append_stdout(clamp_note("k", w_k.value, width,
                                         f"this fit has {width} dimensions") + "\n")  # fmt: skip
        append_query_notes(out, qs, unknown)
        if known:
            append_table(out, neighbours_table(model.embedding_, words, known, n_components=k,
                                               topn=topn, row_mask=model.row_mask_),
                         caption="nearest neighbours (cosine)", index=False)  # fmt: skip
        if score_fn is not None:
            res = score_fn(model.to_word_vectors(words, k))
            append_display(
                out, res if isinstance(res, pd.DataFrame) else pd.Series(res, name="score")
            )

    def fit(_: object = None) -> None:
        status.value = "fitting…"
        rw = None if w_rw.value == "none" else w_rw.value
        note = support_note(w_v.value, n_views)
        try:
            if note:
                raise ValueError(note)
            model = cache.get(w_m.value, w_r.value, w_v.value, rw)
        except ValueError as exc:  # bad combination (e.g. v too high): say so, do not crash
            state["model"] = None
            status.value = "<b>cannot fit</b> this setting"
            show_message(out, note or fit_error_note(exc))
            return
        state["model"] = model
        status.value = (
            f"fitted k={model.embedding_.shape[1]} on {int(model.row_mask_.sum())} rows "
            f"({len(cache)} setting(s) cached)"
        )
        show()

    def changed(_: object = None) -> None:
        status.value = "settings changed: press <b>fit</b> (the output shows the last fit)"

    w_fit.on_click(fit)
    w_k.observe(show, names="value")
    w_q.observe(show, names="value")
    for w in (w_m, w_r, w_v, w_rw):
        w.observe(changed, names="value")
    fit()
    return widgets.VBox(
        [
            widgets.HBox([w_m, w_r, w_v]),
            widgets.HBox([w_rw, w_k]),
            w_q,
            widgets.HBox([w_fit, status]),
            out,
        ]
    )
