"""Tests for two dependent overlapping correlations (cocor's ``cocor.dep.groups.overlap``)."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np
import pandas as pd
from scipy import stats

from workbench._validation import check_choice, check_float, check_int

logger = logging.getLogger(__name__)

#: Method names accepted by :func:`dependent_corr` (cocor's names).
DEPENDENT_CORR_METHODS: tuple[str, ...] = (
    "pearson1898",
    "hotelling1940",
    "hendrickson1970",
    "williams1959",
    "olkin1967",
    "dunn1969",
    "steiger1980",
    "meng1992",
    "hittner2003",
    "zou2007",
)

#: Extra MRDS-only variant: Williams' t as in the MVLSA authors' script (df = n - 2).
_MRDS_EXTRA = ("mvlsa2015",)

_MIN_N = {m: (3 if m in ("pearson1898", "olkin1967") else 4) for m in DEPENDENT_CORR_METHODS}
_MIN_N["mvlsa2015"] = 4

Alternative = Literal["two-sided", "greater", "less"]
_ALTERNATIVES = ("two-sided", "greater", "less")


# ============================================================================================
# dependent overlapping correlations
# ============================================================================================


@dataclass(frozen=True)
class DependentCorrResult:
    """Result of :func:`dependent_corr`.

    Attributes
    ----------
    statistic : float
        z or t statistic (NaN for ``zou2007``, which only gives an interval).
    pvalue : float
        p-value for ``alternative`` (NaN for ``zou2007``).
    method, alternative : str
    distribution : {"z", "t", None}
    df : float or None
        Degrees of freedom of a t statistic.
    confidence_interval : tuple of float or None
        ``zou2007``: interval for :math:`r_{jk} - r_{jh}`; ``meng1992``: interval for
        :math:`Z_{jk} - Z_{jh}` (Fisher-z scale), both two-sided at ``confidence_level``, as in cocor.
    r_jk, r_jh, r_kh : float
    n : int
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str
    distribution: str | None
    df: float | None
    confidence_interval: tuple[float, float] | None
    r_jk: float
    r_jh: float
    r_kh: float
    n: int


#: A correlation, sample size or statistic: one number, or an array of them (vectorised).
_Values: TypeAlias = float | np.ndarray


def _sample_size(n: Any, method: str) -> int:
    """``n`` as an integer large enough for ``method`` (the message says "too small", which
    :func:`dependent_corr_table` relies on)."""
    n = check_int(n, "n", low=1)
    need = _MIN_N[method]
    if n < need:
        raise ValueError(f"n={n} is too small for method {method!r} (needs n >= {need})")
    return int(n)


def _correlation(value: Any, name: str) -> float:
    """A sample correlation strictly inside (-1, 1)."""
    return float(check_float(value, name, low=-1, high=1, low_open=True, high_open=True))


def _det(rjk: _Values, rjh: _Values, rkh: _Values) -> _Values:
    """Determinant |R| of the 3 x 3 correlation matrix (> 0 iff positive definite)."""
    return 1 + 2 * rjk * rjh * rkh - rjk**2 - rjh**2 - rkh**2


def _p_from_stat(stat: _Values, dist: str, df: _Values | None, alternative: str) -> _Values:
    if dist == "z":
        sf, cdf = stats.norm.sf, stats.norm.cdf
        args: tuple[Any, ...] = ()
    else:
        sf, cdf = stats.t.sf, stats.t.cdf
        args = (df,)
    if alternative == "two-sided":
        return np.minimum(1.0, 2 * sf(np.abs(stat), *args))
    if alternative == "greater":
        return sf(stat, *args)
    return cdf(stat, *args)


