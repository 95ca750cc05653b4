"""``workbench embed``: word vectors from a user's corpus with the package's own code.

Methods (one vocabulary for all: the ``vocab_size`` most frequent words occurring at least
``min_count`` times):

* ``mvlsa`` -- the positional views of offsets ``±1 … ±window`` (:func:`workbench.views.positional_views`),
  each preprocessed with :math:`x^{1/4}` and fitted by :class:`workbench.gcca.MVLSA` (as the
  MVLSA study's positional systems, :func:`workbench.studies.mvlsa.fit_mvlsa`);
* ``ppmi-svd`` -- :func:`workbench.baselines.ppmi_svd` (hyperwords: CDS 0.75, eig 0.5);
* ``sgns`` -- :func:`workbench.baselines.train_word2vec` (skip-gram, negative sampling, one
  thread, seeded);
* ``glove`` -- :func:`workbench.baselines.train_glove` on a harmonic window of ``window``.

The file is word2vec binary for ``.bin`` (``.bin.gz``) and word2vec text otherwise, readable by
gensim's ``KeyedVectors.load_word2vec_format``.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from workbench import views as wv
from workbench.baselines import ppmi_svd, train_glove, train_word2vec
from workbench.cli._names import METHODS
from workbench.datasets import load_corpus
from workbench.embeddings import WordVectors, save_word_vectors
from workbench.studies.data import DataChoice
from workbench.studies.mvlsa import MVLSAConfig, ViewSet, fit_mvlsa, usable_views

logger = logging.getLogger(__name__)

__all__ = ["METHODS", "EmbedOptions", "EmbedUsageError", "embed", "vector_format"]


class EmbedUsageError(ValueError):
    """Bad input of ``workbench embed`` (exit code 2)."""


@dataclasses.dataclass(frozen=True)
class EmbedOptions:
    """The options of ``workbench embed`` (see ``workbench embed --help``)."""

    corpus: str
    out: str
    method: str = "ppmi-svd"
    dim: int = 300
    corpus_format: str = "marked"
    language: str = "en"
    vocab_size: int | None = 50_000
    min_count: int = 1
    window: int = 5
    epochs: int | None = None
    seed: int = 0


def vector_format(path: str | Path) -> str:
    """``word2vec-binary`` for ``.bin`` / ``.bin.gz``, ``word2vec-text`` for ``.txt`` /
    ``.vec`` (``.gz``); anything else is an error naming the suffixes allowed."""
    name = Path(path).name.lower().removesuffix(".gz")
    if name.endswith(".bin"):
        return "word2vec-binary"
    if name.endswith((".txt", ".vec")):
        return "word2vec-text"
    raise EmbedUsageError(
        f"--out {str(path)!r}: the file name must end in .bin (word2vec binary) or .txt / .vec "
        "(word2vec text), optionally followed by .gz"
    )


def _train(opts: EmbedOptions, corpus: Any, bar: Any) -> WordVectors:
    vocab, enc = wv.vocabulary_and_encoding(
        corpus, max_size=opts.vocab_size, min_count=opts.min_count
    )
    bar.update()
    bar.set_postfix_str(f"{len(vocab)} words, {enc.n_tokens} tokens")
    if opts.dim >= len(vocab):
        raise EmbedUsageError(
            f"--dim {opts.dim} must be below the vocabulary size {len(vocab)} of {opts.corpus}; "
            "lower --dim, lower --min-count or use a larger corpus"
        )
    if opts.method == "ppmi-svd":
        return ppmi_svd(enc, vocab=vocab, window=opts.window, n_components=opts.dim,
                        random_state=opts.seed)  # fmt: skip
    if opts.method == "sgns":
        return train_word2vec(corpus, words=list(vocab.words), vector_size=opts.dim,
                              window=opts.window, epochs=opts.epochs or 5, seed=opts.seed)  # fmt: skip
    if opts.method == "glove":
        cooc = wv.window_view(enc, vocab, opts.window, weighting="harmonic")
        return train_glove(cooc, n_components=opts.dim, epochs=opts.epochs or 25,
                           x_max=10.0, random_state=opts.seed, progress=False)  # fmt: skip
    offsets = [k for w in range(1, opts.window + 1) for k in (w, -w)]
    views, dropped = usable_views(wv.positional_views(enc, vocab, offsets, progress=False))
    if dropped:
        logger.info("positional views left out (too few rows): %s", dropped)
    if not views:
        raise EmbedUsageError(f"{opts.corpus}: no positional view has two observed words")
    config = MVLSAConfig(n_components=opts.dim, view_rank=opts.dim, random_state=opts.seed)
    return fit_mvlsa(ViewSet(vocab, tuple(views)), config).vectors()


def embed(opts: EmbedOptions, *, progress: bool | None = None) -> tuple[Path, WordVectors]:
    """Train ``opts.method`` on ``opts.corpus`` and write the vectors to ``opts.out``.

    Raises
    ------
    EmbedUsageError, FileNotFoundError, ValueError, TypeError
        A missing or empty corpus, an unknown method, format or language, a bad output name,
        ``dim`` not below the vocabulary size -- each naming the option and what to fix.
    """
    if opts.method not in METHODS:
        raise EmbedUsageError(f"--method {opts.method!r}: expected one of {', '.join(METHODS)}")
    if opts.dim < 1:
        raise EmbedUsageError(f"--dim must be a positive integer, got {opts.dim}")
    fmt = vector_format(opts.out)
    out = Path(opts.out).expanduser()
    if not out.parent.is_dir():
        raise EmbedUsageError(f"--out {opts.out!r}: the folder {out.parent} does not exist")
    # the same checks as a notebook's CORPUS / CORPUS_FORMAT / LANGUAGE (missing, empty, ...)
    data = DataChoice(corpus=opts.corpus, corpus_format=opts.corpus_format, language=opts.language)
    if not opts.corpus:
        raise EmbedUsageError("--corpus is required: a text file, a .gz file or a folder")
    data.check_files()
    steps = ("read corpus", "vocabulary", opts.method, "write")
    bar = tqdm(total=len(steps), desc="embed", unit="step",
               disable=None if progress is None else not progress)  # fmt: skip
    try:
        bar.set_description(f"embed: {steps[0]}")
        corpus = load_corpus(data.corpus, format=opts.corpus_format, language=opts.language)
        bar.update()
        bar.set_description(f"embed: {steps[2]}")
        vectors = _train(opts, corpus, bar)
        bar.update()
        bar.set_description(f"embed: {steps[3]}")
        path = save_word_vectors(vectors, out, format=fmt)  # type: ignore[arg-type]
        bar.update()
    finally:
        bar.close()
    return path, vectors
