r"""Notebook 08 (Tables 1-2 of Shi, Sun & Hu 2018): sense pairs along the principal components.

:func:`sense_pair_run` decomposes one seed's sense-wise difference matrix with PCA and Ex-RPCA,
lists the sense pairs aligned with the components and tests them against controls;
:func:`sense_pair_study` runs it for every seed and summarises the tables over the seeds.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

import numpy as np
import pandas as pd
from scipy import stats

from workbench import rpca
from workbench._validation import check_float, check_int
from workbench.embeddings import MultiSenseVectors
from workbench.senses import (
    SenseNeighbours,
    component_pairs,
    component_top_words,
    pair_overlaps,
    pos_purity_test,
    treebank_majority_pos,
    unique_pairs,
)
from workbench.significance import SeedSummary, adjust_finite, seed_summary

from .._parallel import run_jobs
from .._values import as_float
from ._runs import (
    ALPHA,
    _agreement_table,
    _check_settings,
    _mean_sd_columns,
    _model,
    _SeedStudy,
    _tests_table,
)
from ._settings import SenseSettings, base_model_config, data_record

logger = logging.getLogger(__name__)

__all__ = ["SensePairRun", "SensePairStudy", "sense_pair_run", "sense_pair_study"]


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
    pos : DataFrame or None
        The part-of-speech test of the first ``n_components`` components of PCA and of
        ``Ex-RPCA r=ranks[0]`` (:func:`workbench.senses.pos_purity_test` of the component's
        ``n_pos_words`` top words against all multi-sense words): ``tag``, ``share``,
        ``base_rate``, ``statistic``, ``pvalue`` and ``pvalue_holm`` (Holm over the rows); None
        without treebank tags (a corpus not in English) or with fewer tagged multi-sense words
        than ``n_pos_words``; a row of NaN for a component with fewer than two tagged words.
    senses_per_word : float
        Mean number of senses of the words with at least two.
    base_model : str
        The base model the seed was trained with (``"K=3"``, ``"NP-MSSG"``).
    sense_config : dict
        Its sense settings: ``n_senses`` (k-means) or ``threshold`` and ``max_senses``
        (NP-MSSG); empty for vectors passed as ``msv``.
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
    pos: pd.DataFrame | None = None
    senses_per_word: float = float("nan")
    base_model: str = ""
    sense_config: dict[str, Any] = field(default_factory=dict)


def _pos_table(
    M: np.ndarray,
    labels: Sequence[tuple[str, int, int]],
    bases: Mapping[str, np.ndarray],
    tags: Mapping[str, str],
    n_words: int,
    n_permutations: int,
    seed: int,
) -> pd.DataFrame:
    """The POS test of every component of ``bases`` (rows ``"<model> component <c>"``), Holm
    over the rows."""
    population = list(dict.fromkeys(w for w, _, _ in labels))
    rows = {}
    for name, comps in bases.items():
        for c in range(comps.shape[1]):
            top = component_top_words(M, labels, comps[:, c], n_words)
            n_tagged = sum(w in tags for w in top)
            if n_tagged < 2:  # nothing to test: a row of NaN, which Holm skips
                rows[f"{name} component {c + 1}"] = {
                    "model": name, "component": c + 1, "tag": "", "share": np.nan,
                    "base_rate": np.nan, "statistic": np.nan, "pvalue": np.nan,
                    "n_tagged": n_tagged}  # fmt: skip
                continue
            res = pos_purity_test(top, tags, population, n_permutations=n_permutations,
                                  random_state=seed)  # fmt: skip
            rows[f"{name} component {c + 1}"] = {
                "model": name, "component": c + 1, "tag": res.tag, "share": res.share,
                "base_rate": res.base_rate, "statistic": res.statistic, "pvalue": res.pvalue,
                "n_tagged": res.n_tagged,
            }  # fmt: skip
    out = pd.DataFrame(rows).T
    out.index.name = "test"
    for col in ("share", "base_rate", "statistic", "pvalue"):
        out[col] = out[col].astype(float)
    out["pvalue_holm"] = adjust_finite(out["pvalue"])
    return out


def _sign_test(proj: np.ndarray) -> tuple[float, float]:
    """Share of non-zero projections on their majority side and the two-sided binomial p."""
    pos = int(np.sum(proj > 0))
    n = int(np.sum(proj != 0))
    if n == 0:
        return float("nan"), float("nan")
    share = max(pos, n - pos) / n
    return share, float(stats.binomtest(pos, n, 0.5).pvalue)


def sense_pair_run(
    settings: SenseSettings | None = None,
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
    pos_tags: Mapping[str, str] | None = None,
    n_pos_words: int = 30,
    n_permutations: int = 2000,
) -> SensePairRun:
    """Notebook 08 for one seed: decompose the sense-wise difference matrix with PCA and
    Ex-RPCA, list the pairs aligned with the components and test them.

    Parameters
    ----------
    settings : SenseSettings, optional
        The model (:func:`workbench.studies.senses.settings`, default ``settings("small")``),
        trained with ``seed`` or read from the cache; not used with ``msv``.
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
    pos_tags : mapping, optional
        Word -> majority part-of-speech tag for the POS test (default: the bundled treebank's,
        :func:`workbench.senses.treebank_majority_pos`, for an English corpus; none otherwise).
    n_pos_words, n_permutations : int
        Top words of a component tested for one part of speech, and the permutation draws.
    """
    settings = _check_settings(settings)
    seed = check_int(seed, "seed", low=0)
    if isinstance(ranks, (str, bytes)) or not hasattr(ranks, "__iter__") or not list(ranks):
        raise TypeError(f"ranks must be a non-empty sequence of integers, got {ranks!r}")
    n_components = check_int(n_components, "n_components", low=1)
    n_top = check_int(n_top, "n_top", low=1)
    overlap_topn = check_int(overlap_topn, "overlap_topn", low=1)
    pseudo_threshold = check_float(pseudo_threshold, "pseudo_threshold", low=0, high=1)
    base_sample = check_int(base_sample, "base_sample", low=1)
    planted_columns = check_int(planted_columns, "planted_columns", low=1)
    n_pos_words = check_int(n_pos_words, "n_pos_words", low=2)
    n_permutations = check_int(n_permutations, "n_permutations", low=1)
    if pos_tags is None and settings.pos_check:
        pos_tags = treebank_majority_pos()
    t0 = time.perf_counter()
    ranks = [check_int(r, f"ranks[{i}]", low=1) for i, r in enumerate(ranks)]
    if not ranks:
        raise ValueError("ranks must name at least one rank")
    if n_components > min(ranks):
        raise ValueError(f"n_components={n_components} exceeds the smallest rank {min(ranks)}")
    msv_given = msv
    msv = _model(settings, seed, msv)
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
        k = int(as_float(summary.loc[name, "n_pseudo"]))
        n = int(as_float(summary.loc[name, "n_pairs"]))
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
    tests_df["pvalue_holm"] = adjust_finite(tests_df["pvalue"])

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
    pos = None
    tagged = sum(w in pos_tags for w in {w for w, _, _ in labels}) if pos_tags else 0
    if pos_tags is not None and tagged >= n_pos_words:  # else too few tagged words to test
        pos = _pos_table(M, labels, {m: bases[m] for m in ("PCA", f"Ex-RPCA r={r0}")},
                         pos_tags, n_pos_words, n_permutations, seed)  # fmt: skip
    n_senses = [msv.n_senses(w) for w in msv.words]
    multi = [k for k in n_senses if k >= 2]
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
        pos=pos,
        senses_per_word=float(np.mean(multi)) if multi else float("nan"),
        base_model=settings.base_model if msv_given is None else "",
        sense_config={} if msv_given is not None else (
            {"threshold": settings.config.threshold, "max_senses": settings.config.max_senses}
            if settings.config.method == "nonparametric"
            else {"n_senses": settings.config.n_senses}),
    )  # fmt: skip


def _json_float(value: object) -> float | None:
    """A recorded float: None where it is not finite (JSON has no NaN or inf)."""
    v = as_float(value)
    return v if math.isfinite(v) else None


class SensePairRecords(TypedDict):
    """The records of notebook 08 (per-seed values are lists in seed order)."""

    data_size: str
    seeds: list[int]
    n_multisense_words: list[int]
    n_columns: list[int]
    dim: int
    n_components: int
    evr_components: dict[str, dict[str, list[float]]]
    evr_first: dict[str, list[float]]
    evr_seed: dict[str, list[float]]
    converged: dict[str, list[bool]]
    iterations: dict[str, list[int]]
    sparse_fraction: dict[str, list[float | None]]
    avg_cos: dict[str, list[float | None]]
    pseudo_fraction: dict[str, list[float | None]]
    n_listed_pairs: int
    base_pseudo_rate: list[float | None]
    #: per test: statistic, p-value and p-value after Holm over the ``n_tests`` tests of a seed
    tests: dict[str, dict[str, list[float | None]]]
    n_tests: int
    outside_3sigma: list[float]
    subspace_angle_deg: dict[str, list[float]]
    listed_jaccard: dict[str, list[float]]
    planted: dict[str, dict[str, list[float | None]]]
    top_words: dict[str, list[str]]
    top_words_seed: int
    seconds: list[float]


class SensePairDataRecords(SensePairRecords, total=False):
    """The records of notebook 08 with the data of the run (absent from older records)."""

    #: :meth:`workbench.studies.data.DataChoice.describe` of the settings' data
    data: dict[str, Any]
    #: the main base model ("K=3", "NP-MSSG") and its mean senses per multi-sense word, per seed
    base_model: str
    senses_per_word: list[float | None]
    #: per POS test ("<model> component <c>"): the tag, its share among the top words, its base
    #: rate, the excess, the permutation p-value and the p-value after Holm over the
    #: ``n_pos_tests`` POS tests of a seed (empty for a corpus not in English)
    pos_tests: dict[str, dict[str, list[Any]]]
    n_pos_tests: int
    n_pos_words: int
    #: per base model (the main one first), the findings of seed ``robustness_seed``
    robustness: dict[str, dict[str, Any]]
    robustness_seed: int


@dataclass(frozen=True, eq=False)
class SensePairStudy(_SeedStudy[SensePairRun]):
    """Notebook 08 over several seeds: the per-seed runs and their summaries.

    Attributes
    ----------
    runs : dict
        ``{seed: SensePairRun}``; their tables (``"table1"``, ``"table2"``, ``"summary"``,
        ``"tests"``, ``"planted"``, ``"solvers"``) stacked over the seeds by :meth:`long_table`.
    table2, summary, planted, solvers : SeedSummary
        Mean and sd over the seeds of the per-seed tables (numeric columns).
    significant : DataFrame
        Per test (rows of :attr:`SensePairRun.tests`): in how many seeds it is significant at
        :data:`ALPHA` after Holm, and in how many before correction.
    data_size : str
        The data size of the settings (recorded).
    data : dict
        The data of the run (:func:`~workbench.studies.senses._settings.data_record`).
    """

    table2: SeedSummary
    summary: SeedSummary
    planted: SeedSummary
    solvers: SeedSummary
    significant: pd.DataFrame = field(repr=False)
    data_size: str = "small"
    data: dict[str, Any] = field(default_factory=dict)
    robustness: dict[str, SensePairRun] = field(default_factory=dict, repr=False)

    @property
    def has_pos(self) -> bool:
        """Whether the POS test ran (English corpora only)."""
        return all(r.pos is not None for r in self.runs.values())

    def pos_table(self) -> pd.DataFrame:
        """Per component of PCA and Ex-RPCA: the majority tag of its top words (seed by seed),
        its share and base rate (%, mean ± sd), the Holm-corrected permutation p of each seed
        (``†`` below :data:`ALPHA`) and in how many seeds it is significant."""
        runs = [r for r in self.runs.values() if r.pos is not None]
        if not runs:
            return pd.DataFrame()
        out = _tests_table({r.seed: r for r in runs}, "pos", ("statistic", 100.0, 1))
        out = out.rename(columns={"statistic": "excess over base rate (points)"})
        out.insert(0, "tag per seed", [", ".join(str(r.pos.loc[t, "tag"]) for r in runs  # type: ignore[union-attr]
                                                 ) for t in out.index])  # fmt: skip
        return out

    def robustness_table(self) -> pd.DataFrame:
        """Per base model (seed ``robustness_seed``): the findings of the notebook under it
        (:func:`robustness_row`)."""
        rec = self.records()
        return pd.DataFrame(rec.get("robustness", {})).T

    def solvers_table(self) -> pd.DataFrame:
        """Per decomposition, mean ± sd over the seeds: iterations, non-zero entries of
        :math:`S` (%), explained variance of the first components (%), and in how many seeds
        the solver converged."""
        columns = {
            col: (col, 1.0, 0)
            if col == "iterations"
            else (f"{col} (%)", 100.0, 2 if "sparse" in col else 1)
            for col in self.solvers.mean.columns
            if col != "converged"
        }
        out = _mean_sd_columns(self.solvers, columns)
        models = out.index
        conv = {name: sum(bool(r.solvers.loc[name, "converged"]) for r in self.runs.values())
                for name in models}  # fmt: skip
        out["converged"] = [f"{conv[name]} of {self.n_seeds}" for name in models]
        return out

    def table2_table(self) -> pd.DataFrame:
        """Table 2 analogue, mean ± sd over the seeds: mean |cos| of the listed pairs, the share
        judged pseudo (%) and the component's explained variance (x 100)."""
        return _mean_sd_columns(
            self.table2,
            {
                "avg_cos": ("avg |cos|", 1.0, 2),
                "pseudo_fraction": ("pseudo (%)", 100.0, 0),
                "evr": ("rho_var x 100", 100.0, 1),
            },
        )

    def summary_table(self) -> pd.DataFrame:
        """Per model (and for the base rate), mean ± sd over the seeds of the listed pairs'
        mean |cos| and their share judged pseudo (%)."""
        return _mean_sd_columns(
            self.summary,
            {"avg_cos": ("avg |cos|", 1.0, 2), "pseudo_fraction": ("pseudo (%)", 100.0, 1)},
        )

    def tests_table(self) -> pd.DataFrame:
        """Every test: its statistic (mean ± sd), the Holm-corrected p of each seed (``†`` when
        below :data:`ALPHA`) and in how many seeds it is significant before and after Holm."""
        return _tests_table(self.runs, "tests", ("statistic", 1.0, 3))

    def planted_table(self) -> pd.DataFrame:
        """Planted-problem recovery, mean ± sd over the seeds: precision and recall of the
        sparse support (%) and largest principal angle (degrees)."""
        return _mean_sd_columns(
            self.planted,
            {
                "precision": ("precision (%)", 100.0, 1),
                "recall": ("recall (%)", 100.0, 1),
                "max_angle_deg": ("largest angle (°)", 1.0, 1),
            },
        )

    def records(self) -> SensePairDataRecords:
        """The records of notebook 08 (``record_all(study)``): the one definition of every key
        (:class:`SensePairRecords`; per-seed lists in seed order)."""
        first = next(iter(self.runs.values()))
        models = list(first.evr)
        n_comp = int(first.table1["component"].max())
        runs = list(self.runs.values())
        tests = list(first.tests.index)
        out: SensePairDataRecords = {
            "data_size": str(self.data_size),
            "seeds": self.seeds,
            "n_multisense_words": [r.n_multisense_words for r in runs],
            "n_columns": [r.n_columns for r in runs],
            "dim": first.dim,
            "n_components": n_comp,
            "evr_components": {
                m: {str(c + 1): [r.evr[m][c] for r in runs] for c in range(n_comp)} for m in models
            },  # fmt: skip
            "evr_first": {m: [float(sum(r.evr[m][:n_comp])) for r in runs] for m in models},
            "evr_seed": {m: first.evr[m] for m in models},
            "converged": {m: [bool(r.solvers.loc[m, "converged"]) for r in runs] for m in models},
            "iterations": {
                m: [int(as_float(r.solvers.loc[m, "iterations"])) for r in runs] for m in models
            },
            "sparse_fraction": {
                m: [_json_float(r.solvers.loc[m, "sparse entries"]) for r in runs] for m in models
            },  # fmt: skip
            "avg_cos": {
                m: [_json_float(r.summary.loc[m, "avg_cos"]) for r in runs]
                for m in first.summary.index
                if m in first.table1["model"].unique()
            },  # fmt: skip
            "pseudo_fraction": {
                m: [_json_float(r.summary.loc[m, "pseudo_fraction"]) for r in runs]
                for m in first.summary.index
            },  # fmt: skip
            "n_listed_pairs": int(first.summary.iloc[0]["n_pairs"]),
            "base_pseudo_rate": [
                _json_float(r.summary.loc["all sense pairs (base rate)", "pseudo_fraction"])
                for r in runs
            ],
            "tests": {
                t: {
                    "statistic": [_json_float(r.tests.loc[t, "statistic"]) for r in runs],
                    "pvalue": [_json_float(r.tests.loc[t, "pvalue"]) for r in runs],
                    "pvalue_holm": [_json_float(r.tests.loc[t, "pvalue_holm"]) for r in runs],
                }
                for t in tests
            },  # fmt: skip
            "n_tests": len(tests),
            "outside_3sigma": [r.outside_3sigma for r in runs],
            "subspace_angle_deg": {
                m: [r.subspace_angle_deg[m] for r in runs] for m in first.subspace_angle_deg
            },  # fmt: skip
            "listed_jaccard": {
                m: [r.listed_jaccard[m] for r in runs] for m in first.listed_jaccard
            },
            "planted": {
                s: {
                    k: [_json_float(r.planted.loc[s, k]) for r in runs]
                    for k in first.planted.columns
                }
                for s in first.planted.index
            },  # fmt: skip
            "top_words": {
                m: first.table1.loc[first.table1["model"] == m, "word"].tolist()
                for m in first.table1["model"].unique()
            },  # fmt: skip
            "top_words_seed": first.seed,
            "seconds": [r.seconds for r in runs],
        }
        if self.data:
            out["data"] = dict(self.data)
        out["base_model"] = first.base_model
        out["senses_per_word"] = [_json_float(r.senses_per_word) for r in runs]
        pos = first.pos if self.has_pos else None
        out["pos_tests"] = {} if pos is None else {
            t: {col: [(str(r.pos.loc[t, col]) if col == "tag"  # type: ignore[union-attr]
                       else _json_float(r.pos.loc[t, col])) for r in runs]  # type: ignore[union-attr]
                for col in ("tag", "share", "base_rate", "statistic", "pvalue", "pvalue_holm")}
            for t in pos.index
        }  # fmt: skip
        out["n_pos_tests"] = 0 if pos is None else len(pos)
        out["n_pos_words"] = 0 if pos is None else int(pos["n_tagged"].max())
        if self.robustness:
            out["robustness"] = {m: robustness_row(r) for m, r in self.robustness.items()}
            out["robustness_seed"] = next(iter(self.robustness.values())).seed
        return out


