"""Widgets for the sense-pair notebooks (08_sense_pairs, 09_sparse_noise).

Built with ipywidgets; only used under ``if INTERACTIVE:`` in the notebooks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import ipywidgets as widgets
import numpy as np

from workbench.embeddings import MultiSenseVectors
from workbench.explore._output import append_display, output_area, word_missing
from workbench.rpca import RPCAResult
from workbench.senses import SenseNeighbours, component_pairs, neighbour_overlap

__all__ = ["component_browser", "word_inspector"]


def component_browser(
    M: np.ndarray,
    labels: Sequence[tuple[str, int, int]],
    results: Mapping[str, RPCAResult],
    index: SenseNeighbours,
    *,
    n_top: int = 10,
) -> widgets.VBox:
    """Browse the components of several decompositions and the sense pairs aligned with them.

    Parameters
    ----------
    M, labels
        Difference matrix and column labels (:func:`workbench.rpca.difference_matrix`).
    results : mapping name -> RPCAResult
    index : SenseNeighbours
        Used to show the senses' neighbours and the pseudo-sense decision.
    n_top : int
        Pairs listed per component.

    Returns
    -------
    ipywidgets.VBox
        Its ``.update()`` attribute re-renders (handy in tests).
    """
    if not results:
        raise ValueError("results is empty")
    names = list(results)
    model = widgets.Dropdown(options=names, value=names[0], description="model")
    comp = widgets.IntSlider(value=1, min=1, max=results[names[0]].rank, description="component",
                             continuous_update=False)  # fmt: skip
    out = output_area()

    def update(*_: object) -> None:
        res = results[model.value]
        comp.max = res.rank
        j = min(comp.value, res.rank) - 1
        table = component_pairs(M, labels, res.components[:, j : j + 1], n_top=n_top, index=index)
        # kernel-side output (see workbench.explore._output)
        out.outputs = ()
        out.append_stdout(
            f"{model.value}: component {j + 1}, explained variance "
            f"{100 * res.explained_variance_ratio[j]:.1f}%\n"
        )
        append_display(out, table.drop(columns="component"))

    model.observe(update, names="value")
    comp.observe(update, names="value")
    update()
    box = widgets.VBox([widgets.HBox([model, comp]), out])
    box.update = update  # type: ignore[attr-defined]
    return box


def word_inspector(
    msv: MultiSenseVectors,
    labels: Sequence[tuple[str, int, int]],
    result: RPCAResult,
    index: SenseNeighbours,
    *,
    topn: int = 8,
    word: str | None = None,
) -> widgets.VBox:
    """Inspect any word's senses: nearest neighbours and the sparse-noise norm of each pair.

    Parameters
    ----------
    msv : MultiSenseVectors
    labels : column labels of the difference matrix decomposed by ``result``
    result : RPCAResult
        An Ex-RPCA decomposition (its ``sparse`` term is shown).
    index : SenseNeighbours
    word : str, optional
        Initial word (default: the word whose sense pair carries the largest sparse noise --
        the likeliest pseudo-sense).

    Returns
    -------
    ipywidgets.VBox
        Its ``.update()`` attribute re-renders (handy in tests).
    """
    norms = np.linalg.norm(result.sparse, axis=0)
    by_word: dict[str, list[tuple[int, int, float]]] = {}
    for (w, a, b), v in zip(labels, norms):
        if a < b:
            by_word.setdefault(w, []).append((a, b, float(v)))
    options = sorted(by_word)
    if not options:
        raise ValueError("no word has sense pairs")
    # ensure_option=False: with True the frontend never sends a word that is not an option, so
    # an unknown word would leave the previous word's result on screen
    if word is None:
        word = max(options, key=lambda w: max(v for _, _, v in by_word[w]))
    w_word = widgets.Combobox(options=options, value=word, description="word",
                              ensure_option=False, continuous_update=False)  # fmt: skip
    out = output_area()

    def update(*_: object) -> None:
        # kernel-side output (see workbench.explore._output)
        w = w_word.value.strip()
        if word_missing(
            out, w, msv, prompt="type a word (the list offers the words with sense pairs)"
        ):
            return
        out.outputs = ()
        for s in range(msv.n_senses(w)):
            out.append_stdout(f"{w}_{s}: {', '.join(index.neighbours(w, s, topn))}\n")
        for a, b, v in by_word.get(w, []):
            ov = neighbour_overlap(index, w, a, b)
            out.append_stdout(
                f"pair ({a}, {b}): ||S_p||_2 = {v:.3f}, neighbour overlap = {ov:.1f}\n"
            )

    w_word.observe(update, names="value")
    update()
    box = widgets.VBox([w_word, out])
    box.update = update  # type: ignore[attr-defined]
    return box
