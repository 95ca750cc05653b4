r"""The Multiview LSA study: hyper-parameter grids, view ablations and embedding fusion.

The logic behind notebooks ``03_mvlsa`` (Tables 3--7 of Rastogi, Van Durme & Arora 2015),
``04_ablation`` (Table 8) and ``05_fusion`` (Table 9), as pure functions returning frozen
results and DataFrames:

* :func:`study_settings` -- the ``"small"`` / ``"full"`` data sizes (corpus, vocabulary, views,
  default MVLSA configuration, grids);
* :func:`build_view_set` -- corpus, vocabulary and every view family for those settings, cached
  on disk in ``workbench.datasets.cache_dir() / "mvlsa_experiments"`` (so the three notebooks
  share one build);
* :class:`MVLSAConfig`, :func:`fit_mvlsa`, :func:`evaluate_system` -- one MVLSA system and its
  scores (word-similarity Spearman per rating set; AN-SYN / AN-SEM analogy accuracy);
* :func:`run_grid`, :func:`run_study` -- a grid over one of ``n_j, t, m, k, v, r`` (``k`` by
  slicing ``embedding_`` without refitting), tables with MRDS bold marks;
* :func:`ablation_study` -- remove views / view families, drops and their significance (each
  ablated system against "all views" with Williams' test per rating set, McNemar for analogies);
* :func:`fusion_study` -- MVLSA (corpus views), MVLSA (all views), GloVe and skip-gram trained
  on the same corpus, pretrained GloVe 6B-50d and their GCCA fusion (MV-G-WSG), with the gain
  columns (``†`` significant) and the ``r_s`` columns.

Notes
-----
The systems compared are MVLSA embeddings

.. math:: G = \arg\max_{G^\top G = I} \operatorname{tr}\Big(G^\top K^{-1/2}
          \sum_j \tilde P_j K^{-1/2} G\Big), \qquad
          \tilde P_j = X_j (X_j^\top X_j + r_j I)^{-1} X_j^\top,

with :math:`X_j` the centred :math:`f_j(Z_j) = n_j(t_j(Z_j))` restricted to its rank-``m``
SVD (:class:`workbench.gcca.MVLSA`). Word-similarity scores are Spearman's :math:`\rho` between
cosines and gold ratings over the pairs the system covers; MRDS is
:math:`\sigma^{0.9}_{0.05}` (:func:`workbench.significance.mrds_correlation` at the number of
pairs scored) and :func:`workbench.significance.mrds_accuracy` for analogies.

References
----------
P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: Representation Learning via
Generalized CCA. NAACL-HLT (Sections 4--5, Tables 2--9).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import math
import os
import pickle
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from tqdm.auto import tqdm

logger = logging.getLogger(__name__)

__all__ = [
    "PARAM_ALIASES",
    "PAPER_WORDSIM",
    "ANALOGY_SETS",
    "MVLSAConfig",
    "StudySettings",
    "study_settings",
    "ViewSet",
    "build_view_set",
    "usable_views",
    "FittedSystem",
    "fit_mvlsa",
    "SystemEvaluation",
    "evaluate_system",
    "scores_frame",
    "mrds_column",
    "marked_table",
    "GridResult",
    "run_grid",
    "run_study",
    "AblationResult",
    "default_removals",
    "ablation_study",
    "FusionResult",
    "fusion_study",
    "train_corpus_baselines",
]

#: Grid parameter names of the paper and the :class:`MVLSAConfig` field each one sets.
PARAM_ALIASES: dict[str, str] = {
    "n_j": "transform",
    "t": "top_t",
    "m": "view_rank",
    "k": "n_components",
    "v": "min_view_support",
    "r": "regularization",
}
#: The word-similarity sets of Table 9 (our names; the paper's MTURK = MTURK-287, WS-SEM = WS-SIM).
PAPER_WORDSIM: tuple[str, ...] = (
    "MEN", "RW", "SCWS", "SIMLEX", "WS", "MTURK-287", "WS-REL", "WS-SIM", "RG", "MC",
)  # fmt: skip
#: Analogy rows: AN-SYN (syntactic questions), AN-SEM (semantic questions).
ANALOGY_SETS: dict[str, str] = {"AN-SYN": "syntactic", "AN-SEM": "semantic"}
_CACHE_VERSION = 1


# ============================================================================================
# configuration
# ============================================================================================
@dataclass(frozen=True)
class MVLSAConfig:
    r"""One MVLSA system: preprocessing :math:`f_j = n_j \circ t_j` and GCCA parameters.

    Attributes
    ----------
    transform : str
        :math:`n_j`: ``"identity"`` (Count), ``"log"`` (log(1+x)), ``"pow"`` (x^power) or
        ``"pow:<p>"`` (e.g. ``"pow:0.5"``).
    power : float
        Exponent of ``"pow"`` (the paper's best: 1/4).
    top_t : int or None
        :math:`t_j`: keep the ``top_t`` columns with the largest totals (None = all).
    view_rank : int
        ``m`` (clamped per view to its rank).
    n_components : int
        ``k``.
    min_view_support : int
        ``v``.
    regularization : float
        ``r_j`` (same for all views).
    row_weighting : {None, "glove"}
        Eq. (12) row weights or none.
    random_state : int
    svd_solver : {"randomized", "auto", "dense"}
        Per-view SVD of :class:`workbench.gcca.MVLSA` (randomized by default: its "auto" picks
        LAPACK's full SVD for views up to 4e6 cells, which is slow for wide lexicon views).
    """

    transform: str = "pow"
    power: float = 0.25
    top_t: int | None = None
    view_rank: int = 300
    n_components: int = 300
    min_view_support: int = 0
    regularization: float = 1e-8
    row_weighting: str | None = None
    random_state: int = 0
    svd_solver: str = "randomized"

    def __post_init__(self) -> None:
        self.spec()  # validates transform / power / top_t
        for name in ("view_rank", "n_components"):
            val = getattr(self, name)
            if isinstance(val, bool) or not isinstance(val, (int, np.integer)) or val < 1:
                raise ValueError(f"MVLSAConfig.{name} must be a positive integer, got {val!r}")
        v = self.min_view_support
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"MVLSAConfig.min_view_support must be an integer >= 0, got {v!r}")
        r = self.regularization
        if not (isinstance(r, (int, float, np.floating)) and math.isfinite(r) and r >= 0):
            raise ValueError(f"MVLSAConfig.regularization must be a finite number >= 0, got {r!r}")

    def spec(self) -> Any:
        """The :class:`workbench.views.PreprocessSpec` of :math:`f_j`."""
        from workbench.views import PreprocessSpec

        transform, power = self.transform, self.power
        if isinstance(transform, str) and transform.startswith("pow:"):
            try:
                power = float(transform.split(":", 1)[1])
            except ValueError:
                raise ValueError(f"bad transform {transform!r}; expected e.g. 'pow:0.25'") from None
            transform = "pow"
        return PreprocessSpec(transform, power, self.top_t)

    def label(self, param: str) -> str:
        """Column label of this configuration in a grid over ``param`` (paper names)."""
        field_name = PARAM_ALIASES.get(param, param)
        val = getattr(self, field_name)
        if field_name == "transform":
            spec = self.spec()
            return {"identity": "Count", "log": "Log"}.get(spec.transform, f"Count^{spec.power:g}")
        if field_name == "top_t":
            return "all" if val is None else f"{val:,}"
        if field_name == "regularization":
            return f"{val:g}"
        return str(val)


@dataclass(frozen=True)
class StudySettings:
    """Data and defaults of one data size (see :func:`study_settings`).

    Attributes
    ----------
    size : str
        ``"small"`` or ``"full"``.
    corpus, max_tokens :
        :func:`workbench.datasets.load_corpus` arguments.
    vocab_size, min_count :
        Vocabulary (most frequent words).
    offsets :
        Positional views (offset ``k``: word ``j`` occurred ``k`` words behind word ``i``).
    conllu :
        UD treebank split for the dependency views (None: no dependency views).
    bitext_verses :
        Verses of the KJV--RV1909 bitext (None: all; 0: no bitext view).
    lexicons :
        :data:`workbench.views.LEXICON_KINDS` to build.
    min_view_rows :
        Views observing fewer rows are left out (tiny dependency relations).
    config :
        The default :class:`MVLSAConfig`.
    grids :
        Grid values per paper parameter name (``n_j, t, m, k, v, r``).
    wordsim :
        Rating sets evaluated.
    analogies :
        Evaluate AN-SYN / AN-SEM.
    word2vec, glove :
        Parameters of the corpus baselines (:func:`train_corpus_baselines`).
    glove_limit :
        Rows of pretrained GloVe 6B-50d loaded (None: all 400K).
    ablation_rank :
        ``m = k`` of the ablations (None: those of ``config``).
    """

    size: str
    corpus: str
    max_tokens: int | None
    vocab_size: int
    min_count: int
    offsets: tuple[int, ...]
    conllu: str | None
    bitext_verses: int | None
    lexicons: tuple[str, ...]
    min_view_rows: int
    config: MVLSAConfig
    grids: tuple[tuple[str, tuple[Any, ...]], ...]
    wordsim: tuple[str, ...] = PAPER_WORDSIM
    analogies: bool = True
    word2vec: tuple[tuple[str, Any], ...] = ()
    glove: tuple[tuple[str, Any], ...] = ()
    glove_limit: int | None = None
    ablation_rank: int | None = None

    def ablation_config(self, seed: int = 0) -> MVLSAConfig:
        """The configuration of the ablations (``m = k = ablation_rank`` when set: one fit per
        removal, so ``full`` uses a smaller rank than the grids)."""
        cfg = dataclasses.replace(self.config, random_state=seed)
        if self.ablation_rank is None:
            return cfg
        return dataclasses.replace(cfg, view_rank=self.ablation_rank, n_components=self.ablation_rank)

    def grid(self, param: str) -> tuple[Any, ...]:
        """The grid values of ``param`` (a paper name such as ``"m"`` or a config field)."""
        for name, values in self.grids:
            if name == param or PARAM_ALIASES.get(name) == param:
                return values
        raise KeyError(f"no grid for {param!r}; grids: {[n for n, _ in self.grids]}")

    def view_key(self) -> dict[str, Any]:
        """The fields that determine the views (cache key)."""
        return {
            "corpus": self.corpus,
            "max_tokens": self.max_tokens,
            "vocab_size": self.vocab_size,
            "min_count": self.min_count,
            "offsets": list(self.offsets),
            "conllu": self.conllu,
            "bitext_verses": self.bitext_verses,
            "lexicons": list(self.lexicons),
            "glove_window": dict(self.glove).get("window"),
        }


def study_settings(size: str = "full", **overrides: Any) -> StudySettings:
    """Settings of the MVLSA notebooks for ``size`` (``"small"``: seconds, for tests).

    ``small``: the 1M corpus capped at 200K tokens, 4,000 words, offsets 1--4, the UD dev
    dependency views, 1,000 bitext verses, PPDB and FrameNet views, ``m = k = 40``.
    ``full``: the 5M corpus, 30,000 words (as notebook 02_views, sharing its cached offset
    views), offsets 1--15, UD train, the whole Bible bitext, all lexicon views, ``m = k = 100``.
    Keyword arguments replace fields (``config=MVLSAConfig(...)`` etc.).
    """
    if size == "small":
        base = StudySettings(
            size="small",
            corpus="1M",
            max_tokens=200_000,
            vocab_size=4_000,
            min_count=2,
            offsets=(1, 2, 3, 4),
            conllu="dev",
            bitext_verses=1_000,
            lexicons=("ppdb", "framenet"),
            min_view_rows=50,
            config=MVLSAConfig(view_rank=40, n_components=40),
            grids=(
                ("n_j", ("identity", "log", "pow")),
                ("t", (1_000, None)),
                ("m", (20, 40)),
                ("k", (10, 20, 40)),
                ("v", (0, 3)),
                ("r", (1e-8, 100.0)),
            ),
            word2vec=(("window", 5), ("epochs", 3)),
            glove=(("window", 5), ("epochs", 4)),
            glove_limit=100_000,
            wordsim=PAPER_WORDSIM[:8],  # RG and MC have ~5 in-vocabulary pairs at 4K words
        )
    elif size == "full":
        base = StudySettings(
            size="full",
            corpus="5M",
            max_tokens=None,
            vocab_size=30_000,
            min_count=5,
            offsets=tuple(range(1, 16)),
            conllu="train",
            bitext_verses=None,
            lexicons=("morphology", "synonyms", "ppdb", "framenet"),
            min_view_rows=100,
            config=MVLSAConfig(view_rank=100, n_components=100),
            # ~75 s per fit of ~40 views at m = 100 on this machine: 7 distinct fits in 03
            grids=(
                ("n_j", ("identity", "log", "pow")),
                ("t", (5_000, None)),
                ("m", (50, 100)),
                ("k", (10, 50, 100)),
                ("v", (0, 10)),
                ("r", (1e-8, 100.0)),
            ),
            ablation_rank=50,
            # far fewer epochs than the paper (GloVe 25 iterations) to stay within ~10 minutes
            word2vec=(("window", 5), ("epochs", 2)),
            glove=(("window", 10), ("epochs", 5)),
            glove_limit=None,
        )
    else:
        raise ValueError(f"size must be 'small' or 'full', got {size!r}")
    return dataclasses.replace(base, **overrides) if overrides else base


# ============================================================================================
# views
# ============================================================================================
@dataclass(frozen=True, eq=False)
class ViewSet:
    """Views over one vocabulary, plus what the baselines need.

    Attributes
    ----------
    vocab : Vocabulary
    views : tuple of View
        Raw (unpreprocessed) count / lexicon views.
    cooccurrence : View or None
        The left harmonic window counts GloVe is trained on.
    info : dict
        Corpus name, token count, dropped views, build seconds.
    """

    vocab: Any
    views: tuple[Any, ...]
    cooccurrence: Any = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def words(self) -> list[str]:
        return list(self.vocab.words)

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.views]

    def families(self) -> dict[str, list[str]]:
        """Family -> view names (in view order)."""
        out: dict[str, list[str]] = {}
        for v in self.views:
            out.setdefault(v.family, []).append(v.name)
        return out

    def select(
        self,
        *,
        exclude: Sequence[str] = (),
        families: Sequence[str] | None = None,
    ) -> ViewSet:
        """A view set without the views (or families) named in ``exclude``, or with only ``families``.

        Raises ValueError naming an unknown view / family, or when nothing is left.
        """
        fams = self.families()
        known = set(self.names) | set(fams)
        unknown = [e for e in list(exclude) + list(families or ()) if e not in known]
        if unknown:
            raise ValueError(f"unknown views or families {unknown}; known: {sorted(known)}")
        drop = set(exclude)
        keep = [
            v
            for v in self.views
            if v.name not in drop
            and v.family not in drop
            and (families is None or v.family in families)
        ]
        if not keep:
            raise ValueError(f"no view left after exclude={list(exclude)}, families={families}")
        return dataclasses.replace(self, views=tuple(keep))


def usable_views(views: Sequence[Any], *, min_rows: int = 2) -> tuple[list[Any], list[str]]:
    """Keep views with at least ``min_rows`` observed rows that are not constant on them.

    A view whose observed rows are all equal is zero after centring (rank 0) and cannot take
    part in GCCA. Returns ``(kept, dropped_names)``.
    """
    kept: list[Any] = []
    dropped: list[Any] = []
    for v in views:
        obs = np.flatnonzero(v.observed)
        ok = obs.size >= max(min_rows, 2)
        if ok:
            x = v.matrix[obs]
            if sp.issparse(x):
                x = sp.csr_array(x, dtype=np.float64)
                sq = np.asarray(x.multiply(x).sum(axis=0)).ravel()
                tot = np.asarray(x.sum(axis=0)).ravel()
            else:
                x = np.asarray(x, dtype=np.float64)
                sq, tot = (x * x).sum(axis=0), x.sum(axis=0)
            var = sq - tot**2 / obs.size  # n * column variance over the observed rows
            ok = bool(var.max() > 1e-10 * max(float(sq.max()), 1e-300))
        (kept if ok else dropped).append(v)
    return kept, [v.name for v in dropped]


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:24]


def _cache_root() -> Path:
    from workbench.datasets import cache_dir

    return Path(cache_dir()) / "mvlsa_experiments"


def _load_pickle(path: Path) -> Any:
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
        logger.warning("cache entry %s unreadable (%s); rebuilding", path, exc)
        return None


def _save_pickle(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".pkl")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build_view_set(
    settings: StudySettings, *, cache: bool = True, progress: bool | None = None
) -> ViewSet:
    """Corpus, vocabulary and all views of ``settings`` (cached on disk when ``cache``).

    Builds the positional views (``settings.offsets``), the dependency views of the UD
    treebank, the KJV--RV1909 bitext view, the lexicon views and the GloVe co-occurrence
    counts; views with fewer than ``settings.min_view_rows`` observed rows (or constant ones)
    are dropped and listed in ``info["dropped"]``. The cache key covers the corpus checksum and
    every view-building setting.
    """
    from workbench import datasets as ds
    from workbench import views as wv

    t0 = time.perf_counter()
    corpus = ds.load_corpus(settings.corpus, max_tokens=settings.max_tokens)
    key = _key(_CACHE_VERSION, corpus.sha256, settings.view_key())
    path = _cache_root() / f"viewset-{settings.size}-{key}.pkl"
    if cache and path.exists():
        obj = _load_pickle(path)
        if isinstance(obj, ViewSet):
            logger.info("loaded view set %s (%d views)", path.name, len(obj.views))
            return obj
    steps = ["vocabulary", "positional", "dependency", "bitext", "lexicons", "glove counts"]
    bar = tqdm(total=len(steps), desc="views", disable=None if progress is None else not progress)
    vocab, enc = wv.vocabulary_and_encoding(
        corpus, max_size=settings.vocab_size, min_count=settings.min_count
    )
    bar.update()
    views: list[Any] = list(
        wv.positional_views(enc, vocab, settings.offsets, cache=cache, progress=False)
    )
    bar.update()
    if settings.conllu:
        views += wv.dependency_views(ds.load_conllu(settings.conllu), vocab)
    bar.update()
    if settings.bitext_verses != 0:
        views.append(
            wv.bitext_view(vocab, n_iter=5, max_sentences=settings.bitext_verses, cache=cache)
        )
    bar.update()
    for kind in settings.lexicons:
        views.append(wv.lexicon_view(kind, vocab))
    bar.update()
    window = int(dict(settings.glove).get("window", 10))
    cooc = wv.window_view(enc, vocab, window, symmetric=False, weighting="harmonic", cache=cache)
    bar.update()
    bar.close()
    kept, dropped = usable_views(views, min_rows=settings.min_view_rows)
    if dropped:
        logger.info("dropped %d views observing < %d rows: %s", len(dropped),
                    settings.min_view_rows, dropped)  # fmt: skip
    info = {
        "corpus": settings.corpus,
        "n_tokens": int(enc.n_tokens),
        "vocab_size": len(vocab),
        "dropped": dropped,
        "build_seconds": time.perf_counter() - t0,
    }
    out = ViewSet(vocab, tuple(kept), cooc, info)
    if cache:
        _save_pickle(path, out)
    return out


# ============================================================================================
# one system
# ============================================================================================
@dataclass(frozen=True, eq=False)
class FittedSystem:
    """A fitted MVLSA system: ``model`` (the estimator), its config and the views' names."""

    config: MVLSAConfig
    model: Any
    words: tuple[str, ...]
    view_names: tuple[str, ...]
    seconds: float

    def vectors(self, n_components: int | None = None) -> Any:
        """``WordVectors`` of the first ``n_components`` dimensions (no refit)."""
        return self.model.to_word_vectors(self.words, n_components)


def _preprocessed(view_set: ViewSet, config: MVLSAConfig) -> list[Any]:
    from workbench.views import preprocess

    spec = config.spec()
    out = []
    for v in view_set.views:
        if v.family == "embedding":
            out.append(v)
            continue
        pv = preprocess(v, spec=spec)
        if not pv.observed.any():
            logger.info("view %s has no observed row after top_t=%s; left out", v.name, spec.top_t)
            continue
        out.append(pv)
    return out


def fit_mvlsa(view_set: ViewSet, config: MVLSAConfig) -> FittedSystem:
    """Preprocess every non-embedding view with :math:`f_j` of ``config`` and fit MVLSA.

    ``n_components`` is capped at ``view_rank`` x (number of views) with a warning; the other
    bad combinations (``v`` above the number of views, ...) raise the estimator's ValueError.
    """
    from workbench.gcca import MVLSA

    t0 = time.perf_counter()
    views, _ = usable_views(_preprocessed(view_set, config))
    if not views:
        raise ValueError("no usable view left after preprocessing")
    k = config.n_components
    cap = sum(min(config.view_rank, v.shape[1], int(v.observed.sum())) for v in views)
    if k > cap:
        logger.warning("n_components=%d exceeds the stacked rank bound %d; using %d", k, cap, cap)
        k = cap
    model = MVLSA(
        k,
        view_rank=config.view_rank,
        regularization=config.regularization,
        min_view_support=config.min_view_support,
        row_weighting=config.row_weighting,
        random_state=config.random_state,
        svd_solver=config.svd_solver,
    ).fit(views)
    return FittedSystem(
        config, model, tuple(view_set.words), tuple(v.name for v in views), time.perf_counter() - t0
    )


@functools.lru_cache(maxsize=32)
def _rating_set(name: str) -> pd.DataFrame:
    from workbench.datasets import load_wordsim

    return load_wordsim(name)


@functools.lru_cache(maxsize=4)
def _analogy_questions() -> pd.DataFrame:
    from workbench.datasets import load_analogies

    return load_analogies()


@dataclass(frozen=True, eq=False)
class SystemEvaluation:
    """Scores of one system: per rating set :class:`WordSimResult`, and the analogy result."""

    name: str
    wordsim: dict[str, Any]
    analogy: Any = None
    kinds: np.ndarray | None = None

    def scores(self) -> pd.Series:
        """Spearman per rating set, then AN-SYN / AN-SEM accuracy (fractions, not points)."""
        vals = {n: float(r.spearman) for n, r in self.wordsim.items()}
        if self.analogy is not None:
            vals["AN-SYN"] = float(self.analogy.syntactic)
            vals["AN-SEM"] = float(self.analogy.semantic)
        return pd.Series(vals, name=self.name, dtype=float)

    def n_scored(self) -> pd.Series:
        """Items scored per test set."""
        vals = {n: int(r.n_scored) for n, r in self.wordsim.items()}
        if self.analogy is not None and self.kinds is not None:
            for row, kind in ANALOGY_SETS.items():
                vals[row] = int((self.analogy.scorable & (self.kinds == kind)).sum())
        return pd.Series(vals, name=self.name)

    def hits(self, row: str) -> tuple[np.ndarray, np.ndarray]:
        """Per-question ``(hits, scorable)`` of AN-SYN or AN-SEM (only that kind's questions)."""
        if self.analogy is None or self.kinds is None:
            raise ValueError(f"system {self.name!r} was evaluated without analogies")
        sel = self.kinds == ANALOGY_SETS[row]
        return np.asarray(self.analogy.hits)[sel], np.asarray(self.analogy.scorable)[sel]


def evaluate_system(
    vectors: Any,
    *,
    name: str = "system",
    wordsim: Sequence[Any] = PAPER_WORDSIM,
    analogies: bool = True,
    restrict_to: Sequence[str] | None = None,
) -> SystemEvaluation:
    """Evaluate word vectors on rating sets (Spearman) and AN-SYN / AN-SEM (3CosAdd accuracy).

    ``wordsim`` holds rating-set names (:data:`workbench.datasets.WORDSIM_NAMES`) or
    DataFrames with ``word1, word2, score`` (named by ``attrs["name"]``).
    ``restrict_to``: evaluate only these words' vectors (e.g. the MVLSA vocabulary, so that
    systems with bigger vocabularies such as pretrained GloVe are scored on the same pairs and
    the same answer vocabulary). Out-of-vocabulary pairs / questions are skipped.
    """
    from workbench.evaluation import evaluate_analogies, evaluate_wordsim

    if restrict_to is not None:
        vectors = vectors.subset(restrict_to)
    if len(vectors) == 0:
        raise ValueError(f"system {name!r} has no vectors (after restrict_to)")
    ws: dict[str, Any] = {}
    for item in wordsim:
        df = _rating_set(item) if isinstance(item, str) else item
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"wordsim entries must be names or DataFrames, got {type(item).__name__}")
        label = item if isinstance(item, str) else str(df.attrs.get("name", f"set{len(ws)}"))
        ws[label] = evaluate_wordsim(vectors, df)
    an, kinds = None, None
    if analogies:
        q = _analogy_questions()
        an = evaluate_analogies(vectors, q)
        kinds = q["kind"].to_numpy(dtype=object)
    return SystemEvaluation(name, ws, an, kinds)


def scores_frame(evaluations: Sequence[SystemEvaluation]) -> pd.DataFrame:
    """Test sets x systems table of raw scores (columns in the given order)."""
    if not evaluations:
        raise ValueError("no evaluation given")
    df = pd.concat([e.scores() for e in evaluations], axis=1)
    df.columns = [e.name for e in evaluations]
    df.index.name = "Test Set"
    return df


@functools.lru_cache(maxsize=256)
def _mrds_corr(n: int) -> float:
    from workbench.significance import mrds_correlation

    return float(mrds_correlation(n, 0.9, 0.05)) if n >= 4 else float("nan")


@functools.lru_cache(maxsize=256)
def _mrds_acc(n: int) -> float:
    from workbench.significance import mrds_accuracy

    return float(mrds_accuracy(n, 0.05)) if n >= 1 else float("nan")


def mrds_column(evaluations: Sequence[SystemEvaluation]) -> pd.Series:
    r"""MRDS per test set at the smallest number of items any of the systems scored.

    Rating sets: :math:`\sigma^{0.9}_{0.05}` (one-sided Williams' test, as the paper's Table
    2); analogies: the Bayesian :math:`\sigma_{0.05}` with a Beta(1, 1) prior.
    """
    n = pd.concat([e.n_scored() for e in evaluations], axis=1).min(axis=1)
    out = {
        row: (_mrds_acc(int(cnt)) if row in ANALOGY_SETS else _mrds_corr(int(cnt)))
        for row, cnt in n.items()
    }
    return pd.Series(out, name="MRDS", dtype=float)


def marked_table(
    evaluations: Sequence[SystemEvaluation],
    *,
    significant: pd.DataFrame | None = None,
    baseline: str | None = None,
) -> Any:
    """:func:`workbench.significance.results_table` of the systems: bold = within MRDS of the
    row's best (the paper's convention), ``†`` from ``significant`` (or gains over ``baseline``
    above the MRDS)."""
    from workbench.significance import results_table

    return results_table(
        scores_frame(evaluations),
        mrds=mrds_column(evaluations),
        significant=significant,
        baseline=baseline,
        bold="mrds",
    )


# ============================================================================================
# hyper-parameter grids (Tables 3-7)
# ============================================================================================
@dataclass(frozen=True, eq=False)
class GridResult:
    """One hyper-parameter grid: ``scores`` (test sets x values), ``table`` (marked), systems."""

    param: str
    values: tuple[Any, ...]
    labels: tuple[str, ...]
    scores: pd.DataFrame
    table: Any
    evaluations: tuple[SystemEvaluation, ...]
    seconds: tuple[float, ...]

    def best(self, test_set: str) -> str:
        """Label of the best value on ``test_set``."""
        return str(self.scores.loc[test_set].idxmax())


def _field(param: str) -> str:
    name = PARAM_ALIASES.get(param, param)
    if name not in PARAM_ALIASES.values():
        raise ValueError(f"unknown grid parameter {param!r}; use one of {sorted(PARAM_ALIASES)}")
    return name


def run_grid(
    view_set: ViewSet,
    param: str,
    values: Sequence[Any],
    *,
    base: MVLSAConfig,
    wordsim: Sequence[Any] = PAPER_WORDSIM,
    analogies: bool = True,
    _fits: dict[MVLSAConfig, FittedSystem] | None = None,
) -> GridResult:
    """Evaluate MVLSA over the values of one parameter, the others fixed at ``base``.

    ``param`` is a paper name (``n_j, t, m, k, v, r``) or the config field. For ``k`` one model
    is fitted at ``max(values)`` and sliced (dimensions are nested). Returns the raw scores and
    a table marked with :func:`marked_table` (bold within MRDS of the best).
    """
    fld = _field(param)
    values = tuple(values)
    if not values:
        raise ValueError(f"grid over {param!r} has no values")
    fits = {} if _fits is None else _fits
    evals: list[SystemEvaluation] = []
    secs: list[float] = []
    labels: list[str] = []

    def fitted(cfg: MVLSAConfig) -> FittedSystem:
        if cfg not in fits:
            fits[cfg] = fit_mvlsa(view_set, cfg)
        return fits[cfg]

    if fld == "n_components":
        kmax = max(int(v) for v in values)
        fs = fitted(dataclasses.replace(base, n_components=max(kmax, base.n_components)))
        kfit = fs.model.embedding_.shape[1]
        for v in tqdm(values, desc=f"grid {param}", disable=None, leave=False):
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
    grids: Mapping[str, Sequence[Any]] | Sequence[tuple[str, Sequence[Any]]],
    *,
    base: MVLSAConfig,
    wordsim: Sequence[Any] = PAPER_WORDSIM,
    analogies: bool = True,
) -> dict[str, GridResult]:
    """:func:`run_grid` for several parameters, fitting each distinct configuration once."""
    items = list(grids.items()) if isinstance(grids, Mapping) else list(grids)
    fits: dict[MVLSAConfig, FittedSystem] = {}
    return {
        p: run_grid(view_set, p, vals, base=base, wordsim=wordsim, analogies=analogies, _fits=fits)
        for p, vals in items
    }


