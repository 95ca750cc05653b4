"""IBM Model 1 word alignment, trained by sparse, vectorised EM.

The translation table :math:`t(f \\mid e)` (probability of a *target* word ``f`` given a *source*
word ``e``) is learned from a sentence-aligned bitext.  Used by :mod:`workbench.crosslingual` for
word-by-word translation of documents and by :mod:`workbench.views` for a bitext view.

Implementation: the corpus is reduced once to the co-occurrence triples
(sentence, source type, target type) with their multiplicities; every EM iteration is then a
handful of ``np.bincount`` passes over these triples (no Python loop over sentences).  Memory is
about 40 bytes per distinct co-occurring (sentence, source word, target word) triple (~0.6 GB for
the 31K Bible verses); an iteration over the Bible takes about a second.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from workbench._validation import check_bool, check_int

__all__ = ["NULL_TOKEN", "IBM1Model", "train_ibm1", "viterbi_align"]

logger = logging.getLogger(__name__)

NULL_TOKEN = "<NULL>"


@dataclass(frozen=True)
class IBM1Model:
    """A trained IBM Model 1 translation table.

    Attributes
    ----------
    source_vocab, target_vocab : tuple of str
        Vocabularies (sorted by decreasing training frequency, then alphabetically). When the
        model was trained with ``null=True``, ``source_vocab[0]`` is :data:`NULL_TOKEN`.
    translation : scipy.sparse.csr_matrix, shape (len(source_vocab), len(target_vocab))
        ``translation[e, f]`` is :math:`t(f \\mid e)`; each row with training support sums to 1.
        Only pairs that co-occurred in some training sentence pair are stored.
    null : bool
        Whether a NULL source word was used.
    log_likelihood : tuple of float
        Training log-likelihood :math:`\\sum_s \\sum_j \\log \\frac{1}{l_s+1}\\sum_i t(f_j\\mid e_i)`
        *before* each EM iteration and after the last one (length ``n_iter + 1``); non-decreasing.
    """

    source_vocab: tuple[str, ...]
    target_vocab: tuple[str, ...]
    translation: sp.csr_matrix
    null: bool
    log_likelihood: tuple[float, ...]
    source_index: dict[str, int] = field(repr=False, compare=False, default_factory=dict)
    target_index: dict[str, int] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not self.source_index:
            object.__setattr__(
                self, "source_index", {w: i for i, w in enumerate(self.source_vocab)}
            )
        if not self.target_index:
            object.__setattr__(
                self, "target_index", {w: i for i, w in enumerate(self.target_vocab)}
            )

    def prob(self, source_word: str, target_word: str) -> float:
        """:math:`t(\\text{target\\_word} \\mid \\text{source\\_word})` (0 for unknown words)."""
        e = self.source_index.get(source_word)
        f = self.target_index.get(target_word)
        if e is None or f is None:
            return 0.0
        return float(self.translation[e, f])

    def best_translations(self, source_word: str, topn: int = 5) -> list[tuple[str, float]]:
        """The ``topn`` most probable target words for ``source_word`` with their probabilities."""
        topn = check_int(topn, "topn", low=1)
        e = self.source_index.get(source_word)
        if e is None:
            raise KeyError(f"source word {source_word!r} is not in the model's vocabulary")
        row = self.translation.getrow(e)
        order = np.argsort(-row.data, kind="stable")[:topn]
        return [(self.target_vocab[row.indices[k]], float(row.data[k])) for k in order]


def _check_bitext(source: Sequence, target: Sequence) -> None:
    if not isinstance(source, Sequence) or isinstance(source, str):
        raise TypeError("source must be a list of token lists")
    if not isinstance(target, Sequence) or isinstance(target, str):
        raise TypeError("target must be a list of token lists")
    if len(source) != len(target):
        raise ValueError(
            f"misaligned bitext: {len(source)} source sentences but {len(target)} target sentences"
        )
    for name, side in (("source", source), ("target", target)):
        for i, sent in enumerate(side):
            if isinstance(sent, str) or not isinstance(sent, Sequence):
                raise TypeError(
                    f"{name}[{i}] must be a list of tokens (str), got {type(sent).__name__}"
                )


def _vocab(sentences: Sequence[Sequence[str]]) -> list[str]:
    counts: Counter[str] = Counter()
    for sent in sentences:
        counts.update(sent)
    for w in counts:
        if not isinstance(w, str):
            raise TypeError(f"tokens must be str, got {type(w).__name__} ({w!r})")
    return sorted(counts, key=lambda w: (-counts[w], w))


def _encode(
    sentences: Sequence[Sequence[str]], index: dict[str, int], prefix: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Flatten sentences into (ids, sentence_of_id); unknown words get -1; optional prefix id."""
    ids: list[int] = []
    sent_of: list[int] = []
    for s, sent in enumerate(sentences):
        if prefix is not None:
            ids.append(prefix)
            sent_of.append(s)
        ids.extend(index.get(w, -1) for w in sent)
        sent_of.extend([s] * len(sent))
    return np.asarray(ids, dtype=np.int64), np.asarray(sent_of, dtype=np.int64)