def _dep_stat(
    method: str, rjk: _Values, rjh: _Values, rkh: _Values, n: _Values
) -> tuple[_Values, str, _Values | None]:
    """Vectorised statistics (no validation). Returns (statistic, distribution, df)."""
    z = np.arctanh
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "pearson1898":
            k = rkh * (1 - rjk**2 - rjh**2) - 0.5 * rjk * rjh * (1 - rjk**2 - rjh**2 - rkh**2)
            den = np.sqrt((1 - rjk**2) ** 2 + (1 - rjh**2) ** 2 - 2 * k)
            return np.sqrt(n) * (rjk - rjh) / den, "z", None
        if method == "hotelling1940":
            t = (rjk - rjh) * np.sqrt((n - 3) * (1 + rkh)) / np.sqrt(2 * _det(rjk, rjh, rkh))
            return t, "t", n - 3
        if method in ("williams1959", "mvlsa2015"):
            rbar = (rjk + rjh) / 2
            var = 2 * ((n - 1) / (n - 3)) * _det(rjk, rjh, rkh) + rbar**2 * (1 - rkh) ** 3
            t = (rjk - rjh) * np.sqrt((n - 1) * (1 + rkh) / var)
            return t, "t", (n - 3 if method == "williams1959" else n - 2)
        if method == "olkin1967":
            den = np.sqrt(
                (1 - rjk**2) ** 2
                + (1 - rjh**2) ** 2
                - 2 * rkh**3
                - (2 * rkh - rjk * rjh) * (1 - rkh**2 - rjk**2 - rjh**2)
            )
            return (rjk - rjh) * np.sqrt(n) / den, "z", None
        if method == "dunn1969":
            c = (rkh * (1 - rjk**2 - rjh**2) - 0.5 * rjk * rjh * (1 - rjk**2 - rjh**2 - rkh**2)) / (
                (1 - rjk**2) * (1 - rjh**2)
            )
            return np.sqrt(n - 3) * (z(rjk) - z(rjh)) / np.sqrt(2 - 2 * c), "z", None
        if method == "hendrickson1970":
            den = np.sqrt(
                2 * _det(rjk, rjh, rkh) + (rjk - rjh) ** 2 * (1 - rkh) ** 3 / (4 * (n - 1))
            )
            return (rjk - rjh) * np.sqrt((n - 3) * (1 + rkh)) / den, "t", n - 3
        if method in ("steiger1980", "hittner2003"):
            if method == "steiger1980":
                rp = (rjk + rjh) / 2
            else:
                rp = np.tanh((z(rjk) + z(rjh)) / 2)
            c = (rkh * (1 - 2 * rp**2) - 0.5 * rp**2 * (1 - 2 * rp**2 - rkh**2)) / (1 - rp**2) ** 2
            return np.sqrt(n - 3) * (z(rjk) - z(rjh)) / np.sqrt(2 - 2 * c), "z", None
        if method == "meng1992":
            r2 = (rjk**2 + rjh**2) / 2
            f = np.minimum((1 - rkh) / (2 * (1 - r2)), 1.0)
            h = (1 - f * r2) / (1 - r2)
            return (z(rjk) - z(rjh)) * np.sqrt((n - 3) / (2 * (1 - rkh) * h)), "z", None
    raise ValueError(
        f"unknown method {method!r}; choose one of {', '.join(DEPENDENT_CORR_METHODS)}"
    )


