r"""The dimension and data-size sweeps of notebook 06 (§5.4 of the paper, "Preliminary
experiments").

The paper reports that eigenwords without prior knowledge improve "consistently" as the
dimension grows (m in {50, 100, 200, 300}, on WIKI1 and WIKI5) and as the corpus grows (WIKI1,
WIKI2, WIKI5 at m = 300). :func:`run_sweeps` computes Eigen on every data size of
``settings.sweep_corpora`` (one SVD at the largest dimension per size; the embedding at a
smaller dimension ``m`` is its first ``m`` columns, :math:`D_1^{-1/2} U_{:, :m}`) and scores
every (data size, dimension) cell on the rating sets; :func:`sweep_tests` scores every cell on
the same pairs (those every cell scores) and tests each step of the sweeps -- the next
dimension at the same data size, the next data size at the largest dimension -- with Williams
tests per rating set and Holm's correction over each sweep's tests (the *dimension family* and
the *data-size family*).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from workbench.datasets import load_corpus
from workbench.eigenwords import CooccurrenceCounts, count_contexts, eigenwords_svd
from workbench.embeddings import WordVectors
from workbench.evaluation import WordSimResult, wordsim_suite
from workbench.significance import adjust_finite, compare_wordsim
from workbench.views import EncodedCorpus, Vocabulary, encode_corpus

from .._parallel import run_jobs
from ._matched import common_mask, restrict
from ._settings import PriorSettings

logger = logging.getLogger(__name__)

__all__ = ["SweepRecords", "Sweeps", "corpus_prefix", "run_sweeps", "sweep_tests", "size_label"]

#: ``grid[i][j]``: ``{rating set: WordSimResult}`` of data size ``i`` at dimension ``j``.
Grid = list[list[dict[str, WordSimResult]]]


def size_label(size: str | float) -> str:
    """``"5M"`` for a bundled corpus, ``"25%"`` for a fraction of the run's corpus."""
    return size if isinstance(size, str) else f"{100 * float(size):g}%"


def corpus_prefix(encoded: EncodedCorpus, fraction: float) -> EncodedCorpus:
    """The first ``round(fraction * n_tokens)`` tokens of ``encoded`` (the last document cut
    there), ``fraction`` in (0, 1]."""
    if isinstance(fraction, bool) or not 0 < float(fraction) <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
    n = max(1, int(round(float(fraction) * encoded.n_tokens)))
    starts = np.asarray(encoded.doc_starts)
    return EncodedCorpus(encoded.ids[:n], starts[starts < n], encoded.vocab_size,
                         None if encoded.source is None else f"{encoded.source}[:{n}]")  # fmt: skip


def _cell_job(size: str | float, encoded: EncodedCorpus | None, counts: CooccurrenceCounts | None,
              n_tokens: int, words: list[str], dims: list[int], window: int, language: str,
              names: list[str], solver: str,
              random_state: int) -> tuple[int, list[dict[str, WordSimResult]]]:  # fmt: skip
    """Eigen at every dimension of ``dims`` on one data size: ``counts`` (of ``n_tokens``
    tokens) when given, otherwise the counts of ``encoded`` (a fraction) or of the bundled
    corpus ``size`` encoded with ``words``. Returns the tokens counted and ``[{set:
    WordSimResult} per dimension]``; a word the data size never saw gets no vector."""
    if counts is None:
        if encoded is None:
            corpus = load_corpus(str(size), language=language)
            encoded = encode_corpus(corpus, Vocabulary.from_words(words))
        counts = count_contexts(encoded, len(words), window=window)
        n_tokens = int(encoded.n_tokens)
    res = eigenwords_svd(counts, max(dims), solver=solver,  # type: ignore[arg-type]
                         random_state=random_state)  # fmt: skip
    seen = np.flatnonzero(np.asarray(counts.word_counts) > 0)
    kept = [words[i] for i in seen]
    row = []
    for m in dims:
        vecs = WordVectors(kept, res.word_embeddings[seen, :m])
        row.append(dict(wordsim_suite(vecs, names=names).attrs["results"]))
    return n_tokens, row


