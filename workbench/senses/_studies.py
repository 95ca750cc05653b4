r"""The experiments of notebooks 08 and 09, one seed at a time, and their summaries over seeds.

Part of :mod:`workbench.senses` (import the public names from there).

Everything that depends on a random stream -- the multi-sense training, the base-rate sample of
sense pairs, the random directions, the planted problems -- is drawn from the run's seed, so a
seed is a complete, independent replication. :func:`sense_pair_study` (notebook 08) and
:func:`sparse_noise_study` (notebook 09) run :func:`sense_pair_run` / :func:`sparse_noise_run`
for every seed, in worker processes when there are several (each single-threaded, see
:func:`run_seeds`), and stack the per-seed tables into mean and standard deviation
(:func:`workbench.significance.seed_summary`) and seed counts
(:func:`workbench.significance.seed_agreement`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from workbench._validation import check_bool, check_choice, check_float, check_int
from workbench.embeddings import MultiSenseVectors
from workbench.significance.seeds import format_mean_sd

logger = logging.getLogger(__name__)

__all__ = [
    "run_seeds",
    "SensePairRun",
    "SensePairStudy",
    "sense_pair_run",
    "sense_pair_study",
    "SparseNoiseRun",
    "SparseNoiseStudy",
    "sparse_noise_run",
    "sparse_noise_study",
    "removal_grid",
    "with_wordnet",
    "ALPHA",
]

#: Significance level of every test in notebooks 08 and 09 (after Holm correction).
ALPHA = 0.05


# ============================================================================ running seeds


def _call_single_threaded(fn: Callable[..., Any], seed: int, kwargs: Mapping[str, Any]) -> Any:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        return fn(seed=seed, **kwargs)


def run_seeds(
    fn: Callable[..., Any],
    seeds: Sequence[int],
    *,
    n_jobs: int | None = None,
    **kwargs: Any,
) -> dict[int, Any]:
    """``{seed: fn(seed=seed, **kwargs)}``, the seeds in parallel worker processes.

    Parameters
    ----------
    fn : callable
        A module-level function (it is pickled to the workers).
    seeds : sequence of int
    n_jobs : int, optional
        Worker processes (default: one per seed, at most 4); 1 runs in this process. Every call
        runs with one BLAS thread: the work is many small matrix products, and on a shared
        machine BLAS threads waiting for a core make them many times slower.
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {type(fn).__name__}")
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a sequence of integers, got {seeds!r}")
    seeds = [check_int(s, f"seeds[{i}]", low=0) for i, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("no seeds to run")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {seeds}")
    n_jobs = check_int(n_jobs, "n_jobs", low=1, allow_none=True)
    jobs = min(len(seeds), 4) if n_jobs is None else n_jobs
    if jobs == 1 or len(seeds) == 1:
        return {s: _call_single_threaded(fn, s, kwargs) for s in seeds}
    from joblib import Parallel, delayed
    from joblib.externals.loky import get_reusable_executor

    try:
        out = Parallel(n_jobs=min(jobs, len(seeds)), backend="loky")(
            delayed(_call_single_threaded)(fn, s, kwargs) for s in seeds
        )
    finally:
        # stop the workers now rather than at interpreter exit (frees their memory, and a
        # notebook kernel then exits without loky's warnings about leaked semaphores)
        get_reusable_executor().shutdown(wait=True)
    return dict(zip(seeds, out))


def _presets() -> list[str]:
    from workbench.senses._training import TRAINING_PRESETS

    return sorted(TRAINING_PRESETS)


def _model(data_size: str, seed: int, msv: MultiSenseVectors | None) -> MultiSenseVectors:
    if msv is not None:
        if not isinstance(msv, MultiSenseVectors):
            raise TypeError(f"msv must be MultiSenseVectors or None, got {type(msv).__name__}")
        return msv
    from workbench.senses._training import train_preset

    return train_preset(data_size, seed=seed, progress=False)


def _holm(p: pd.Series) -> pd.Series:
    from workbench.significance import holm

    p = p.astype(float)
    ok = p.notna()
    out = pd.Series(np.nan, index=p.index)
    if ok.any():
        out[ok] = holm(p[ok].to_numpy())
    return out


# ============================================================================ notebook 08


@dataclass(frozen=True, eq=False)
class SensePairRun:
    """One seed of notebook 08 (Tables 1-2 of Shi, Sun & Hu 2018, and controls).

    Attributes
    ----------
    seed : int
    n_multisense_words, n_columns, dim : int
        Words with at least two senses; columns and rows of the difference matrix :math:`M`.
    solvers : DataFrame
        Per decomposition: iterations, converged, fraction of non-zero entries of :math:`S`,
        explained variance of the first ``n_components``.
    evr : dict
        Explained-variance ratios of every decomposition's components (fractions).
    table1 : DataFrame
        The ``n_top`` sense pairs most aligned with each of the first ``n_components``
        components of every decomposition (and of random directions, ``model`` "random
        directions"), their senses' neighbours, neighbour overlap and pseudo decision.
    table2 : DataFrame
        Per (model, component): mean ``abs_cos`` of the listed pairs, their ``pseudo_fraction``
        and the component's explained variance ``evr`` (fraction).
    summary : DataFrame
        Per model: mean ``abs_cos`` and ``pseudo_fraction`` of all listed pairs, ``n_pseudo``
        and ``n_pairs``; row "all sense pairs (base rate)" is the seeded sample of all pairs.
    tests : DataFrame
        Every test of the seed with ``statistic``, ``pvalue`` (uncorrected) and ``pvalue_holm``
        (Holm over the rows): Fisher's exact test of each model's listed pairs against the base
        sample, and a sign test per component (does the larger sense minus the smaller one lie
        on one side of the component more often than on the other?).
    spectrum : ndarray
        Explained-variance ratios of the first 20 principal components of :math:`M`.
    outside_3sigma : float
        Fraction of the entries of the rank-``ranks[0]`` PCA residual :math:`E` beyond three
        of its standard deviations (§3.2 of the paper; 0.27 % for Gaussian noise).
    subspace_angle_deg : dict
        Largest principal angle (degrees) between the first ``n_components`` PCA components and
        those of each Ex-RPCA decomposition.
    listed_jaccard : dict
        Jaccard overlap of the pairs listed for PCA and for each Ex-RPCA decomposition.
    planted : DataFrame
        Recovery of a planted low rank + noise + sparse problem of the same height as
        :math:`M`: sparse-support ``precision`` and ``recall`` and largest principal angle
        ``max_angle_deg`` of every solver.
    seconds : float
        Wall time of the seed (training excluded when the model was cached).
    """

    seed: int
    n_multisense_words: int
    n_columns: int
    dim: int
    solvers: pd.DataFrame
    evr: dict[str, list[float]]
    table1: pd.DataFrame
    table2: pd.DataFrame
    summary: pd.DataFrame
    tests: pd.DataFrame
    spectrum: np.ndarray
    outside_3sigma: float
    subspace_angle_deg: dict[str, float]
    listed_jaccard: dict[str, float]
    planted: pd.DataFrame
    seconds: float


def _sign_test(proj: np.ndarray) -> tuple[float, float]:
    """Share of non-zero projections on their majority side and the two-sided binomial p."""
    from scipy import stats

    pos = int(np.sum(proj > 0))
    n = int(np.sum(proj != 0))
    if n == 0:
        return float("nan"), float("nan")
    share = max(pos, n - pos) / n
    return share, float(stats.binomtest(pos, n, 0.5).pvalue)


def sense_pair_run(
    data_size: str = "small",
    seed: int = 0,
    *,
    ranks: Sequence[int] = (3, 5),
    n_components: int = 3,
    n_top: int = 5,
    overlap_topn: int = 10,
    pseudo_threshold: float = 0.3,
    base_sample: int = 2000,
    planted_columns: int = 5000,
    msv: MultiSenseVectors | None = None,
) -> SensePairRun:
    """Notebook 08 for one seed: decompose the sense-wise difference matrix with PCA and
    Ex-RPCA, list the pairs aligned with the components and test them.

    Parameters
    ----------
    data_size : {"small", "full"}
        Training preset (:data:`TRAINING_PRESETS`), trained with ``seed`` or read from the cache.
    seed : int
        Seeds the training, the base-rate sample, the random directions and the planted problem.
    ranks : sequence of int
        Ranks of the iterative Ex-RPCA decompositions; the ALM solution and the frequency tests
        use ``ranks[0]``.
    n_components, n_top : int
        Components listed and pairs per component (3 and 5 in the paper's Table 1).
    overlap_topn, pseudo_threshold : int, float
        The pseudo-sense criterion: two senses are pseudo when at least ``pseudo_threshold`` of
        their ``overlap_topn`` nearest neighbours are shared.
    base_sample : int
        Sense pairs sampled for the base rate of pseudo pairs.
    planted_columns : int
        Columns of the planted problem (at most those of :math:`M`).
    msv : MultiSenseVectors, optional
        Use these vectors instead of the preset's.
    """
    from scipy import stats

    from workbench import rpca
    from workbench.senses._analysis import (
        SenseNeighbours,
        component_pairs,
        pair_overlaps,
        unique_pairs,
    )

    check_choice(data_size, "data_size", _presets())
    seed = check_int(seed, "seed", low=0)
    if isinstance(ranks, (str, bytes)) or not hasattr(ranks, "__iter__") or not list(ranks):
        raise TypeError(f"ranks must be a non-empty sequence of integers, got {ranks!r}")
    n_components = check_int(n_components, "n_components", low=1)
    n_top = check_int(n_top, "n_top", low=1)
    overlap_topn = check_int(overlap_topn, "overlap_topn", low=1)
    pseudo_threshold = check_float(pseudo_threshold, "pseudo_threshold", low=0, high=1)
    base_sample = check_int(base_sample, "base_sample", low=1)
    planted_columns = check_int(planted_columns, "planted_columns", low=1)
    t0 = time.perf_counter()
    ranks = [check_int(r, f"ranks[{i}]", low=1) for i, r in enumerate(ranks)]
    if not ranks:
        raise ValueError("ranks must name at least one rank")
    if n_components > min(ranks):
        raise ValueError(f"n_components={n_components} exceeds the smallest rank {min(ranks)}")
    msv = _model(data_size, seed, msv)
    M, labels = rpca.difference_matrix(msv)
    d = M.shape[0]
    r0 = ranks[0]
    results = {"PCA": rpca.pca(M, max(ranks), random_state=seed)}
    for r in ranks:
        results[f"Ex-RPCA r={r}"] = rpca.ex_rpca(M, r, random_state=seed, warn=False)
    results[f"Ex-RPCA (ALM) r={r0}"] = rpca.ex_rpca(
        M, r0, method="alm", random_state=seed, warn=False
    )
    solvers = pd.DataFrame(
        {
            name: {
                "iterations": res.n_iter,
                "converged": bool(res.converged),
                "sparse entries": float((res.sparse != 0).mean()),
                f"explained variance of first {n_components}": float(
                    res.explained_variance_ratio[:n_components].sum()
                ),
            }
            for name, res in results.items()
        }
    ).T
    solvers.index.name = "model"

    index = SenseNeighbours(msv)
    rng = np.random.default_rng(seed)
    random_dirs = np.linalg.qr(rng.standard_normal((d, n_components)))[0]
    bases = {name: res.components[:, :n_components] for name, res in results.items()}
    bases["random directions"] = random_dirs
    table1 = pd.concat(
        [
            component_pairs(
                M, labels, comps, n_top=n_top, index=index,
                overlap_topn=overlap_topn, pseudo_threshold=pseudo_threshold,
            ).assign(model=name)
            for name, comps in bases.items()
        ],
        ignore_index=True,
    )  # fmt: skip
    table2 = (
        table1.groupby(["model", "component"], sort=False)
        .agg(avg_cos=("abs_cos", "mean"), pseudo_fraction=("pseudo", "mean"),
             words=("word", ", ".join))
        .reset_index()
    )  # fmt: skip
    table2["evr"] = [
        float(results[m].explained_variance_ratio[c - 1]) if m in results else np.nan
        for m, c in zip(table2["model"], table2["component"])
    ]

    # base rate of pseudo pairs over a seeded sample of all sense pairs
    pairs = unique_pairs(labels)
    if len(pairs) > base_sample:
        pick = np.sort(rng.choice(len(pairs), size=base_sample, replace=False))
        sample = [pairs[i] for i in pick]
    else:
        sample = pairs
    base_flags = pair_overlaps(index, sample, topn=overlap_topn) >= pseudo_threshold
    summary = table1.groupby("model", sort=False).agg(
        avg_cos=("abs_cos", "mean"), pseudo_fraction=("pseudo", "mean"),
        n_pseudo=("pseudo", "sum"), n_pairs=("pseudo", "size"),
    )  # fmt: skip
    summary.loc["all sense pairs (base rate)"] = [
        np.nan, float(base_flags.mean()), int(base_flags.sum()), int(base_flags.size)
    ]  # fmt: skip

    tests: dict[str, dict[str, float]] = {}
    nb, kb = int(base_flags.size), int(base_flags.sum())
    for name in bases:
        k, n = int(summary.loc[name, "n_pseudo"]), int(summary.loc[name, "n_pairs"])
        res_f = stats.fisher_exact([[k, n - k], [kb, nb - kb]])
        tests[f"pseudo share of listed pairs vs base rate: {name}"] = {
            "statistic": float(res_f.statistic), "pvalue": float(res_f.pvalue)
        }  # fmt: skip
    # does (larger sense - smaller sense) lie on one side of a component? (senses are numbered
    # by decreasing cluster size, so column (w, a, b) with a < b is larger minus smaller)
    first = np.array([a < b for _, a, b in labels])
    for name in ("PCA", f"Ex-RPCA r={r0}"):
        proj = results[name].components[:, :n_components].T @ M[:, first]
        for c in range(n_components):
            share, p = _sign_test(proj[c])
            tests[f"sense size sign test: {name} component {c + 1}"] = {
                "statistic": share, "pvalue": p
            }  # fmt: skip
    tests_df = pd.DataFrame(tests).T
    tests_df.index.name = "test"
    tests_df["pvalue_holm"] = _holm(tests_df["pvalue"])

    E = results["PCA"].noise if max(ranks) == r0 else rpca.pca(M, r0).noise
    outside = float(np.mean(np.abs(E) > 3.0 * E.std()))
    pca_k = results["PCA"].components[:, :n_components]
    angles = {
        name: float(
            np.degrees(rpca.principal_angles(pca_k, res.components[:, :n_components]).max())
        )
        for name, res in results.items()
        if name != "PCA"
    }
    listed = {
        name: {(w, a, b) for w, a, b in table1.loc[table1["model"] == name, ["word", "sense_a", "sense_b"]]
               .itertuples(index=False)}
        for name in bases
    }  # fmt: skip
    jaccard = {
        name: len(listed["PCA"] & listed[name]) / max(1, len(listed["PCA"] | listed[name]))
        for name in results
        if name != "PCA"
    }

    planted = rpca.make_planted(
        d, min(M.shape[1], planted_columns), min(3, d), noise=0.1, sparse_fraction=0.05,
        sparse_scale=1.0, random_state=seed,
    )  # fmt: skip
    fits = {
        "PCA": rpca.pca(planted.M, min(3, d)),
        "Ex-RPCA iterative": rpca.ex_rpca(planted.M, min(3, d), random_state=seed, warn=False),
        "Ex-RPCA ALM": rpca.ex_rpca(
            planted.M, min(3, d), method="alm", random_state=seed, warn=False
        ),
    }
    planted_rows = {}
    for name, fit in fits.items():
        est = rpca.pca_sparse_support(fit) if fit.method == "pca" else fit.sparse
        prec, rec = rpca.support_scores(est, planted.support)
        ang = float(np.degrees(rpca.principal_angles(fit.components, planted.components)).max())
        planted_rows[name] = {"precision": prec, "recall": rec, "max_angle_deg": ang}
    planted_df = pd.DataFrame(planted_rows).T
    planted_df.index.name = "solver"

    spectrum = rpca.pca(M, min(20, d, M.shape[1])).explained_variance_ratio
    return SensePairRun(
        seed=int(seed),
        n_multisense_words=len({w for w, _, _ in labels}),
        n_columns=int(M.shape[1]),
        dim=int(d),
        solvers=solvers,
        evr={
            name: [float(v) for v in res.explained_variance_ratio] for name, res in results.items()
        },
        table1=table1,
        table2=table2,
        summary=summary,
        tests=tests_df,
        spectrum=np.asarray(spectrum),
        outside_3sigma=outside,
        subspace_angle_deg=angles,
        listed_jaccard=jaccard,
        planted=planted_df,
        seconds=time.perf_counter() - t0,
    )


@dataclass(frozen=True, eq=False)
class SensePairStudy:
    """Notebook 08 over several seeds: the per-seed runs and their summaries.

    Attributes
    ----------
    runs : dict
        ``{seed: SensePairRun}``.
    table2, summary, planted, solvers : SeedSummary
        Mean and sd over the seeds of the per-seed tables (numeric columns).
    significant : DataFrame
        Per test (rows of :attr:`SensePairRun.tests`): in how many seeds it is significant at
        :data:`ALPHA` after Holm, and in how many before correction.
    """

    runs: dict[int, SensePairRun]
    table2: Any
    summary: Any
    planted: Any
    solvers: Any
    significant: pd.DataFrame = field(repr=False)

    @property
    def seeds(self) -> list[int]:
        return list(self.runs)

    @property
    def n_seeds(self) -> int:
        return len(self.runs)

    def solvers_table(self) -> pd.DataFrame:
        """Per decomposition, mean ± sd over the seeds: iterations, non-zero entries of
        :math:`S` (%), explained variance of the first components (%), and in how many seeds
        the solver converged."""
        m, sd = self.solvers.mean, self.solvers.sd if self.n_seeds > 1 else None
        out = pd.DataFrame(index=m.index)
        for col in m.columns:
            if col == "converged":
                continue
            scale, dec = (1.0, 0) if col == "iterations" else (100.0, 2 if "sparse" in col else 1)
            name = col if col == "iterations" else f"{col} (%)"
            out[name] = format_mean_sd(m[col], None if sd is None else sd[col], scale=scale,
                                       decimals=dec)  # fmt: skip
        conv = {name: sum(bool(r.solvers.loc[name, "converged"]) for r in self.runs.values())
                for name in m.index}  # fmt: skip
        out["converged"] = [f"{conv[name]} of {self.n_seeds}" for name in m.index]
        return out

    def table2_table(self) -> pd.DataFrame:
        """Table 2 analogue, mean ± sd over the seeds: mean |cos| of the listed pairs, the share
        judged pseudo (%) and the component's explained variance (x 100)."""
        m, sd = self.table2.mean, self.table2.sd if self.n_seeds > 1 else None
        cols = {"avg_cos": ("avg |cos|", 1.0, 2), "pseudo_fraction": ("pseudo (%)", 100.0, 0),
                "evr": ("rho_var x 100", 100.0, 1)}  # fmt: skip
        out = pd.DataFrame(index=m.index)
        for col, (name, scale, dec) in cols.items():
            out[name] = format_mean_sd(m[col], None if sd is None else sd[col], scale=scale,
                                       decimals=dec)  # fmt: skip
        return out

    def summary_table(self) -> pd.DataFrame:
        """Per model (and for the base rate), mean ± sd over the seeds of the listed pairs'
        mean |cos| and their share judged pseudo (%)."""
        m, sd = self.summary.mean, self.summary.sd if self.n_seeds > 1 else None
        return pd.DataFrame(
            {
                "avg |cos|": format_mean_sd(m["avg_cos"], None if sd is None else sd["avg_cos"],
                                            scale=1.0, decimals=2),
                "pseudo (%)": format_mean_sd(m["pseudo_fraction"],
                                             None if sd is None else sd["pseudo_fraction"],
                                             scale=100.0, decimals=1),
            }
        )  # fmt: skip

    def tests_table(self) -> pd.DataFrame:
        """Every test: its statistic (mean ± sd), the Holm-corrected p of each seed (``†`` when
        below :data:`ALPHA`) and in how many seeds it is significant before and after Holm."""
        return _tests_table(self.runs, "tests", ("statistic", 1.0, 3))

    def planted_table(self) -> pd.DataFrame:
        """Planted-problem recovery, mean ± sd over the seeds: precision and recall of the
        sparse support (%) and largest principal angle (degrees)."""
        m, sd = self.planted.mean, self.planted.sd if self.n_seeds > 1 else None
        out = pd.DataFrame(index=m.index)
        for col, (name, scale, dec) in {"precision": ("precision (%)", 100.0, 1),
                                        "recall": ("recall (%)", 100.0, 1),
                                        "max_angle_deg": ("largest angle (°)", 1.0, 1)}.items():  # fmt: skip
            out[name] = format_mean_sd(m[col], None if sd is None else sd[col], scale=scale,
                                       decimals=dec)  # fmt: skip
        return out

    def long_table(self, attr: str) -> pd.DataFrame:
        """A per-seed table of every seed (``attr``: ``"table1"``, ``"table2"``, ``"summary"``,
        ``"tests"``, ``"planted"`` or ``"solvers"``) stacked with a ``seed`` column, for CSV."""
        return _long(self.runs, attr)

    def records(self) -> dict[str, Any]:
        """The JSON-ready findings recorded by notebook 08 (per-seed lists in seed order)."""
        runs = list(self.runs.values())
        first = runs[0]
        models = list(first.evr)
        n_comp = int(first.table1["component"].max())

        def per_seed(fn: Callable[[SensePairRun], Any]) -> list[Any]:
            return [fn(r) for r in runs]

        tests = list(first.tests.index)
        return {
            "seeds": self.seeds,
            "n_multisense_words": per_seed(lambda r: r.n_multisense_words),
            "n_columns": per_seed(lambda r: r.n_columns),
            "dim": first.dim,
            "n_components": n_comp,
            "evr_components": {
                m: {str(c + 1): per_seed(lambda r, m=m, c=c: r.evr[m][c]) for c in range(n_comp)}
                for m in models
            },  # fmt: skip
            "evr_first": {
                m: per_seed(lambda r, m=m: float(sum(r.evr[m][:n_comp]))) for m in models
            },
            "evr_seed": {m: first.evr[m] for m in models},
            "converged": {
                m: per_seed(lambda r, m=m: bool(r.solvers.loc[m, "converged"])) for m in models
            },
            "iterations": {
                m: per_seed(lambda r, m=m: int(r.solvers.loc[m, "iterations"])) for m in models
            },
            "sparse_fraction": {
                m: per_seed(lambda r, m=m: float(r.solvers.loc[m, "sparse entries"]))
                for m in models
            },  # fmt: skip
            "avg_cos": {
                m: per_seed(lambda r, m=m: float(r.summary.loc[m, "avg_cos"]))
                for m in first.summary.index
                if m in first.table1["model"].unique()
            },  # fmt: skip
            "pseudo_fraction": {
                m: per_seed(lambda r, m=m: float(r.summary.loc[m, "pseudo_fraction"]))
                for m in first.summary.index
            },  # fmt: skip
            "n_listed_pairs": int(first.summary.iloc[0]["n_pairs"]),
            "base_pseudo_rate": per_seed(
                lambda r: float(r.summary.loc["all sense pairs (base rate)", "pseudo_fraction"])
            ),
            "tests": {
                t: {
                    "statistic": per_seed(lambda r, t=t: float(r.tests.loc[t, "statistic"])),
                    "pvalue": per_seed(lambda r, t=t: float(r.tests.loc[t, "pvalue"])),
                    "pvalue_holm": per_seed(lambda r, t=t: float(r.tests.loc[t, "pvalue_holm"])),
                }
                for t in tests
            },  # fmt: skip
            "n_tests": len(tests),
            "outside_3sigma": per_seed(lambda r: r.outside_3sigma),
            "subspace_angle_deg": {
                m: per_seed(lambda r, m=m: r.subspace_angle_deg[m])
                for m in first.subspace_angle_deg
            },  # fmt: skip
            "listed_jaccard": {
                m: per_seed(lambda r, m=m: r.listed_jaccard[m]) for m in first.listed_jaccard
            },
            "planted": {
                s: {
                    k: per_seed(lambda r, s=s, k=k: float(r.planted.loc[s, k]))
                    for k in first.planted.columns
                }
                for s in first.planted.index
            },  # fmt: skip
            "top_words": {
                m: first.table1.loc[first.table1["model"] == m, "word"].tolist()
                for m in first.table1["model"].unique()
            },  # fmt: skip
            "top_words_seed": first.seed,
            "seconds": per_seed(lambda r: r.seconds),
        }


def _agreement_table(runs: Mapping[int, Any], attr: str = "tests") -> pd.DataFrame:
    from workbench.significance import seed_agreement

    holm_sig = seed_agreement({s: getattr(r, attr)["pvalue_holm"] < ALPHA for s, r in runs.items()})
    raw_sig = seed_agreement({s: getattr(r, attr)["pvalue"] < ALPHA for s, r in runs.items()})
    return pd.DataFrame({"significant (Holm)": holm_sig, "significant (uncorrected)": raw_sig,
                         "seeds": len(runs)})  # fmt: skip


def sense_pair_study(
    data_size: str = "small",
    seeds: Sequence[int] = (0,),
    *,
    n_jobs: int | None = None,
    **kwargs: Any,
) -> SensePairStudy:
    """:func:`sense_pair_run` for every seed (in parallel, see :func:`run_seeds`) and the mean
    and sd of its tables over the seeds; ``kwargs`` go to :func:`sense_pair_run`."""
    from workbench.significance import seed_summary

    runs = run_seeds(sense_pair_run, seeds, n_jobs=n_jobs, data_size=data_size, **kwargs)
    t2 = seed_summary({s: r.table2.set_index(["model", "component"])[["avg_cos", "pseudo_fraction", "evr"]]
                       for s, r in runs.items()})  # fmt: skip
    summ = seed_summary({s: r.summary[["avg_cos", "pseudo_fraction"]] for s, r in runs.items()})
    planted = seed_summary({s: r.planted for s, r in runs.items()})
    solvers = seed_summary({s: r.solvers.astype(float) for s, r in runs.items()})
    return SensePairStudy(runs, t2, summ, planted, solvers, _agreement_table(runs))


def _pmark(p: float) -> str:
    text = "< 0.001" if p < 0.001 else f"{p:.3f}"
    return text + ("†" if p < ALPHA else "")


def _tests_table(runs: Mapping[int, Any], attr: str, stat: tuple[str, float, int]) -> pd.DataFrame:
    col, scale, dec = stat
    first = getattr(next(iter(runs.values())), attr)
    rows = {}
    for name in first.index:
        vals = [float(getattr(r, attr).loc[name, col]) for r in runs.values()]
        raw = [float(getattr(r, attr).loc[name, "pvalue"]) for r in runs.values()]
        adj = [float(getattr(r, attr).loc[name, "pvalue_holm"]) for r in runs.values()]
        arr = np.asarray(vals)
        arr = arr[np.isfinite(arr)]
        mean = pd.Series([arr.mean() if arr.size else np.nan])
        sd = pd.Series([arr.std(ddof=1)]) if arr.size > 1 else None
        rows[name] = {
            col: format_mean_sd(mean, sd, scale=scale, decimals=dec).iloc[0],
            "p Holm, per seed": ", ".join(_pmark(p) for p in adj),
            "significant (Holm)": f"{sum(p < ALPHA for p in adj)} of {len(adj)}",
            "significant (uncorrected)": f"{sum(p < ALPHA for p in raw)} of {len(raw)}",
        }
    out = pd.DataFrame(rows).T
    out.index.name = first.index.name
    return out


def _long(runs: Mapping[int, Any], attr: str) -> pd.DataFrame:
    frames = []
    for seed, r in runs.items():
        t = getattr(r, attr)
        t = (
            t.reset_index()
            if t.index.name is not None or not isinstance(t.index, pd.RangeIndex)
            else t
        )
        frames.append(t.assign(seed=seed))
    out = pd.concat(frames, ignore_index=True)
    return out[["seed", *[c for c in out.columns if c != "seed"]]]


# ============================================================================ notebook 09


def removal_grid(dim: int, *, dense_until: int = 10, n_coarse: int = 12) -> list[int]:
    """Numbers of removed dimensions tried for Figure 2 and the choice of Table 4: every number
    up to ``dense_until`` and ``n_coarse`` evenly spaced ones up to ``dim - 2`` (0 = none; at
    least two dimensions are kept, so that cosines still vary)."""
    dim = check_int(dim, "dim", low=3)
    dense_until = check_int(dense_until, "dense_until", low=0)
    n_coarse = check_int(n_coarse, "n_coarse", low=2)
    dense = range(0, min(dense_until, dim - 2) + 1)
    coarse = np.linspace(0, dim - 2, n_coarse).round().astype(int).tolist()
    return sorted({*dense, *coarse})


@dataclass(frozen=True, eq=False)
class SparseNoiseRun:
    """One seed of notebook 09 (Table 3, Table 4 and Figure 2 of Shi, Sun & Hu 2018).

    Attributes
    ----------
    seed, dim, rank : int
    sparse_fraction : float
        Non-zero entries of Ex-RPCA's :math:`S` (rank ``rank``).
    table3 : DataFrame
        Words with the largest and smallest sparse-noise norm (:func:`sparse_pair_table`).
    signals : DataFrame
        Per multi-sense word: mean ``sparse_norm`` :math:`\\|S_p\\|_2` and ``raw_norm``
        :math:`\\|M_p\\|_2` over its sense pairs, and its ``frequency_rank`` (0 = most frequent).
    wordnet : DataFrame or None
        Per signal: Spearman correlation with the number of WordNet synsets over the words that
        have any, its ``pvalue`` and ``pvalue_holm`` (Holm over the signals) and ``n_words``.
    curve : DataFrame
        SCWS maxSimC on the **dev** split against the number of removed dimensions (``removed``
        0 = the original vectors), for PCA and Ex-RPCA.
    chosen : dict
        Per method, the number of removed dimensions with the best dev score.
    table4 : DataFrame
        Per vectors (original, PCA, Ex-RPCA at its chosen number): ``removed``, Spearman on the
        SCWS **test** split (maxSimC) and on WS-353 (avgSim), and for the eliminated vectors the
        gain, the two-sided Williams test against the original (``p``) and its Holm correction
        over the four tests (``p_holm``).
    keep_original : int
        Largest number of removed dimensions whose dev score is within ``tolerance`` of the
        original's (Figure 2's "how much can be removed").
    tolerance : float
        That tolerance (Spearman).
    n_dev, n_test : int
        SCWS items in each split.
    seconds : float
    """

    seed: int
    dim: int
    rank: int
    sparse_fraction: float
    table3: pd.DataFrame
    signals: pd.DataFrame
    wordnet: pd.DataFrame | None
    curve: pd.DataFrame
    chosen: dict[str, int]
    table4: pd.DataFrame
    keep_original: int
    tolerance: float
    n_dev: int
    n_test: int
    n_ws_scored: int
    seconds: float


def sparse_noise_run(
    data_size: str = "small",
    seed: int = 0,
    *,
    rank: int = 3,
    n_high: int = 4,
    n_low: int = 4,
    tolerance: float = 0.005,
    msv: MultiSenseVectors | None = None,
    items: Sequence[Any] | None = None,
    wordsim: str | pd.DataFrame = "WS",
    wordnet: bool = True,
) -> SparseNoiseRun:
    """Notebook 09 for one seed: the sparse noise against WordNet, and the elimination of the
    top components with its number chosen on the SCWS dev split and scored once on test.

    Parameters
    ----------
    data_size, seed
        As in :func:`sense_pair_run` (the same cached model).
    rank : int
        Rank of the Ex-RPCA decomposition whose sparse term is studied (3 in the paper).
    n_high, n_low : int
        Words with the largest / smallest sparse norms listed in Table 3.
    tolerance : float
        Dev-score tolerance (Spearman) for "keeps the original performance".
    items : sequence of SCWSItem, optional
        SCWS items (default :func:`workbench.datasets.load_scws`), split by :func:`scws_split`.
    wordsim : str or DataFrame
        The rating set scored with avgSim (default WS-353); never used to choose anything.
    wordnet : bool
        Add the WordNet check (:func:`with_wordnet`); :func:`sparse_noise_study` adds it for all
        seeds at once instead, reading WordNet in one process only.
    """

    from workbench import rpca
    from workbench.datasets import load_scws
    from workbench.senses._analysis import (
        SenseNeighbours,
        sparse_pair_table,
        word_sparse_norms,
    )
    from workbench.senses._similarity import avg_sim_task, scws_split, scws_task
    from workbench.significance import compare_wordsim

    check_choice(data_size, "data_size", _presets())
    seed = check_int(seed, "seed", low=0)
    rank = check_int(rank, "rank", low=1)
    n_high = check_int(n_high, "n_high", low=0)
    n_low = check_int(n_low, "n_low", low=0)
    tolerance = check_float(tolerance, "tolerance", low=0)
    wordnet = check_bool(wordnet, "wordnet")
    t0 = time.perf_counter()
    msv = _model(data_size, seed, msv)
    M, labels = rpca.difference_matrix(msv)
    d = M.shape[0]
    ex = rpca.ex_rpca(M, rank, random_state=seed, warn=False)
    index = SenseNeighbours(msv)
    table3 = sparse_pair_table(labels, ex.sparse, index, n_high=n_high, n_low=n_low, synsets=False)
    sparse_norm = word_sparse_norms(ex.sparse, labels)
    signals = pd.DataFrame(
        {
            "sparse_norm": sparse_norm,
            "raw_norm": word_sparse_norms(M, labels),
            "frequency_rank": [msv.index[w] for w in sparse_norm.index],
        }
    )
    signals.index.name = "word"

    # Table 4 and Figure 2: choose on the dev half of SCWS, score the test half once
    items = load_scws() if items is None else items
    dev = scws_split(items)
    scws = scws_task(msv, items)
    scws_dev, scws_test = scws.subset(dev, "SCWS-dev"), scws.subset(~dev, "SCWS-test")
    ws = avg_sim_task(msv, wordsim)
    grid = removal_grid(d)
    pca_full = rpca.pca(M, d - 1 if d > 1 else 1, random_state=seed)
    comps: dict[tuple[str, int], np.ndarray] = {}
    curve_rows = []
    base_dev = scws_dev.evaluate().spearman
    for removed in grid:
        if removed == 0:
            curve_rows.append({"removed": 0, "PCA": base_dev, "Ex-RPCA": base_dev})
            continue
        comps[("PCA", removed)] = pca_full.components[:, :removed]
        comps[("Ex-RPCA", removed)] = rpca.ex_rpca(
            M, removed, random_state=seed, warn=False
        ).components
        curve_rows.append({"removed": removed,
                           "PCA": scws_dev.evaluate(comps[("PCA", removed)]).spearman,
                           "Ex-RPCA": scws_dev.evaluate(comps[("Ex-RPCA", removed)]).spearman})  # fmt: skip
    curve = pd.DataFrame(curve_rows)
    positive = curve[curve["removed"] > 0].set_index("removed")
    chosen = {m: int(positive[m].idxmax()) for m in ("PCA", "Ex-RPCA")}
    keeps = positive.index[(positive["PCA"] >= base_dev - tolerance).to_numpy()]
    keep_original = int(keeps.max()) if len(keeps) else 0

    test0, ws0 = scws_test.evaluate(), ws.evaluate()
    t4 = [{"vectors": "V (original)", "removed": 0, "SCWS test maxSimC": test0.spearman,
           "WS-353 avgSim": ws0.spearman}]  # fmt: skip
    for m, r in chosen.items():
        C = comps[(m, r)]
        tr, wr = scws_test.evaluate(C), ws.evaluate(C)
        t4.append({"vectors": f"V~ {m}", "removed": r, "SCWS test maxSimC": tr.spearman,
                   "WS-353 avgSim": wr.spearman,
                   "SCWS gain": tr.spearman - test0.spearman, "WS-353 gain": wr.spearman - ws0.spearman,
                   "p (SCWS)": compare_wordsim(test0, tr).pvalue,
                   "p (WS-353)": compare_wordsim(ws0, wr).pvalue})  # fmt: skip
    table4 = pd.DataFrame(t4).set_index("vectors")
    pcols = ["p (SCWS)", "p (WS-353)"]
    flat = table4[pcols].iloc[1:].stack()
    adj = _holm(flat)
    for (row, col), v in adj.items():
        table4.loc[row, col.replace("p (", "p_holm (")] = v
    run = SparseNoiseRun(
        seed=int(seed),
        dim=int(d),
        rank=int(rank),
        sparse_fraction=float((ex.sparse != 0).mean()),
        table3=table3,
        signals=signals,
        wordnet=None,
        curve=curve,
        chosen=chosen,
        table4=table4,
        keep_original=keep_original,
        tolerance=float(tolerance),
        n_dev=int(scws_dev.scored.sum()),
        n_test=int(scws_test.scored.sum()),
        n_ws_scored=int(ws.scored.sum()),
        seconds=time.perf_counter() - t0,
    )
    return with_wordnet(run) if wordnet else run


def _synsets(words: Sequence[str], counts: Mapping[str, int] | None) -> np.ndarray:
    if counts is None:
        from workbench.senses._analysis import synset_counts

        return synset_counts(words)
    return np.array([int(counts[w]) for w in words], dtype=np.int64)


def with_wordnet(run: SparseNoiseRun, counts: Mapping[str, int] | None = None) -> SparseNoiseRun:
    """``run`` with its WordNet check: the Spearman correlation of every per-word signal with
    the number of WordNet 3.0 synsets, over the words that have any.

    Signals: the mean sparse-noise norm :math:`\\|S_p\\|_2` over the word's sense pairs, the
    mean raw difference norm :math:`\\|M_p\\|_2`, frequency (minus the frequency rank), whether
    any entry of :math:`S` is non-zero, and the sparse norm's partial correlation given
    frequency. ``pvalue_holm`` is Holm's correction over the five. ``counts`` maps words to
    synset counts (default: looked up in the bundled WordNet); Table 3 gets them too.
    """
    from dataclasses import replace

    from scipy import stats

    from workbench.senses._analysis import partial_spearman

    sig = run.signals
    n_syn = _synsets(list(sig.index), counts)
    inw = n_syn > 0
    freq = -sig["frequency_rank"].to_numpy(dtype=float)
    sparse = sig["sparse_norm"].to_numpy(dtype=float)
    series = {
        "mean ||S_p|| (Ex-RPCA)": sparse,
        "mean ||M_p|| (raw difference)": sig["raw_norm"].to_numpy(dtype=float),
        "frequency (minus rank)": freq,
        "any non-zero S": (sparse > 0).astype(float),
    }
    rows = {}
    for name, vals in series.items():
        x = vals[inw]
        if inw.sum() >= 3 and np.ptp(x) > 0 and np.ptp(n_syn[inw]) > 0:
            res = stats.spearmanr(x, n_syn[inw])
            rows[name] = {"spearman": float(res.statistic), "pvalue": float(res.pvalue)}
        else:
            rows[name] = {"spearman": np.nan, "pvalue": np.nan}
    if inw.sum() >= 4:
        part = partial_spearman(sparse[inw], n_syn[inw], freq[inw])
        rows["||S_p|| given frequency (partial)"] = {
            "spearman": part.statistic,
            "pvalue": part.pvalue,
        }
    else:
        rows["||S_p|| given frequency (partial)"] = {"spearman": np.nan, "pvalue": np.nan}
    wn = pd.DataFrame(rows).T
    wn.index.name = "signal"
    wn["pvalue_holm"] = _holm(wn["pvalue"])
    wn["n_words"] = int(inw.sum())
    table3 = run.table3.copy()
    table3["n_synsets"] = _synsets(table3["word"].tolist(), counts)
    return replace(run, wordnet=wn, table3=table3)


@dataclass(frozen=True, eq=False)
class SparseNoiseStudy:
    """Notebook 09 over several seeds.

    Attributes
    ----------
    runs : dict
        ``{seed: SparseNoiseRun}``.
    wordnet, curve, table4 : SeedSummary
        Mean and sd over the seeds.
    significant : DataFrame
        Per WordNet signal: in how many seeds its correlation is significant (Holm / uncorrected).
    """

    runs: dict[int, SparseNoiseRun]
    wordnet: Any
    curve: Any
    table4: Any
    significant: pd.DataFrame = field(repr=False)

    @property
    def seeds(self) -> list[int]:
        return list(self.runs)

    @property
    def n_seeds(self) -> int:
        return len(self.runs)

    def wordnet_table(self) -> pd.DataFrame:
        """Per signal: Spearman with the number of synsets (mean ± sd), the Holm-corrected p of
        each seed (``†`` below :data:`ALPHA`) and in how many seeds it is significant."""
        return _tests_table(self.runs, "wordnet", ("spearman", 1.0, 3))

    def curve_table(self) -> pd.DataFrame:
        """Figure 2's dev scores (Spearman x 100), mean ± sd over the seeds."""
        return self.curve.formatted()

    def table4_table(self) -> pd.DataFrame:
        """Table 4 on test, mean ± sd over the seeds (Spearman and gains x 100; removed
        dimensions as numbers), the Holm-corrected p of each seed (``†`` below :data:`ALPHA`)
        and in how many seeds each gain is significant."""
        runs = list(self.runs.values())
        m, sd = self.table4.mean, self.table4.sd if self.n_seeds > 1 else None
        out = pd.DataFrame(index=m.index)
        for col in m.columns:
            scale, dec = (1.0, 1) if col == "removed" else (100.0, 1)
            out[col] = format_mean_sd(m[col], None if sd is None else sd[col], scale=scale,
                                      decimals=dec)  # fmt: skip
        for name in ("SCWS", "WS-353"):
            col = f"p_holm ({name})"
            cells, counts = [], []
            for row in m.index:
                ps = [r.table4.loc[row, col] for r in runs]
                if all(pd.isna(p) for p in ps):
                    cells.append("")
                    counts.append("")
                    continue
                cells.append(", ".join(_pmark(float(p)) for p in ps))
                k = sum(float(p) < ALPHA for p in ps)
                counts.append(f"{k} of {len(ps)}")
            out[f"p Holm ({name}), per seed"] = cells
            out[f"significant ({name})"] = counts
        return out

    def long_table(self, attr: str) -> pd.DataFrame:
        """A per-seed table of every seed (``attr``: ``"table3"``, ``"wordnet"``, ``"curve"``,
        ``"table4"`` or ``"signals"``) stacked with a ``seed`` column, for CSV."""
        return _long(self.runs, attr)

    def records(self) -> dict[str, Any]:
        """The JSON-ready findings recorded by notebook 09 (per-seed lists in seed order)."""
        runs = list(self.runs.values())
        first = runs[0]

        def per_seed(fn: Callable[[SparseNoiseRun], Any]) -> list[Any]:
            return [fn(r) for r in runs]

        def num(v: Any) -> float | None:
            return None if v is None or pd.isna(v) else float(v)

        return {
            "seeds": self.seeds,
            "dim": first.dim,
            "rank": first.rank,
            "sparse_nonzero_fraction": per_seed(lambda r: r.sparse_fraction),
            "wordnet": {
                sig: {
                    col: per_seed(lambda r, sig=sig, col=col: num(r.wordnet.loc[sig, col]))
                    for col in ("spearman", "pvalue", "pvalue_holm")
                }
                for sig in first.wordnet.index
            },  # fmt: skip
            "wordnet_n_words": per_seed(lambda r: int(r.wordnet["n_words"].iloc[0])),
            "table3_words": first.table3["word"].tolist(),
            "table3_seed": first.seed,
            "dev_curve": {
                m: {
                    str(int(k)): per_seed(
                        lambda r, m=m, k=k: num(r.curve.set_index("removed").loc[k, m])
                    )
                    for k in first.curve["removed"]
                }
                for m in ("PCA", "Ex-RPCA")
            },  # fmt: skip
            "chosen_removed": {m: per_seed(lambda r, m=m: r.chosen[m]) for m in ("PCA", "Ex-RPCA")},
            "table4": {
                row: {
                    col: per_seed(lambda r, row=row, col=col: num(r.table4.loc[row, col]))
                    for col in first.table4.columns
                }
                for row in first.table4.index
            },  # fmt: skip
            "keep_original_removed": per_seed(lambda r: r.keep_original),
            "keep_tolerance": first.tolerance,
            "n_scws_dev": first.n_dev,
            "n_scws_test": first.n_test,
            "n_ws_scored": first.n_ws_scored,
            "seconds": per_seed(lambda r: r.seconds),
        }


def sparse_noise_study(
    data_size: str = "small",
    seeds: Sequence[int] = (0,),
    *,
    n_jobs: int | None = None,
    **kwargs: Any,
) -> SparseNoiseStudy:
    """:func:`sparse_noise_run` for every seed (in parallel, see :func:`run_seeds`) and the mean
    and sd of its tables over the seeds; ``kwargs`` go to :func:`sparse_noise_run`."""
    from workbench.significance import seed_summary

    runs = run_seeds(
        sparse_noise_run, seeds, n_jobs=n_jobs, data_size=data_size, wordnet=False, **kwargs
    )
    from workbench.datasets import load_wordnet
    from workbench.senses._analysis import synset_counts

    words = sorted({w for r in runs.values() for w in [*r.signals.index, *r.table3["word"]]})
    counts = dict(zip(words, synset_counts(words, load_wordnet()).tolist()))
    runs = {s: with_wordnet(r, counts) for s, r in runs.items()}
    wn = seed_summary(
        {s: r.wordnet[["spearman", "pvalue", "pvalue_holm"]] for s, r in runs.items()}
    )
    curve = seed_summary({s: r.curve.set_index("removed") for s, r in runs.items()})
    t4 = seed_summary({s: r.table4.drop(columns=[c for c in r.table4.columns if c.startswith("p")])
                       for s, r in runs.items()})  # fmt: skip
    return SparseNoiseStudy(runs, wn, curve, t4, _agreement_table(runs, "wordnet"))
