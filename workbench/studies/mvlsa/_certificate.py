"""The accuracy certificate of the tuned MVLSA of notebook 03 (``MVLSA.accuracy_``).

The study's systems are combined from stored per-view factors (:class:`FactorStore`), which keep
no SVD residuals; :func:`choice_certificate` therefore fits the chosen configuration once with
:class:`workbench.gcca.MVLSA` (same views, settings and seed) and returns its
:class:`workbench.gcca.AccuracyCertificate`: a bound on the largest principal angle between that
fit and the exact MAX-VAR solution for the same views and settings. :func:`certificate_note`
writes it as the one Markdown line the notebook shows.
"""

from __future__ import annotations

import math

from workbench.gcca import AccuracyCertificate
from workbench.studies.mvlsa._systems import fit_mvlsa
from workbench.studies.mvlsa._tuning import MVLSAChoice, _choice_views
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set

__all__ = ["NOT_CERTIFIED", "certificate_note", "choice_certificate"]

#: ``angle_bound`` of a certificate that certifies nothing (no spectral gap at ``k``).
NOT_CERTIFIED = 90.0


def choice_certificate(view_set: ViewSet, choice: MVLSAChoice) -> AccuracyCertificate:
    """The accuracy certificate of an MVLSA fit of ``choice`` (its views, configuration and
    seed), from :attr:`workbench.gcca.MVLSA.accuracy_`."""
    _check_view_set(view_set)
    views = ViewSet(view_set.vocab, tuple(_choice_views(view_set, choice)), dict(view_set.info))
    return fit_mvlsa(views, choice.config).model.accuracy_


def certificate_note(angle_bound: float | None) -> str:
    """One Markdown line stating the certificate's angle bound (degrees) in words.

    Rule: below 90 degrees, "largest angle to the exact MAX-VAR solution <= X degrees" (two
    significant digits, rounded up so that the line stays a bound); 90 degrees (or more) or no
    bound: "not certified", because the spectrum of the MAX-VAR matrix is too flat at ``k`` for
    a gap between its k-th and (k+1)-th eigenvalues to be certified; None: no certificate.
    """
    head = "**Accuracy certificate** of the tuned MVLSA (`MVLSA.accuracy_`):"
    if angle_bound is None:
        return f"{head} none was computed."
    if not math.isfinite(angle_bound) or angle_bound >= NOT_CERTIFIED:
        return (
            f"{head} not certified — the spectrum is flat at k (no gap between the k-th and "
            "(k+1)-th eigenvalues of the MAX-VAR matrix could be certified), so no bound on the "
            "angle to the exact MAX-VAR solution is given (the bound is the trivial 90°)."
        )
    return (
        f"{head} largest angle between its embedding and the exact MAX-VAR solution for the "
        f"same views and settings ≤ {_up2(angle_bound)}° (0° would be exact; 90°: nothing "
        "certified)."
    )


def _up2(value: float) -> str:
    """``value`` rounded up to two significant digits, as text (``0.01234`` -> ``"0.013"``)."""
    if value <= 0:
        return "0"
    exp = math.floor(math.log10(value)) - 1
    up = math.ceil(value / 10.0**exp - 1e-9) * 10.0**exp
    return f"{up:.{max(-exp, 0)}f}"
