"""The test halves, read once: the tuned MVLSA against every other system, per seed and over
seeds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from workbench._validation import check_float, check_int
from workbench.embeddings import WordVectors
from workbench.evaluation import SystemEvaluation, evaluate_system
from workbench.significance import SeedSummary, adjust_finite, seed_summary
from workbench.studies.mvlsa._settings import PAPER_WORDSIM
from workbench.studies.mvlsa._systems import _check_vectors
from workbench.studies.mvlsa._tuning import _compare_sets, split_wordsim

__all__ = ["TestComparison", "test_comparison", "SeedComparison", "seed_comparison"]


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
    """

    scores: pd.DataFrame
    tests: pd.DataFrame
    reference: str
    n_scored: pd.DataFrame
    evaluations: dict[str, SystemEvaluation]


def test_comparison(
    systems: Mapping[str, WordVectors],
    *,
    reference: str,
    names: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    restrict_to: Sequence[str] | None = None,
    alpha: float = 0.05,
) -> TestComparison:
    """Score every system on the *test* parts of the rating sets and test ``reference`` against
    each other system (Williams' t, Holm over all the comparisons)."""
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
    scores.loc["mean"] = scores.mean(axis=0)
    n_scored = pd.DataFrame({n: e.n_scored() for n, e in evals.items()})
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
    return TestComparison(scores, tests, reference, n_scored, evals)


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
    """

    per_seed: dict[int, TestComparison]
    scores: SeedSummary
    tests: pd.DataFrame
    agreement: pd.DataFrame
    reference: str

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
    return SeedComparison(per_seed, summary, tests, agreement, reference)
