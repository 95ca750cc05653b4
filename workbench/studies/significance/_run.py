"""Notebook 01's computations: Table 2 reproduced, and the LSA systems compared over seeds.

:func:`run_significance` returns a frozen :class:`SignificanceResult`; its
:meth:`~SignificanceResult.records` is the one definition of every record key of the notebook
(:class:`SignificanceRecords`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from workbench.baselines import lsa
from workbench.evaluation import evaluate_analogies, wordsim_suite
from workbench.records import to_jsonable
from workbench.significance import (
    MVLSA_TABLE2,
    AccuracyComparisonResult,
    ResultsTable,
    SeedSummary,
    SuperiorSetResult,
    bootstrap_ci,
    compare_accuracy,
    compare_wordsim_suite,
    dependent_corr_table,
    mrds_accuracy,
    mrds_correlation,
    mvlsa_table2,
    mvlsa_table2_comparison,
    results_table,
    seed_agreement,
    seed_summary,
    smallest_superior_set,
)
from workbench.views import Vocabulary, encode_corpus, preprocess, window_view

from .._values import as_float
from ._settings import SignificanceSettings, comparison_over_seeds

__all__ = ["SignificanceRecords", "SignificanceResult", "run_significance", "TABLE2_VARIANTS"]

#: A recorded DataFrame (:func:`workbench.records.to_jsonable`: ``__type__``, ``columns``,
#: ``index``, ``data``).
FrameJSON = dict[str, Any]

#: The tests and sidedness under which Table 2 is recomputed (label -> mvlsa_table2 arguments).
TABLE2_VARIANTS: dict[str, dict[str, str]] = {
    "williams1959, one-sided": {"method": "williams1959"},
    "mvlsa2015 (script, df=n-2), one-sided": {"method": "mvlsa2015"},
    "steiger1980 z, one-sided": {"method": "steiger1980"},
    "hotelling1940, one-sided": {"method": "hotelling1940"},
    "williams1959, two-sided": {"method": "williams1959", "alternative": "two-sided"},
}
ACCURACY_ROWS = ("AN-SYN", "AN-SEM", "TOEFL")


class SignificanceRecords(TypedDict):
    """The records of notebook 01 (JSON values; the one definition of every key).

    Points are hundredths of a Spearman correlation or of an accuracy; seeds are strings where
    they are keys.
    """

    #: Table 2 recomputed (DataFrame: rows = data sets, ``n`` and the cells in points)
    table2_reproduced: FrameJSON
    #: largest |ours - paper| over the published cells, in points
    table2_max_abs_diff: float
    table2_n_cells: int
    #: ``dataset``, ``n``, ``column`` and ``difference`` (points) of that cell
    table2_worst_cell: dict[str, Any]
    #: variant (test, sidedness) -> largest |difference| over the ten rating sets, in points
    table2_variant_max_error: dict[str, float]
    #: footnote 4: TOEFL's sigma at p0 = 5 % with Beta(1/2, 1/2) priors, in points
    footnote4_toefl_sigma_005: float
    #: accuracy MRDS significant for every baseline accuracy up to 0.9, in points
    accuracy_mrds_forall: dict[str, float]
    #: log-log slope of MRDS against n over the ten rating sets (r = 0.9, p0 = 5 %)
    mrds_n_slope: float
    #: mean MRDS at r = 0.9 over MRDS at r = 0.5 (p0 = 5 %)
    mrds_r_ratio: float
    seeds: list[int]
    systems: list[str]
    system_a: str
    system_b: str
    vocab_size: int
    #: set -> ``n_pairs``, ``n_scored``
    coverage_pairs: dict[str, dict[str, int]]
    #: mean Spearman over seeds (DataFrame: sets x systems)
    wordsim_scores_mean: FrameJSON
    #: the first seed's comparison of B with A (DataFrame, one row per set)
    wordsim_comparison: FrameJSON
    #: seed -> comparison of B with A (Williams' t, Holm over the sets of that seed)
    wordsim_comparison_by_seed: dict[str, FrameJSON]
    #: one row per set over the seeds (:func:`comparison_over_seeds`)
    wordsim_comparison_seeds: FrameJSON
    #: set -> in how many seeds B - A is significant after Holm
    wordsim_significant_seeds: dict[str, int]
    #: the data the run used (:meth:`workbench.studies.data.DataChoice.describe`)
    data: dict[str, Any]
    #: the rating set of the detailed tests and bootstrap (MEN when compared, else the first)
    detail_set: str
    #: the ten dependent-correlation tests on ``detail_set`` (MEN), first seed (DataFrame)
    men_all_tests: FrameJSON
    #: system -> 95 % percentile bootstrap interval of its MEN Spearman (first seed)
    men_bootstrap: dict[str, dict[str, float]]
    #: seed -> system -> analogy accuracy (3CosAdd, scorable questions)
    analogy_accuracy_by_seed: dict[str, dict[str, float]]
    #: seed -> B against A on the analogies (:class:`workbench.significance.AccuracyComparisonResult`)
    analogy_comparison_by_seed: dict[str, dict[str, Any]]
    #: seed -> the OPCA-style smallest superior set (``members``, ``separated``)
    superior_set_by_seed: dict[str, dict[str, Any]]


@dataclass(frozen=True, eq=False)
class SignificanceResult:
    """Everything notebook 01 computes (:func:`run_significance`)."""

    settings: SignificanceSettings
    # -- section 1: Table 2
    reproduced: pd.DataFrame
    #: every published cell: the paper's value, ours and ``difference`` (points)
    comparison: pd.DataFrame
    #: Table 2 under each of :data:`TABLE2_VARIANTS` (max |difference| in points)
    variant_error: pd.Series
    worst_cell: dict[str, Any]
    toefl_jeffreys: float
    syn_jeffreys: float
    accuracy_mrds_forall: dict[str, float]
    mrds_n_slope: float
    mrds_r_ratio: float
    # -- section 3: the systems
    seeds: list[int]
    names: list[str]
    vocab_size: int
    #: seed -> {"suites": {system: wordsim table}, "analogies": {system: AnalogyResult}}
    runs: dict[int, dict[str, Any]] = field(repr=False)
    #: seed -> Spearman (sets x systems)
    scores: dict[int, pd.DataFrame] = field(repr=False)
    score_summary: SeedSummary = field(repr=False)
    #: set -> ``n_pairs``, ``n_scored``
    coverage: pd.DataFrame = field(repr=False)
    #: seed -> comparison of B with A (Williams' t, Holm over the sets of the seed)
    comparisons: dict[int, pd.DataFrame] = field(repr=False)
    comparison_seeds: pd.DataFrame = field(repr=False)
    tests_men: pd.DataFrame = field(repr=False)
    #: system -> bootstrap interval of its MEN Spearman (first seed)
    bootstrap: pd.DataFrame = field(repr=False)
    #: empty without the analogies (a corpus that is not English)
    analogy_comparison: dict[int, AccuracyComparisonResult] = field(repr=False)
    superior: dict[int, SuperiorSetResult] = field(repr=False)
    analogy_accuracy: dict[int, pd.Series] = field(repr=False)
    #: the rating set of the detailed tests and bootstrap (MEN when compared, else the first)
    detail_set: str = "MEN"

    @property
    def max_abs_diff(self) -> float:
        """Largest |reproduced - paper| over the published cells, in points."""
        return float(self.comparison["difference"].abs().max())

    @property
    def side_by_side(self) -> pd.DataFrame:
        """The paper's Table 2 and ours side by side."""
        return pd.concat(
            {
                "paper": MVLSA_TABLE2.drop(columns="n"),
                "reproduced": self.reproduced.drop(columns="n").round(2),
            },
            axis=1,
        )

    @property
    def name_a(self) -> str:
        """System A: the narrowest window."""
        return self.names[0]

    @property
    def name_b(self) -> str:
        """System B: the widest window."""
        return self.names[-1]

    @property
    def suites(self) -> dict[str, pd.DataFrame]:
        """The first seed's word-similarity suites (for the single-run illustrations)."""
        return dict(self.runs[self.seeds[0]]["suites"])

    @property
    def scores_long(self) -> pd.DataFrame:
        """Every seed's Spearman, indexed by (seed, dataset)."""
        return pd.concat(self.scores, names=["seed", "dataset"])

    @property
    def score_table(self) -> pd.DataFrame:
        """Coverage and each system's Spearman x 100 (mean ± sd over seeds)."""
        return pd.concat([self.coverage, self.score_summary.formatted()], axis=1)

    @property
    def comparisons_long(self) -> pd.DataFrame:
        """Every seed's comparison rows (uncorrected p kept), indexed by (seed, row)."""
        return pd.concat(self.comparisons, names=["seed", "row"])

    @property
    def analogy_accuracy_table(self) -> pd.DataFrame:
        """Each system's analogy accuracy (%, mean ± sd over seeds)."""
        return (
            seed_summary(self.analogy_accuracy)
            .formatted()
            .rename(columns={"accuracy": "accuracy (%)"})
        )

    @property
    def analogy_table(self) -> pd.DataFrame:
        """Per seed: B - A, McNemar p, P(B > A), the accuracy MRDS and the superior set."""
        return (
            pd.DataFrame(
                {
                    s: {
                        "B - A (points)": 100 * c.difference,
                        "McNemar p": c.mcnemar_pvalue,
                        "P(B > A)": c.prob_b_better,
                        "MRDS (points)": 100 * c.mrds,
                        "exceeds MRDS": c.exceeds_mrds,
                        "superior set": ", ".join(self.superior[s].members),
                        "separated": self.superior[s].separated,
                    }
                    for s, c in self.analogy_comparison.items()
                }
            )
            .T.rename_axis("seed")
            .infer_objects()
        )

    @property
    def results_table(self) -> ResultsTable:
        """The paper-style results table (Spearman x 100, mean over seeds; bold within the
        MRDS of the row's best; † where B - A is significant after Holm over the sets in every
        seed)."""
        n_scored = self.comparison_seeds["n"]
        mrds_col = pd.Series({d: mrds_correlation(int(n), 0.9, 0.05) for d, n in n_scored.items()})
        significant = pd.DataFrame(False, index=n_scored.index, columns=self.names)
        significant[self.name_b] = self.comparison_seeds["seeds_significant"] == len(self.seeds)
        return results_table(
            self.score_summary.mean.loc[n_scored.index],
            baseline=self.name_a,
            mrds=mrds_col,
            significant=significant,
            bold="mrds",
        )

    def records(self) -> SignificanceRecords:
        """The records of the run (see :class:`SignificanceRecords`)."""
        first = self.seeds[0]
        agreement = seed_agreement(
            {s: c.set_index("dataset")["significant"] for s, c in self.comparisons.items()}
        )
        return SignificanceRecords(
            table2_reproduced=to_jsonable(self.reproduced),
            table2_max_abs_diff=self.max_abs_diff,
            table2_n_cells=len(self.comparison),
            table2_worst_cell=to_jsonable(self.worst_cell),
            table2_variant_max_error=to_jsonable(self.variant_error.to_dict()),
            footnote4_toefl_sigma_005=float(self.toefl_jeffreys),
            accuracy_mrds_forall=to_jsonable(self.accuracy_mrds_forall),
            mrds_n_slope=float(self.mrds_n_slope),
            mrds_r_ratio=float(self.mrds_r_ratio),
            seeds=[int(s) for s in self.seeds],
            systems=list(self.names),
            system_a=self.name_a,
            system_b=self.name_b,
            vocab_size=int(self.vocab_size),
            coverage_pairs=to_jsonable(self.coverage.to_dict(orient="index")),
            wordsim_scores_mean=to_jsonable(self.score_summary.mean),
            wordsim_comparison=to_jsonable(self.comparisons[first]),
            wordsim_comparison_by_seed=to_jsonable(self.comparisons),
            wordsim_comparison_seeds=to_jsonable(self.comparison_seeds.reset_index()),
            wordsim_significant_seeds=to_jsonable(agreement),
            data=self.settings.data.describe(),
            detail_set=self.detail_set,
            men_all_tests=to_jsonable(self.tests_men),
            men_bootstrap=to_jsonable(
                {
                    k: {"low": row["low"], "high": row["high"], "estimate": row["estimate"]}
                    for k, row in self.bootstrap.iterrows()
                }
            ),
            analogy_accuracy_by_seed=to_jsonable(
                {s: a.to_dict() for s, a in self.analogy_accuracy.items()}
            ),
            analogy_comparison_by_seed=to_jsonable(
                {s: vars(c) for s, c in self.analogy_comparison.items()}
            ),
            superior_set_by_seed=to_jsonable(
                {
                    s: {"members": list(r.members), "separated": r.separated}
                    for s, r in self.superior.items()
                }
            ),
        )


