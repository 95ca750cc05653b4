"""Data sizes and MVLSA configurations of the MVLSA study (paper parameter names, presets)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

import pandas as pd

from workbench._validation import (
    check_bool,
    check_choice,
    check_float,
    check_instance,
    check_int,
    check_sequence,
)
from workbench.datasets import CONLLU_SPLITS, CORPUS_NAMES, WORDSIM_NAMES, Corpus, load_corpus
from workbench.evaluation import ANALOGY_SETS
from workbench.lexicons import LEXICON_KINDS
from workbench.studies.data import DataChoice
from workbench.views import PreprocessSpec

__all__ = [
    "PARAM_ALIASES",
    "PAPER_CONFIG",
    "PAPER_GRIDS",
    "PAPER_VOCAB",
    "PAPER_N_VIEWS",
    "PaperConfig",
    "scaled_value",
    "paper_config",
    "paper_label",
    "grid_values",
    "rank_floors",
    "PAPER_WORDSIM",
    "ANALOGY_SETS",
    "MVLSAConfig",
    "StudySettings",
    "settings",
    "apply_data",
    "side_views_note",
    "STUDY_SIZES",
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
#: A value of a grid: a transform name, a number, or None (``t``: all columns).
GridValue: TypeAlias = str | float | None
#: The paper's best system (Section 5, "Comparison to other ... methods"): Count^1/4,
#: t = 12.5K, m = 500, k = 300, v = 16 (and r_j = 1e-8, Section 3).
PAPER_CONFIG: dict[str, GridValue] = {
    "n_j": "pow", "t": 12_500, "m": 500, "k": 300, "v": 16, "r": 1e-8,
}  # fmt: skip
#: The paper's grids: Table 3 (n_j), Table 4 (t), Table 5 (m), Table 6 (k), Table 7 (v) and
#: the range of r_j over which it found the results invariant (1 to 1e-10).
PAPER_GRIDS: tuple[tuple[str, tuple[GridValue, ...]], ...] = (
    ("n_j", ("identity", "log", "pow")),
    ("t", (6_250, 12_500, 25_000, 50_000, 100_000, 200_000)),
    ("m", (100, 200, 300, 500)),
    ("k", (10, 50, 100, 200, 300, 500)),
    ("v", (16, 17, 21, 25, 29)),
    ("r", (1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1.0)),
)
#: The paper's vocabulary (and so the number of context columns of its word views) and views.
PAPER_VOCAB = 500_000
PAPER_N_VIEWS = 46
#: The row weightings and per-view SVD solvers :class:`MVLSAConfig` accepts.
ROW_WEIGHTINGS = (None, "glove")
SVD_SOLVERS = ("randomized", "auto", "gram", "dense")


# ============================================================================================
# configuration
# ============================================================================================
@dataclass(frozen=True)
class MVLSAConfig:
    r"""One MVLSA system: preprocessing :math:`f_j = n_j \circ t_j` and GCCA parameters.

    Attributes
    ----------
    transform : str
        :math:`n_j`: ``"identity"`` (Count), ``"log"`` (log(1+x)), ``"pow"`` (x^power),
        ``"pow:<p>"`` (e.g. ``"pow:0.5"``) or ``"ppmi"`` (shifted PPMI with context
        distribution smoothing, :func:`workbench.views.ppmi`, with ``cds`` and ``shift``).
    power : float
        Exponent of ``"pow"`` (the paper's best: 1/4).
    cds, shift : float
        Context-distribution smoothing exponent and shift :math:`k` of ``"ppmi"``.
    top_t : int or None
        :math:`t_j`: keep the ``top_t`` columns with the largest totals (None = all).
    view_rank : int
        ``m`` (clamped per view to its rank).
    n_components : int
        ``k``.
    min_view_support : int
        ``v``.
    regularization : float
        ``r_j`` (same for all views), or :math:`\rho` when ``relative_regularization``.
    relative_regularization : bool
        :math:`r_j = \rho\, s_{j,1}^2` (relative to each view's largest singular value).
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
    cds: float = 0.75
    shift: float = 1.0
    view_rank: int = 300
    n_components: int = 300
    min_view_support: int = 0
    regularization: float = 1e-8
    relative_regularization: bool = False
    row_weighting: str | None = None
    random_state: int = 0
    svd_solver: str = "randomized"

    def __post_init__(self) -> None:
        self.spec()  # validates transform / power / top_t / cds / shift
        checked = {
            "view_rank": check_int(self.view_rank, "MVLSAConfig.view_rank", low=1),
            "n_components": check_int(self.n_components, "MVLSAConfig.n_components", low=1),
            "min_view_support": check_int(
                self.min_view_support, "MVLSAConfig.min_view_support", low=0
            ),
            "regularization": check_float(self.regularization, "MVLSAConfig.regularization", low=0),
            "relative_regularization": check_bool(
                self.relative_regularization, "MVLSAConfig.relative_regularization"
            ),
            "row_weighting": check_choice(
                self.row_weighting, "MVLSAConfig.row_weighting", ROW_WEIGHTINGS
            ),
            "random_state": check_int(self.random_state, "MVLSAConfig.random_state", low=0),
            "svd_solver": check_choice(self.svd_solver, "MVLSAConfig.svd_solver", SVD_SOLVERS),
        }
        for name, value in checked.items():  # frozen: store the converted values
            object.__setattr__(self, name, value)

    def spec(self) -> PreprocessSpec:
        """The :class:`workbench.views.PreprocessSpec` of :math:`f_j`."""
        transform, power = self.transform, self.power
        if isinstance(transform, str) and transform.startswith("pow:"):
            try:
                power = float(transform.split(":", 1)[1])
            except ValueError:
                raise ValueError(f"bad transform {transform!r}; expected e.g. 'pow:0.25'") from None
            transform = "pow"
        return PreprocessSpec(transform, power, self.top_t, self.cds, self.shift)

    def label(self, param: str) -> str:
        """Column label of this configuration in a grid over ``param`` (paper names)."""
        field_name = PARAM_ALIASES.get(param, param) if isinstance(param, str) else param
        if field_name not in {f.name for f in dataclasses.fields(self)}:
            raise ValueError(
                f"param must be a paper name {sorted(PARAM_ALIASES)} or an MVLSAConfig field; "
                f"got {param!r}"
            )
        val = getattr(self, field_name)
        if field_name == "transform":
            spec = self.spec()
            if spec.transform == "ppmi":
                name = "PPMI" if spec.shift == 1 else f"SPPMI k={spec.shift:g}"
                return name if spec.cds == 1 else f"{name} cds={spec.cds:g}"
            return {"identity": "Count", "log": "Log"}.get(spec.transform, f"Count^{spec.power:g}")
        if field_name == "top_t":
            return "all" if val is None else f"{val:,}"
        if field_name == "regularization":
            return f"rho={val:g}" if self.relative_regularization else f"{val:g}"
        return str(val)


@dataclass(frozen=True)
class StudySettings:
    """Data and defaults of one data size (see :func:`settings`).

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
        :data:`workbench.lexicons.LEXICON_KINDS` to build.
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
    word2vec, glove, ppmi :
        Training settings of the corpus baselines (:func:`corpus_baselines`): skip-gram,
        GloVe and PPMI-SVD.
    tuning :
        Values tried by the dev-tuned path (:func:`tuning_steps`): ``view_ranks``, ``rhos``,
        ``ks``.
    glove_limit :
        Rows of pretrained GloVe 6B-50d loaded (None: all 400K).
    ablation_rank :
        ``m = k`` of the ablations (None: those of ``config``).
    data :
        The data chosen (:class:`workbench.studies.data.DataChoice`; empty: the bundled data).
        :func:`settings` applies it to ``corpus``, ``wordsim`` and the side views.
    tuning_wordsim :
        The rating sets whose dev halves the path is tuned on (None: those of ``wordsim``).
        With ``WORDSIM_SPLIT="all"`` the user's sets are scored on every pair and never tuned
        on: the path uses the study's bundled sets (English corpora) or is not walked (``()``).
    budget :
        Largest ``m`` and ``k`` this size affords (None: the paper's values); the paper
        configuration and the grids use ``min(value, budget)`` (:func:`paper_config`).
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
    grids: tuple[tuple[str, tuple[GridValue, ...]], ...]
    wordsim: tuple[str, ...] = PAPER_WORDSIM
    analogies: bool = True
    word2vec: tuple[tuple[str, Any], ...] = ()
    glove: tuple[tuple[str, Any], ...] = ()
    ppmi: tuple[tuple[str, Any], ...] = (("window", 5), ("cds", 0.75), ("shift", 1.0), ("eig", 0.5))
    tuning: tuple[tuple[str, Any], ...] = ()
    glove_limit: int | None = None
    ablation_rank: int | None = None
    data: DataChoice = DataChoice()
    tuning_wordsim: tuple[str, ...] | None = None
    budget: int | None = None

    def __post_init__(self) -> None:
        check_choice(self.size, "StudySettings.size", STUDY_SIZES)
        _check_name_or_path(self.corpus, "StudySettings.corpus", CORPUS_NAMES, str.upper)
        check_int(self.max_tokens, "StudySettings.max_tokens", low=1, allow_none=True)
        check_int(self.vocab_size, "StudySettings.vocab_size", low=1)
        check_int(self.min_count, "StudySettings.min_count", low=1)
        offsets = check_sequence(self.offsets, "StudySettings.offsets", allow_empty=True)
        for k in offsets:
            check_int(k, "StudySettings.offsets entries", low=1)
        if len(set(offsets)) != len(offsets):
            raise ValueError(f"StudySettings.offsets has duplicates: {list(offsets)}")
        if self.conllu is not None:
            _check_name_or_path(self.conllu, "StudySettings.conllu", CONLLU_SPLITS, str.lower)
        check_int(self.bitext_verses, "StudySettings.bitext_verses", low=0, allow_none=True)
        for kind in check_sequence(self.lexicons, "StudySettings.lexicons", allow_empty=True):
            check_choice(kind, "StudySettings.lexicons entries", LEXICON_KINDS)
        check_int(self.min_view_rows, "StudySettings.min_view_rows", low=0)
        if not isinstance(self.config, MVLSAConfig):
            raise TypeError(
                f"StudySettings.config must be an MVLSAConfig, got {type(self.config).__name__}"
            )
        for name, values in _pairs(self.grids, "StudySettings.grids"):
            check_choice(
                name, "StudySettings.grids parameter", [*PARAM_ALIASES, *PARAM_ALIASES.values()]
            )
            check_sequence(values, f"StudySettings.grids[{name!r}] values")
        for name in check_sequence(self.wordsim, "StudySettings.wordsim"):
            _check_name_or_path(name, "StudySettings.wordsim entries", WORDSIM_NAMES, str.upper)
        check_bool(self.analogies, "StudySettings.analogies")
        for fld in ("word2vec", "glove", "ppmi"):
            _pairs(getattr(self, fld), f"StudySettings.{fld}")
        for key, _ in _pairs(self.tuning, "StudySettings.tuning"):
            check_choice(key, "StudySettings.tuning key", ("view_ranks", "rhos", "ks", "nj"))
        check_int(self.glove_limit, "StudySettings.glove_limit", low=1, allow_none=True)
        check_int(self.ablation_rank, "StudySettings.ablation_rank", low=1, allow_none=True)
        check_int(self.budget, "StudySettings.budget", low=1, allow_none=True)
        check_instance(self.data, "StudySettings.data", DataChoice, "a DataChoice")
        if self.tuning_wordsim is not None:
            for name in check_sequence(self.tuning_wordsim, "StudySettings.tuning_wordsim",
                                       allow_empty=True):  # fmt: skip
                _check_name_or_path(name, "StudySettings.tuning_wordsim entries", WORDSIM_NAMES,
                                    str.upper)  # fmt: skip

    @property
    def dev_wordsim(self) -> tuple[str, ...]:
        """The rating sets whose dev halves the path is tuned on (``()``: no path)."""
        return tuple(self.wordsim) if self.tuning_wordsim is None else tuple(self.tuning_wordsim)

    @property
    def score_all_pairs(self) -> bool:
        """True when the rating sets are scored on every pair (``WORDSIM_SPLIT="all"``)."""
        return self.data.wordsim_split == "all"

    def load_corpus(self) -> Corpus:
        """The corpus of these settings (the user's read in its format and language)."""
        if self.data.bundled_corpus:
            return load_corpus(self.corpus, max_tokens=self.max_tokens)
        return load_corpus(self.corpus, format=self.data.corpus_format,
                           language=self.data.language, max_tokens=self.max_tokens)  # fmt: skip

    def side_views_note(self) -> str:
        """One line saying which side views (treebank, bitext, lexicons) this run uses."""
        return side_views_note(self.data, conllu=self.conllu, bitext=self.bitext_verses != 0,
                               lexicons=self.lexicons)  # fmt: skip

    def ablation_config(self, seed: int = 0) -> MVLSAConfig:
        """The configuration of the ablations (``m = k = ablation_rank`` when set: one fit per
        removal, so ``full`` uses a smaller rank than the grids)."""
        seed = check_int(seed, "seed", low=0)
        cfg = dataclasses.replace(self.config, random_state=seed)
        if self.ablation_rank is None:
            return cfg
        return dataclasses.replace(
            cfg, view_rank=self.ablation_rank, n_components=self.ablation_rank
        )

    def grid(self, param: str) -> tuple[GridValue, ...]:
        """The grid values of ``param`` (a paper name such as ``"m"`` or a config field)."""
        for name, values in self.grids:
            if name == param or PARAM_ALIASES.get(name) == param:
                return values
        raise KeyError(f"no grid for {param!r}; grids: {[n for n, _ in self.grids]}")

    @property
    def other_size(self) -> str:
        """The size whose records the Discussion compares with: ``"large"`` for ``"full"``,
        ``"full"`` otherwise."""
        return "large" if self.size == "full" else "full"

    def view_key(self) -> dict[str, str | int | list[int] | list[str] | None]:
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
            **({"user_lexicons": [f"{name}={path}" for name, path in self.data.lexicons],
                "corpus_format": self.data.corpus_format, "language": self.data.language}
               if self.data != DataChoice() else {}),
        }  # fmt: skip


T = TypeVar("T")

#: The data sizes of the MVLSA study (``large`` needs the shared 25M-token corpus).
STUDY_SIZES = ("small", "full", "large")


def _check_seed_results(results: object, kind: type[T], what: str) -> dict[int, T]:
    """``results`` as a dict if it is a non-empty mapping ``{seed: result}`` of ``kind``
    results (``what`` names one in the error)."""
    if not isinstance(results, Mapping) or not results:
        raise ValueError(f"results must be a non-empty mapping {{seed: {kind.__name__}}}")
    for seed, r in results.items():
        check_instance(r, f"results[{seed!r}]", kind, what)
    return dict(results)


def _pairs(values: object, name: str) -> list[tuple[str, Any]]:
    """``values`` (a mapping or a sequence of ``(key, value)`` pairs) as a list of pairs."""
    items = list(values.items()) if isinstance(values, Mapping) else None
    if items is None:
        items = list(check_sequence(values, name, allow_empty=True))
        bad = [p for p in items if not (isinstance(p, (tuple, list)) and len(p) == 2)]
        if bad:
            raise TypeError(f"{name} must hold (name, value) pairs; got {bad[0]!r}")
    keys = [k for k, _ in items]
    bad_keys = [k for k in keys if not isinstance(k, str)]
    if bad_keys:
        raise TypeError(f"{name} keys must be strings; got {bad_keys[0]!r}")
    if len(set(keys)) != len(keys):
        raise ValueError(f"{name} names a key twice: {keys}")
    return items


def _check_name_or_path(
    value: object, name: str, names: Collection[str], norm: Callable[[str], str]
) -> None:
    """``value`` is one of the bundled ``names`` (compared after ``norm``) or an existing path."""
    if isinstance(value, os.PathLike):
        return
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be one of {', '.join(names)} or a path; got {value!r} "
            f"({type(value).__name__})"
        )
    if norm(value) not in {norm(n) for n in names} and not Path(value).expanduser().exists():
        raise ValueError(
            f"{name} must be one of {', '.join(names)} or the path of an existing file; "
            f"got {value!r}"
        )


def settings(size: str, **overrides: Any) -> StudySettings:
    """Settings of the MVLSA notebooks for ``size`` (``"small"``: for tests).

    ``small``: the 1M corpus capped at 200K tokens, 4,000 words, offsets 1--5, the UD dev
    dependency views, 1,000 bitext verses, PPDB and FrameNet views, ``m`` and ``k`` at most 40
    (``budget``) and short grids.
    ``full``: the 5M corpus, 30,000 words (as notebook 02_views, sharing its cached offset
    views), offsets 1--15, UD train, the whole Bible bitext, all lexicon views, the paper's
    ``m = 500, k = 300`` and grids (:data:`PAPER_GRIDS`).
    The paper configuration and the grids scale ``t`` and ``v`` to the run's vocabulary and
    views (:func:`paper_config`).
    ``large``: as ``full`` on the 25M-token corpus (read from the shared data folder,
    ``WORKBENCH_SHARED_DATA``) with 100,000 words; to bound its cost ``m`` and ``k`` are at most
    100, its path tries fewer values (n_j: Count^1/4 and PPMI; m = 100) and its baselines train
    shorter (skip-gram 5 epochs on 2 worker threads, which is not bit-reproducible; GloVe at
    most 30 epochs and not tuned). GloVe runs until its loss per epoch falls by less than
    ``tol`` relative to the epoch before (1 % small, 0.5 % full and large), with ``epochs`` as
    the cap.
    Keyword arguments replace fields (``config=MVLSAConfig(...)`` etc.); the data fields of
    :class:`workbench.studies.data.DataChoice` (``corpus=``, ``corpus_format=``, ``language=``,
    ``wordsim=``, ``wordsim_split=``, ``pretrained=``, ``lexicons=``, ``parallel=``; empty: the
    bundled data) choose the data (:func:`apply_data`).
    """
    if size == "small":
        base = StudySettings(
            size="small",
            corpus="1M",
            max_tokens=200_000,
            vocab_size=4_000,
            min_count=2,
            offsets=(1, 2, 3, 4, 5),
            conllu="dev",
            bitext_verses=1_000,
            lexicons=("ppdb", "framenet"),
            min_view_rows=50,
            config=MVLSAConfig(view_rank=40, n_components=40),
            grids=(  # short (CI runs this size); t and v in the paper's units (scaled)
                ("n_j", ("identity", "log", "pow")),
                ("t", (12_500, 200_000)),
                ("m", (20, 40)),
                ("k", (10, 20, 40)),
                ("v", (16, 21)),  # 29 (scaled) keeps ~30 of 4,000 words here
                ("r", (1e-10, 1.0)),
            ),
            budget=40,
            word2vec=(("window", 5), ("epochs", 5)),
            # run until the loss per epoch falls by less than 1 %, at most 50 epochs
            glove=(
                ("window", 10),
                ("x_max", 10.0),
                ("epochs", 50),
                ("tol", 0.01),
                ("dtype", "float32"),
            ),  # fmt: skip
            ppmi=(("window", 5), ("cds", 0.75), ("shift", 1.0), ("eig", 0.5)),
            tuning=(("view_ranks", (40, 80)), ("rhos", (1e-3, 1e-1, 10.0)), ("ks", (20, 40))),
            glove_limit=100_000,
            wordsim=PAPER_WORDSIM[:8],  # RG and MC have ~5 in-vocabulary pairs at 4K words
        )
    elif size in ("full", "large"):
        large = size == "large"
        base = StudySettings(
            size=size,
            corpus="25M" if large else "5M",
            max_tokens=None,
            vocab_size=100_000 if large else 30_000,
            min_count=5,
            offsets=tuple(range(1, 16)),
            conllu="train",
            bitext_verses=None,
            lexicons=("morphology", "synonyms", "ppdb", "framenet"),
            min_view_rows=100,
            # the paper's m and k (the baselines train k dimensions)
            config=MVLSAConfig(view_rank=100, n_components=100)
            if large
            else MVLSAConfig(view_rank=500, n_components=300),
            grids=PAPER_GRIDS,
            budget=100 if large else None,
            ablation_rank=50,
            # skip-gram chosen on MEN dev: window 10, sample 1e-4, 10 epochs. GloVe: the
            # window and the learning rate are tuned on the dev halves of every rating set
            # (GLOVE_CANDIDATES, pair-weighted dev mean); it runs until the loss per epoch falls
            # by less than 0.5 %, at most 100 epochs (30 at the large size)
            word2vec=(("window", 10), ("sample", 1e-4), ("epochs", 5 if large else 10))
            + ((("workers", 2),) if large else ()),
            glove=(
                ("window", 10),
                ("x_max", 10.0),
                ("epochs", 30),
                ("tol", 0.005),
                ("dtype", "float32"),
            )
            if large
            else (
                ("window", 15),
                ("x_max", 10.0),
                ("learning_rate", 0.1),
                ("epochs", 100),
                ("tol", 0.005),
                ("dtype", "float32"),
            ),
            ppmi=(("window", 5), ("cds", 0.75), ("shift", 1.0), ("eig", 0.5)),
            tuning=(
                ("view_ranks", (100,) if large else (300, 500)),
                ("rhos", (1e-3, 1e-2, 1e-1, 1.0) if large else (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)),
                ("ks", (50, 100) if large else (100, 300)),
                ("nj", ("Count^0.25", "PPMI cds=0.75") if large else None),
            ),
            glove_limit=None,
        )
    else:
        raise ValueError(f"size must be one of {STUDY_SIZES}, got {size!r}")
    data = _data_overrides(overrides)
    fields = [f.name for f in dataclasses.fields(StudySettings)]
    unknown = [k for k in overrides if k not in fields]
    if unknown:
        raise TypeError(
            f"settings(): unknown settings {unknown}; settings: {fields}; "
            f"data: {[f.name for f in dataclasses.fields(DataChoice)]}"
        )
    if data != DataChoice():
        base = apply_data(base, data)
    return dataclasses.replace(base, **overrides) if overrides else base


def _data_overrides(overrides: dict[str, Any]) -> DataChoice:
    """Pop the data fields of ``overrides`` into a :class:`DataChoice`. ``lexicons`` is the user's
    lexicons when it maps names to paths, and the bundled lexicon kinds to build (the settings
    field) when it is a list of kinds."""
    wordsim = overrides.get("wordsim")
    if isinstance(wordsim, (str, os.PathLike)):
        raise TypeError(
            f"wordsim must be a list of rating-set names or paths (e.g. ['MEN', 'my.csv']), "
            f"got {wordsim!r}"
        )
    lex = overrides.get("lexicons")
    kinds = isinstance(lex, (tuple, list)) and all(isinstance(k, str) for k in lex)
    names = [f.name for f in dataclasses.fields(DataChoice)]
    return DataChoice(
        **{k: overrides.pop(k) for k in names if k in overrides and not (k == "lexicons" and kinds)}
    )


def apply_data(base: StudySettings, data: DataChoice) -> StudySettings:
    """``base`` on the data of ``data``: the user's corpus (else the size's bundled one), the
    user's rating sets (else the study's list), the bundled side views (treebank, bitext,
    lexicons) only when :meth:`DataChoice.side_views` (the corpus is English). With
    ``wordsim_split="all"`` the user's sets are scored on every pair and the path is tuned on
    the dev halves of the study's other bundled sets (English corpora) or not walked."""
    changes: dict[str, Any] = {"data": data, "corpus": data.corpus_or(base.corpus),
                               "wordsim": data.wordsim_or(base.wordsim)}  # fmt: skip
    if not data.side_views():
        changes.update(conllu=None, bitext_verses=0, lexicons=())
    if data.wordsim_split == "all":
        changes["tuning_wordsim"] = (
            tuple(w for w in base.wordsim if w not in data.wordsim) if data.side_views() else ()
        )
    return dataclasses.replace(base, **changes)


def side_views_note(
    data: DataChoice, *, conllu: str | None, bitext: bool, lexicons: Collection[str]
) -> str:
    """One line naming the side views used (and why the bundled ones are left out)."""
    used = ([f"the UD English treebank ({conllu})"] if conllu else []) + (
        ["the KJV–Reina-Valera bitext"] if bitext else []
    ) + [f"the {k} lexicon" for k in lexicons] + [
        f"your lexicon {name!r}" for name, _ in data.lexicons
    ]  # fmt: skip
    text = "Side views: " + (", ".join(used) if used else "none (corpus views only)")
    if not data.side_views():
        text += (
            f"; the bundled treebank, bitext and lexicons are English and the corpus is "
            f"LANGUAGE={data.language!r}, so they are not used"
        )
    return text + "."


# ============================================================================================
# the paper's configuration, scaled to the data at hand
# ============================================================================================
_NJ_LABELS = {"identity": "Count", "log": "Log", "pow": "Count^1/4"}


def paper_label(param: str, value: GridValue) -> str:
    """The paper's name of a grid value (``Count^1/4``, ``12.5K``, ``500``, ``1e-10``)."""
    if param == "n_j":
        return _NJ_LABELS.get(str(value), str(value))
    if value is None:
        return "all"
    if param == "r":
        return f"{float(value):.0e}".replace("e-0", "e-").replace("e+00", "")
    if param == "t":
        num = float(value)
        return f"{num / 1000:g}K" if num >= 1000 else f"{num:g}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def scaled_value(
    param: str, value: GridValue, *, n_words: int, n_views: int, budget: int | None = None
) -> tuple[GridValue, str]:
    """A paper value of ``param`` as this run uses it, and why it differs (``""``: as stated).

    Rules: ``t`` counts context columns, which the paper's word views have
    :data:`PAPER_VOCAB` of (its vocabulary); with ``n_words`` fewer it keeps the same fraction,
    ``round(t * n_words / PAPER_VOCAB)``, but at least the per-view rank ``m`` the run uses
    (the paper's m, within ``budget``: a view truncated to fewer columns cannot have rank
    ``m``; the paper's own t = 12.5K is above its m = 500). ``v`` counts views, of which the paper
    has :data:`PAPER_N_VIEWS`; with ``n_views`` fewer it keeps the same fraction (at least 1;
    ``v = 0`` stays 0). ``m`` and ``k`` are used as stated unless above ``budget`` (the size's
    largest affordable rank), then ``budget``. ``n_j`` and ``r`` are used as stated.
    """
    n_words = check_int(n_words, "n_words", low=1)
    n_views = check_int(n_views, "n_views", low=1)
    budget = check_int(budget, "budget", low=1, allow_none=True)
    if param not in PARAM_ALIASES:
        raise ValueError(f"param must be one of {sorted(PARAM_ALIASES)}, got {param!r}")
    if param == "t" and value is not None and n_words < PAPER_VOCAB:
        m_paper = int(PAPER_CONFIG["m"])  # type: ignore[arg-type]
        floor = m_paper if budget is None else min(m_paper, budget)
        share = 100 * float(value) / PAPER_VOCAB
        used = round(float(value) * n_words / PAPER_VOCAB)
        why = (f"t counts context columns: the paper's views have {PAPER_VOCAB:,} (its "
               f"vocabulary), ours {n_words:,}; the same fraction, {share:g} %")  # fmt: skip
        if used < floor:
            return floor, why + f", raised to the per-view rank m = {floor}"
        return used, why
    if param == "v" and value and n_views < PAPER_N_VIEWS:
        used = max(1, round(float(value) * n_views / PAPER_N_VIEWS))
        return used, (f"v counts views: the paper has {PAPER_N_VIEWS}, this run {n_views}; the "
                      f"same fraction of the views")  # fmt: skip
    if param in ("m", "k") and budget is not None and int(value) > budget:  # type: ignore[arg-type]
        return budget, f"the budget of this data size: m and k at most {budget}"
    return value, ""