# ============================================================================================
# significance helpers
# ============================================================================================
def _compare(a: SystemEvaluation, b: SystemEvaluation, row: str) -> tuple[float, float]:
    """``(difference b - a, p-value)`` on one test set, over the items BOTH systems score.

    Rating sets: Spearman difference and two-sided Williams' t
    (:func:`workbench.significance.compare_wordsim`); analogies: accuracy difference and the
    exact McNemar test (:func:`workbench.significance.compare_accuracy`).
    """
    from workbench.significance import compare_accuracy, compare_wordsim

    if row in ANALOGY_SETS:
        ha, sa = a.hits(row)
        hb, sb = b.hits(row)
        both = sa & sb
        if not both.any():
            return float("nan"), float("nan")
        res = compare_accuracy(ha[both], hb[both])
        return float(res.difference), float(res.mcnemar_pvalue)
    try:
        c = compare_wordsim(a.wordsim[row], b.wordsim[row], alternative="two-sided")
    except ValueError as exc:
        logger.info("no comparison on %s: %s", row, exc)
        return float("nan"), float("nan")
    return float(c.difference), float(c.pvalue)


def _pairwise(
    a: SystemEvaluation, b: SystemEvaluation, alpha: float
) -> pd.DataFrame:
    rows = []
    for row in a.scores().index:
        if row not in b.scores().index:
            continue
        diff, p = _compare(a, b, row)
        rows.append({"test_set": row, "difference": diff, "pvalue": p,
                     "significant": bool(np.isfinite(p) and p < alpha)})  # fmt: skip
    return pd.DataFrame(rows).set_index("test_set")


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
        scored by both; exact McNemar on the analogy questions both can answer).
    significant : DataFrame
        ``pvalues < alpha``.
    table : ResultsTable
        Paper-style table, bold within MRDS of the best, ``†`` = significantly different from
        "All views".
    removals : dict
        Removal label -> removed view / family names.
    """

    scores: pd.DataFrame
    drops: pd.DataFrame
    pvalues: pd.DataFrame
    significant: pd.DataFrame
    table: Any
    removals: dict[str, tuple[str, ...]]
    evaluations: tuple[SystemEvaluation, ...]


def default_removals(
    view_set: ViewSet, *, single_views: Sequence[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Removals of Table 8 for this view set: every family (``"!family"``), the paper's
    combinations (``!morphology !framenet`` and ``... !bitext`` when present) and single views
    (default: the first positional view and every view of a one-view family)."""
    fams = view_set.families()
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
    wordsim: Sequence[Any] = PAPER_WORDSIM,
    analogies: bool = True,
    alpha: float = 0.05,
) -> AblationResult:
    """Fit MVLSA on all views and with each removal; measure drops and their significance.

    ``removals`` maps a label to view names and/or family names to remove (default
    :func:`default_removals`). ``config.min_view_support`` is lowered to the number of views
    left when needed (logged).
    """
    removals = dict(default_removals(view_set) if removals is None else removals)
    if not removals:
        raise ValueError("no removal to evaluate")
    rem = {k: tuple(v) for k, v in removals.items()}
    for names in rem.values():
        view_set.select(exclude=names)  # validates names early

    def run(label: str, vs: ViewSet) -> SystemEvaluation:
        cfg = config
        if cfg.min_view_support > len(vs.views):
            logger.info("%s: min_view_support %d > %d views; lowered", label,
                        cfg.min_view_support, len(vs.views))  # fmt: skip
            cfg = dataclasses.replace(cfg, min_view_support=len(vs.views))
        fs = fit_mvlsa(vs, cfg)
        return evaluate_system(fs.vectors(), name=label, wordsim=wordsim, analogies=analogies)

    full = run("All views", view_set)
    evals = [full]
    for label, names in tqdm(rem.items(), desc="ablations", disable=None, leave=False):
        evals.append(run(label, view_set.select(exclude=names)))
    drops, pvals = {}, {}
    for e in evals[1:]:
        cmp = _pairwise(full, e, alpha)
        drops[e.name] = -cmp["difference"]
        pvals[e.name] = cmp["pvalue"]
    drops_df = pd.DataFrame(drops).T
    pv_df = pd.DataFrame(pvals).T
    drops_df.index.name = pv_df.index.name = "removed"
    sig = pv_df.lt(alpha) & pv_df.notna()
    dag = sig.T.reindex(columns=[e.name for e in evals], fill_value=False).astype(bool)
    table = marked_table(evals, significant=dag)
    return AblationResult(scores_frame(evals), drops_df, pv_df, sig, table, rem, tuple(evals))


