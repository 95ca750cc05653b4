"""Widget of the MVLSA study notebooks (only used under ``if INTERACTIVE:``).

:func:`mvlsa_study_explorer` lets a reader pick the preprocessing ``n_j`` and ``t``, the GCCA
settings ``m, v, r``, the view families and ``k``, and see a query word's nearest neighbours and
the word-similarity scores (Spearman in points) change. A new setting is fitted only when "fit"
is pressed (fits are cached per setting); ``k`` and the queries re-render the fitted setting at
once (``k`` only slices ``embedding_``). :class:`SettingExplorer` is the widget-free, testable
part; the neighbour table is :func:`workbench.explore.gcca.neighbours_table`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import pandas as pd

from workbench.explore._output import (
    append_query_notes,
    append_table,
    append_text,
    clamp_note,
    describe,
    output_area,
    show_message,
    split_queries,
)
from workbench.explore.gcca import fit_error_note, neighbours_table, support_note
from workbench.studies.mvlsa import (
    FittedSystem,
    MVLSAConfig,
    ViewSet,
    evaluate_system,
    fit_mvlsa,
)
from workbench.templating import pts

__all__ = ["TRANSFORM_LABELS", "SettingExplorer", "mvlsa_study_explorer", "scores_in_points"]

#: How the explorer names the nonlinearities :math:`n_j` (Table 3 of the paper).
TRANSFORM_LABELS = {"identity": "Count", "log": "Log: log(1 + count)", "pow": "Count^1/4"}


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


def scores_in_points(scores: pd.Series) -> pd.DataFrame:
    """Spearman correlations per rating set as a table in points (ρ × 100, one decimal)."""
    return pd.DataFrame(
        {"Spearman ρ × 100": [pts(v) for v in scores.to_numpy(dtype=float)]},
        index=scores.index.rename("rating set"),
    )


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
    topn: int = 8,
) -> widgets.VBox:
    """Widget: choose ``n_j, t, m, v, r``, view families and ``k``; show neighbours and scores.

    Returns an ``ipywidgets.VBox``. Only "fit" fits a new setting (cached per setting); until it
    is pressed the status line says that the settings changed and the output keeps naming the
    setting it shows. ``k`` and the queries re-render the fitted setting at once (no refit).
    """
    ex = SettingExplorer(
        view_set, dataclasses.replace(base, n_components=max(view_ranks)), wordsim=wordsim
    )
    fams = list(view_set.families())
    views_of = {f: len(v) for f, v in view_set.families().items()}
    vocabulary = set(view_set.words)
    w_n = describe(
        widgets.Dropdown(options=[(TRANSFORM_LABELS.get(t, t), t) for t in transforms],
                         value=base.transform if base.transform in transforms
                         else list(transforms)[0]),
        "n_j (count transform)",
        "the nonlinearity n_j applied to every co-occurrence count before the SVDs "
        "(Table 3 of the paper): Count, log(1 + count) or the fourth root Count^1/4",
    )  # fmt: skip
    # "all" is a string value: a Dropdown whose value is None shows a blank selection
    w_t = describe(
        widgets.Dropdown(options=[("all", "all")] + [(f"{t:,}", t) for t in top_ts if t is not None],
                         value="all"),
        "t (contexts kept)",
        "truncation t: keep only the t context columns with the largest total counts in each "
        "view (all: keep every column); prunes rare, noisy contexts",
    )  # fmt: skip
    w_m = describe(widgets.Dropdown(options=list(view_ranks)), "m (view rank)",
                   "m: how many left singular vectors of each view enter the GCCA")  # fmt: skip
    w_r = describe(
        widgets.Dropdown(options=[(f"{r:g}", r) for r in regularizations]), "r (regularization)",
        "r_j: the ridge added to each view's scatter matrix X_j'X_j before it is inverted (eq. 6)",
    )  # fmt: skip
    w_v = describe(
        widgets.IntSlider(value=0, min=0, max=len(view_set.views), continuous_update=False),
        "v (minimum support)",
        "v: keep only the words observed in at least v of the chosen views (0 keeps every word)",
    )  # fmt: skip
    w_f = describe(
        widgets.SelectMultiple(options=[(f"{f} ({views_of[f]} views)", f) for f in fams],
                               value=tuple(fams), rows=max(len(fams), 1)),
        "view families",
        "the view families fitted together (ctrl/cmd-click to choose several)",
    )  # fmt: skip
    w_k = describe(
        widgets.IntSlider(value=max(view_ranks), min=1, max=max(view_ranks),
                          continuous_update=False),
        "k (dimensions)",
        "k: dimensions of the embedding used for neighbours and scores (the first k columns of "
        "the fitted embedding; no refit)",
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
    shown: dict[str, Any] = {}  # the fitted setting on show: "settings", "families"

    def chosen() -> tuple[dict[str, Any], list[str]]:
        settings = {"transform": w_n.value, "top_t": None if w_t.value == "all" else w_t.value,
                    "view_rank": w_m.value, "regularization": w_r.value,
                    "min_view_support": w_v.value}  # fmt: skip
        return settings, list(w_f.value)

    def describe_setting(settings: dict[str, Any], families: Sequence[str], k: int) -> str:
        t = "all" if settings["top_t"] is None else f"{settings['top_t']:,}"
        n_j = TRANSFORM_LABELS.get(settings["transform"], settings["transform"])
        return (f"setting shown: n_j = {n_j}, t = {t}, m = {settings['view_rank']}, "
                f"r = {settings['regularization']:g}, v = {settings['min_view_support']}, "
                f"k = {k}; view families: {', '.join(families)}")  # fmt: skip

    def render(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output); never fits a new setting
        if not shown:
            show_message(out, "no fitted setting: press fit")
            return
        settings, families = shown["settings"], shown["families"]
        fs = ex.fit(families, **settings)  # cached: fitted when "fit" was pressed
        width = fs.model.embedding_.shape[1]
        k = min(w_k.value, width)
        qs, known, unknown = split_queries(w_q.value, vocabulary)
        table, scores = ex.report(known, n_components=k, topn=topn, families=families,
                                  **settings)  # fmt: skip
        out.outputs = ()
        append_text(out, describe_setting(settings, families, k))
        if w_k.value > width:
            out.append_stdout(clamp_note("k", w_k.value, width,
                                         f"this fit has {width} dimensions") + "\n")  # fmt: skip
        append_query_notes(out, qs, unknown)
        if known:
            append_table(out, table, caption="nearest neighbours (cosine)", index=False)
        if len(scores):
            append_table(out, scores_in_points(scores),
                         caption="word similarity: Spearman ρ × 100 (points)")  # fmt: skip

    def fit(_: object = None) -> None:
        settings, families = chosen()
        if not families:
            status.value = ""
            show_message(out, "select at least one view family")
            return
        n_views = sum(views_of[f] for f in families)
        note = support_note(settings["min_view_support"], n_views)
        if note:
            status.value = "<b>cannot fit</b> this setting"
            show_message(out, note)
            return
        status.value = "fitting…"
        try:
            ex.fit(families, **settings)
        except ValueError as exc:  # any other setting the estimator refuses: say so, do not crash
            status.value = "<b>cannot fit</b> this setting"
            show_message(out, fit_error_note(exc))
            return
        shown.update(settings=settings, families=families)
        status.value = f"fitted ({len(ex)} setting(s) in the cache)"
        render()

    def changed(_: object = None) -> None:
        if not w_f.value:
            status.value = ""
            show_message(out, "select at least one view family")  # the message, at once
        elif shown and chosen() == (shown["settings"], shown["families"]):
            status.value = f"fitted ({len(ex)} setting(s) in the cache)"
        else:
            status.value = "settings changed: press <b>fit</b> (the output shows the last fit)"

    w_fit.on_click(fit)
    w_k.observe(render, names="value")
    w_q.observe(render, names="value")
    for w in (w_n, w_t, w_m, w_r, w_v, w_f):
        w.observe(changed, names="value")
    fit()
    return widgets.VBox([widgets.HBox([w_n, w_t, w_m]), widgets.HBox([w_r, w_v, w_k]), w_f, w_q,
                         widgets.HBox([w_fit, status]), out])  # fmt: skip
