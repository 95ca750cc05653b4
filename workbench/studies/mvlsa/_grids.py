"""Hyper-parameter grids (Tables 3--7) and view ablations (Table 8) of the MVLSA study."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
from tqdm.auto import tqdm

from workbench._validation import check_bool, check_float, check_int
from workbench.embeddings import WordVectors
from workbench.significance import (
    ResultsTable,
    SeedSummary,
    adjust_finite,
    bonferroni,
    holm,
    seed_agreement,
    seed_summary,
)
from workbench.studies.mvlsa._settings import (
    PAPER_WORDSIM,
    PARAM_ALIASES,
    GridValue,
    MVLSAConfig,
    _check_seed_results,
    _pairs,
    check_instance,
    check_sequence,
)
from workbench.studies.mvlsa._systems import (
    FittedSystem,
    SystemEvaluation,
    evaluate_system,
    fit_mvlsa,
)
from workbench.studies.mvlsa._tables import marked_table, pairwise_tests, scores_frame
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set

logger = logging.getLogger(__name__)

__all__ = [
    "GridResult",
    "run_grid",
    "run_study",
    "AblationResult",
    "default_removals",
    "ablation_study",
    "AblationSeeds",
    "ablation_seeds",
]


# ============================================================================================
# hyper-parameter grids (Tables 3-7)
# ============================================================================================
@dataclass(frozen=True, eq=False)
class GridResult:
    """One hyper-parameter grid: ``scores`` (test sets x values), ``table`` (marked), systems."""

    param: str
    values: tuple[GridValue, ...]
    labels: tuple[str, ...]
    scores: pd.DataFrame
    table: ResultsTable
    evaluations: tuple[SystemEvaluation, ...]
    seconds: tuple[float, ...]

    def best(self, test_set: str) -> str:
        """Label of the best value on ``test_set``."""
        return str(self.scores.loc[test_set].idxmax())


def _field(param: str) -> str:
    name = PARAM_ALIASES.get(param, param) if isinstance(param, str) else param
    if name not in PARAM_ALIASES.values():
        raise ValueError(f"unknown grid parameter {param!r}; use one of {sorted(PARAM_ALIASES)}")
    return name


def run_grid(
    view_set: ViewSet,
    param: str,
    values: Sequence[GridValue],
    *,
    base: MVLSAConfig,
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
    _fits: dict[MVLSAConfig, FittedSystem] | None = None,
) -> GridResult:
    """Evaluate MVLSA over the values of one parameter, the others fixed at ``base``.

    ``param`` is a paper name (``n_j, t, m, k, v, r``) or the config field. For ``k`` one model
    is fitted at ``max(values)`` and sliced (dimensions are nested). Returns the raw scores and
    a table marked with :func:`marked_table` (bold within MRDS of the best).
    """
    _check_view_set(view_set)
    fld = _field(param)
    check_instance(base, "base", MVLSAConfig, "an MVLSAConfig")
    values = check_sequence(values, f"values of the grid over {param!r}", allow_empty=True)
    if not values:
        raise ValueError(f"grid over {param!r} has no values")
    ks: list[int] = []
    if fld == "n_components":
        ks = [check_int(v, "values of the grid over 'k'", low=1) for v in values]
        values = tuple(ks)
    fits = {} if _fits is None else _fits
    evals: list[SystemEvaluation] = []
    secs: list[float] = []
    labels: list[str] = []

    def fitted(cfg: MVLSAConfig) -> FittedSystem:
        if cfg not in fits:
            fits[cfg] = fit_mvlsa(view_set, cfg)
        return fits[cfg]

    if fld == "n_components":
        kmax = max(int(v) for v in ks)
        fs = fitted(dataclasses.replace(base, n_components=max(kmax, base.n_components)))
        kfit = fs.model.embedding_.shape[1]
        for v in tqdm(ks, desc=f"grid {param}", disable=None, leave=False):
            k = min(int(v), kfit)
            label = str(int(v))
            evals.append(evaluate_system(fs.vectors(k), name=label, wordsim=wordsim,
                                         analogies=analogies))  # fmt: skip
            secs.append(0.0)
            labels.append(label)
    else:
        for v in tqdm(values, desc=f"grid {param}", disable=None, leave=False):
            cfg = dataclasses.replace(base, **{fld: v})
            t0 = time.perf_counter()
            fs = fitted(cfg)
            label = cfg.label(fld)
            evals.append(evaluate_system(fs.vectors(), name=label, wordsim=wordsim,
                                         analogies=analogies))  # fmt: skip
            secs.append(time.perf_counter() - t0)
            labels.append(label)
    if len(set(labels)) != len(labels):
        raise ValueError(f"duplicate values in the grid over {param!r}: {list(values)}")
    return GridResult(
        param, values, tuple(labels), scores_frame(evals), marked_table(evals), tuple(evals),
        tuple(secs),
    )  # fmt: skip


def run_study(
    view_set: ViewSet,
    grids: Mapping[str, Sequence[GridValue]] | Sequence[tuple[str, Sequence[GridValue]]],
    *,
    base: MVLSAConfig,
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
) -> dict[str, GridResult]:
    """:func:`run_grid` for several parameters, fitting each distinct configuration once.

    ``grids`` maps a parameter to its values (or is a sequence of ``(param, values)`` pairs);
    an empty ``grids`` or a malformed entry raises an error naming it.
    """
    items = _pairs(grids, "grids")
    if not items:
        raise ValueError("grids is empty: give at least one (param, values) pair")
    fits: dict[MVLSAConfig, FittedSystem] = {}
    return {
        p: run_grid(view_set, p, vals, base=base, wordsim=wordsim, analogies=analogies, _fits=fits)
        for p, vals in items
    }


# ============================================================================================
# ablations (Table 8)
# ============================================================================================
@dataclass(frozen=True, eq=False)
class AblationResult:
    """View ablations against "All views".

    Attributes
    ----------
    scores : DataFrame
        Test sets x systems ("All views", then one column per removal).
    drops : DataFrame
        One row per removal, one column per test set: score(all) - score(ablated) over the items
        both systems score (positive = the removed views helped; removing views can shrink the
        covered vocabulary, so the raw ``scores`` columns may be over different pairs).
    pvalues : DataFrame
        Same layout: two-sided p-value of the difference (Williams' t on the rating set's pairs
        scored by both; exact McNemar on the analogy questions both can answer), uncorrected.
    pvalues_corrected : DataFrame
        The p-values after ``correction`` over every cell of the table (Holm by default).
    significant : DataFrame
        ``pvalues_corrected < alpha``.
    table : ResultsTable
        Paper-style table, bold within MRDS of the best, ``†`` = significantly different from
        "All views".
    removals : dict
        Removal label -> removed view / family names.
    """

    scores: pd.DataFrame
    drops: pd.DataFrame
    pvalues: pd.DataFrame
    pvalues_corrected: pd.DataFrame
    significant: pd.DataFrame
    table: ResultsTable
    removals: dict[str, tuple[str, ...]]
    evaluations: tuple[SystemEvaluation, ...]


def default_removals(
    view_set: ViewSet, *, single_views: Sequence[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Removals of Table 8 for this view set: every family (``"!family"``), the paper's
    combinations (``!morphology !framenet`` and ``... !bitext`` when present) and single views
    (default: the first positional view and every view of a one-view family)."""
    _check_view_set(view_set)
    fams = view_set.families()
    if single_views is not None:
        single_views = check_sequence(single_views, "single_views", allow_empty=True)
        unknown = [v for v in single_views if v not in view_set.names]
        if unknown:
            raise ValueError(f"single_views names unknown views {unknown}; views: {view_set.names}")
    out: dict[str, tuple[str, ...]] = {}
    if len(fams) > 1:
        for f in fams:
            out[f"!{f}"] = (f,)
    combo = [f for f in ("morphology", "framenet") if f in fams]
    if len(combo) == 2:
        out["!morphology !framenet"] = tuple(combo)
        if "bitext" in fams:
            out["!morphology !framenet !bitext"] = (*combo, "bitext")
    if single_views is None:
        singles: list[str] = []
        if len(fams.get("positional", [])) > 1:
            singles.append(fams["positional"][0])
    else:
        singles = list(single_views)
    for name in singles:
        label = f"!{name}"
        if label not in out:
            out[label] = (name,)
    return out


