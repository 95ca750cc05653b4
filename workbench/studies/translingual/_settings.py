"""Settings of notebook 07 per data size (:class:`ExperimentConfig`, :func:`settings`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from workbench._validation import check_bool, check_choice, check_float, check_int

from ..data import DataChoice

__all__ = ["METHODS", "SIZES", "ExperimentConfig", "settings"]

#: The data sizes of notebook 07.
SIZES = ("small", "full")

#: Method names in the order of the paper's tables.
METHODS: tuple[str, ...] = (
    "OPCA",
    "CPLSA",
    "Word-by-word",
    "Word-by-word+LSA",
    "JPLSA",
    "CCA",
    "CL-LSI",
    "Untranslated",
)


@dataclass(frozen=True)
class ExperimentConfig:
    """Settings of the translingual experiment (defaults: the full run).

    ``n_drop`` / ``n_terms``: vocabulary selection per language (the paper: 50 / 20,000);
    ``dims``: projection dimensions swept on dev; ``opca_gammas`` / ``cca_gammas``: ridge values
    tried on dev; ``topics``: the initial PLSA topic grid, extended by doubling its largest
    number while a method's best dev MRR is at the grid's top, up to ``topics_cap`` (0: no
    extension); ``jplsa_iter`` / ``cplsa_iter``: maximal EM iterations (the paper: up to 500),
    early-stopped on dev MRR evaluated every ``eval_every`` iterations, EM ending earlier when
    an iteration changes the objective by less than ``plsa_tol`` times its change since the
    start (0: never; see :class:`~workbench.crosslingual.JPLSA`); ``fold_in_priors``:
    pseudo-counts per topic tried when folding in (0: no prior; training adds ``alpha - 1``),
    chosen on dev; ``cplsa_penalties``: weights of CPLSA's slack penalty tried on dev (None:
    the hard constraint, epsilon = 0; 0: no coupling). The weight bounds the dual variables,
    which tilt a topic's proportion by ``exp(-lambda / n)`` in a document of ``n`` counted
    terms: with the hard constraint most of them are of the order of a chapter's length --
    hundreds --, and a weight well below clips them and lets the topics split by language;
    ``term_sweep``: other vocabulary sizes per language at which OPCA, JPLSA and CPLSA are
    refitted (:mod:`._vocabulary`; the paper used 20,000; empty: no sweep); ``comparable``:
    also run the comparable-document condition (:mod:`._comparable`: each chapter's first half
    of verses in one language against its second half in the other);
    ``verse_pool``: verses drawn per part and seed for the verse-level evaluation, each with at
    least ``verse_min_terms`` counted terms on both sides (:mod:`._verses`); ``data``: the
    aligned texts (:class:`~workbench.studies.data.DataChoice`, ``data.parallel``: two aligned
    files or a folder of pairs; empty: the bundled Bibles).
    """

    n_drop: int = 50
    n_terms: int = 5000
    dims: tuple[int, ...] = (10, 25, 50, 100, 200, 300, 400)
    opca_gammas: tuple[float, ...] = (0.01, 0.1, 1.0)
    cca_gammas: tuple[float, ...] = (1.0, 3.0, 10.0)
    topics: tuple[int, ...] = (50, 100, 200)
    topics_cap: int = 800
    jplsa_iter: int = 500
    cplsa_iter: int = 150
    plsa_tol: float = 1e-4
    fold_in_priors: tuple[float, ...] = (0.0, 0.01, 0.1)
    cplsa_penalties: tuple[float | None, ...] = (None, 1000.0, 300.0)
    term_sweep: tuple[int, ...] = (10000, 20000)
    comparable: bool = True
    projection_steps: int = 5
    eval_every: int = 5
    ibm1_iter: int = 5
    verse_pool: int = 1000
    verse_min_terms: int = 3
    methods: tuple[str, ...] = METHODS
    data: DataChoice = field(default_factory=DataChoice)

    def __post_init__(self) -> None:
        """Check every setting (the message names the field, the value and what is allowed)."""
        check_int(self.n_drop, "n_drop", low=0)
        check_int(self.n_terms, "n_terms", low=1)
        check_int(self.topics_cap, "topics_cap", low=0)
        check_bool(self.comparable, "comparable")
        check_float(self.plsa_tol, "plsa_tol", low=0)
        for name, low in (("jplsa_iter", 0), ("cplsa_iter", 0), ("projection_steps", 0),
                          ("eval_every", 1), ("ibm1_iter", 1), ("verse_pool", 2),
                          ("verse_min_terms", 1)):  # fmt: skip
            check_int(getattr(self, name), name, low=low)
        for name in ("dims", "topics", "opca_gammas", "cca_gammas", "methods", "fold_in_priors",
                     "cplsa_penalties"):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or not value:
                raise TypeError(f"{name} must be a non-empty tuple, got {value!r}")
        if isinstance(self.term_sweep, (str, bytes)) or not isinstance(self.term_sweep,
                                                                       (tuple, list)):  # fmt: skip
            raise TypeError(f"term_sweep must be a tuple, got {self.term_sweep!r}")
        for name in ("dims", "topics", "term_sweep"):
            for i, v in enumerate(getattr(self, name)):
                check_int(v, f"{name}[{i}]", low=1)
        for i, v in enumerate(self.fold_in_priors):
            check_float(v, f"fold_in_priors[{i}]", low=0)
        for i, v in enumerate(self.cplsa_penalties):
            check_float(v, f"cplsa_penalties[{i}]", low=0, allow_none=True)
        for name in ("opca_gammas", "cca_gammas"):
            for i, v in enumerate(getattr(self, name)):
                check_float(v, f"{name}[{i}]", low=0, low_open=True)
        for i, m in enumerate(self.methods):
            check_choice(m, f"methods[{i}]", METHODS)
        if not isinstance(self.data, DataChoice):
            raise TypeError(f"data must be a DataChoice, got {type(self.data).__name__}")

    @classmethod
    def small(cls) -> ExperimentConfig:
        """Reduced settings for tests and quick runs (1,000 terms per language, fewer
        dimensions, one topic number extended up to 50, few EM iterations, two fold-in priors
        and two CPLSA penalties, a sweep to 500 terms, pools of 300 verses)."""
        return cls(
            n_terms=1000,
            dims=(10, 25, 50, 100),
            opca_gammas=(0.1,),
            cca_gammas=(3.0,),
            topics=(25,),
            topics_cap=50,
            jplsa_iter=30,
            cplsa_iter=8,
            plsa_tol=1e-3,
            fold_in_priors=(0.0, 0.1),
            cplsa_penalties=(None, 300.0),
            term_sweep=(500,),
            projection_steps=3,
            eval_every=4,
            ibm1_iter=3,
            verse_pool=300,
        )


def settings(size: str, **data: Any) -> ExperimentConfig:
    """The settings of notebook 07 at ``size``: ``"full"`` is :class:`ExperimentConfig`'s
    defaults (5,000 terms per language), ``"small"`` :meth:`ExperimentConfig.small`.

    ``data``: the fields of :class:`~workbench.studies.data.DataChoice` (the notebook passes
    ``parallel=PARALLEL``); empty values mean the bundled Bibles. Unknown names raise.
    """
    check_choice(size, "size", SIZES)
    cfg = ExperimentConfig.small() if size == "small" else ExperimentConfig()
    return replace(cfg, data=DataChoice(**data))
