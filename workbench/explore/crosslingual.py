"""Widget of the translingual notebook (only used under ``if INTERACTIVE:``): pick an English
chapter, see the top Spanish matches under each method with their scores."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

__all__ = ["top_matches", "chapter_explorer"]


def _scores(query: Any, targets: Any, metric: str) -> np.ndarray:
    """Similarity of one query row to every target row (cosine, or negative L1 distance)."""
    q = query.toarray() if sp.issparse(query) else np.asarray(query, dtype=float)
    t = targets.toarray() if sp.issparse(targets) else np.asarray(targets, dtype=float)
    q = q.reshape(1, -1)
    if metric == "l1":
        return -np.abs(t - q).sum(axis=1)
    qn = np.linalg.norm(q)
    tn = np.linalg.norm(t, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = (t @ q.ravel()) / (tn * qn)
    return np.nan_to_num(s, nan=-np.inf)


def top_matches(result: Any, chapter: tuple[str, int], *, topn: int = 5) -> pd.DataFrame:
    """Top Spanish test chapters for an English test chapter under every method.

    Parameters
    ----------
    result : TranslingualResult
        From :func:`workbench.crosslingual.run_translingual`.
    chapter : (book, chapter)
        An English chapter of the *test* books.
    topn : int

    Returns
    -------
    DataFrame
        Rows ``rank 1..topn``, one column per method with ``"Book ch (score)"`` strings; a ``*``
        marks the true translation. Scores are cosine similarities, or minus the L1 distance for
        the PLSA models.
    """
    data = result.data
    test = data.parts["test"]
    ids = [data.ids[i] for i in test]
    key = (str(chapter[0]), int(chapter[1]))
    if key not in ids:
        raise KeyError(f"chapter {chapter!r} is not a test chapter (test books: {data.split.test})")
    pos = ids.index(key)
    cols: dict[str, list[str]] = {}
    for method, (en, es, metric) in result.embeddings.items():
        s = _scores(en[pos], es, metric)
        order = np.argsort(-s, kind="stable")[:topn]
        cols[method] = [
            f"{'*' if j == pos else ''}{ids[j][0]} {ids[j][1]} ({s[j]:.3f})" for j in order
        ]
    return pd.DataFrame(cols, index=pd.RangeIndex(1, topn + 1, name="rank"))


def chapter_explorer(result: Any, *, topn: int = 5) -> Any:
    """An ipywidgets box: a dropdown of English test chapters and the table of top matches."""
    import ipywidgets as widgets
    from IPython.display import display

    data = result.data
    options = [(f"{data.ids[i][0]} {data.ids[i][1]}", data.ids[i]) for i in data.parts["test"]]
    dropdown = widgets.Dropdown(options=options, description="English chapter")
    out = widgets.Output()

    def show(change: Any = None) -> None:
        out.clear_output(wait=True)
        with out:
            display(top_matches(result, dropdown.value, topn=topn))

    dropdown.observe(show, names="value")
    show()
    return widgets.VBox([dropdown, out])