def _table2() -> dict[str, Any]:
    """Section 1: Table 2 recomputed, its variants, footnote 4 and the MRDS scaling."""
    reproduced = mvlsa_table2()
    comparison = mvlsa_table2_comparison(table=reproduced)
    worst = comparison.iloc[int(np.argmax(comparison["difference"].abs().to_numpy()))]
    worst_cell = {
        "dataset": worst["dataset"],
        "n": int(worst["n"]),
        "column": f"p{worst['p0']:g}_r{0.9 if np.isnan(worst['r']) else worst['r']:g}",
        "difference": float(worst["difference"]),
    }
    paper_cells = MVLSA_TABLE2.iloc[:10].drop(columns="n").stack()
    errors: dict[str, float] = {
        label: float(
            (mvlsa_table2(**kw, accuracy=False).iloc[:10].drop(columns="n").stack()  # type: ignore[arg-type]
             - paper_cells).abs().max()
        )
        for label, kw in TABLE2_VARIANTS.items()
    }  # fmt: skip
    variant_error = pd.Series(errors, name="max |difference| (points)")
    # the text's definition: significant for *every* baseline accuracy theta up to 0.9
    thetas = np.round(np.arange(0.05, 0.905, 0.05), 2)
    forall = {
        name: 100 * mrds_accuracy(int(as_float(MVLSA_TABLE2.loc[name, "n"])), 0.05,
                                  accuracies=thetas.tolist(), aggregate="max")
        for name in ACCURACY_ROWS
    }  # fmt: skip
    # how MRDS scales with n (log-log slope over the ten rating sets) and with r_AB
    rating = reproduced.drop(index=list(ACCURACY_ROWS))
    return {
        "reproduced": reproduced,
        "comparison": comparison,
        "variant_error": variant_error,
        "worst_cell": worst_cell,
        "toefl_jeffreys": 100 * mrds_accuracy(80, 0.05, prior=(0.5, 0.5)),
        "syn_jeffreys": 100 * mrds_accuracy(10675, 0.05, prior=(0.5, 0.5)),
        "accuracy_mrds_forall": forall,
        "mrds_n_slope": float(np.polyfit(np.log(rating["n"]), np.log(rating["p0.05_r0.9"]), 1)[0]),
        "mrds_r_ratio": float((rating["p0.05_r0.9"] / rating["p0.05_r0.5"]).mean()),
    }


