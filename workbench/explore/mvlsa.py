"""Widget of the MVLSA study notebooks (only used under ``if INTERACTIVE:``).

:func:`mvlsa_study_explorer` lets a reader pick the preprocessing ``n_j`` and ``t``, the GCCA
settings ``m, v, r``, the view families and ``k``, and see a query word's nearest neighbours and
the word-similarity scores change. Fits are cached per setting (``k`` only slices
``embedding_``). :class:`SettingExplorer` is the widget-free, testable part; the neighbour table
is :func:`workbench.explore.gcca.neighbours_table`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import pandas as pd

from workbench.explore._output import (
    append_display,
    append_query_notes,
    output_area,
    show_message,
    split_queries,
)
from workbench.explore.gcca import neighbours_table
from workbench.studies.mvlsa import (
    FittedSystem,
    MVLSAConfig,
    ViewSet,
    evaluate_system,
    fit_mvlsa,
)

__all__ = ["SettingExplorer", "mvlsa_study_explorer"]


class SettingExplorer:
    """Fit MVLSA once per (setting, families) and report neighbours and scores.

    Parameters
    ----------
    view_set : ViewSet
        From :func:`workbench.studies.mvlsa.build_view_set`.
    base : MVLSAConfig
        Settings not chosen in the widget.
    wordsim : sequence of str
        Rating sets scored for each setting (``()`` for none).
    """

    def __init__(self, view_set: ViewSet, base: MVLSAConfig, *, wordsim: Sequence[str] = ("MEN",)):
        self.view_set = view_set
        self.base = base
        self.wordsim = tuple(wordsim)
        self._fits: dict[tuple[MVLSAConfig, tuple[str, ...]], FittedSystem] = {}

    def fit(self, families: Sequence[str] | None = None, **settings: Any) -> FittedSystem:
        """The fitted system of ``base`` with ``settings`` replaced, on ``families`` (None: all)."""
        fams = tuple(sorted(self.view_set.families() if families is None else families))
        cfg = dataclasses.replace(self.base, **settings)
        key = (cfg, fams)
        if key not in self._fits:
            vs = self.view_set.select(families=list(fams))
            self._fits[key] = fit_mvlsa(vs, cfg)
        return self._fits[key]

    def report(
        self,
        queries: Sequence[str],
        *,
        n_components: int | None = None,
        topn: int = 8,
        families: Sequence[str] | None = None,
        **settings: Any,
    ) -> tuple[pd.DataFrame, pd.Series]:
        """``(neighbours, scores)`` of a setting: the neighbour table of each query and the
        Spearman correlation per rating set (k = ``n_components``, sliced without refitting)."""
        fs = self.fit(families, **settings)
        model = fs.model
        k = None if n_components is None else min(int(n_components), model.embedding_.shape[1])
        table = neighbours_table(model.embedding_, fs.words, list(queries), n_components=k,
                                 topn=topn, row_mask=model.row_mask_)  # fmt: skip
        if self.wordsim:
            scores = evaluate_system(fs.vectors(k), wordsim=self.wordsim, analogies=False).scores()
        else:
            scores = pd.Series(dtype=float)
        return table, scores

    def __len__(self) -> int:
        return len(self._fits)


def mvlsa_study_explorer(
    view_set: ViewSet,
    base: MVLSAConfig,
    *,
    queries: Sequence[str] = ("king", "good", "run"),
    transforms: Sequence[str] = ("identity", "log", "pow"),
    top_ts: Sequence[int | None] = (None, 1_000, 10_000),
    view_ranks: Sequence[int] = (20, 50, 100),
    regularizations: Sequence[float] = (1e-8, 1.0, 100.0),
    wordsim: Sequence[str] = ("MEN", "WS", "SIMLEX"),
) -> widgets.VBox:
    """Widget: choose ``n_j, t, m, v, r``, view families and ``k``; show neighbours and scores.

    Returns an ``ipywidgets.VBox``. "fit" refits (cached per setting); ``k`` and the queries
    update at once.
    """
    ex = SettingExplorer(
        view_set, dataclasses.replace(base, n_components=max(view_ranks)), wordsim=wordsim
    )
    fams = list(view_set.families())
    vocabulary = set(view_set.words)
    w_n = widgets.Dropdown(options=list(transforms), value=base.transform if base.transform in transforms
                           else list(transforms)[0], description="n_j")  # fmt: skip
    # "all" is a string value: a Dropdown whose value is None shows a blank selection
    w_t = widgets.Dropdown(options=[("all", "all")] + [(f"{t:,}", t) for t in top_ts if t is not None],
                           value="all", description="t")  # fmt: skip
    w_m = widgets.Dropdown(options=list(view_ranks), description="m")
    w_r = widgets.Dropdown(options=list(regularizations), description="r")
    w_v = widgets.IntSlider(value=0, min=0, max=len(view_set.views), description="v",
                            continuous_update=False)  # fmt: skip
    w_f = widgets.SelectMultiple(options=fams, value=tuple(fams), description="families")
    w_k = widgets.IntSlider(value=max(view_ranks), min=1, max=max(view_ranks), description="k",
                            continuous_update=False)  # fmt: skip
    w_q = widgets.Text(value=", ".join(queries), description="queries", continuous_update=False)
    w_fit = widgets.Button(description="fit", button_style="primary")
    status = widgets.HTML()
    out = output_area()

    def show(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        if not w_f.value:
            status.value = ""
            show_message(out, "select at least one view family")
            return
        qs, known, unknown = split_queries(w_q.value, vocabulary)
        status.value = "fitting…"
        settings = {"transform": w_n.value, "top_t": None if w_t.value == "all" else w_t.value,
                    "view_rank": w_m.value, "regularization": w_r.value,
                    "min_view_support": w_v.value}  # fmt: skip
        try:
            table, scores = ex.report(
                known, n_components=w_k.value, families=list(w_f.value), **settings
            )
        except ValueError as exc:  # e.g. v above the number of views: say so, do not crash
            status.value = "<b>cannot fit</b> this setting"
            show_message(out, f"cannot fit this setting: {exc}")
            return
        status.value = f"{len(ex)} setting(s) fitted"
        out.outputs = ()
        append_query_notes(out, qs, unknown)
        if known:
            append_display(out, table)
        append_display(out, scores.to_frame("Spearman"))

    def changed(_: object = None) -> None:
        if not w_f.value:
            show()  # the message, at once
        else:
            status.value = "settings changed: press <b>fit</b>"

    w_fit.on_click(show)
    w_k.observe(show, names="value")
    w_q.observe(show, names="value")
    for w in (w_n, w_t, w_m, w_r, w_v, w_f):
        w.observe(changed, names="value")
    show()
    return widgets.VBox([widgets.HBox([w_n, w_t, w_m]), widgets.HBox([w_r, w_v, w_k]), w_f, w_q,
                         widgets.HBox([w_fit, status]), out])  # fmt: skip