# ============================================================================================
# fusion (Table 9)
# ============================================================================================
@dataclass(frozen=True, eq=False)
class FusionResult:
    """Table 9: systems, gains and r_s.

    Attributes
    ----------
    scores : DataFrame
        Test sets x the systems (six, plus "MVLSA Combined" when requested).
    gains : DataFrame
        ``MV Gain`` = MVLSA (all views) - MVLSA (corpus views); ``G-WSG Gain`` = MV-G-WSG -
        MVLSA (all views); ``Combined Gain`` = MVLSA Combined - MVLSA (all views); each over
        the items both systems score; with ``*_pvalue`` and
        ``*_significant`` (two-sided p < alpha) columns.
    r_s : DataFrame
        Spearman correlation of the pair similarities of MVLSA (all views), MV-G-WSG (and MVLSA
        Combined) with those of GloVe and skip-gram (rating sets only; pairs scored by both).
    table : DataFrame
        Formatted table: marked systems (bold within MRDS), gains with ``†``, r_s (points).
    marked : ResultsTable
    """

    scores: pd.DataFrame
    gains: pd.DataFrame
    r_s: pd.DataFrame
    table: pd.DataFrame
    marked: Any
    evaluations: dict[str, SystemEvaluation]
    systems: dict[str, Any]


