"""The accuracy certificate of notebook 03's tuned MVLSA (workbench.studies.mvlsa._certificate)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import scipy.sparse as sp

from workbench.gcca import MVLSA
from workbench.studies import mvlsa as mx
from workbench.views import View, Vocabulary


def _views(n=120, latent=3, seed=0):
    """Three 'signal' views with a planted 3-dimensional shared space and one 'noise' view."""
    rng = np.random.default_rng(seed)
    vocab = Vocabulary.from_words([f"w{i}" for i in range(n)])
    z = rng.standard_normal((n, latent))
    views = []
    for j, fam in enumerate(["signal", "signal", "signal", "noise"]):
        mat = (z @ rng.standard_normal((latent, 30)) + 0.1 * rng.standard_normal((n, 30))
               if fam == "signal" else rng.standard_normal((n, 30)))  # fmt: skip
        m = sp.csr_array(mat)
        views.append(View(f"{fam}{j}", m, tuple(f"c{i}" for i in range(30)),
                          np.diff(m.indptr) > 0, fam, vocab))  # fmt: skip
    return mx.ViewSet(vocab, tuple(views), {"n_tokens": 0})


CFG = mx.MVLSAConfig(transform="identity", view_rank=3, n_components=3, svd_solver="dense",
                     random_state=0)  # fmt: skip


def test_choice_certificate_is_the_fit_of_the_chosen_views_and_settings():
    vs = _views()
    choice = mx.MVLSAChoice(CFG, families=("signal",))
    cert = mx.choice_certificate(vs, choice)
    # a planted 3-dimensional shared space: a clear gap at k = 3, a small certified angle
    assert 0 <= cert.angle_bound < 1.0 and len(cert.view_residuals) == 3
    signal = [v for v in vs.views if v.family == "signal"]
    ref = MVLSA(3, view_rank=3, regularization=CFG.regularization, svd_solver="dense",
                random_state=0).fit(signal)  # fmt: skip
    assert cert.angle_bound == pytest.approx(ref.accuracy_.angle_bound, rel=1e-6, abs=1e-9)
    # k = 4 on the same views: the 4th direction is noise, barely separated from the 5th
    wide = mx.choice_certificate(
        vs, mx.MVLSAChoice(dataclasses.replace(CFG, n_components=4), families=("signal",))
    )
    assert wide.angle_bound > cert.angle_bound


def test_certificate_note_states_the_bound_or_says_not_certified():
    assert mx.certificate_note(0.01234).endswith(
        "exact MAX-VAR solution for the same views and settings ≤ 0.013° (0° would be exact; "
        "90°: nothing certified)."
    )
    assert "≤ 13°" in mx.certificate_note(12.34)  # rounded up: still a bound
    flat = mx.certificate_note(90.0)
    assert "not certified — the spectrum is flat at k" in flat and "≤" not in flat
    assert "not certified" in mx.certificate_note(float("inf"))
    assert mx.certificate_note(None).endswith("none was computed.")
