"""Settings of notebook 06 per data size: corpus, vocabulary, embeddings, lexicons, tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from workbench._validation import check_choice, check_int

from ..data import DataChoice, split_overrides

__all__ = ["SIZES", "PAPER_WORDSIM", "LEXICONS", "BUNDLED_CORPORA", "PriorSettings", "settings"]

#: The data sizes of notebook 06.
SIZES = ("small", "full")
#: The word-similarity sets of the paper's Table 1 (our names).
PAPER_WORDSIM: tuple[str, ...] = ("WS", "WS-SIM", "WS-REL", "SIMLEX", "MEN", "MTURK-287",
                                  "MTURK-771", "YP-130", "VERB-143", "MC", "RG")  # fmt: skip
#: Lexicon keys of the paper's tables and their graphs (:func:`workbench.lexicons.lexicon_graph`).
LEXICONS: dict[str, str] = {"WN": "wordnet", "PD": "ppdb", "FN": "framenet"}
#: The bundled corpora, smallest first (the data sizes of the full data-size sweep).
BUNDLED_CORPORA: tuple[str, ...] = ("1M", "5M", "25M")


@dataclass(frozen=True)
class PriorSettings:
    """What notebook 06 computes at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments.
    vocab_size : int
        Words kept (:meth:`workbench.views.Vocabulary.from_corpus`).
    dim : int
        Dimension of every embedding.
    alphas : tuple of float
        CCAPrior weights of the prior counts.
    window, n_neighbors : int
        ``k`` context words on each side; reach ``N`` of the local Laplacian (the paper's 12).
    word2vec, glove : dict
        Skip-gram settings (word2vec's defaults: window 5, sub-sampling 1e-3, 5 epochs; one thread,
        so that each seed is reproducible) and GloVe's (``x_max`` 10 as glove.c's demo for a
        small corpus, float32 AdaGrad at learning rate 0.1, run until an epoch lowers the loss by
        less than ``tol`` relative to the one before -- 0.5 % at full size, 1 % at small --, with
        a cap of ``epochs``; the loss per epoch and what stopped the fit are recorded).
    glove_window : int
        Harmonic window of GloVe's co-occurrence counts.
    wordsim : tuple of str
        Rating sets of Table 1 (:data:`PAPER_WORDSIM`).
    lexicons : dict
        ``{key: graph name}`` of the bundled lexicons (:data:`LEXICONS`; English corpora only),
        followed by the user's ``{name: path}`` (``LEXICONS``), each a row of Table 1 under the
        user's name.
    chunk_length : int or None
        The prior counts (:func:`workbench.eigenwords.count_prior_pairs`) run over chunks of
        this many tokens, each chunk a document of its own (:func:`workbench.eigenwords.chunk_documents`;
        §5.1 of the paper: chunks of 13 tokens, so that the local Laplacian with ``N = 12``
        covers exactly one chunk); ``None``: over whole documents. The context counts
        :math:`W^\top C` are counted over whole documents in either case.
    sweep_dims : tuple of int
        Dimensions of the dimension sweep (§5.4: m in {50, 100, 200, 300}); Eigen only.
    sweep_corpora : tuple of str or float
        Data sizes of the data-size sweep (§5.4: WIKI1, WIKI2, WIKI5): bundled corpus names
        (``"1M"``, ``"5M"``, ``"25M"``) or fractions in (0, 1] of this run's corpus (its first
        tokens, whole documents); every size is encoded with this run's vocabulary.
    min_pairs : int
        A set enters an average (and is tested) only with at least this many scored pairs.
    p0 : float
        Significance level after Holm's correction.
    n_jobs : int
        Worker processes (the results do not depend on it).
    data : DataChoice
        The data fields (corpus, its format and language, rating sets, lexicons); every field
        empty: the bundled data.
    """

    size: str
    corpus: str
    max_tokens: int | None
    vocab_size: int
    dim: int
    alphas: tuple[float, ...]
    word2vec: Mapping[str, Any]
    glove: Mapping[str, Any]
    glove_window: int = 10
    window: int = 2
    n_neighbors: int = 12
    chunk_length: int | None = 13
    sweep_dims: tuple[int, ...] = (10, 20, 40)
    sweep_corpora: tuple[str | float, ...] = (0.25, 0.5, 1.0)
    wordsim: tuple[str, ...] = PAPER_WORDSIM
    lexicons: Mapping[str, str] = field(default_factory=lambda: dict(LEXICONS))
    min_pairs: int = 10
    p0: float = 0.05
    n_jobs: int = 2
    data: DataChoice = field(default_factory=DataChoice)

    @property
    def user_lexicons(self) -> dict[str, str]:
        """``{name: path}`` of the user's lexicons (the keys of :attr:`lexicons` that are not
        bundled graphs)."""
        return {k: v for k, v in self.lexicons.items() if k not in LEXICONS}

    def __post_init__(self) -> None:
        if self.chunk_length is not None:
            check_int(self.chunk_length, "chunk_length", low=2)
        dims = tuple(self.sweep_dims)
        if not dims or any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in dims):
            raise ValueError(f"sweep_dims must be positive integers, got {dims!r}")
        if list(dims) != sorted(set(dims)):
            raise ValueError(f"sweep_dims must be increasing, got {dims!r}")
        sizes = tuple(self.sweep_corpora)
        for c in sizes:
            if isinstance(c, str):
                if c not in BUNDLED_CORPORA:
                    raise ValueError(
                        f"sweep_corpora: {c!r} is not a bundled corpus "
                        f"({', '.join(BUNDLED_CORPORA)}) nor a fraction in (0, 1]"
                    )
            elif isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 < c <= 1:
                raise ValueError(
                    f"sweep_corpora: {c!r} is neither a bundled corpus name "
                    f"({', '.join(BUNDLED_CORPORA)}) nor a fraction in (0, 1]"
                )
        if len(sizes) < 2:
            raise ValueError(f"sweep_corpora needs at least two data sizes, got {sizes!r}")

    def data_note(self) -> str:
        """One line: the corpus, the rating sets and the lexicons used (the bundled lexicons
        only for an English corpus)."""
        d = self.data.describe()
        side = (
            ""
            if self.data.side_views()
            else (
                f"; bundled lexicons left out (they are English, the corpus is {d['language']!r})"
            )
        )
        return (
            f"corpus {d['corpus']} ({d['corpus_format']}, {d['language']}); rating sets "
            f"{', '.join(self.wordsim)}; lexicons {', '.join(self.lexicons) or 'none'}{side}"
        )


def settings(size: str, **overrides: Any) -> PriorSettings:
    """The settings of notebook 06 at ``size``: ``"small"`` (200K tokens of the 1M corpus, 2,000
    words, 20-d, two alphas, short skip-gram and GloVe training; the sweeps over 10, 20 and 40
    dimensions and a quarter, half and all of the 200K tokens) or ``"full"`` (the 5M-token
    corpus, 20,000 words, 100-d, five alphas; the sweeps over the paper's 50, 100, 200 and 300
    dimensions and the bundled 1M, 5M and 25M corpora -- fractions of a user's corpus). The
    prior is counted in the paper's 13-token chunks at both sizes.

    ``overrides``: the data fields of :class:`~workbench.studies.data.DataChoice` (``corpus``,
    ``corpus_format``, ``language``, ``wordsim``, ``lexicons``, ...; empty values: the bundled
    data) and any other field of :class:`PriorSettings` (``dim=50``). A user corpus replaces
    the bundled one, the user's rating sets replace :data:`PAPER_WORDSIM`, the user's lexicons
    are added to the bundled ones -- which are kept only for an English corpus.
    """
    check_choice(size, "size", SIZES)
    data_fields, own = split_overrides(overrides, {f.name for f in fields(PriorSettings)} - {"size", "data"})
    data = DataChoice(**data_fields)
    full = size == "full"
    lexicons = dict(LEXICONS) if data.side_views() else {}
    clash = sorted(set(lexicons) & {k for k, _ in data.lexicons})
    if clash:
        raise ValueError(
            f"LEXICONS: the names {clash} are the bundled lexicons' keys; name yours otherwise"
        )
    lexicons.update(dict(data.lexicons))
    base = PriorSettings(
        size=size,
        corpus="5M" if full else "1M",
        max_tokens=None if full else 200_000,
        vocab_size=20_000 if full else 2_000,
        dim=100 if full else 20,
        alphas=(0.1, 0.2, 0.5, 0.7, 0.9) if full else (0.2, 0.9),
        word2vec={"window": 5, "sample": 1e-3, "epochs": 5 if full else 1, "workers": 1},
        glove={
            "x_max": 10.0,
            "learning_rate": 0.1,
            "epochs": 50 if full else 4,
            "tol": 0.005 if full else 0.01,
            "dtype": "float32",
        },
        wordsim=data.wordsim_or(PAPER_WORDSIM),
        sweep_dims=(50, 100, 200, 300) if full else (10, 20, 40),
        sweep_corpora=BUNDLED_CORPORA
        if full and not data.corpus
        else ((0.04, 0.2, 1.0) if full else (0.25, 0.5, 1.0)),
        lexicons=lexicons,
        data=data,
    )
    if data.corpus:
        base = replace(base, corpus=data.corpus)
    return replace(base, **own) if own else base