def _timed(**kw: Any) -> tuple[tuple[int, list[dict[str, WordSimResult]]], float]:
    t0 = time.perf_counter()
    out = _cell_job(**kw)
    return out, time.perf_counter() - t0


@dataclass(frozen=True, eq=False)
class Sweeps:
    """Eigen over data sizes and dimensions (:func:`run_sweeps`).

    Attributes
    ----------
    sizes : tuple
        ``settings.sweep_corpora`` (bundled corpus names or fractions of the run's corpus).
    tokens : tuple of int
        Tokens counted at each data size.
    dims : tuple of int
    grid : list
        ``grid[i][j]``: ``{rating set: WordSimResult}`` at data size ``i``, dimension ``j``.
    names : tuple of str
    min_pairs : int
    p0 : float
    seconds : dict
        Compute time of each data size's job.
    """

    sizes: tuple[str | float, ...]
    tokens: tuple[int, ...]
    dims: tuple[int, ...]
    grid: Grid
    names: tuple[str, ...]
    min_pairs: int = 10
    p0: float = 0.05
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        return [size_label(s) for s in self.sizes]

    @cached_property
    def records(self) -> SweepRecords:
        """:func:`sweep_tests` of these sweeps (computed once)."""
        return sweep_tests(self)

    def table(self) -> pd.DataFrame:
        """Average Spearman x 100 on the matched pairs: rows the data sizes (label and tokens),
        columns the dimensions."""
        avg = np.asarray(self.records["avg"], dtype=float)
        idx = pd.MultiIndex.from_arrays([self.labels, list(self.tokens)],
                                        names=["data", "tokens"])  # fmt: skip
        return pd.DataFrame(100 * avg, index=idx,
                            columns=pd.Index(list(self.dims), name="m")).round(1)  # fmt: skip


class SweepRecords(TypedDict):
    """The sweep records (``rec["sweep"]``); per-cell lists are ``[data size][dimension]``,
    dimension steps ``[data size][step]``, data steps ``[step]``."""

    sizes: list[str]
    tokens: list[int]
    dims: list[int]
    #: the dimension of the data-size steps (the largest of the sweep, as the paper's m = 300)
    data_dim: int
    #: the rating sets with at least ``min_pairs`` pairs scored by every cell, and those pairs
    sets: list[str]
    pairs: int
    #: mean over ``sets`` of each cell's Spearman on the matched pairs
    avg: list[list[float]]
    #: rating sets where the next dimension (size) is significantly above / below, after Holm
    #: over the dimension (data-size) family of ``dim_n_tests`` (``data_n_tests``) tests
    dim_better: list[list[int]]
    dim_worse: list[list[int]]
    dim_n_tests: int
    data_better: list[int]
    data_worse: list[int]
    data_n_tests: int


def _step_tests(pairs: list[tuple[dict[str, WordSimResult], dict[str, WordSimResult]]],
                sets: list[str], masks: dict[str, np.ndarray],
                p0: float) -> tuple[list[int], list[int], int]:  # fmt: skip
    """Williams tests of ``b`` against ``a`` for every pair ``(a, b)`` and set, on the matched
    pairs, Holm over all of them; per pair the sets significantly above and below."""
    P = np.full((len(pairs), len(sets)), np.nan)
    D = np.full_like(P, np.nan)
    for i, (a, b) in enumerate(pairs):
        for j, s in enumerate(sets):
            try:
                c = compare_wordsim(restrict(a[s], masks[s]), restrict(b[s], masks[s]))
            except ValueError:  # an undefined or perfect correlation: no test
                continue
            P[i, j], D[i, j] = float(c.pvalue), float(c.difference)
    Q = adjust_finite(P.ravel()).reshape(P.shape) if P.size else P
    sig = np.isfinite(Q) & (Q < p0)
    better = (sig & (D > 0)).sum(axis=1).astype(int).tolist()
    worse = (sig & (D < 0)).sum(axis=1).astype(int).tolist()
    return better, worse, int(np.isfinite(P).sum())


