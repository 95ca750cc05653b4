"""The test halves, read once: a reference MVLSA against other systems, per seed and over seeds.

Every comparison is two-sided Williams' t per rating set (the test Steiger 1980 recommends for
two correlations with the gold ratings that share a variable; :func:`workbench.significance.
compare_wordsim`), Holm over every test of one seed's table (the stated family: the other
systems x the test sets). Means over the rating sets are given unweighted (each set counts once)
and weighted by the pairs each system scores on each set (:func:`pair_weighted_mean`), since the
sets range from 30 pairs (MC) to 1,000 (MEN's test half).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from workbench._validation import check_float, check_int
from workbench.embeddings import WordVectors
from workbench.evaluation import SystemEvaluation, evaluate_system
from workbench.significance import SeedSummary, adjust_finite, seed_summary
from workbench.studies.mvlsa._settings import PAPER_WORDSIM
from workbench.studies.mvlsa._systems import _check_vectors
from workbench.studies.mvlsa._tuning import _compare_sets, split_wordsim

__all__ = [
    "TestComparison",
    "test_comparison",
    "SeedComparison",
    "seed_comparison",
    "pair_weighted_mean",
    "COMPARISON_TEST",
]

#: The test of every comparison table, and its correction family.
COMPARISON_TEST = (
    "two-sided Williams' t per test set (Steiger 1980's test of dependent correlations), "
    "Holm over every test of a seed's table (the other systems x the test sets)"
)


def pair_weighted_mean(scores: pd.Series, pairs: pd.Series) -> float:
    """Mean of the per-set ``scores`` weighted by the ``pairs`` scored on each set.

    :math:`\\sum_i n_i r_i / \\sum_i n_i` over the sets whose score is finite and whose pair count
    is positive: a set of 1,000 pairs weighs 33 times one of 30 (the unweighted mean weighs
    them alike). NaN when no set qualifies.

    Raises
    ------
    ValueError
        A set of ``scores`` without a pair count, or a negative / non-finite count.
    """
    if not isinstance(scores, pd.Series) or not isinstance(pairs, pd.Series):
        raise TypeError(
            "scores and pairs must be pandas Series indexed by test set, got "
            f"{type(scores).__name__} and {type(pairs).__name__}"
        )
    missing = [k for k in scores.index if k not in pairs.index]
    if missing:
        raise ValueError(f"pairs has no count for the test sets {missing}")
    n = pairs.reindex(scores.index).to_numpy(dtype=float)
    if not np.all(np.isfinite(n)) or np.any(n < 0):
        raise ValueError(f"pairs must be finite counts >= 0, got {pairs.to_dict()}")
    r = scores.to_numpy(dtype=float)
    ok = np.isfinite(r) & (n > 0)
    if not ok.any():
        return float("nan")
    return float(np.sum(n[ok] * r[ok]) / np.sum(n[ok]))


@dataclass(frozen=True, eq=False)
class TestComparison:
    """Test-split scores of the systems and the tuned MVLSA against each other system.

    Attributes
    ----------
    scores : DataFrame
        Test rating sets x systems (Spearman), with a final ``mean`` row.
    tests : DataFrame
        One row per (system, set): ``difference`` (reference - system), ``pvalue`` (two-sided
        Williams' t), ``pvalue_holm`` (Holm over every test of the table) and ``significant``.
    reference : str
        The system compared with every other one.
    n_scored : DataFrame
        Pairs scored per set and system.
    evaluations : dict
        ``{system: SystemEvaluation}``.
    pair_weighted : Series
        Per system, the mean over the sets weighted by the pairs it scores
        (:func:`pair_weighted_mean`), beside the unweighted ``mean`` row of ``scores``.
    pairs : Series
        Pairs in each test set (before the vocabulary restriction).
    """

    scores: pd.DataFrame
    tests: pd.DataFrame
    reference: str
    n_scored: pd.DataFrame
    evaluations: dict[str, SystemEvaluation]
    pair_weighted: pd.Series = field(default_factory=lambda: pd.Series(dtype=float))
    pairs: pd.Series = field(default_factory=lambda: pd.Series(dtype=int))

    @property
    def family_size(self) -> int:
        """Tests in the Holm family of the table (those with a p-value)."""
        if not len(self.tests):
            return 0
        return int(np.isfinite(self.tests["pvalue"].to_numpy(dtype=float)).sum())


def test_comparison(
    systems: Mapping[str, WordVectors],
    *,
    reference: str,
    names: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    restrict_to: Sequence[str] | None = None,
    alpha: float = 0.05,
) -> TestComparison:
    """Score every system on the *test* parts of the rating sets and test ``reference`` against
    each other system (:data:`COMPARISON_TEST`: Williams' t, Holm over all the comparisons of
    the table); the means over the sets are given unweighted (the ``mean`` row) and weighted by
    the pairs each system scores (``pair_weighted``)."""
    if not isinstance(systems, Mapping):
        raise TypeError(
            f"systems must be a mapping {{name: vectors}}, got {type(systems).__name__}"
        )
    if reference not in systems:
        raise ValueError(f"reference {reference!r} is not among the systems {list(systems)}")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    for name, vec in systems.items():
        _check_vectors(vec, f"systems[{name!r}]")
    test = split_wordsim(names, "test")
    evals = {
        name: evaluate_system(vec, name=name, wordsim=test, analogies=False,
                              restrict_to=restrict_to)
        for name, vec in systems.items()
    }  # fmt: skip
    scores = pd.DataFrame({n: e.scores() for n, e in evals.items()})
    n_scored = pd.DataFrame({n: e.n_scored() for n, e in evals.items()})
    weighted = pd.Series({n: pair_weighted_mean(scores[n], n_scored[n]) for n in scores},
                         dtype=float, name="mean (pair-weighted)")  # fmt: skip
    scores.loc["mean"] = scores.mean(axis=0)
    ref = evals[reference]
    pairs = pd.Series({n: int(r.n_pairs) for n, r in ref.wordsim.items()}, name="pairs")
    parts = []
    for name, ev in evals.items():
        if name == reference:
            continue
        df = _compare_sets(ev, evals[reference], alpha).drop(columns=["pvalue_holm", "significant"])
        df.insert(0, "system", name)
        parts.append(df.reset_index())
    tests = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    if len(tests):
        tests["pvalue_holm"] = adjust_finite(tests["pvalue"].to_numpy(dtype=float))
        tests["significant"] = (tests["pvalue_holm"] < alpha).fillna(False).astype(bool)
    return TestComparison(scores, tests, reference, n_scored, evals, weighted, pairs)


@dataclass(frozen=True, eq=False)
class SeedComparison:
    """:func:`test_comparison` once per seed, and its summary over the seeds.

    Attributes
    ----------
    per_seed : dict
        ``{seed: TestComparison}``.
    scores : SeedSummary
        Test scores (sets and ``mean`` x systems): mean and sd over the seeds.
    tests : DataFrame
        The per-seed tests stacked, with a ``seed`` column (Holm within each seed's table).
    agreement : DataFrame
        Per (system, set): ``better`` / ``worse`` -- in how many seeds the reference is
        significantly better / worse (Holm) -- and ``n_seeds``.
    reference : str
    pair_weighted : SeedSummary
        The pair-weighted means (one row, ``mean (pair-weighted)``): mean and sd over the seeds.
    """

    per_seed: dict[int, TestComparison]
    scores: SeedSummary
    tests: pd.DataFrame
    agreement: pd.DataFrame
    reference: str
    pair_weighted: SeedSummary | None = None

    @property
    def family_size(self) -> int:
        """Tests in the Holm family of one seed's table (the largest over the seeds)."""
        return max((c.family_size for c in self.per_seed.values()), default=0)

    def pairs(self) -> pd.DataFrame:
        """Per test set: its pairs and the pairs each system scores (first seed)."""
        first = next(iter(self.per_seed.values()))
        return pd.concat([first.pairs.rename("pairs"), first.n_scored], axis=1)

    def table(self) -> pd.DataFrame:
        """Scores as ``mean ± sd`` points (the mean alone with one seed), every test set with its
        pair count, then the unweighted and the pair-weighted mean over the sets."""
        text = self.scores.formatted()
        if self.pair_weighted is not None:
            text = pd.concat([text, self.pair_weighted.formatted()])
        first = next(iter(self.per_seed.values()))
        pairs = first.pairs.reindex(text.index)
        pairs.loc[[i for i in text.index if i not in first.pairs.index]] = int(first.pairs.sum())
        text.insert(0, "pairs", pairs.astype(int).astype(str))
        return text

    def records(self) -> dict[str, object]:
        """The comparison as JSON-ready records: scores (mean and sd over the seeds), the
        unweighted and pair-weighted means (over the seeds and per seed), the pairs per set,
        every seed's tests, the win counts, the Holm family size and the test."""
        pw = self.pair_weighted
        return {
            "reference": self.reference,
            "systems": list(self.scores.mean.columns),
            "scores": self.scores.mean.drop(index="mean").to_dict(),
            "scores_sd": self.scores.sd.drop(index="mean").to_dict(),
            "mean": self.scores.mean.loc["mean"].to_dict(),
            "mean_pair_weighted": pw.mean.iloc[0].to_dict() if pw is not None else {},
            "mean_per_seed": {s: c.scores.loc["mean"].to_dict() for s, c in self.per_seed.items()},
            "mean_pair_weighted_per_seed": {
                s: c.pair_weighted.to_dict() for s, c in self.per_seed.items()
            },  # fmt: skip
            "pairs": next(iter(self.per_seed.values())).pairs.to_dict(),
            "scored": self.pairs().drop(columns="pairs").to_dict(orient="index"),
            "tests": self.tests.to_dict(orient="records"),
            "wins": self.wins().to_dict(orient="index"),
            "family_size": self.family_size,
            "test": COMPARISON_TEST,
        }

    def wins(self) -> pd.DataFrame:
        """Per system: sets on which the reference is significantly better / worse in *every*
        seed (replicated) and in at least one seed, and the number of sets."""
        a = self.agreement
        n = int(a["n_seeds"].max()) if len(a) else 1
        flags = a.assign(
            be=a["better"] == n, bs=a["better"] > 0, we=a["worse"] == n, ws=a["worse"] > 0
        )
        out = flags.groupby("system", sort=False).agg(
            **{
                "better, every seed": ("be", "sum"),
                "better, some seed": ("bs", "sum"),
                "worse, every seed": ("we", "sum"),
                "worse, some seed": ("ws", "sum"),
                "sets": ("test_set", "size"),
            }
        )
        return out.astype(int)


def seed_comparison(
    systems: Mapping[int, Mapping[str, WordVectors]],
    *,
    reference: str,
    names: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    restrict_to: Sequence[str] | None = None,
    alpha: float = 0.05,
) -> SeedComparison:
    """:func:`test_comparison` for each seed's systems (``{seed: {name: vectors}}``): scores as
    mean and sd over the seeds and, per system and set, in how many seeds the reference is
    significantly better or worse (Holm over each seed's table)."""
    if not isinstance(systems, Mapping) or not systems:
        raise ValueError("systems must be a non-empty mapping {seed: {name: vectors}}")
    seeds = [check_int(seed, "seeds (the keys of systems)", low=0) for seed in systems]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"systems names a seed twice: {list(systems)}")
    first_seed, first = seeds[0], next(iter(systems.values()))
    for seed, sysm in zip(seeds, systems.values()):
        if not isinstance(sysm, Mapping):
            raise TypeError(
                f"systems[{seed}] must be a mapping {{name: vectors}}, got {type(sysm).__name__}"
            )
        if set(sysm) != set(first):
            raise ValueError(
                f"every seed must have the same systems: seed {seed} has {sorted(sysm)}, "
                f"seed {first_seed} has {sorted(first)}"
            )
    per_seed = {
        seed: test_comparison(sysm, reference=reference, names=names,
                              restrict_to=restrict_to, alpha=alpha)
        for seed, sysm in zip(seeds, systems.values())
    }  # fmt: skip
    summary = seed_summary({s: c.scores for s, c in per_seed.items()})
    tests = pd.concat(
        [c.tests.assign(seed=s) for s, c in per_seed.items() if len(c.tests)], ignore_index=True
    )
    if len(tests):
        tests["better"] = tests["significant"] & (tests["difference"] > 0)
        tests["worse"] = tests["significant"] & (tests["difference"] < 0)
        agreement = (
            tests.groupby(["system", "test_set"], sort=False)
            .agg(better=("better", "sum"), worse=("worse", "sum"), n_seeds=("seed", "nunique"))
            .astype(int)
            .reset_index()
        )
    else:
        agreement = pd.DataFrame(columns=["system", "test_set", "better", "worse", "n_seeds"])
    weighted = seed_summary({s: c.pair_weighted.to_frame().T for s, c in per_seed.items()})
    return SeedComparison(per_seed, summary, tests, agreement, reference, weighted)