def dependent_corr(
    r_jk: float,
    r_jh: float,
    r_kh: float,
    n: int,
    *,
    method: str,
    alternative: Alternative = "two-sided",
    confidence_level: float = 0.95,
) -> DependentCorrResult:
    r"""Test :math:`\rho_{jk} = \rho_{jh}` for two overlapping correlations from one sample.

    ``j`` is the shared variable (the gold ratings), ``k`` and ``h`` the two systems and
    ``r_kh`` the correlation between them.

    Parameters
    ----------
    r_jk, r_jh, r_kh : float
        Sample correlations, each strictly inside (-1, 1), forming a positive definite matrix.
    n : int
        Sample size (n >= 4; n >= 3 for ``pearson1898`` / ``olkin1967``).
    method : str
        One of :data:`DEPENDENT_CORR_METHODS` (required: the tests differ for small n and large
        correlations; ``williams1959`` or ``steiger1980`` are the usual recommendations).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: :math:`\rho_{jk} > \rho_{jh}`.
    confidence_level : float
        Level of the ``zou2007`` / ``meng1992`` intervals (always two-sided, as in cocor).

    Returns
    -------
    DependentCorrResult

    Raises
    ------
    ValueError
        A correlation outside (-1, 1) or NaN, correlations that are not a positive definite
        matrix, ``n`` too small for ``method``, an unknown ``method`` or ``alternative``,
        ``confidence_level`` outside (0, 1).
    TypeError
        A non-numeric parameter (e.g. ``r_jk="0.5"``, ``n=None``).

    Notes
    -----
    With :math:`Z = \operatorname{artanh}(r)` and
    :math:`|R| = 1 + 2 r_{jk} r_{jh} r_{kh} - r_{jk}^2 - r_{jh}^2 - r_{kh}^2`:

    * ``pearson1898`` (Pearson & Filon 1898, formula xxxvii; Steiger 1980 eq. 3-4):
      :math:`z = \sqrt{n}(r_{jk}-r_{jh}) / \sqrt{(1-r_{jk}^2)^2 + (1-r_{jh}^2)^2 - 2k}`,
      :math:`k = r_{kh}(1-r_{jk}^2-r_{jh}^2) - \tfrac12 r_{jk}r_{jh}(1-r_{jk}^2-r_{jh}^2-r_{kh}^2)`.
    * ``hotelling1940`` (Hotelling 1940, eq. 7):
      :math:`t = (r_{jk}-r_{jh})\sqrt{(n-3)(1+r_{kh})} / \sqrt{2|R|}`, df = n - 3.
    * ``williams1959`` (Williams 1959; Steiger 1980 eq. 7):
      :math:`t = (r_{jk}-r_{jh})\sqrt{(n-1)(1+r_{kh}) / (2\frac{n-1}{n-3}|R| + \bar r^2(1-r_{kh})^3)}`,
      :math:`\bar r = (r_{jk}+r_{jh})/2`, df = n - 3.
    * ``hendrickson1970`` (Hendrickson, Stanley & Hills 1970, p. 193):
      :math:`t = (r_{jk}-r_{jh})\sqrt{(n-3)(1+r_{kh})} / \sqrt{2|R| + (r_{jk}-r_{jh})^2(1-r_{kh})^3/(4(n-1))}`, df = n - 3.
    * ``olkin1967`` (Olkin 1967 as corrected by Hendrickson & Collins 1970, without the n - 1):
      :math:`z = (r_{jk}-r_{jh})\sqrt{n} / \sqrt{(1-r_{jk}^2)^2 + (1-r_{jh}^2)^2 - 2r_{kh}^3 - (2r_{kh} - r_{jk}r_{jh})(1-r_{kh}^2-r_{jk}^2-r_{jh}^2)}`.
    * ``dunn1969`` (Dunn & Clark 1969, eq. 8, 15):
      :math:`z = (Z_{jk}-Z_{jh})\sqrt{n-3}/\sqrt{2-2c}`,
      :math:`c = k / ((1-r_{jk}^2)(1-r_{jh}^2))`.
    * ``steiger1980`` (Steiger 1980, eq. 10, 14): as Dunn & Clark with both correlations in
      :math:`c` replaced by their mean :math:`\bar r`:
      :math:`c = (r_{kh}(1-2\bar r^2) - \tfrac12\bar r^2(1-2\bar r^2-r_{kh}^2))/(1-\bar r^2)^2`.
    * ``hittner2003`` (Hittner, May & Silver 2003; Silver & Dunlap 1987): as ``steiger1980``
      with :math:`\bar r = \tanh((Z_{jk}+Z_{jh})/2)`.
    * ``meng1992`` (Meng, Rosenthal & Rubin 1992, eq. 1-4):
      :math:`z = (Z_{jk}-Z_{jh})\sqrt{(n-3)/(2(1-r_{kh})h)}`,
      :math:`h = (1-f\overline{r^2})/(1-\overline{r^2})`,
      :math:`f = \min(1, (1-r_{kh})/(2(1-\overline{r^2})))`; interval
      :math:`Z_{jk}-Z_{jh} \pm z_{\alpha/2}\sqrt{2(1-r_{kh})h/(n-3)}`.
    * ``zou2007`` (Zou 2007, pp. 406, 409): with :math:`(l_i, u_i)` the Fisher-z intervals of each
      correlation and :math:`c = ((r_{kh}-\tfrac12 r_{jk}r_{jh})(1-r_{jk}^2-r_{jh}^2-r_{kh}^2)+r_{kh}^3)/((1-r_{jk}^2)(1-r_{jh}^2))`,
      :math:`L = d - \sqrt{(r_{jk}-l_1)^2 + (u_2-r_{jh})^2 - 2c(r_{jk}-l_1)(u_2-r_{jh})}`,
      :math:`U = d + \sqrt{(u_1-r_{jk})^2 + (r_{jh}-l_2)^2 - 2c(u_1-r_{jk})(r_{jh}-l_2)}`.

    p-values: z and t statistics are referred to the standard normal and Student t; two-sided
    :math:`2(1-F(|s|))`, ``greater`` :math:`1-F(s)`, ``less`` :math:`F(s)` (cocor's ``get.p.value``).

    References
    ----------
    Diedenhofen, B. & Musch, J. (2015). cocor: A comprehensive solution for the statistical
    comparison of correlations. PLoS ONE 10(4): e0121945. Steiger, J. H. (1980). Tests for
    comparing elements of a correlation matrix. Psychological Bulletin 87, 245-251. Meng, X.-L.,
    Rosenthal, R. & Rubin, D. B. (1992). Comparing correlated correlation coefficients.
    Psychological Bulletin 111, 172-175. Zou, G. Y. (2007). Toward using confidence intervals to
    compare correlations. Psychological Methods 12, 399-413. (Further references in cocor.)
    """
    check_choice(method, "method", DEPENDENT_CORR_METHODS)
    check_choice(alternative, "alternative", _ALTERNATIVES)
    confidence_level = check_float(
        confidence_level, "confidence_level", low=0, high=1, low_open=True, high_open=True
    )
    rjk, rjh, rkh = (
        _correlation(r_jk, "r_jk"),
        _correlation(r_jh, "r_jh"),
        _correlation(r_kh, "r_kh"),
    )
    n = _sample_size(n, method)
    det = _det(rjk, rjh, rkh)
    if det <= 0:
        raise ValueError(
            f"the correlations r_jk={rjk}, r_jh={rjh}, r_kh={rkh} do not form a positive "
            f"definite correlation matrix (determinant {det:.3g} <= 0)"
        )
    zcrit = stats.norm.isf((1 - confidence_level) / 2)
    if method == "zou2007":
        x = zcrit * math.sqrt(1 / (n - 3)) if n > 3 else math.inf
        c = ((rkh - 0.5 * rjk * rjh) * (1 - rjk**2 - rjh**2 - rkh**2) + rkh**3) / (
            (1 - rjk**2) * (1 - rjh**2)
        )
        l1, u1 = math.tanh(math.atanh(rjk) - x), math.tanh(math.atanh(rjk) + x)
        l2, u2 = math.tanh(math.atanh(rjh) - x), math.tanh(math.atanh(rjh) + x)
        d = rjk - rjh
        lo = d - math.sqrt((rjk - l1) ** 2 + (u2 - rjh) ** 2 - 2 * c * (rjk - l1) * (u2 - rjh))
        hi = d + math.sqrt((u1 - rjk) ** 2 + (rjh - l2) ** 2 - 2 * c * (u1 - rjk) * (rjh - l2))
        return DependentCorrResult(
            math.nan, math.nan, method, alternative, None, None, (lo, hi), rjk, rjh, rkh, n
        )
    stat, dist, df = _dep_stat(method, rjk, rjh, rkh, n)
    stat = float(stat)
    if not math.isfinite(stat):
        if rjk == rjh:
            stat = 0.0
        else:
            raise ValueError(
                f"method {method!r} is undefined for r_jk={rjk}, r_jh={rjh}, r_kh={rkh}, n={n} "
                "(non-positive variance estimate)"
            )
    p = float(_p_from_stat(stat, dist, df, alternative))
    ci = None
    if method == "meng1992":
        r2 = (rjk**2 + rjh**2) / 2
        f = min((1 - rkh) / (2 * (1 - r2)), 1.0)
        h = (1 - f * r2) / (1 - r2)
        dz = math.atanh(rjk) - math.atanh(rjh)
        half = zcrit * math.sqrt(2 * (1 - rkh) * h / (n - 3))
        ci = (dz - half, dz + half)
    return DependentCorrResult(
        stat, p, method, alternative, dist, None if df is None else float(df), ci, rjk, rjh, rkh, n
    )


def dependent_corr_table(
    r_jk: float,
    r_jh: float,
    r_kh: float,
    n: int,
    *,
    alternative: Alternative = "two-sided",
    confidence_level: float = 0.95,
) -> pd.DataFrame:
    """All :data:`DEPENDENT_CORR_METHODS` on one input: columns ``method, distribution, df,
    statistic, pvalue, ci_low, ci_high`` (methods whose variance estimate is undefined for
    this input get NaN)."""
    rows: list[dict[str, Any]] = []
    for m in DEPENDENT_CORR_METHODS:
        try:
            res = dependent_corr(
                r_jk,
                r_jh,
                r_kh,
                n,
                method=m,
                alternative=alternative,
                confidence_level=confidence_level,
            )
        except ValueError as err:
            if "undefined" not in str(err) and "too small" not in str(err):
                raise
            rows.append({"method": m})
            continue
        ci = res.confidence_interval or (np.nan, np.nan)
        rows.append(
            {
                "method": m,
                "distribution": res.distribution,
                "df": res.df,
                "statistic": res.statistic,
                "pvalue": res.pvalue,
                "ci_low": ci[0],
                "ci_high": ci[1],
            }
        )
    cols = ["method", "distribution", "df", "statistic", "pvalue", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=cols)