@dataclass(frozen=True)
class PaperConfig:
    """The paper's best configuration as this run uses it.

    Attributes
    ----------
    config : MVLSAConfig
        The configuration used (the start of the dev-tuned path, "MVLSA (paper config)").
    table : DataFrame
        One row per parameter (index ``parameter``): ``paper`` (the stated value), ``used``
        and ``why`` (empty when used as stated).
    """

    config: MVLSAConfig
    table: pd.DataFrame


def _field_value(param: str, value: GridValue) -> dict[str, Any]:
    """The :class:`MVLSAConfig` fields one grid value sets."""
    if param == "n_j":
        return {"transform": value, "power": 0.25} if value == "pow" else {"transform": value}
    return {PARAM_ALIASES[param]: value}


def paper_config(
    settings: StudySettings, *, n_words: int, n_views: int, seed: int = 0
) -> PaperConfig:
    """The paper's configuration (:data:`PAPER_CONFIG`) scaled to a view set of ``n_words``
    words and ``n_views`` views by :func:`scaled_value` with ``settings.budget``; the other
    fields (SVD solver, row weights: none) from ``settings.config``."""
    check_instance(settings, "settings", StudySettings, "a StudySettings")
    seed = check_int(seed, "seed", low=0)
    rows, fields = [], {}
    for param, value in PAPER_CONFIG.items():
        used, why = scaled_value(param, value, n_words=n_words, n_views=n_views,
                                 budget=settings.budget)  # fmt: skip
        fields.update(_field_value(param, used))
        rows.append({"parameter": param, "paper": paper_label(param, value),
                     "used": paper_label(param, used) if param == "n_j" else
                     ("all" if used is None else f"{used:g}" if isinstance(used, float)
                      else f"{used:,}"), "why": why})  # fmt: skip
    cfg = dataclasses.replace(settings.config, **fields, relative_regularization=False,
                              row_weighting=None, random_state=seed)  # fmt: skip
    return PaperConfig(cfg, pd.DataFrame(rows).set_index("parameter"))


