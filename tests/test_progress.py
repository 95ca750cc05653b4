"""A fit that stops early on purpose closes its notebook progress bar as complete, not red
(notebook 07's PLSA EM, GloVe's tolerance stop)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("ipywidgets")
from tqdm.notebook import tqdm as notebook_tqdm  # noqa: E402

from workbench._progress import finish_bar  # noqa: E402


def _style(bar) -> str:
    return bar.container.children[1].bar_style


def test_finish_bar_marks_an_early_stop_complete(capsys):
    bar = notebook_tqdm(total=10, disable=False, leave=True)
    for _ in range(3):
        bar.update()
    finish_bar(bar)
    assert (bar.n, bar.total) == (3, 3) and _style(bar) == "success"
    failed = notebook_tqdm(total=10, disable=False, leave=True)
    failed.update()
    failed.close()  # what tqdm does for an unfinished bar: red
    assert _style(failed) == "danger"


@pytest.mark.parametrize("model", ["JPLSA", "CPLSA"])
def test_plsa_converging_early_leaves_a_complete_bar(monkeypatch, model, capsys):
    from workbench.crosslingual import plsa

    bars = []

    def factory(*args, **kwargs):
        kwargs.update(disable=False, leave=True)
        bars.append(notebook_tqdm(*args, **kwargs))
        return bars[-1]

    monkeypatch.setattr(plsa, "tqdm", factory)
    rng = np.random.default_rng(0)
    en = sp.csr_matrix(rng.poisson(1.0, (12, 15)).astype(float))
    es = sp.csr_matrix(rng.poisson(1.0, (12, 15)).astype(float))
    est = getattr(plsa, model)(n_topics=3, n_iter=20)
    est.fit([en, es], callback=lambda it, m: it >= 4)  # "converged" after 4 iterations
    (bar,) = bars
    assert bar.n < 20 and bar.n == bar.total and _style(bar) == "success"


def test_glove_stopping_at_tol_leaves_a_complete_bar(monkeypatch, capsys):
    from workbench.baselines import _glove

    bars = []

    def factory(*args, **kwargs):
        kwargs.update(disable=False, leave=True)
        bars.append(notebook_tqdm(*args, **kwargs))
        return bars[-1]

    monkeypatch.setattr(_glove, "tqdm", factory)
    rng = np.random.default_rng(0)
    x = sp.random(30, 30, density=0.3, random_state=0, data_rvs=lambda n: rng.uniform(1, 5, n))
    _glove.fit_glove(x + x.T, n_components=4, epochs=50, tol=0.5)  # stops after a few epochs
    (bar,) = bars
    assert bar.n < 50 and bar.n == bar.total and _style(bar) == "success"