def _suite(vectors: Any, sets: Mapping[str, str]) -> pd.DataFrame:
    """:func:`workbench.evaluation.wordsim_suite` on the sources of ``sets``, labelled by the
    keys of ``sets`` (a user's file by its stem; bundled names unchanged)."""
    table = wordsim_suite(vectors, list(sets.values()))
    label = {source: name for name, source in sets.items()}
    results = table.attrs["results"]
    table["dataset"] = table["dataset"].map(label)
    table.attrs["results"] = {label[k]: v for k, v in results.items()}
    return table


def run_significance(
    settings: SignificanceSettings,
    *,
    seeds: Sequence[int],
    windows: Sequence[int],
    bootstrap_seed: int = 0,
) -> SignificanceResult:
    """Everything notebook 01 computes.

    Section 1: Table 2 recomputed (:func:`workbench.significance.mvlsa_table2`) and compared
    with the paper, under five tests / sidednesses; footnote 4; the accuracy MRDS under the
    text's "for all θ" definition; how MRDS scales with n and r. Section 3: LSA on window views
    of ``windows`` (system A the narrowest, B the widest), one randomized SVD per seed of
    ``seeds``; B against A on the rating sets (Williams' t, two-sided, Holm over the sets of
    each seed) and on the analogies (exact McNemar, posterior, accuracy MRDS, the OPCA-style
    superior set with Bonferroni over the pairs of systems); the ten dependent-correlation tests
    and a bootstrap (``bootstrap_seed``, 1,000 resamples) on MEN for the first seed.
    """
    if not isinstance(settings, SignificanceSettings):
        raise TypeError(f"settings must be a SignificanceSettings, got {type(settings).__name__}")
    seeds = [int(s) for s in seeds]
    windows = [int(w) for w in windows]
    if not seeds or len(windows) < 2:
        raise ValueError("run_significance needs at least one seed and two windows")
    table2 = _table2()
    corpus = settings.load_corpus()
    sets = settings.rating_sets()
    vocab = Vocabulary.from_corpus(
        corpus, max_size=settings.vocab_size, min_count=settings.min_count
    )
    encoded = encode_corpus(corpus, vocab)
    views = {w: preprocess(window_view(encoded, vocab, w), "log") for w in windows}
    names = [f"LSA-w{w}" for w in windows]
    name_a, name_b = names[0], names[-1]
    runs: dict[int, dict[str, Any]] = {}
    for seed in seeds:
        systems = {
            f"LSA-w{w}": lsa([views[w]], n_components=settings.n_components,
                             singular_value_power=0.5, random_state=seed)
            for w in windows
        }  # fmt: skip
        runs[seed] = {
            "suites": {k: _suite(v, sets) for k, v in systems.items()},
            "analogies": {k: evaluate_analogies(v, method="3cosadd") for k, v in systems.items()}
            if settings.analogies else {},
        }  # fmt: skip
    suites = runs[seeds[0]]["suites"]
    scores = {
        s: pd.DataFrame({k: r["suites"][k].set_index("dataset")["spearman"] for k in names})
        for s, r in runs.items()
    }
    comparisons = {
        s: compare_wordsim_suite(r["suites"][name_a], r["suites"][name_b],
                                 method="williams1959", p0=0.05)
        for s, r in runs.items()
    }  # fmt: skip
    detail = "MEN" if "MEN" in sets else next(iter(sets))
    men = comparisons[seeds[0]].set_index("dataset").loc[detail]
    bootstrap = pd.DataFrame(
        {
            k: vars(bootstrap_ci(s.attrs["results"][detail], n_resamples=1000,
                                 random_state=bootstrap_seed))
            for k, s in suites.items()
        }
    ).T  # fmt: skip
    return SignificanceResult(
        settings=settings,
        detail_set=detail,
        seeds=seeds,
        names=names,
        vocab_size=len(vocab),
        runs=runs,
        scores=scores,
        score_summary=seed_summary(scores),
        coverage=suites[name_a].set_index("dataset")[["n_pairs", "n_scored"]],
        comparisons=comparisons,
        comparison_seeds=comparison_over_seeds(comparisons),
        tests_men=dependent_corr_table(as_float(men["r_b"]), as_float(men["r_a"]),
                                       as_float(men["r_ab"]), int(as_float(men["n"]))),  # fmt: skip
        bootstrap=bootstrap,
        analogy_comparison={
            s: compare_accuracy(r["analogies"][name_a], r["analogies"][name_b])
            for s, r in runs.items() if r["analogies"]
        },
        superior={
            s: smallest_superior_set(
                {k: a.hits[a.scorable] for k, a in r["analogies"].items()}, alpha=0.05,
                paired=True,
            )
            for s, r in runs.items() if r["analogies"]
        },  # fmt: skip
        analogy_accuracy={
            s: pd.Series({k: a.accuracy for k, a in r["analogies"].items()}, name="accuracy")
            for s, r in runs.items() if r["analogies"]
        },
        **table2,
    )
