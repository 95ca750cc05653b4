"""The paper's hyper-parameter claims, each tested on the dev halves at its step of the path.

Each claim names two candidates of one step of the dev-tuned path (the other factors at their
values when that step was walked) and is tested per dev rating set with the path's own step
test -- two-sided Williams' t for dependent overlapping correlations -- with **Holm over every
per-set test of every claim** (one family: the claims' tests). A claim the path cannot test at
this size (the candidates it needs were not tried) is *not testable here*, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench._validation import check_float
from workbench.significance import adjust_finite
from workbench.studies.mvlsa._facts import ClaimStatus, claim_status
from workbench.studies.mvlsa._settings import check_instance
from workbench.studies.mvlsa._tuning import TuningResult, TuningStep, _compare_sets

__all__ = ["CLAIM_STATUSES", "ClaimStatus", "PathClaims", "path_claims"]

#: Every status a claim can have.
CLAIM_STATUSES: tuple[ClaimStatus, ...] = (
    "holds", "does not hold", "no detectable difference", "not testable here",
)  # fmt: skip

#: How each claim is tested (the words of the tables and the Discussion).
CLAIM_TEST = "two-sided Williams' t per dev set, Holm over every per-set test of the claims"


@dataclass(frozen=True, eq=False)
class PathClaims:
    """The paper's claims checked on the path.

    Attributes
    ----------
    table : DataFrame
        One row per claim (index ``claim``): ``kind`` (``"direction"``: ``a`` is better than
        ``b``; ``"invariance"``: no difference between ``a`` and ``b``), ``status`` (one of
        :data:`CLAIM_STATUSES`), ``a`` / ``b`` (the candidates compared), ``dev mean a`` / ``dev
        mean b``, ``sets better`` / ``sets worse`` (dev sets on which ``a`` is significantly
        higher / lower than ``b`` after Holm), ``n sets`` and ``reason`` (why a claim is not
        testable; empty otherwise).
    tests : DataFrame
        One row per (claim, dev set): ``difference`` (a - b), ``pvalue`` (two-sided Williams'
        t), ``pvalue_holm`` (Holm over every row) and ``significant``.
    family_size : int
        The number of per-set tests Holm corrects over (the rows with a p-value).
    """

    table: pd.DataFrame
    tests: pd.DataFrame
    family_size: int


def _pair(
    step: TuningStep | None, factor: str, a: str | None, b: str | None, what: str
) -> str | None:
    """Why the claim on ``factor`` cannot be tested (None: it can)."""
    if step is None:
        return f"the path has no {factor} step"
    if a is None or b is None:
        return what
    if a not in step.evaluations or b not in step.evaluations:
        return f"the {factor} step kept no dev evaluations of {a} and {b}"
    return None


def path_claims(result: TuningResult, *, alpha: float = 0.05) -> PathClaims:
    """The paper's hyper-parameter claims, each tested on the dev halves of its step.

    * Table 3 (``n_j``): Count^1/4 beats Log -- a direction claim;
    * Table 5 / Table 6: the largest ``m`` (``k``) tried beats the smallest -- direction claims;
    * "r does not matter" (the paper's *absolute* :math:`r_j`): the absolute-``r`` candidates
      with the highest and the lowest dev mean -- an invariance claim; not testable when the
      path tries fewer than two absolute values (its ``rho=`` candidates are relative to each
      view's spectrum, which the claim is not about).

    Rule: per dev set, two-sided Williams' t of ``a`` against ``b``; Holm over every per-set
    test of every testable claim; significant below ``alpha`` after Holm. A direction claim
    *holds* when ``a`` is significantly higher on at least one set and significantly lower on
    none, *does not hold* when it is significantly lower on at least one set, and otherwise
    shows *no detectable difference*. An invariance claim *does not hold* when any set differs
    significantly, and otherwise shows *no detectable difference* (consistent with the claim;
    no test can show that there is no difference).
    """
    check_instance(result, "result", TuningResult, "a TuningResult (from tuning_path)")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    steps = {s.factor: s for s in result.steps}
    specs: list[dict[str, object]] = []

    nj = steps.get("n_j")
    have = set(nj.mean.index) if nj is not None else set()
    missing = [c for c in ("Count^0.25", "Log") if c not in have]
    specs.append({
        "claim": "n_j: Count^1/4 beats Log (Table 3)", "kind": "direction", "step": nj,
        "factor": "n_j", "a": None if missing else "Count^0.25", "b": None if missing else "Log",
        "what": f"the path does not try {' or '.join(missing)} at this size",
    })  # fmt: skip
    for factor, paper_table in (("m", "Table 5"), ("k", "Table 6")):
        st = steps.get(factor)
        labels = sorted(st.mean.index, key=float) if st is not None else []
        two = len(labels) > 1
        specs.append({
            "claim": f"{factor}: larger {factor} is better ({paper_table})", "kind": "direction",
            "step": st, "factor": factor, "a": labels[-1] if two else None,
            "b": labels[0] if two else None,
            "what": f"the path tries one {factor} at this size",
        })  # fmt: skip
    st = steps.get("r")
    absolute = [
        lab for lab in (st.mean.index if st is not None else []) if not lab.startswith("rho=")
    ]
    ranked = sorted(absolute, key=lambda lab: -float(st.mean[lab])) if st is not None else []
    two = len(ranked) > 1
    specs.append({
        "claim": "r: the absolute r_j does not matter", "kind": "invariance", "step": st,
        "factor": "r", "a": ranked[0] if two else None, "b": ranked[-1] if two else None,
        "what": (f"the path tries one absolute r ({', '.join(ranked) or 'none'}); its other "
                 "candidates are relative to each view's spectrum (rho), which the claim is "
                 "not about"),
    })  # fmt: skip

    rows, parts = [], []
    for spec in specs:
        step = spec["step"]
        a, b = spec["a"], spec["b"]
        reason = _pair(step, str(spec["factor"]), a, b, str(spec["what"]))  # type: ignore[arg-type]
        row = {"claim": spec["claim"], "kind": spec["kind"], "a": a or "", "b": b or "",
               "dev mean a": np.nan, "dev mean b": np.nan, "reason": reason or ""}  # fmt: skip
        if reason is None:
            assert isinstance(step, TuningStep) and isinstance(a, str) and isinstance(b, str)
            row["dev mean a"] = float(step.mean[a])
            row["dev mean b"] = float(step.mean[b])
            cmp = _compare_sets(step.evaluations[b], step.evaluations[a], alpha)
            part = cmp[["difference", "pvalue"]].reset_index()
            part = part.rename(columns={"test_set": "dev set"})
            part.insert(0, "claim", str(spec["claim"]))
            parts.append(part)
        rows.append(row)
    tests = (pd.concat(parts, ignore_index=True) if parts else
             pd.DataFrame(columns=["claim", "dev set", "difference", "pvalue"]))  # fmt: skip
    tests["pvalue_holm"] = adjust_finite(tests["pvalue"].to_numpy(dtype=float))
    tests["significant"] = (tests["pvalue_holm"] < alpha).fillna(False).astype(bool)
    family = int(np.isfinite(tests["pvalue"].to_numpy(dtype=float)).sum())
    for row in rows:
        t = tests[tests["claim"] == row["claim"]]
        better = int((t["significant"] & (t["difference"] > 0)).sum())
        worse = int((t["significant"] & (t["difference"] < 0)).sum())
        row.update({"sets better": better, "sets worse": worse, "n sets": int(len(t))})
        row["status"] = claim_status(str(row["kind"]), bool(row["reason"]), better, worse)
    cols = ["kind", "status", "a", "b", "dev mean a", "dev mean b", "sets better", "sets worse",
            "n sets", "reason"]  # fmt: skip
    table = pd.DataFrame(rows).set_index("claim")[cols]
    return PathClaims(table, tests, family)