def rank_floors(settings: StudySettings, *, n_words: int, n_views: int) -> tuple[int, int]:
    """The largest view rank ``m`` and embedding size ``k`` a run of ``settings`` asks for: over
    its configuration, the paper's configuration and the ``m`` / ``k`` grids as the run uses them
    (:func:`scaled_value`), and the tuning path's ``view_ranks`` / ``ks``. A
    :class:`~workbench.studies.mvlsa.FactorStore` with these floors gives every request the same
    result whatever was computed before it (:func:`~workbench.studies.mvlsa.study_store`)."""
    check_instance(settings, "settings", StudySettings,
                   "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    grids = {name for name, _ in settings.grids}
    tuning = dict(settings.tuning)
    out = []
    for param, field_value, steps in (("m", settings.config.view_rank, "view_ranks"),
                                      ("k", settings.config.n_components, "ks")):  # fmt: skip
        used, _ = scaled_value(param, PAPER_CONFIG[param], n_words=n_words, n_views=n_views,
                               budget=settings.budget)  # fmt: skip
        values = [int(field_value), int(used)]  # type: ignore[arg-type]
        if param in grids:
            values += [int(u) for _, u, _ in grid_values(settings, param, n_words=n_words,  # type: ignore[arg-type]
                                                          n_views=n_views)]  # fmt: skip
        values += [int(v) for v in tuning.get(steps, ()) or ()]
        out.append(max(values))
    return out[0], out[1]


def grid_values(
    settings: StudySettings, param: str, *, n_words: int, n_views: int
) -> list[tuple[str, GridValue, str]]:
    """The grid of ``param`` as this run uses it: ``(paper label, used value, why)`` per value
    of ``settings.grid(param)`` (:func:`scaled_value`); a value whose used value repeats an
    earlier one's is left out."""
    out: list[tuple[str, GridValue, str]] = []
    seen: set[object] = set()
    for value in settings.grid(param):
        used, why = scaled_value(param, value, n_words=n_words, n_views=n_views,
                                 budget=settings.budget)  # fmt: skip
        if used in seen:
            continue
        seen.add(used)
        out.append((paper_label(param, value), used, why))
    return out