def ablation_study(
    view_set: ViewSet,
    config: MVLSAConfig,
    removals: Mapping[str, Sequence[str]] | None = None,
    *,
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
    alpha: float = 0.05,
    correction: str = "holm",
    vectors_of: Callable[[ViewSet], WordVectors] | None = None,
) -> AblationResult:
    """Fit MVLSA on all views and with each removal; measure drops and their significance.

    ``removals`` maps a label to view names and/or family names to remove (default
    :func:`default_removals`). ``config.min_view_support`` is lowered to the number of views
    left when needed (logged). ``vectors_of`` maps a view set to word vectors (default: fit
    ``config`` with :func:`fit_mvlsa`; e.g. ``lambda vs: choice_vectors(vs, choice, store)``
    to combine stored view factors). ``correction`` (``"holm"``, ``"bonferroni"`` or
    ``"none"``) applies over every (removal, test set) cell.
    """
    if correction not in ("holm", "bonferroni", "none"):
        raise ValueError(f"correction must be 'holm', 'bonferroni' or 'none', got {correction!r}")
    _check_view_set(view_set)
    check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    analogies = check_bool(analogies, "analogies")
    if vectors_of is not None and not callable(vectors_of):
        raise TypeError(f"vectors_of must be callable or None, got {type(vectors_of).__name__}")
    if removals is not None and not isinstance(removals, Mapping):
        raise TypeError(
            "removals must be a mapping {label: [view or family names]}, "
            f"got {type(removals).__name__}"
        )
    removals = dict(default_removals(view_set) if removals is None else removals)
    if not removals:
        raise ValueError("no removal to evaluate")
    rem = {k: check_sequence(v, f"removals[{k!r}]") for k, v in removals.items()}
    if "All views" in rem:
        raise ValueError("'All views' labels the system without removal; rename that removal")
    for names in rem.values():
        view_set.select(exclude=names)  # validates names early

    def run(label: str, vs: ViewSet) -> SystemEvaluation:
        cfg = config
        if cfg.min_view_support > len(vs.views):
            logger.info("%s: min_view_support %d > %d views; lowered", label,
                        cfg.min_view_support, len(vs.views))  # fmt: skip
            cfg = dataclasses.replace(cfg, min_view_support=len(vs.views))
        vec = fit_mvlsa(vs, cfg).vectors() if vectors_of is None else vectors_of(vs)
        return evaluate_system(vec, name=label, wordsim=wordsim, analogies=analogies)

    full = run("All views", view_set)
    evals = [full]
    for label, names in tqdm(rem.items(), desc="ablations", disable=None, leave=False):
        evals.append(run(label, view_set.select(exclude=names)))
    drops, pvals = {}, {}
    for e in evals[1:]:
        cmp = pairwise_tests(full, e, alpha)
        drops[e.name] = -cmp["difference"]
        pvals[e.name] = cmp["pvalue"]
    drops_df = pd.DataFrame(drops).T
    pv_df = pd.DataFrame(pvals).T
    drops_df.index.name = pv_df.index.name = "removed"
    corrected = pv_df.copy()
    if correction != "none":
        adj = adjust_finite(
            pv_df.to_numpy(dtype=float), holm if correction == "holm" else bonferroni
        )
        corrected = pd.DataFrame(adj, index=pv_df.index, columns=pv_df.columns)
    sig = corrected.lt(alpha) & corrected.notna()
    dag = sig.T.reindex(columns=[e.name for e in evals], fill_value=False).astype(bool)
    table = marked_table(evals, significant=dag)
    return AblationResult(scores_frame(evals), drops_df, pv_df, corrected, sig, table, rem,
                          tuple(evals))  # fmt: skip