def train_corpus_baselines(
    view_set: ViewSet, settings: StudySettings, *, n_components: int, cache: bool = True,
    seed: int = 0,
) -> tuple[Any, Any]:
    """GloVe and skip-gram word2vec trained on the settings' corpus over the view set's
    vocabulary (:mod:`workbench.baselines`), cached on disk. Returns ``(glove, wsg)``."""
    from workbench import baselines
    from workbench.datasets import load_corpus

    w2v = dict(settings.word2vec)
    gl = dict(settings.glove)
    corpus = load_corpus(settings.corpus, max_tokens=settings.max_tokens)
    key = _key(_CACHE_VERSION, corpus.sha256, settings.view_key(), w2v, gl, n_components, seed)
    path = _cache_root() / f"baselines-{settings.size}-{key}.pkl"
    if cache and path.exists():
        obj = _load_pickle(path)
        if isinstance(obj, tuple) and len(obj) == 2:
            return obj
    if view_set.cooccurrence is None:
        raise ValueError("the view set has no co-occurrence counts for GloVe")
    t0 = time.perf_counter()
    glove = baselines.train_glove(
        view_set.cooccurrence, view_set.words, n_components,
        epochs=int(gl.get("epochs", 25)), random_state=seed, progress=False,
    )  # fmt: skip
    t1 = time.perf_counter()
    wsg = baselines.train_word2vec(
        corpus, words=view_set.words, vector_size=n_components,
        window=int(w2v.get("window", 10)), epochs=int(w2v.get("epochs", 5)), seed=seed,
    )  # fmt: skip
    logger.info("GloVe %.1fs, word2vec %.1fs", t1 - t0, time.perf_counter() - t1)
    if cache:
        _save_pickle(path, (glove, wsg))
    return glove, wsg


