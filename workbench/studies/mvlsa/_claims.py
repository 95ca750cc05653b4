"""The paper's hyper-parameter grids (Tables 3--7, r_j) and its claims, tested on the dev halves.

:func:`paper_grids` varies one parameter of the paper's configuration at a time (the others at
the paper's values, scaled to the data by :func:`~workbench.studies.mvlsa.paper_config`) and
scores every value on the dev halves of the rating sets, once per seed. :func:`grid_claims`
tests each of the paper's claims on those grids in every seed: per dev set, two-sided Williams'
t between the two values the claim compares, with **Holm over the per-set tests of that grid's
claims in that seed** (one family per grid and seed); a claim's status is decided per seed.

The older :func:`path_claims` tests the claims at the steps of the dev-tuned path instead:

Each claim names two candidates of one step of the dev-tuned path (the other factors at their
values when that step was walked) and is tested per dev rating set with the path's own step
test -- two-sided Williams' t for dependent overlapping correlations -- with **Holm over every
per-set test of every claim** (one family: the claims' tests). A claim the path cannot test at
this size (the candidates it needs were not tried) is *not testable here*, with the reason.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from workbench._validation import check_float, check_int
from workbench.evaluation import SystemEvaluation, evaluate_system
from workbench.significance import adjust_finite
from workbench.studies.mvlsa._evalcache import DevEvaluations
from workbench.studies.mvlsa._factors import FactorStore
from workbench.studies.mvlsa._facts import ClaimStatus, claim_over_seeds, claim_status
from workbench.studies.mvlsa._settings import (
    PAPER_CONFIG,
    StudySettings,
    _field_value,
    check_instance,
    check_sequence,
    grid_values,
    paper_config,
)
from workbench.studies.mvlsa._tuning import (
    MVLSAChoice,
    TuningResult,
    TuningStep,
    _choice_to_json,
    _compare_sets,
    choice_vectors,
    split_wordsim,
    study_store,
)
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set

logger = logging.getLogger(__name__)

__all__ = [
    "CLAIM_STATUSES",
    "ClaimStatus",
    "PathClaims",
    "path_claims",
    "PAPER_TABLES",
    "GRID_CLAIMS_TEST",
    "PaperGrids",
    "paper_grids",
    "GridClaims",
    "grid_claims",
]

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


# ============================================================================================
# the paper's grids (Tables 3--7 and r_j), per seed on the dev halves
# ============================================================================================
#: The paper's table of each grid parameter.
PAPER_TABLES: dict[str, str] = {
    "n_j": "Table 3", "t": "Table 4", "m": "Table 5", "k": "Table 6", "v": "Table 7",
    "r": "r_j (Section 5)",
}  # fmt: skip

#: How the grid claims are tested (the words of the tables and the Discussion).
GRID_CLAIMS_TEST = (
    "two-sided Williams' t per dev set, Holm over the per-set tests of each grid's claims in "
    "each seed"
)


@dataclass(frozen=True, eq=False)
class PaperGrids:
    """The paper's grids around its configuration, scored on the dev halves in every seed.

    Attributes
    ----------
    base : MVLSAChoice
        The paper's configuration as used (first seed's; every view family, offset views).
    paper : DataFrame
        :attr:`PaperConfig.table`: paper value, used value and why, per parameter.
    values : dict
        Parameter -> DataFrame (index: the paper's label of each value) with ``used``, ``why``
        (:func:`~workbench.studies.mvlsa.grid_values`) and ``left out`` (why a value could not
        be scored, e.g. a ``v`` that keeps fewer words than ``k`` needs; empty otherwise).
    scores : dict
        ``{seed: {param: DataFrame}}``: dev sets x values (Spearman).
    evaluations : dict
        ``{seed: {param: {label: SystemEvaluation}}}`` (what the claims are tested on).
    seeds : tuple of int
    dev_names : tuple of str
    """

    base: MVLSAChoice
    paper: pd.DataFrame
    values: dict[str, pd.DataFrame]
    scores: dict[int, dict[str, pd.DataFrame]]
    evaluations: dict[int, dict[str, dict[str, SystemEvaluation]]]
    seeds: tuple[int, ...]
    dev_names: tuple[str, ...]

    def means(self, param: str) -> pd.DataFrame:
        """Seeds x values: the mean dev Spearman over the rating sets."""
        if param not in self.values:
            raise KeyError(f"no grid over {param!r}; grids: {list(self.values)}")
        return pd.DataFrame({s: self.scores[s][param].mean(axis=0) for s in self.seeds}).T

    def table(self, param: str) -> pd.DataFrame:
        """Dev sets (and ``mean``) x values, the mean over the seeds (the paper's table layout,
        on the dev halves)."""
        if param not in self.values:
            raise KeyError(f"no grid over {param!r}; grids: {list(self.values)}")
        per = [self.scores[s][param] for s in self.seeds]
        mean = sum(per[1:], per[0]) / len(per)
        return pd.concat([mean, mean.mean(axis=0).to_frame("mean").T])


def paper_grids(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    seeds: Sequence[int],
    store: FactorStore | None = None,
    progress: bool | None = None,
) -> PaperGrids:
    """Score the grids of ``settings`` (:data:`~workbench.studies.mvlsa.PAPER_GRIDS` at full
    size, short ones at ``small``) around the paper's configuration on the dev halves of
    ``settings.dev_wordsim``, once per seed.

    Each grid varies one parameter of the paper's configuration (scaled to the view set:
    :func:`~workbench.studies.mvlsa.paper_config`), the others at its values; ``v`` is applied
    as the paper states it (a word enters only if at least ``v`` views observe it,
    :meth:`FactorStore.get_many`). Factors other than the base configuration's are dropped after
    use, so memory stays at about two preprocessings' factors. Each grid point's dev evaluation
    is kept in the disk cache by the content of the views, the choice (with its seed), the dev
    halves and the store's settings, so a re-run on the same views refits nothing.
    """
    _check_view_set(view_set)
    check_instance(settings, "settings", StudySettings,
                   "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    seeds = tuple(check_int(s, "seeds entries", low=0) for s in check_sequence(seeds, "seeds"))
    if not settings.dev_wordsim:
        raise ValueError("the grids are scored on dev halves, and these settings have no rating "
                         "set to tune on (WORDSIM_SPLIT='all' on a non-English corpus)")  # fmt: skip
    store = study_store(view_set, settings, store)
    n_words, n_views = len(view_set.vocab), len(view_set.views)
    paper = paper_config(settings, n_words=n_words, n_views=n_views, seed=seeds[0])
    params = [p for p, _ in settings.grids if p in PAPER_TABLES]
    values = {
        p: pd.DataFrame(
            [{"value": lab, "used": used, "why": why, "left out": ""} for lab, used, why in
             grid_values(settings, p, n_words=n_words, n_views=n_views)]
        ).set_index("value")
        for p in params
    }  # fmt: skip
    dev = split_wordsim(settings.dev_wordsim, "dev")
    cached = DevEvaluations(view_set, dev, store)
    scores: dict[int, dict[str, pd.DataFrame]] = {}
    evals: dict[int, dict[str, dict[str, SystemEvaluation]]] = {}
    total = len(seeds) * sum(len(v) for v in values.values())
    bar = tqdm(
        total=total,
        desc="paper grids",
        disable=None if progress is None else not progress,
        leave=False,
    )
    for seed in seeds:
        base = MVLSAChoice(dataclasses.replace(paper.config, random_state=seed))
        done: dict[MVLSAChoice, SystemEvaluation] = {}
        scores[seed], evals[seed] = {}, {}
        for p in params:
            evals[seed][p] = {}
            for label, row in values[p].iterrows():
                cfg = dataclasses.replace(base.config, **_field_value(p, row["used"]))
                choice = dataclasses.replace(base, config=cfg)
                bar.update()
                if row["left out"]:
                    continue
                if choice not in done:
                    hit = cached.load(_choice_to_json(choice), str(label))
                    if hit is not None:  # evaluated by an earlier run on the same views
                        done[choice] = evals[seed][p][str(label)] = hit
                        continue
                    # another v keeps other rows: its factors go to a store of their own
                    own = cfg.min_view_support != base.config.min_view_support
                    where = dataclasses.replace(store, _items={}, _last=None) if own else store
                    try:
                        vec = choice_vectors(view_set, choice, where)
                    except ValueError as exc:  # e.g. a v that keeps fewer words than k needs
                        logger.warning("grid %s = %s left out: %s", p, label, exc)
                        values[p].loc[label, "left out"] = str(exc)
                        continue
                    finally:
                        if cfg.spec() != base.config.spec():
                            store.prune(base.config)
                    done[choice] = evaluate_system(vec, name=str(label), wordsim=dev,
                                                   analogies=False)  # fmt: skip
                    cached.store(_choice_to_json(choice), str(label), done[choice])
                evals[seed][p][str(label)] = done[choice]
        store.prune(base.config)
    bar.close()
    for seed in seeds:  # a value left out in one seed is left out in every seed
        for p in params:
            kept = list(values[p].index[values[p]["left out"] == ""])
            evals[seed][p] = {lab: evals[seed][p][lab] for lab in kept if lab in evals[seed][p]}
            scores[seed][p] = pd.DataFrame({lab: e.scores() for lab, e in evals[seed][p].items()})
    names = tuple(str(d.attrs.get("name", i)) for i, d in enumerate(dev))
    base0 = MVLSAChoice(paper.config)
    return PaperGrids(base0, paper.table, values, scores, evals, seeds, names)


@dataclass(frozen=True, eq=False)
class GridClaims:
    """The paper's claims, each tested on its grid in every seed.

    Attributes
    ----------
    table : DataFrame
        One row per claim (index ``claim``): ``table`` (the paper's table), ``kind``
        (``"direction"``: ``a`` beats ``b``; ``"invariance"``: no difference), ``a`` / ``b``
        (first seed's; an invariance claim compares the values with the highest and the lowest
        dev mean of each seed), ``dev mean a`` / ``dev mean b`` (over the seeds), one column
        per status of :data:`CLAIM_STATUSES` counting the seeds with it, ``n seeds``,
        ``status`` (:func:`~workbench.studies.mvlsa._facts.claim_over_seeds`) and ``reason``
        (why a claim is not testable; empty otherwise).
    per_seed : DataFrame
        One row per (claim, seed): ``a``, ``b``, ``sets better``, ``sets worse``, ``n sets``,
        ``status``.
    tests : DataFrame
        One row per (claim, seed, dev set): ``difference`` (a - b), ``pvalue`` (two-sided
        Williams' t), ``pvalue_holm`` (Holm over the grid's family in that seed),
        ``significant``.
    family_sizes : dict
        Grid parameter -> per-set tests in that grid's family (one seed's).
    """

    table: pd.DataFrame
    per_seed: pd.DataFrame
    tests: pd.DataFrame
    family_sizes: dict[str, int]


def _claim_specs(grids: PaperGrids) -> list[dict[str, object]]:
    """The claims the grids can test: ``claim, param, kind`` and how to pick ``a`` and ``b``
    (fixed labels, or None for an invariance claim, picked per seed), or ``reason``."""
    labels = {p: [lab for lab in v.index if not v.at[lab, "left out"]]
              for p, v in grids.values.items()}  # fmt: skip
    used = {p: dict(zip(v.index, v["used"])) for p, v in grids.values.items()}
    specs: list[dict[str, object]] = []

    def direction(claim: str, p: str, a: str | None, b: str | None, why: str) -> None:
        have = labels.get(p, [])
        ok = a is not None and b is not None and a in have and b in have and a != b
        specs.append({"claim": claim, "param": p, "kind": "direction", "a": a if ok else None,
                      "b": b if ok else None,
                      "reason": "" if ok else (f"no {p} grid at this size" if p not in labels
                                               else why)})  # fmt: skip

    direction("n_j: Count^1/4 beats Log (Table 3)", "n_j", "Count^1/4", "Log",
              "the n_j grid lacks Count^1/4 or Log")  # fmt: skip
    direction("n_j: Count^1/4 beats Count (Table 3)", "n_j", "Count^1/4", "Count",
              "the n_j grid lacks Count^1/4 or Count")  # fmt: skip
    t_paper = f"{float(PAPER_CONFIG['t']) / 1000:g}K"  # type: ignore[arg-type]
    t_larger = [lab for lab in labels.get("t", []) if used["t"][lab] is None
                or (used["t"].get(t_paper) is not None
                    and float(used["t"][lab]) > float(used["t"][t_paper]))]  # fmt: skip
    direction(f"t: t = {t_paper} beats a larger t (Table 4)", "t", t_paper,
              t_larger[-1] if t_larger else None,
              f"the t grid lacks {t_paper} or a larger t")  # fmt: skip
    for p, tab in (("m", "Table 5"), ("k", "Table 6")):
        vals = sorted(labels.get(p, []), key=lambda lab, p=p: float(used[p][lab]))  # type: ignore[misc]
        if p == "k":  # the paper's Table 6 peaks near its k = 300: larger k up to it
            cap = float(PAPER_CONFIG["k"])  # type: ignore[arg-type]
            vals = [lab for lab in vals if float(lab) <= cap]
        direction(f"{p}: larger {p} is better ({tab})", p, vals[-1] if len(vals) > 1 else None,
                  vals[0] if len(vals) > 1 else None, f"the {p} grid has one value at this size")  # fmt: skip
    for p, claim in (("v", "v: the minimum view support does not matter (Table 7)"),
                     ("r", "r: the absolute r_j does not matter (1e-10 to 1)")):  # fmt: skip
        two = len(labels.get(p, [])) > 1
        why = (f"no {p} grid at this size" if p not in labels
               else f"the {p} grid has fewer than two values")  # fmt: skip
        specs.append({"claim": claim, "param": p, "kind": "invariance", "a": None, "b": None,
                      "reason": "" if two else why})  # fmt: skip
    return specs


def grid_claims(grids: PaperGrids, *, alpha: float = 0.05) -> GridClaims:
    """The paper's claims tested on its grids, in every seed.

    * Table 3: Count^1/4 beats Log, and beats Count -- direction claims;
    * Table 4: the paper's t = 12.5K (scaled) beats the largest larger t tried;
    * Table 5 / Table 6: the largest ``m`` (the largest ``k`` up to the paper's 300) beats the
      smallest;
    * Table 7 and r_j: ``v`` (``r_j`` over 1e-10 to 1) does not matter -- invariance claims,
      tested between the values with the highest and the lowest dev mean of each seed.

    Rule: per seed and dev set, two-sided Williams' t of ``a`` against ``b``; Holm over the
    per-set tests of every claim on the same grid in that seed; significant below ``alpha``
    after Holm. Each seed's status is :func:`~workbench.studies.mvlsa._facts.claim_status` of
    its counts; the claim's status over the seeds is
    :func:`~workbench.studies.mvlsa._facts.claim_over_seeds`.
    """
    check_instance(grids, "grids", PaperGrids, "a PaperGrids (from paper_grids)")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    specs = _claim_specs(grids)
    parts, seed_rows = [], []
    for seed in grids.seeds:
        for p in {str(sp["param"]) for sp in specs}:
            fam = []
            for sp in (x for x in specs if x["param"] == p and not x["reason"]):
                ev = grids.evaluations[seed][p]
                a, b = sp["a"], sp["b"]
                if sp["kind"] == "invariance":
                    ranked = (
                        grids.scores[seed][p]
                        .mean(axis=0)
                        .sort_values(ascending=False, kind="stable")
                    )
                    a, b = str(ranked.index[0]), str(ranked.index[-1])
                cmp = _compare_sets(ev[str(b)], ev[str(a)], alpha)
                part = cmp[["difference", "pvalue"]].reset_index()
                part = part.rename(columns={"test_set": "dev set"})
                part.insert(0, "seed", seed)
                part.insert(0, "claim", str(sp["claim"]))
                part = part.assign(a=str(a), b=str(b))
                fam.append(part)
            if fam:
                t = pd.concat(fam, ignore_index=True)
                t["pvalue_holm"] = adjust_finite(t["pvalue"].to_numpy(dtype=float))
                t["significant"] = (t["pvalue_holm"] < alpha).fillna(False).astype(bool)
                t["grid"] = p
                parts.append(t)
    cols = ["claim", "seed", "dev set", "difference", "pvalue", "pvalue_holm", "significant",
            "a", "b", "grid"]  # fmt: skip
    tests = pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)
    rows = []
    for sp in specs:
        claim, reason = str(sp["claim"]), str(sp["reason"])
        statuses = []
        for seed in grids.seeds:
            t = tests[(tests["claim"] == claim) & (tests["seed"] == seed)]
            better = int((t["significant"] & (t["difference"] > 0)).sum())
            worse = int((t["significant"] & (t["difference"] < 0)).sum())
            status = claim_status(str(sp["kind"]), bool(reason), better, worse)
            statuses.append(status)
            seed_rows.append({"claim": claim, "seed": seed,
                              "a": str(t["a"].iloc[0]) if len(t) else "",
                              "b": str(t["b"].iloc[0]) if len(t) else "",
                              "sets better": better, "sets worse": worse, "n sets": int(len(t)),
                              "status": status})  # fmt: skip
        mine = [r for r in seed_rows if r["claim"] == claim]
        a, b = mine[0]["a"], mine[0]["b"]
        p = str(sp["param"])

        def dev_mean(lab: str, p: str = p, mine: list[dict[str, object]] = mine,
                     which: str = "a") -> float:  # fmt: skip
            vals = [float(grids.scores[r["seed"]][p][str(r[which])].mean())  # type: ignore[index]
                    for r in mine if r[which]]  # fmt: skip
            return float(np.mean(vals)) if vals and lab else float("nan")

        row: dict[str, object] = {"claim": claim, "table": PAPER_TABLES[p], "kind": sp["kind"],
                                  "a": a, "b": b, "dev mean a": dev_mean(str(a)),
                                  "dev mean b": dev_mean(str(b), which="b")}  # fmt: skip
        for st in CLAIM_STATUSES:
            row[f"seeds {st}"] = sum(s == st for s in statuses)
        row.update({"n seeds": len(statuses), "status": claim_over_seeds(statuses),
                    "reason": reason})  # fmt: skip
        rows.append(row)
    sizes: dict[str, int] = {}
    if len(tests):
        first = tests[tests["seed"] == grids.seeds[0]].groupby("grid").size()
        sizes = {str(k): int(v) for k, v in first.items()}
    return GridClaims(pd.DataFrame(rows).set_index("claim"), pd.DataFrame(seed_rows), tests,
                      sizes)  # fmt: skip