def _unique_per_sentence(
    ids: np.ndarray, sent: np.ndarray, n_types: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (sentence, type) pairs sorted by sentence, with their multiplicities."""
    keys = sent * n_types + ids
    uniq, counts = np.unique(keys, return_counts=True)
    return uniq // n_types, uniq % n_types, counts


def _cross_pairs(
    n_sent: int, s_sent: np.ndarray, t_sent: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """All (i, j) with s_sent[i] == t_sent[j], both arrays sorted by sentence.

    Returns index arrays into the source-unique and target-unique arrays.
    """
    ns = np.bincount(s_sent, minlength=n_sent)
    s_start = np.concatenate([[0], np.cumsum(ns)[:-1]])
    reps = ns[t_sent]  # each target entry is paired with every source entry of its sentence
    total = int(reps.sum())
    j_idx = np.repeat(np.arange(len(t_sent)), reps)
    # offset within the run of repeats of each target entry
    run_start = np.repeat(np.cumsum(reps) - reps, reps)
    i_idx = s_start[t_sent][j_idx] + (np.arange(total) - run_start)
    return i_idx, j_idx


def train_ibm1(
    source: list[list[str]],
    target: list[list[str]],
    *,
    n_iter: int = 5,
    null: bool = True,
) -> IBM1Model:
    r"""Train IBM Model 1 :math:`t(f \mid e)` by EM on a sentence-aligned bitext.

    Parameters
    ----------
    source, target : list of list of str
        Aligned tokenized sentences (``source[s]`` translates ``target[s]``). Empty sentences are
        allowed (they contribute nothing, except target words of an empty source sentence, which
        align to NULL when ``null`` is true).
    n_iter : int, default 5
        Number of EM iterations (the first one starts from a uniform table).
    null : bool, default True
        Prepend a NULL word (:data:`NULL_TOKEN`) to every source sentence.

    Returns
    -------
    IBM1Model

    Notes
    -----
    Model 1 (Brown et al., 1993) with source sentence :math:`e_0 = \mathrm{NULL}, e_1..e_l`:

    .. math:: P(f_1..f_m \mid e) = \prod_{j=1}^m \frac{1}{l+1} \sum_{i=0}^{l} t(f_j \mid e_i).

    E-step: :math:`c(e,f) = \sum_s \sum_{j: f_j=f} \sum_{i: e_i=e}
    t(f\mid e) / \sum_{i'} t(f_j \mid e_{i'})`; M-step: :math:`t(f\mid e) = c(e,f)/\sum_{f'} c(e,f')`.
    EM never decreases the likelihood (recorded in ``log_likelihood``).

    References
    ----------
    P. F. Brown, S. A. Della Pietra, V. J. Della Pietra, R. L. Mercer (1993). The mathematics of
    statistical machine translation: parameter estimation. Computational Linguistics 19(2).

    Examples
    --------
    >>> source = [["the", "house"], ["the", "book"], ["a", "book"]]
    >>> target = [["das", "haus"], ["das", "buch"], ["ein", "buch"]]
    >>> model = train_ibm1(source, target, n_iter=10)
    >>> viterbi_align(model, source, target)
    [[(0, 0), (1, 1)], [(0, 0), (1, 1)], [(0, 0), (1, 1)]]
    """
    _check_bitext(source, target)
    n_iter = check_int(n_iter, "n_iter", low=0)
    null = check_bool(null, "null")
    n_sent = len(source)
    src_words = ([NULL_TOKEN] if null else []) + [w for w in _vocab(source) if w != NULL_TOKEN]
    tgt_words = _vocab(target)
    src_index = {w: i for i, w in enumerate(src_words)}
    tgt_index = {w: i for i, w in enumerate(tgt_words)}
    ve, vf = len(src_words), len(tgt_words)
    if n_sent == 0 or vf == 0 or ve == 0:
        raise ValueError("the bitext is empty: nothing to train IBM Model 1 on")

    e_ids, e_sent = _encode(source, src_index, 0 if null else None)
    f_ids, f_sent = _encode(target, tgt_index, None)
    se_sent, se_type, se_mult = _unique_per_sentence(e_ids, e_sent, ve)
    sf_sent, sf_type, sf_mult = _unique_per_sentence(f_ids, f_sent, vf)
    src_len = np.bincount(e_sent, minlength=n_sent)  # includes NULL

    i_idx, j_idx = _cross_pairs(n_sent, se_sent, sf_sent)
    pair_key = se_type[i_idx] * vf + sf_type[j_idx]
    pair_keys, pair_id = np.unique(pair_key, return_inverse=True)
    pair_id = pair_id.astype(np.int64)
    pair_src = pair_keys // vf
    pair_tgt = pair_keys % vf
    me = se_mult[i_idx].astype(np.float64)
    mf = sf_mult[j_idx].astype(np.float64)
    group = j_idx  # one normalisation group per (sentence, target type)
    n_groups = len(sf_type)
    del i_idx, pair_key
    # target types whose sentence has an empty source side (null=False) have no pairs: excluded
    covered = np.bincount(group, minlength=n_groups) > 0
    group_weight = sf_mult * covered
    log_len = np.log(np.maximum(src_len[sf_sent], 1))
    logger.info(
        "IBM1: %d sentence pairs, %d source x %d target types, %d co-occurrence triples",
        n_sent,
        ve,
        vf,
        len(pair_id),
    )

    t = np.ones(len(pair_keys))  # uniform start (constant: normalisation cancels)
    lls: list[float] = []
    for it in range(n_iter + 1):
        p = t[pair_id] * me
        denom = np.bincount(group, weights=p, minlength=n_groups)
        safe = np.where(covered, denom, 1.0)
        if it == 0:
            # uniform t(f|e) = 1/vf for the likelihood of the starting point
            ll = float(np.sum(group_weight * (np.log(safe / vf) - log_len)))
        else:
            ll = float(np.sum(group_weight * (np.log(safe) - log_len)))
        lls.append(ll)
        logger.debug("IBM1 iteration %d: log-likelihood %.6g", it, ll)
        if it == n_iter:
            break
        post = p * mf / safe[group]
        counts = np.bincount(pair_id, weights=post, minlength=len(pair_keys))
        totals = np.bincount(pair_src, weights=counts, minlength=ve)
        t = counts / np.where(totals > 0, totals, 1.0)[pair_src]

    table = sp.csr_matrix((t, (pair_src, pair_tgt)), shape=(ve, vf))
    table.sum_duplicates()
    table.sort_indices()
    return IBM1Model(
        source_vocab=tuple(src_words),
        target_vocab=tuple(tgt_words),
        translation=table,
        null=null,
        log_likelihood=tuple(lls),
    )


def viterbi_align(
    model: IBM1Model, source: list[list[str]], target: list[list[str]]
) -> list[list[tuple[int, int]]]:
    """Most probable (Viterbi) Model 1 alignment of each sentence pair.

    Each target position ``j`` is aligned to ``argmax_i t(f_j | e_i)`` over the source positions
    (and NULL when the model has one). Ties go to the NULL word, then the earliest position.

    Parameters
    ----------
    model : IBM1Model
    source, target : list of list of str
        Aligned tokenized sentences (same order of languages as in training).

    Returns
    -------
    list of list of (int, int)
        For each sentence pair, the links ``(i, j)``: 0-based source position ``i`` and target
        position ``j``, sorted by ``j``. Target words aligned to NULL, unknown target words and
        words whose probability is 0 for every source word are left unaligned (omitted).
    """
    if not isinstance(model, IBM1Model):
        raise TypeError(f"model must be an IBM1Model, got {type(model).__name__}")
    _check_bitext(source, target)
    n_sent = len(source)
    if n_sent == 0:
        return []
    vf = len(model.target_vocab)
    off = 1 if model.null else 0
    e_ids, e_sent = _encode(source, model.source_index, 0 if model.null else None)
    f_ids, f_sent = _encode(target, model.target_index, None)
    # local positions: NULL (if any) gets -1, words 0..l-1
    e_starts = np.searchsorted(e_sent, np.arange(n_sent))
    e_pos = np.arange(len(e_ids)) - e_starts[e_sent] - off
    f_starts = np.searchsorted(f_sent, np.arange(n_sent))
    f_pos = np.arange(len(f_ids)) - f_starts[f_sent]
    i_idx, j_idx = _cross_pairs(n_sent, e_sent, f_sent)

    tab = model.translation
    rows = np.repeat(np.arange(tab.shape[0], dtype=np.int64), np.diff(tab.indptr))
    keys = rows * vf + tab.indices.astype(np.int64)  # sorted: canonical csr
    e = e_ids[i_idx]
    f = f_ids[j_idx]
    q = e * vf + f
    known = (e >= 0) & (f >= 0)
    loc = np.searchsorted(keys, np.where(known, q, 0))
    loc = np.minimum(loc, max(len(keys) - 1, 0))
    hit = known & (len(keys) > 0)
    if len(keys):
        hit &= keys[loc] == q
    prob = np.where(hit, tab.data[loc] if len(keys) else 0.0, 0.0)

    # argmax over i for every target token j: sort by (j, -prob, i) and take the first
    order = np.lexsort((i_idx, -prob, j_idx))
    first = np.ones(len(order), dtype=bool)
    first[1:] = j_idx[order][1:] != j_idx[order][:-1]
    best = order[first]
    bj = j_idx[best]
    bi = i_idx[best]
    ok = (prob[best] > 0) & (e_pos[bi] >= 0)
    links: list[list[tuple[int, int]]] = [[] for _ in range(n_sent)]
    for s, i, j in zip(f_sent[bj[ok]].tolist(), e_pos[bi[ok]].tolist(), f_pos[bj[ok]].tolist()):
        links[s].append((i, j))
    return links
