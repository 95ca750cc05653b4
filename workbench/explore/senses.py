"""Widgets for the sense-pair notebooks (08_sense_pairs, 09_sparse_noise).

Built with ipywidgets; only used under ``if INTERACTIVE:`` in the notebooks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import ipywidgets as widgets
import numpy as np
import pandas as pd

from workbench.embeddings import MultiSenseVectors
from workbench.explore._output import (
    append_table,
    clamp_note,
    describe,
    output_area,
    resolve_word,
    word_missing,
)
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
    largest = max(r.rank for r in results.values())
    model = describe(
        widgets.Dropdown(options=names, value=names[0]),
        "model",
        "the decomposition of the difference matrix M whose components are browsed",
    )
    comp = describe(
        widgets.IntSlider(value=1, min=1, max=largest, continuous_update=False),
        "component",
        "which principal component (1 = largest explained variance); its best-aligned "
        "sense pairs are listed",
    )
    out = output_area()

    def update(*_: object) -> None:
        res = results[model.value]
        j = min(comp.value, res.rank) - 1
        table = component_pairs(M, labels, res.components[:, j : j + 1], n_top=n_top, index=index)
        # kernel-side output (see workbench.explore._output)
        out.outputs = ()
        if comp.value > res.rank:
            note = clamp_note(
                "component", comp.value, res.rank, f"{model.value} has rank {res.rank}"
            )
            out.append_stdout(note + "\n")
        out.append_stdout(
            f"{model.value}: component {j + 1}, explained variance "
            f"{100 * res.explained_variance_ratio[j]:.1f}%\n"
        )
        append_table(
            out,
            _pairs_for_reading(table),
            caption=f"the {len(table)} sense pairs most aligned with component {j + 1}",
            index=False,
        )

    model.observe(update, names="value")
    comp.observe(update, names="value")
    update()
    box = widgets.VBox([widgets.HBox([model, comp]), out])
    box.update = update  # type: ignore[attr-defined]
    return box


def _pairs_for_reading(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`workbench.senses.component_pairs`'s table with readable columns: the pair as
    ``word (a, b)``, :math:`|\\cos|` and the overlap with two decimals, pseudo as yes / no."""
    shown = pd.DataFrame(
        {
            "sense pair": [
                f"{w} ({a}, {b})"
                for w, a, b in zip(table["word"], table["sense_a"], table["sense_b"])
            ],
            "|cos|": table["abs_cos"].map("{:.2f}".format),
        }
    )
    if "overlap" in table:
        shown["neighbours of a"] = table["neighbours_a"].to_numpy()
        shown["neighbours of b"] = table["neighbours_b"].to_numpy()
        shown["overlap"] = table["overlap"].map("{:.2f}".format).to_numpy()
        shown["pseudo"] = np.where(table["pseudo"].to_numpy(dtype=bool), "yes", "no")
    return shown


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
    w_word = describe(
        widgets.Combobox(options=options, value=word, ensure_option=False, continuous_update=False),
        "word",
        "any word of the model (looked up as typed, then in lower case); the list offers "
        "the words with two senses or more",
    )
    out = output_area()

    def update(*_: object) -> None:
        # kernel-side output (see workbench.explore._output)
        typed = w_word.value.strip()
        if word_missing(
            out, typed, msv, prompt="type a word (the list offers the words with sense pairs)"
        ):
            return
        w = resolve_word(typed, msv)
        if w is None:  # word_missing has said so
            return
        out.outputs = ()
        if w != typed:
            out.append_stdout(f"{typed!r} is looked up as {w!r}\n")
        senses = pd.DataFrame(
            {
                "sense": [f"{w}_{s}" for s in range(msv.n_senses(w))],
                f"nearest {topn} words": [
                    ", ".join(index.neighbours(w, s, topn)) for s in range(msv.n_senses(w))
                ],
            }
        )
        append_table(out, senses, caption=f"senses of {w!r}", index=False)
        pairs = by_word.get(w, [])
        if not pairs:
            out.append_stdout(f"{w!r} has one sense: no sense pair\n")
            return
        append_table(
            out,
            pd.DataFrame(
                {
                    "pair": [f"({a}, {b})" for a, b, _ in pairs],
                    "sparse norm ||S_p||_2": [f"{v:.3f}" for _, _, v in pairs],
                    "neighbour overlap": [
                        f"{neighbour_overlap(index, w, a, b):.1f}" for a, b, _ in pairs
                    ],
                }
            ),
            caption="its sense pairs (a large sparse norm marks a real multi-sense pair)",
            index=False,
        )

    w_word.observe(update, names="value")
    update()
    box = widgets.VBox([w_word, out])
    box.update = update  # type: ignore[attr-defined]
    return box