def sweep_tests(sweeps: Sweeps) -> SweepRecords:
    """The sweep records: every cell scored on the pairs every cell scores (per rating set,
    :func:`~._matched.common_mask` over the whole grid; a set enters only with at least
    ``min_pairs`` such pairs), its average Spearman over those sets, and the tests of every
    step: the next dimension at each data size (the dimension family) and the next data size
    at the largest dimension (the data-size family), each family Holm-corrected on its own."""
    grid, dims = sweeps.grid, list(sweeps.dims)
    cells = [c for row in grid for c in row]
    masks: dict[str, np.ndarray] = {}
    for s in sweeps.names:
        if all(s in c for c in cells):
            m = common_mask([c[s] for c in cells])
            if int(m.sum()) >= sweeps.min_pairs:
                masks[s] = m
    sets = list(masks)
    avg = [[float(np.nanmean([restrict(c[s], masks[s]).spearman for s in sets])) if sets
            else float("nan") for c in row] for row in grid]  # fmt: skip
    dim_pairs = [(row[j], row[j + 1]) for row in grid for j in range(len(dims) - 1)]
    db, dw, dn = _step_tests(dim_pairs, sets, masks, sweeps.p0)
    n_steps = len(dims) - 1
    last = len(dims) - 1
    data_pairs = [(grid[i][last], grid[i + 1][last]) for i in range(len(grid) - 1)]
    sb, sw, sn = _step_tests(data_pairs, sets, masks, sweeps.p0)
    return SweepRecords(
        sizes=sweeps.labels, tokens=[int(t) for t in sweeps.tokens], dims=[int(d) for d in dims],
        data_dim=int(dims[-1]), sets=sets, pairs=int(sum(int(m.sum()) for m in masks.values())),
        avg=avg,
        dim_better=[db[i * n_steps:(i + 1) * n_steps] for i in range(len(grid))],
        dim_worse=[dw[i * n_steps:(i + 1) * n_steps] for i in range(len(grid))],
        dim_n_tests=dn, data_better=sb, data_worse=sw, data_n_tests=sn,
    )  # fmt: skip


def run_sweeps(
    settings: PriorSettings,
    *,
    encoded: EncodedCorpus,
    words: Sequence[str],
    counts: CooccurrenceCounts,
    solver: str = "lanczos",
    random_state: int = 0,
) -> Sweeps:
    """Eigen at every dimension of ``settings.sweep_dims`` on every data size of
    ``settings.sweep_corpora``, scored on ``settings.wordsim``, one job per data size: in
    ``settings.n_jobs`` worker processes when a bundled corpus is loaded, in this process
    (single-threaded) when every data size is a fraction of the run's corpus, whose jobs take
    less than starting the workers would.

    A fraction is a prefix of ``encoded`` (:func:`corpus_prefix`; the fraction 1 reuses
    ``counts``), a bundled corpus name is loaded and encoded with ``words`` (the run's own
    corpus, unless cut by ``settings.max_tokens``, reuses ``counts``). Every data size keeps
    the run's vocabulary, so that the rating sets' pairs are the same words throughout.
    """
    words = list(words)
    dims = [int(d) for d in settings.sweep_dims]
    calls = []
    for size in settings.sweep_corpora:
        own = (size == 1.0 if not isinstance(size, str)
               else size == settings.corpus and settings.max_tokens is None)  # fmt: skip
        part = None if own or isinstance(size, str) else corpus_prefix(encoded, float(size))
        calls.append(dict(size=size, encoded=part, counts=counts if own else None,
                          n_tokens=int(encoded.n_tokens), words=words, dims=dims,
                          window=settings.window, language=settings.data.language,
                          names=list(settings.wordsim), solver=solver,
                          random_state=random_state))  # fmt: skip
    n_jobs = int(settings.n_jobs) if any(isinstance(c, str) for c in settings.sweep_corpora) else 1
    outs = run_jobs(_timed, calls, n_jobs)
    tokens = tuple(int(t) for (t, _), _ in outs)
    grid = [row for (_, row), _ in outs]
    seconds = {f"sweep {size_label(s)}": float(sec) for s, (_, sec) in
               zip(settings.sweep_corpora, outs)}  # fmt: skip
    logger.info("sweeps: %s", {k: round(v, 1) for k, v in seconds.items()})
    return Sweeps(tuple(settings.sweep_corpora), tokens, tuple(dims), grid,
                  tuple(settings.wordsim), settings.min_pairs, settings.p0, seconds)  # fmt: skip