def _rs(a: SystemEvaluation, b: SystemEvaluation, row: str) -> float:
    pa = np.asarray(a.wordsim[row].pred, float)
    pb = np.asarray(b.wordsim[row].pred, float)
    ok = ~np.isnan(pa) & ~np.isnan(pb)
    if ok.sum() < 3 or np.ptp(pa[ok]) == 0 or np.ptp(pb[ok]) == 0:
        return float("nan")
    from scipy import stats

    return float(stats.spearmanr(pa[ok], pb[ok])[0])


def fusion_study(
    view_set: ViewSet,
    config: MVLSAConfig,
    *,
    glove: Any,
    wsg: Any,
    pretrained: Any = None,
    corpus_families: Sequence[str] = ("positional",),
    fuse: Sequence[str] = ("MVLSA (all views)", "GloVe", "WSG"),
    combined: bool = True,
    wordsim: Sequence[Any] = PAPER_WORDSIM,
    analogies: bool = True,
    alpha: float = 0.05,
) -> FusionResult:
    """Table 9: MVLSA (corpus views), MVLSA (all views), GloVe, WSG, pretrained GloVe and MV-G-WSG.

    MV-G-WSG is the GCCA (:class:`workbench.gcca.MVLSA`, ``m`` = each embedding's dimension,
    ``k = config.n_components``) of the systems named in ``fuse``, each as a dense embedding
    view over the vocabulary (words a system lacks are missing rows). With ``combined`` the
    paper's own fusion system is added as well: "MVLSA Combined" = MVLSA over all the views
    *plus* the GloVe and WSG embedding views (the column the paper's "G-WSG Gain" refers to;
    its gain is reported as ``Combined Gain``). All systems are evaluated on the view set's
    vocabulary (``restrict_to``), so pretrained GloVe is scored on the same pairs and answer
    vocabulary as the others.
    """
    from workbench.gcca import MVLSA
    from workbench.views import embedding_view

    words = view_set.words
    names = ["MVLSA (corpus views)", "MVLSA (all views)", "GloVe", "WSG"]
    if pretrained is not None:
        names.append("GloVe 6B-50d")
    unknown = [f for f in fuse if f not in names]
    if unknown or not fuse:
        raise ValueError(f"cannot fuse unknown systems {unknown or '(none given)'}; available: {names}")
    present = [f for f in corpus_families if f in view_set.families()]
    if not present:
        raise ValueError(
            f"no corpus view family {list(corpus_families)} in the view set "
            f"(families: {list(view_set.families())})"
        )
    corpus_vs = view_set.select(families=present)
    systems: dict[str, Any] = {}
    systems["MVLSA (corpus views)"] = fit_mvlsa(corpus_vs, config).vectors()
    systems["MVLSA (all views)"] = fit_mvlsa(view_set, config).vectors()
    systems["GloVe"] = glove
    systems["WSG"] = wsg
    if pretrained is not None:
        systems["GloVe 6B-50d"] = pretrained.subset(words)
    emb_views = [embedding_view(systems[f], view_set.vocab, name=f) for f in fuse]
    k = min(config.n_components, sum(v.shape[1] for v in emb_views))
    fused = MVLSA(
        k,
        view_rank=[v.shape[1] for v in emb_views],
        regularization=config.regularization,
        random_state=config.random_state,
    ).fit(emb_views)
    systems["MV-G-WSG"] = fused.to_word_vectors(words)
    if combined:
        extra = tuple(embedding_view(systems[f], view_set.vocab, name=f) for f in ("GloVe", "WSG"))
        comb_vs = dataclasses.replace(view_set, views=view_set.views + extra)
        systems["MVLSA Combined"] = fit_mvlsa(comb_vs, config).vectors()
    evals = {
        n: evaluate_system(v, name=n, wordsim=wordsim, analogies=analogies, restrict_to=words)
        for n, v in tqdm(systems.items(), desc="evaluate", disable=None, leave=False)
    }
    order = list(evals.values())
    scores = scores_frame(order)
    mv = _pairwise(evals["MVLSA (corpus views)"], evals["MVLSA (all views)"], alpha)
    gw = _pairwise(evals["MVLSA (all views)"], evals["MV-G-WSG"], alpha)
    gains = pd.DataFrame(
        {
            "MV Gain": mv["difference"],
            "MV Gain_pvalue": mv["pvalue"],
            "MV Gain_significant": mv["significant"],
            "G-WSG Gain": gw["difference"],
            "G-WSG Gain_pvalue": gw["pvalue"],
            "G-WSG Gain_significant": gw["significant"],
        }
    )
    gain_cols = ["MV Gain", "G-WSG Gain"]
    if combined:
        cb = _pairwise(evals["MVLSA (all views)"], evals["MVLSA Combined"], alpha)
        gains["Combined Gain"] = cb["difference"]
        gains["Combined Gain_pvalue"] = cb["pvalue"]
        gains["Combined Gain_significant"] = cb["significant"]
        gain_cols.append("Combined Gain")
    rs_rows = {}
    for row in evals["MVLSA (all views)"].wordsim:
        rs_rows[row] = {
            "r_s GloVe (MVLSA)": _rs(evals["MVLSA (all views)"], evals["GloVe"], row),
            "r_s WSG (MVLSA)": _rs(evals["MVLSA (all views)"], evals["WSG"], row),
            "r_s GloVe (MV-G-WSG)": _rs(evals["MV-G-WSG"], evals["GloVe"], row),
            "r_s WSG (MV-G-WSG)": _rs(evals["MV-G-WSG"], evals["WSG"], row),
        }
        if combined:
            rs_rows[row]["r_s GloVe (Combined)"] = _rs(evals["MVLSA Combined"], evals["GloVe"], row)
            rs_rows[row]["r_s WSG (Combined)"] = _rs(evals["MVLSA Combined"], evals["WSG"], row)
    r_s = pd.DataFrame(rs_rows).T.reindex(scores.index)
    marked = marked_table(order)
    table = marked.to_frame()
    for g in gain_cols:
        table[g] = [
            "–" if not np.isfinite(d) else f"{100 * d:+.1f}" + ("†" if s else "")
            for d, s in zip(
                gains[g].reindex(scores.index),
                gains[f"{g}_significant"].reindex(scores.index, fill_value=False),
            )
        ]
    for c in r_s.columns:
        table[c] = ["–" if not np.isfinite(v) else f"{100 * v:.1f}" for v in r_s[c]]
    return FusionResult(scores, gains, r_s, table, marked, evals, systems)