def robustness_row(run: SensePairRun) -> dict[str, Any]:
    """The findings of notebook 08 in one run, as the robustness table records them: the model
    (multi-sense words, mean senses per such word), the PCA residual's share beyond three sd,
    Ex-RPCA's largest angle to PCA and listed-pair overlap, the listed pairs' mean |cos| for
    PCA and random directions, the pseudo shares and Fisher's Holm p-values, the sense-size sign
    tests significant after Holm, and the POS tests significant after Holm per method (None
    without the POS test)."""
    ex = next(m for m in run.evr if m.startswith("Ex-RPCA r="))
    k = int(run.table1["component"].max())
    tests = run.tests["pvalue_holm"]
    pos = run.pos
    sig_pos = {m: None if pos is None else
               int((pos.loc[pos["model"] == m, "pvalue_holm"] < ALPHA).sum())
               for m in ("PCA", ex)}  # fmt: skip
    return {
        "n_multisense_words": int(run.n_multisense_words),
        "senses_per_word": _json_float(run.senses_per_word),
        "outside_3sigma": float(run.outside_3sigma),
        "angle_deg": _json_float(run.subspace_angle_deg[ex]),
        "jaccard": _json_float(run.listed_jaccard[ex]),
        "avg_cos_pca": _json_float(run.summary.loc["PCA", "avg_cos"]),
        "avg_cos_random": _json_float(run.summary.loc["random directions", "avg_cos"]),
        "pseudo_pca": _json_float(run.summary.loc["PCA", "pseudo_fraction"]),
        "base_pseudo_rate": _json_float(
            run.summary.loc["all sense pairs (base rate)", "pseudo_fraction"]),
        "fisher_pca_holm": _json_float(
            tests["pseudo share of listed pairs vs base rate: PCA"]),
        "fisher_ex_holm": _json_float(tests[f"pseudo share of listed pairs vs base rate: {ex}"]),
        "size_sig_ex": int(sum(tests[f"sense size sign test: {ex} component {c}"] < ALPHA
                               for c in range(1, k + 1))),
        "n_components": k,
        "pos_sig_pca": sig_pos["PCA"],
        "pos_sig_ex": sig_pos[ex],
        **{k: v for k, v in run.sense_config.items() if k != "n_senses"},
    }  # fmt: skip


