"""Skip-gram word2vec with negative sampling (gensim)."""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator, Sequence

import numpy as np
from gensim.models import Word2Vec
from gensim.utils import RULE_DISCARD, RULE_KEEP

from workbench._validation import check_float, check_int
from workbench.embeddings import WordVectors
from workbench.views import TokenCorpus, iter_token_documents

from ._common import _word_vectors

logger = logging.getLogger(__name__)


def _stable_hash(s: str) -> int:
    """Process-independent string hash for gensim's seeded vectors (``hash`` is salted)."""
    return zlib.crc32(s.encode("utf-8"))


class _Sentences:
    """Re-iterable token lists of a corpus, split into pieces gensim accepts (<= 10,000 tokens)."""

    def __init__(self, corpus: TokenCorpus, max_len: int = 10_000) -> None:
        if isinstance(corpus, (str, bytes)):
            raise TypeError("corpus must be a Corpus or an iterable of token lists, not a string")
        if isinstance(corpus, Iterator):
            corpus = list(corpus)  # a one-shot iterator cannot be read once per epoch
        self.corpus = corpus
        self.max_len = max_len

    def __iter__(self) -> Iterator[list[str]]:
        for toks in iter_token_documents(self.corpus):
            for s in range(0, len(toks), self.max_len):
                yield toks[s : s + self.max_len]

    def materialize(self) -> list[list[str]]:
        """All pieces in memory, equal strings shared (a :class:`Corpus` is re-read and
        re-tokenized on every pass otherwise: once for the vocabulary and once per epoch)."""
        canon: dict[str, str] = {}
        return [[canon.setdefault(t, t) for t in piece] for piece in self]


def train_word2vec(
    corpus: TokenCorpus,
    *,
    words: Sequence[str] | None = None,
    vector_size: int = 300,
    window: int = 10,
    min_count: int = 5,
    negative: int = 5,
    sample: float = 1e-3,
    epochs: int = 5,
    seed: int = 0,
    workers: int = 1,
) -> WordVectors:
    r"""Skip-gram word2vec with negative sampling (gensim), as the paper's WSG baseline.

    Parameters
    ----------
    corpus : Corpus or iterable of token lists
        E.g. ``workbench.datasets.load_corpus("5M")`` (documents longer than 10,000 tokens are
        split, gensim's limit). It is read once and kept in memory as token lists.
    words : sequence of str, optional
        Restrict the vocabulary to these words (the paper gave word2vec the MVLSA vocabulary):
        other tokens are discarded before windowing, as word2vec does with rare words, and
        ``min_count`` is ignored. The result follows this order (words absent from the corpus
        are left out).
    vector_size : int
        Dimension (paper: 300; word2vec's default 100).
    window : int
        Maximal distance between a word and a context; each occurrence samples its window
        uniformly from 1..``window`` (paper: 10; word2vec's default 5).
    min_count : int
        Words rarer than this are discarded (word2vec's default 5).
    negative : int
        Negative samples per context, drawn from the unigram distribution to the 3/4 (5).
    sample : float
        Down-sampling threshold of frequent words (word2vec's default 1e-3; 1e-4 or 1e-5 are
        common too); 0 disables it.
    epochs : int
        Passes over the corpus; the learning rate decays linearly from 0.025 to 0.0001 over
        them (word2vec's default 5).
    seed : int
        Seeds the initial vectors and the sampling.
    workers : int
        Training threads. ``workers=1`` with a fixed ``seed`` gives identical vectors run to
        run; more threads are faster but not reproducible.

    Returns
    -------
    WordVectors

    Notes
    -----
    Skip-gram with negative sampling maximises, over each word :math:`w` and each context
    :math:`c` in its (sampled) window, with :math:`k` = ``negative`` noise words
    :math:`c_n \sim P_n`,

    .. math:: \log \sigma(v_w^\top \tilde v_c)
              + \sum_{n=1}^{k} \log \sigma(-v_w^\top \tilde v_{c_n}) ,

    by SGD; the word vectors :math:`v_w` are returned.

    References
    ----------
    T. Mikolov et al. (2013). Distributed representations of words and phrases and their
    compositionality. NIPS. R. Řehůřek, P. Sojka (2010), gensim.

    Examples
    --------
    >>> docs = [["the", "cat", "sat", "on", "the", "mat"], ["the", "dog", "sat", "on", "the", "log"],
    ...         ["a", "cat", "and", "a", "dog"]] * 20
    >>> vectors = train_word2vec(docs, vector_size=8, min_count=1, epochs=2, seed=0)
    >>> vectors, vectors.words[:2]
    (WordVectors(n_words=9, dim=8, dtype=float32), ['the', 'a'])
    """
    vector_size = check_int(vector_size, "vector_size", low=1)
    window = check_int(window, "window", low=1)
    min_count = check_int(min_count, "min_count", low=1)
    negative = check_int(negative, "negative", low=1)
    epochs = check_int(epochs, "epochs", low=1)
    workers = check_int(workers, "workers", low=1)
    sample = check_float(sample, "sample", low=0, high=1, high_open=True)
    seed = check_int(seed, "seed", low=0)
    sentences = _Sentences(corpus).materialize()
    trim_rule = None
    keep: set[str] | None = None
    if words is not None:
        keep = set(words)
        if not keep:
            raise ValueError("words is empty")

        def trim_rule(word: str, count: int, min_count: int) -> int:
            return RULE_KEEP if word in keep else RULE_DISCARD  # type: ignore[operator]

    model = Word2Vec(
        vector_size=vector_size,
        window=window,
        min_count=1 if keep is not None else min_count,
        sg=1,
        hs=0,
        negative=negative,
        sample=sample,
        epochs=epochs,
        seed=seed,
        workers=workers,
        hashfxn=_stable_hash,
    )
    model.build_vocab(sentences, trim_rule=trim_rule)
    if len(model.wv) == 0:
        raise ValueError(
            "word2vec learned no words: the corpus is empty or shares no word with `words`"
        )
    model.train(sentences, total_examples=model.corpus_count, epochs=model.epochs)
    kv = model.wv
    if words is None:
        names = list(kv.index_to_key)
    else:
        names = [w for w in dict.fromkeys(words) if w in kv.key_to_index]
        missing = len(set(words)) - len(names)
        if missing:
            logger.info("train_word2vec: %d of the given words do not occur in the corpus", missing)
    vecs = np.stack([kv[w] for w in names]) if names else np.zeros((0, vector_size))
    return _word_vectors(names, vecs)
