"""Widget of the fusion notebook 05 (only used under ``if INTERACTIVE:``).

:func:`fusion_explorer` lets a reader choose any two or more of the notebook's systems, fuses
them as MV-G-WSG is fused (GCCA of their embeddings used as dense views, ``m`` = each
embedding's dimension, ``k`` and ``r`` of the dev-tuned configuration) and shows, for a chosen
test set, the fused system's score and the test of the fusion against each of its parts
(Williams' t on rating sets, exact McNemar on the analogies, on the items both score; Holm over
every part x test set cell of the fusion). :class:`FusionExplorer` is the widget-free part;
fusions are cached per choice of systems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import ipywidgets as widgets
import numpy as np
import pandas as pd

from workbench.embeddings import WordVectors
from workbench.evaluation import SystemEvaluation, evaluate_system
from workbench.explore._output import (
    append_table,
    append_text,
    default_test_set,
    describe,
    output_area,
    show_message,
)
from workbench.gcca import MVLSA
from workbench.significance import holm
from workbench.studies.mvlsa import FusionResult, MVLSAConfig, pairwise_tests
from workbench.templating import dpts, pts, pvalue
from workbench.views import Vocabulary, embedding_view

__all__ = ["DEFAULT_PARTS", "FusionExplorer", "fusion_explorer", "readable_rows"]

#: The parts of the paper's MV-G-WSG (the explorer's initial choice when all are present).
DEFAULT_PARTS = ("GloVe", "WSG")


class FusionExplorer:
    """Fuse chosen systems by GCCA and test the fusion against each part.

    Parameters
    ----------
    systems : mapping name -> WordVectors
        E.g. ``FusionResult.systems``.
    vocab : Vocabulary
        The view set's vocabulary (the fusion's rows; every system is scored on its words).
    n_components, regularization, random_state :
        ``k``, ``r`` and the seed of the GCCA (as for MV-G-WSG: the tuned configuration's).
    wordsim : sequence
        Rating sets (names or DataFrames), e.g. the notebook's test halves.
    analogies : bool
        Also score AN-SYN / AN-SEM.
    evaluations : mapping name -> SystemEvaluation, optional
        Evaluations of the systems already made (``FusionResult.evaluations``) on the same test
        sets; the others are evaluated on first use.
    alpha : float
        Significance level after Holm.
    """

    def __init__(
        self,
        systems: Mapping[str, WordVectors],
        vocab: Vocabulary,
        *,
        n_components: int,
        regularization: float = 1e-8,
        random_state: int = 0,
        wordsim: Sequence[str | pd.DataFrame],
        analogies: bool = True,
        evaluations: Mapping[str, SystemEvaluation] | None = None,
        alpha: float = 0.05,
    ):
        if len(systems) < 2:
            raise ValueError("FusionExplorer needs at least two systems")
        self.systems = dict(systems)
        self.vocab = vocab
        self.n_components = int(n_components)
        self.regularization = float(regularization)
        self.random_state = int(random_state)
        self.wordsim = list(wordsim)
        self.analogies = bool(analogies)
        self.alpha = float(alpha)
        self._evals: dict[str, SystemEvaluation] = dict(evaluations or {})
        self._fused: dict[tuple[str, ...], SystemEvaluation] = {}

    @classmethod
    def from_result(cls, result: FusionResult, vocab: Vocabulary, config: MVLSAConfig, *,
                    wordsim: Sequence[str | pd.DataFrame], analogies: bool = True,
                    alpha: float = 0.05) -> FusionExplorer:  # fmt: skip
        """From a :class:`workbench.studies.mvlsa.FusionResult` and the MVLSA configuration
        of its seed (``choice.with_seed(seed).config``); ``wordsim`` as the result was scored."""
        return cls(result.systems, vocab, n_components=config.n_components,
                   regularization=config.regularization, random_state=config.random_state,
                   wordsim=wordsim, analogies=analogies, evaluations=result.evaluations,
                   alpha=alpha)  # fmt: skip

    def _key(self, parts: Sequence[str]) -> tuple[str, ...]:
        unknown = [p for p in parts if p not in self.systems]
        if unknown:
            raise KeyError(f"unknown systems {unknown}; available: {list(self.systems)}")
        chosen = set(parts)
        key = tuple(n for n in self.systems if n in chosen)  # the systems' order, as in Table 9
        if len(key) < 2:
            raise ValueError("choose at least two systems to fuse")
        return key

    def evaluation(self, name: str) -> SystemEvaluation:
        """The :class:`SystemEvaluation` of one system (on the vocabulary's words)."""
        if name not in self._evals:
            self._evals[name] = evaluate_system(self.systems[name], name=name, wordsim=self.wordsim,
                                                analogies=self.analogies,
                                                restrict_to=list(self.vocab.words))  # fmt: skip
        return self._evals[name]

    def fuse(self, parts: Sequence[str]) -> SystemEvaluation:
        """The evaluation of the GCCA fusion of ``parts`` (fitted on first request)."""
        key = self._key(parts)
        if key not in self._fused:
            views = [embedding_view(self.systems[n], self.vocab, name=n) for n in key]
            k = min(self.n_components, sum(v.shape[1] for v in views))
            model = MVLSA(k, view_rank=[v.shape[1] for v in views],
                          regularization=self.regularization,
                          random_state=self.random_state).fit(views)  # fmt: skip
            words = list(self.vocab.words)
            self._fused[key] = evaluate_system(model.to_word_vectors(words), name=" + ".join(key),
                                               wordsim=self.wordsim, analogies=self.analogies,
                                               restrict_to=words)  # fmt: skip
        return self._fused[key]

    def report(self, parts: Sequence[str]) -> pd.DataFrame:
        """The fusion of ``parts`` against each part, on every test set.

        Returns
        -------
        DataFrame
            Index (test set, part); columns ``part`` and ``fused`` (scores, points),
            ``gain (points)`` (fused - part over the items both score), ``p`` (two-sided,
            uncorrected), ``p (Holm)`` (over every cell of this table) and ``significant``.
        """
        key = self._key(parts)
        fused = self.fuse(key)
        fused_scores = fused.scores()
        frames = []
        for name in key:
            part = self.evaluation(name)
            cmp = pairwise_tests(part, fused, self.alpha)
            frames.append(pd.DataFrame({
                "test set": cmp.index, "part": name,
                "part score": 100 * part.scores().reindex(cmp.index).to_numpy(dtype=float),
                "fused score": 100 * fused_scores.reindex(cmp.index).to_numpy(dtype=float),
                "gain (points)": 100 * cmp["difference"].to_numpy(dtype=float),
                "p": cmp["pvalue"].to_numpy(dtype=float),
            }))  # fmt: skip
        table = pd.concat(frames, ignore_index=True)
        p = table["p"].to_numpy(dtype=float)
        ok = np.isfinite(p)
        adj = np.full(p.shape, np.nan)
        if ok.any():
            adj[ok] = np.asarray(holm(p[ok]))
        table["p (Holm)"] = adj
        table["significant"] = np.nan_to_num(adj, nan=1.0) < self.alpha
        order = {t: i for i, t in enumerate(fused_scores.index)}
        table = table.sort_values("test set", key=lambda s: s.map(order), kind="stable")
        return table.set_index(["test set", "part"])

    def __len__(self) -> int:
        return len(self._fused)


def readable_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """One test set's rows of :meth:`FusionExplorer.report` formatted for reading: the part's
    score and the gain in points with one decimal (gain signed), p-values as
    :func:`workbench.templating.pvalue` writes them, ``significant`` as yes / no."""
    return pd.DataFrame(
        {
            "part score": [pts(v / 100) for v in rows["part score"].to_numpy(dtype=float)],
            "gain (points)": [dpts(v / 100) for v in rows["gain (points)"].to_numpy(dtype=float)],
            "p": [pvalue(v) for v in rows["p"].to_numpy(dtype=float)],
            "p (Holm)": [pvalue(v) for v in rows["p (Holm)"].to_numpy(dtype=float)],
            "significant": ["yes" if v else "no" for v in rows["significant"]],
        },
        index=rows.index,
    )


@dataclass
class _Fused:
    """What :func:`fusion_explorer` shows: the parts fused and their report (None: none)."""

    parts: list[str] | None = None
    table: pd.DataFrame | None = None


def fusion_explorer(
    result: FusionResult,
    vocab: Vocabulary,
    config: MVLSAConfig,
    *,
    wordsim: Sequence[str | pd.DataFrame],
    analogies: bool = True,
    alpha: float = 0.05,
    parts: Sequence[str] = DEFAULT_PARTS,
    test_set: str | None = None,
) -> widgets.VBox:
    """Choose systems to fuse and a test set; see the fused score and its test against each part.

    Parameters
    ----------
    result : FusionResult
        One seed's Table 9 (:func:`workbench.studies.mvlsa.choice_fusion`).
    vocab : Vocabulary
        ``view_set.vocab``.
    config : MVLSAConfig
        The configuration of that seed (``choice.with_seed(seed).config``): ``k``, ``r``, seed.
    wordsim, analogies :
        The test sets ``result`` was scored on.
    parts : sequence of str
        Initial choice (default: MV-G-WSG's parts, so the first fusion reproduces its column).
    test_set : str, optional
        Initial test set (default MEN when present).

    Returns
    -------
    ipywidgets.VBox
        A new choice of systems is fused when "fuse" is pressed (cached); the test set updates
        at once.
    """
    ex = FusionExplorer.from_result(result, vocab, config, wordsim=wordsim, analogies=analogies,
                                    alpha=alpha)  # fmt: skip
    names = list(ex.systems)
    initial = [p for p in parts if p in names]
    if len(initial) < 2:
        initial = names[:2]
    test_sets = list(result.scores.index)
    test_set = default_test_set(test_sets, test_set)
    w_parts = describe(
        widgets.SelectMultiple(options=names, value=tuple(initial), rows=len(names)),
        "systems to fuse",
        "two or more systems whose embeddings are fused by GCCA (ctrl/cmd-click to choose "
        "several); press fuse to fit the fusion",
    )
    w_set = describe(
        widgets.Dropdown(options=test_sets, value=test_set), "test set",
        "the rating set (test half; Spearman ρ × 100) or analogy set (accuracy × 100) shown",
    )  # fmt: skip
    w_fuse = widgets.Button(description="fuse", button_style="primary",
                            tooltip="fit the GCCA fusion of the chosen systems (a fusion fitted "
                            "before is reused from the cache)")  # fmt: skip
    status = widgets.HTML()
    out = output_area()
    state = _Fused()

    def show(_: object = None) -> None:
        # kernel-side output (see workbench.explore._output)
        table, parts = state.table, state.parts
        if table is None or parts is None:
            show_message(out, "choose at least two systems and press fuse")
            return
        if w_set.value not in table.index.get_level_values(0):
            show_message(out, f"no test of the fusion on {w_set.value}")
            return
        rows = cast(pd.DataFrame, table.xs(w_set.value, level="test set"))
        out.outputs = ()
        fused = float(rows["fused score"].iloc[0])
        append_text(out, f"fusion of {' + '.join(parts)} on {w_set.value}: "
                         f"{pts(fused / 100)} points; against each part (Holm over every part "
                         f"x test set of this fusion):")  # fmt: skip
        append_table(out, readable_rows(rows),
                     caption="scores and gains in points (ρ or accuracy × 100); p two-sided")  # fmt: skip

    def fuse(_: object = None) -> None:
        chosen = list(w_parts.value)
        if len(chosen) < 2:
            state.parts, state.table = None, None
            status.value = ""
            show_message(out, "choose at least two systems to fuse")
            return
        status.value = "fusing…"
        try:
            table = ex.report(chosen)
        except (ValueError, KeyError) as exc:
            state.parts, state.table = None, None
            status.value = "<b>cannot fuse</b> these systems"
            show_message(out, f"cannot fuse these systems: {exc}")
            return
        state.parts = [n for n in names if n in chosen]
        state.table = table
        status.value = f"{len(ex)} fusion(s) fitted"
        show()

    def changed(_: object = None) -> None:
        # a new choice is fitted only on "fuse": until then no result of another choice is shown
        if [n for n in names if n in w_parts.value] != state.parts:
            state.parts, state.table = None, None
            status.value = ""
            if len(w_parts.value) < 2:
                show_message(out, "choose at least two systems to fuse")
            else:
                show_message(out, f"press fuse to fit the fusion of {' + '.join(w_parts.value)}")

    w_fuse.on_click(fuse)
    w_parts.observe(changed, names="value")
    w_set.observe(show, names="value")
    fuse()
    return widgets.VBox([widgets.HBox([w_parts, widgets.VBox([w_set, widgets.HBox([w_fuse, status])])]),
                         out])  # fmt: skip
