"""A harder translingual evaluation: retrieving single verses (notebook 07).

Parallel Bible chapters are long and exactly parallel, so at the dev-chosen dimensions every
learned method finds the translation of almost every test chapter and the paper's retrieval test
cannot rank the methods. Here the *same* models (fitted on the training chapters by
:func:`~workbench.studies.translingual.run_translingual`) represent single verses -- a dozen counted
terms instead of hundreds -- and each English verse must find its Spanish translation among
``pool_size`` verses, and vice versa:

* items: verses of the dev books (to choose each method's setting) and of the test books (to
  report it), with at least ``min_terms`` counted terms in both languages;
* per seed, ``pool_size`` verses are drawn without replacement from each part (independent
  streams spawned from the seed); every method sees the same pools;
* each method's setting (dimension, gamma, number of topics; PLSA models keep their chapter-level
  early stopping) is the one with the best MRR on the dev pool; the test pool is scored once,
  with that setting; Top-1 and MRR average both directions, ties count as errors.

The seed only changes which verses are drawn: the models have no random stream.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from workbench._typing import Matrix
from workbench._validation import check_choice, check_int
from workbench.crosslingual import compact_letters, paired_retrieval, pairwise_mcnemar
from workbench.significance import (
    SeedSummary,
    SuperiorSetResult,
    format_mean_sd,
    holm,
    seed_summary,
    smallest_superior_set,
)

from ._data import BibleData
from ._experiment import FittedModel, TranslingualResult, _cut, _direction_top1

__all__ = [
    "eligible_verses",
    "sample_verse_pools",
    "VerseRetrievalResult",
    "run_verse_retrieval",
    "PAPER_CLAIMS",
]

logger = logging.getLogger(__name__)

#: The paper's pairwise claims (winner, loser): discriminative beats generative (OPCA > CL-LSI,
#: CPLSA > JPLSA), OPCA beats CCA and fast word-by-word translation (Tables 1 and 2).
PAPER_CLAIMS: tuple[tuple[str, str], ...] = (
    ("OPCA", "CL-LSI"),
    ("CPLSA", "JPLSA"),
    ("OPCA", "CCA"),
    ("OPCA", "Word-by-word"),
)


def eligible_verses(data: BibleData, part: str, min_terms: int = 3) -> np.ndarray:
    """Indices (into ``data.verse_ids``) of the verses of ``part`` ("dev" or "test") with at
    least ``min_terms`` counted terms in every language."""
    check_choice(part, "part", ("dev", "test"))
    min_terms = check_int(min_terms, "min_terms", low=1)
    ok = np.asarray(data.verse_part) == part
    for lang in data.languages:
        ok &= np.asarray(data.verse_counts[lang].sum(axis=1)).ravel() >= min_terms
    return np.flatnonzero(ok)


def sample_verse_pools(
    data: BibleData, seed: int, pool_size: int, min_terms: int = 3
) -> dict[str, np.ndarray]:
    """The dev and test verse pools of one seed (sorted indices into ``data.verse_ids``).

    Each part draws ``min(pool_size, eligible)`` verses without replacement from its own stream,
    spawned from ``seed`` (so the dev pool does not depend on the test pool's size).
    """
    pool_size = check_int(pool_size, "pool_size", low=2)
    seed = check_int(seed, "seed", low=0)
    streams = np.random.SeedSequence(seed).spawn(2)
    pools = {}
    for part, ss in zip(("dev", "test"), streams):
        elig = eligible_verses(data, part, min_terms)
        if len(elig) < 2:
            raise ValueError(f"only {len(elig)} eligible {part} verses (min_terms={min_terms})")
        rng = np.random.default_rng(ss)
        pools[part] = np.sort(rng.choice(elig, size=min(pool_size, len(elig)), replace=False))
    return pools


@dataclass(eq=False)
class VerseRetrievalResult:
    """Verse-level retrieval of every method, one replicate per seed.

    Attributes
    ----------
    seeds : list of int
    pool_size, min_terms : int
    n_eligible : dict part -> int
        Verses that qualify before sampling.
    pools : dict seed -> dict part -> ndarray
    dev_curves : DataFrame
        ``seed, method, dim, setting, top1, mrr`` on the dev pool for every candidate.
    tests : dict seed -> DataFrame
        Per method (index, best test MRR first): dev-chosen ``dim``, ``setting``, ``dev mrr`` and
        test ``top1``, ``mrr`` and Top-1 per direction.
    hits, reciprocal_ranks : dict seed -> dict method -> ndarray
        Per test query (forward queries, then backward).
    """

    seeds: list[int]
    pool_size: int
    min_terms: int
    n_eligible: dict[str, int]
    pools: dict[int, dict[str, np.ndarray]] = field(repr=False)
    dev_curves: pd.DataFrame = field(repr=False)
    tests: dict[int, pd.DataFrame] = field(repr=False)
    hits: dict[int, dict[str, np.ndarray]] = field(repr=False)
    reciprocal_ranks: dict[int, dict[str, np.ndarray]] = field(repr=False)
    _pairwise: dict[float, pd.DataFrame] = field(default_factory=dict, repr=False)

    @property
    def methods(self) -> list[str]:
        """Methods, best mean test Top-1 first."""
        top1 = self.per_seed("top1").mean(axis=0)
        return list(top1.sort_values(ascending=False, kind="stable").index)

    def per_seed(self, column: str = "top1") -> pd.DataFrame:
        """Seeds (rows) x methods (columns) of one column of the test tables."""
        return pd.DataFrame({s: t[column] for s, t in self.tests.items()}).T.rename_axis("seed")

    def summary(self) -> SeedSummary:
        """:func:`~workbench.significance.seed_summary` of the test Top-1 and MRR per method."""
        return seed_summary({s: t[["top1", "mrr"]].astype(float) for s, t in self.tests.items()})

    def per_seed_table(self) -> pd.DataFrame:
        """The per-seed test tables stacked, indexed by ``(seed, method)``."""
        return pd.concat(self.tests, names=["seed", "method"])

    def ranking(self, alpha: float = 0.05) -> pd.DataFrame:
        """Methods by mean test Top-1: ``top1`` and ``mrr`` as ``"mean ± sd"`` points, the
        letters of :meth:`letters` and in how many seeds the method is in our smallest
        significantly superior set (:meth:`superior_sets`)."""
        formatted = self.summary().formatted()
        sets = self.superior_sets(alpha)
        letters = self.letters(alpha)
        rows = {
            m: {
                "top1": formatted.loc[m, "top1"],
                "mrr": formatted.loc[m, "mrr"],
                "letters": letters[m],
                "in superior set (seeds)": sum(m in r.members for r in sets.values()),
            }
            for m in self.methods
        }
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("method")

    def claim_summary(
        self, pairs: Sequence[tuple[str, str]] = PAPER_CLAIMS, alpha: float = 0.05
    ) -> pd.DataFrame:
        """Per claim of :meth:`claims`: the Top-1 difference (winner minus loser) as
        ``"mean ± sd"`` points, the number of seeds in which the winner is ahead and
        significantly ahead (Holm over the claims of each seed), and ``replicated``
        (significantly ahead in every seed)."""
        c = self.claims(pairs, alpha)
        rows = {}
        for claim, g in c.groupby("claim", sort=False):
            d = g["difference"].astype(float)
            rows[claim] = {
                "difference (points)": format_mean_sd(
                    pd.Series([d.mean()]), pd.Series([d.std(ddof=1)]) if len(d) > 1 else None
                ).iloc[0],
                "ahead (seeds)": int((d > 0).sum()),
                "significant (seeds)": int(g["holds"].sum()),
                "seeds": len(g),
                "replicated": bool(g["holds"].all()),
            }
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("claim")

    def pairwise(self, alpha: float = 0.05) -> pd.DataFrame:
        """All pairs of methods per seed: exact McNemar on test Top-1 hits, Holm within seed.

        Columns: ``seed`` and those of :func:`~workbench.crosslingual.pairwise_mcnemar`.
        """
        if alpha not in self._pairwise:
            frames = [pairwise_mcnemar(self.hits[s], alpha=alpha).assign(seed=s)
                      for s in self.seeds]  # fmt: skip
            out = pd.concat(frames, ignore_index=True)
            self._pairwise[alpha] = out[["seed"] + [c for c in out.columns if c != "seed"]]
        return self._pairwise[alpha].copy()

    def significant_counts(self, alpha: float = 0.05) -> pd.DataFrame:
        """Methods x methods (best mean Top-1 first): in how many seeds the row method is
        significantly better than the column method (McNemar, Holm within seed)."""
        order = self.methods
        counts = np.zeros((len(order), len(order)), dtype=int)
        pos = {m: i for i, m in enumerate(order)}
        pw = self.pairwise(alpha)
        for better, worse in zip(pw.loc[pw["significant"], "better"],
                                 pw.loc[pw["significant"], "worse"]):  # fmt: skip
            counts[pos[better], pos[worse]] += 1
        out = pd.DataFrame(counts, index=order, columns=order)
        out.index.name = "significantly better than ->"
        return out

    def superior_sets(self, alpha: float = 0.05) -> dict[int, SuperiorSetResult]:
        """Our smallest significantly superior set (Top-1 hits; the paper's procedure:
        t-tests Bonferroni-corrected over all pairs of methods) per seed."""
        return {s: smallest_superior_set(self.hits[s], alpha=alpha) for s in self.seeds}

    def claims(
        self, pairs: Sequence[tuple[str, str]] = PAPER_CLAIMS, alpha: float = 0.05
    ) -> pd.DataFrame:
        """Whether ``winner`` beats ``loser`` on test Top-1, per seed.

        One row per (claim, seed): ``difference`` (winner minus loser, Top-1), ``mcnemar p``
        (exact McNemar on the Top-1 hits, uncorrected), ``holm p`` (Holm-adjusted over the
        claims of that seed -- the family is the pre-stated claims, as in the chapter test,
        not every pair of methods) and ``holds`` (the winner is ahead and ``holm p`` <
        ``alpha``). Claims whose methods were not run in a seed are left out of that seed's
        family.
        """
        pw = self.pairwise(alpha)
        order = {f"{w} > {lo}": i for i, (w, lo) in enumerate(pairs)}
        rows: list[dict[str, str | int | float | bool]] = []
        for s in self.seeds:
            names: list[str] = []
            diffs: list[float] = []
            raw: list[float] = []
            for winner, loser in pairs:
                if winner not in self.hits[s] or loser not in self.hits[s]:
                    continue
                sel = pw[(pw["seed"] == s) & pw["better"].isin([winner, loser])
                         & pw["worse"].isin([winner, loser])]  # fmt: skip
                row = sel.iloc[0]
                sign = 1.0 if row["better"] == winner else -1.0
                names.append(f"{winner} > {loser}")
                diffs.append(sign * float(row["difference"]))
                raw.append(float(row["mcnemar p"]))
            adjusted: list[float] = []
            if raw:  # Holm over the claims of this seed
                adjusted = [float(q) for q in np.atleast_1d(holm(np.asarray(raw)))]
            for name, d, p, q in zip(names, diffs, raw, adjusted):
                rows.append({"claim": name, "seed": s, "difference": d, "mcnemar p": p,
                             "holm p": float(q), "holds": bool(d > 0 and q < alpha)})  # fmt: skip
        rows.sort(key=lambda r: order[str(r["claim"])])  # stable: seeds stay in order
        columns = ["claim", "seed", "difference", "mcnemar p", "holm p", "holds"]
        return pd.DataFrame(rows, columns=columns)

    def replicated_differences(self, alpha: float = 0.05) -> list[tuple[str, str]]:
        """Pairs (better, worse) significantly different after Holm for EVERY seed, in the same
        direction."""
        pw = self.pairwise(alpha)
        out = []
        keys: dict[frozenset[str], list[tuple[str, bool]]] = {}
        for _, r in pw.iterrows():
            keys.setdefault(frozenset((r["better"], r["worse"])), []).append(
                (str(r["better"]), bool(r["significant"]))
            )
        for pair, items in keys.items():
            winners = {w for w, _ in items}
            if len(items) == len(self.seeds) and len(winners) == 1 and all(sig for _, sig in items):
                winner = next(iter(winners))
                loser = next(iter(pair - {winner}))
                out.append((winner, loser))
        return out

    def letters(self, alpha: float = 0.05) -> dict[str, str]:
        """Compact letter display over the methods (best mean Top-1 first): methods that share a
        letter are NOT significantly different in every seed (Holm-adjusted McNemar)."""
        return compact_letters(self.methods, self.replicated_differences(alpha))

    def dev_mrr(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Dev-pool MRR per dimension (rows) and method (columns), best setting at each dimension
        (over gamma), as mean and standard deviation over the seeds. Methods without a dimension
        are in :meth:`dev_mrr_flat`."""
        c = self.dev_curves[self.dev_curves["dim"].notna()]
        best = c.groupby(["seed", "method", "dim"], sort=False)["mrr"].max().reset_index()
        mean = best.pivot_table(index="dim", columns="method", values="mrr", aggfunc="mean")
        sd = best.pivot_table(index="dim", columns="method", values="mrr", aggfunc="std")
        mean.index = mean.index.astype(int)
        sd = sd.reindex_like(mean) if len(sd) else mean * np.nan
        sd.index = mean.index
        return mean, sd

    def dev_mrr_flat(self) -> pd.DataFrame:
        """Dev-pool MRR of the methods without a dimension: ``mean`` and ``sd`` over seeds."""
        c = self.dev_curves[self.dev_curves["dim"].isna()]
        g = c.groupby("method", sort=False)["mrr"]
        return pd.DataFrame({"mean": g.mean(), "sd": g.std()})


def run_verse_retrieval(
    result: TranslingualResult,
    seeds: Sequence[int],
    *,
    pool_size: int | None = None,
    min_terms: int | None = None,
) -> VerseRetrievalResult:
    """The verse-level evaluation of every fitted model of ``result``, once per seed.

    Parameters
    ----------
    result : TranslingualResult
        From :func:`~workbench.studies.translingual.run_translingual` (its ``models`` are reused).
    seeds : sequence of int
        E.g. :func:`workbench.significance.seed_list` ``(SEED, SEEDS)``.
    pool_size, min_terms : int, optional
        Default: ``result.config.verse_pool`` and ``result.config.verse_min_terms``.

    Returns
    -------
    VerseRetrievalResult
    """
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a sequence of integers, got {seeds!r}")
    seed_ints = [check_int(s, f"seeds[{i}]", low=0) for i, s in enumerate(seeds)]
    pool_size = check_int(pool_size, "pool_size", low=2, allow_none=True)
    min_terms = check_int(min_terms, "min_terms", low=1, allow_none=True)
    with threadpool_limits(1):  # many small products; extra threads only contend
        return _run(result, seed_ints, pool_size, min_terms)


def _run(
    result: TranslingualResult, seeds: list[int], pool_size: int | None, min_terms: int | None
) -> VerseRetrievalResult:
    data = result.data
    cfg = result.config
    pool_size = cfg.verse_pool if pool_size is None else pool_size
    min_terms = cfg.verse_min_terms if min_terms is None else min_terms
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct and non-empty, got {seeds!r}")
    if not data.verse_ids:
        raise ValueError("the data hold no held-out verses; build them with prepare_bible()")
    models = list(result.models)
    if not models:
        raise ValueError("result has no fitted models")
    langs = data.languages
    n_eligible = {p: int(len(eligible_verses(data, p, min_terms))) for p in ("dev", "test")}
    pools: dict[int, dict[str, np.ndarray]] = {}
    curve_rows: list[dict[str, str | float | int | None]] = []
    tests: dict[int, pd.DataFrame] = {}
    hits: dict[int, dict[str, np.ndarray]] = {}
    rrs: dict[int, dict[str, np.ndarray]] = {}

    def vectors(model: FittedModel, idx: np.ndarray) -> list[Matrix]:
        return [model.vectors(lang, data.verse_weighted[lang][idx], data.verse_counts[lang][idx])
                for lang in langs]  # fmt: skip

    for seed in seeds:
        pools[seed] = sample_verse_pools(data, seed, pool_size, min_terms)
        dev, test = pools[seed]["dev"], pools[seed]["test"]
        best: dict[str, tuple[float, FittedModel, int | None]] = {}
        for model in models:
            a, b = vectors(model, dev)
            for dim in model.dims:
                r = paired_retrieval(_cut(a, dim), _cut(b, dim), metric=model.metric)
                curve_rows.append({"seed": seed, "method": model.method, "dim": dim,
                                   "setting": model.setting, "top1": r.top1, "mrr": r.mrr})  # fmt: skip
                if model.method not in best or r.mrr > best[model.method][0]:
                    best[model.method] = (r.mrr, model, dim)
        rows = []
        hits[seed], rrs[seed] = {}, {}
        for method, (dev_mrr, model, dim) in best.items():
            a, b = vectors(model, test)
            r = paired_retrieval(_cut(a, dim), _cut(b, dim), metric=model.metric)
            hits[seed][method] = np.asarray(r.hits)
            rrs[seed][method] = np.asarray(r.reciprocal_ranks)
            rows.append({"method": method, "dim": "N/A" if dim is None else str(dim),
                         "setting": model.setting, "dev mrr": dev_mrr, "top1": r.top1,
                         "mrr": r.mrr, **_direction_top1(r, langs)})  # fmt: skip
        table = pd.DataFrame(rows).set_index("method")
        tests[seed] = table.sort_values("mrr", ascending=False, kind="stable")
        logger.info("verse retrieval, seed %d: %d dev / %d test verses", seed, len(dev), len(test))
    curves = pd.DataFrame(curve_rows)
    curves["dim"] = curves["dim"].astype("Float64")
    return VerseRetrievalResult(
        seeds=seeds,
        pool_size=int(pool_size),
        min_terms=int(min_terms),
        n_eligible=n_eligible,
        pools=pools,
        dev_curves=curves,
        tests=tests,
        hits=hits,
        reciprocal_ranks=rrs,
    )