def _run_or_none(**kwargs: Any) -> SensePairRun | str:
    """:func:`sense_pair_run`, or the message of the ``ValueError`` it raised (a base model of
    the robustness table may leave a small corpus without a multi-sense word)."""
    try:
        return sense_pair_run(**kwargs)
    except ValueError as exc:
        logger.warning("sense_pair_run(seed=%s) failed: %s", kwargs.get("seed"), exc)
        return str(exc)


def _ran(result: SensePairRun | str, seed: int) -> SensePairRun:
    if isinstance(result, str):
        raise ValueError(f"seed {seed}: {result}")
    return result


def sense_pair_study(
    settings: SenseSettings | None = None,
    seeds: Sequence[int] = (0,),
    *,
    n_jobs: int | None = None,
    **kwargs: Any,
) -> SensePairStudy:
    """:func:`sense_pair_run` for every seed and, for the robustness table, the first seed on
    every other base model of ``settings.robustness`` (all in parallel worker processes, see
    :func:`run_seeds`); the mean and sd of the tables over the seeds. ``kwargs`` go to
    :func:`sense_pair_run`; the treebank's majority tags are read once here."""
    settings = _check_settings(settings)
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a sequence of integers, got {seeds!r}")
    seeds = [check_int(s, f"seeds[{i}]", low=0) for i, s in enumerate(seeds)]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct integers, at least one, got {seeds}")
    n_jobs = check_int(n_jobs, "n_jobs", low=1, allow_none=True)
    if "pos_tags" not in kwargs and settings.pos_check:
        kwargs["pos_tags"] = treebank_majority_pos()  # read once, not in every worker
    # vectors passed as ``msv`` are one model: nothing to re-run on other base models
    variants = [] if kwargs.get("msv") is not None else [
        v for v in dict.fromkeys(settings.robustness) if v != settings.base_model]  # fmt: skip
    calls = [{"seed": s, "settings": settings, **kwargs} for s in seeds]
    calls += [{"seed": seeds[0], "settings": replace(settings, config=base_model_config(settings, v)),
               **kwargs} for v in variants]  # fmt: skip
    # as many workers as seeds (at most 4): one seed runs everything in this process, which
    # is quicker than starting workers on a small run
    jobs = min(len(seeds), 4) if n_jobs is None else n_jobs
    out = run_jobs(_run_or_none, calls, min(jobs, len(calls)))
    runs = {s: _ran(r, s) for s, r in zip(seeds, out[: len(seeds)])}
    robust = {settings.base_model: runs[seeds[0]],
              **{v: r for v, r in zip(variants, out[len(seeds) :]) if not isinstance(r, str)}}  # fmt: skip
    t2 = seed_summary({s: r.table2.set_index(["model", "component"])[["avg_cos", "pseudo_fraction", "evr"]]
                       for s, r in runs.items()})  # fmt: skip
    summ = seed_summary({s: r.summary[["avg_cos", "pseudo_fraction"]] for s, r in runs.items()})
    planted = seed_summary({s: r.planted for s, r in runs.items()})
    solvers = seed_summary({s: r.solvers.astype(float) for s, r in runs.items()})
    return SensePairStudy(
        runs,
        t2,
        summ,
        planted,
        solvers,
        _agreement_table(runs),
        data_size=settings.size,
        data=data_record(settings),
        robustness=robust if len(robust) > 1 else {},
    )