@dataclass(frozen=True, eq=False)
class AblationSeeds:
    """:class:`AblationResult` of several seeds, summarized.

    Attributes
    ----------
    drops : SeedSummary
        Removals x test sets: mean and sd of the drop over the seeds.
    helped, hurt : DataFrame
        Removals x test sets: in how many seeds the removed views helped / hurt significantly
        (Holm over each seed's table).
    n_seeds : int
    per_seed : dict
        ``{seed: AblationResult}``.
    """

    drops: SeedSummary
    helped: pd.DataFrame
    hurt: pd.DataFrame
    n_seeds: int
    per_seed: dict[int, AblationResult]

    def table(self) -> pd.DataFrame:
        """Drops (points) as ``mean ± sd``, marked ``†k`` when significant in ``k`` seeds
        (helped or hurt)."""
        text = self.drops.formatted()
        marks = (self.helped + self.hurt).reindex_like(text).fillna(0).astype(int)
        return text.where(marks == 0, text + "†" + marks.astype(str))


def ablation_seeds(results: Mapping[int, AblationResult]) -> AblationSeeds:
    """Summarize per-seed ablations (:func:`ablation_study` or ``choice_ablation``)."""
    results = _check_seed_results(results, AblationResult, "an AblationResult")
    drops = seed_summary({s: r.drops for s, r in results.items()})
    helped = seed_agreement({s: r.significant & (r.drops > 0) for s, r in results.items()})
    hurt = seed_agreement({s: r.significant & (r.drops < 0) for s, r in results.items()})
    return AblationSeeds(drops, helped, hurt, len(results), results)
