"""Part of speech of the words that a direction of sense differences picks out.

Part of :mod:`workbench.senses` (import the public names from there).
"""

from __future__ import annotations

import gzip
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from workbench._validation import check_int, check_random_state
from workbench.datasets import CONLLU_SPLITS, data_dir

__all__ = ["POSPurityResult", "majority_pos", "treebank_majority_pos", "pos_purity_test",
           "component_top_words"]  # fmt: skip


def majority_pos(pairs: Iterable[tuple[str, str]], *, lowercase: bool = True) -> dict[str, str]:
    """The most frequent tag of every word form in ``(form, tag)`` pairs.

    Ties go to the alphabetically first tag, so the result does not depend on the order of the
    pairs. With ``lowercase`` the forms are lowercased first (as the corpora are read).

    Examples
    --------
    >>> majority_pos([("Run", "VERB"), ("run", "NOUN"), ("run", "VERB"), ("the", "DET")])
    {'run': 'VERB', 'the': 'DET'}
    """
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for form, tag in pairs:
        counts[form.lower() if lowercase else form][tag] += 1
    return {w: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for w, c in counts.items()}


def _treebank_pairs(splits: Sequence[str]) -> Iterable[tuple[str, str]]:
    """``(FORM, UPOS)`` of every syntactic word of the bundled UD English-EWT splits (range and
    empty-node lines skipped)."""
    for split in splits:
        if split not in CONLLU_SPLITS:
            raise ValueError(f"splits: unknown treebank split {split!r}; allowed: "
                             f"{', '.join(CONLLU_SPLITS)}")  # fmt: skip
        with gzip.open(data_dir() / CONLLU_SPLITS[split], "rt", encoding="utf-8") as fh:
            for line in fh:
                if line[:1] in ("#", "\n", ""):
                    continue
                f = line.split("\t", 4)
                if len(f) < 4 or "-" in f[0] or "." in f[0]:
                    continue
                yield f[1], f[3]


def treebank_majority_pos(splits: Sequence[str] = ("train", "dev", "test")) -> dict[str, str]:
    """Majority universal POS tag of every (lowercased) word form of the bundled treebank (UD
    English-EWT, :func:`workbench.datasets.load_conllu`), over the given splits."""
    return majority_pos(_treebank_pairs(tuple(splits)))


@dataclass(frozen=True)
class POSPurityResult:
    """Result of :func:`pos_purity_test`.

    Attributes
    ----------
    tag : str
        The tag whose share among the tagged words most exceeds its base rate.
    share, base_rate : float
        That tag's share among the tagged words, and among the tagged population.
    statistic : float
        ``share - base_rate`` (the largest excess over the tags).
    pvalue : float
        Share of random draws from the population with an excess at least as large
        (``(1 + count) / (1 + n_permutations)``).
    n_tagged : int
        Words of the set with a tag.
    n_permutations : int
    """

    tag: str
    share: float
    base_rate: float
    statistic: float
    pvalue: float
    n_tagged: int
    n_permutations: int


def _excess(codes: np.ndarray, base: np.ndarray) -> np.ndarray:
    """Per row of ``codes`` (tag indices): the largest share of a tag minus its base rate."""
    n_tags = base.size
    counts = np.zeros((codes.shape[0], n_tags))
    rows = np.repeat(np.arange(codes.shape[0]), codes.shape[1])
    np.add.at(counts, (rows, codes.ravel()), 1.0)
    return np.asarray((counts / codes.shape[1] - base).max(axis=1))


def pos_purity_test(
    words: Sequence[str],
    tags: Mapping[str, str],
    population: Sequence[str],
    *,
    n_permutations: int = 2000,
    random_state: int | np.random.Generator = 0,
) -> POSPurityResult:
    """Are ``words`` concentrated on one part of speech beyond the population's base rate?

    Parameters
    ----------
    words : sequence of str
        The words a direction picks out (duplicates are dropped); words without a tag in
        ``tags`` are left out.
    tags : mapping
        Word -> tag (e.g. :func:`treebank_majority_pos`).
    population : sequence of str
        The words ``words`` are drawn from (duplicates dropped, untagged ones left out); the base
        rates are its tag shares.
    n_permutations : int
        Random draws of as many tagged words from the tagged population, without replacement.

    Returns
    -------
    POSPurityResult

    Notes
    -----
    The statistic is :math:`T = \\max_t (\\hat p_t - \\pi_t)`, the largest excess of a tag's
    share :math:`\\hat p_t` among the ``n`` tagged words over its share :math:`\\pi_t` in the
    tagged population. The tag is chosen after looking at the words, so the null distribution
    takes the maximum too: :math:`T` of ``n`` words drawn at random from the population. The
    one-sided p-value is :math:`(1 + \\#\\{T^* \\ge T\\}) / (1 + B)` (Phipson & Smyth, 2010),
    valid at any ``B``.

    Raises
    ------
    ValueError
        Fewer than two tagged words in ``words``, or a population with fewer tagged words than
        ``words``.

    Examples
    --------
    >>> tags = {f"n{i}": "NOUN" for i in range(50)} | {f"v{i}": "VERB" for i in range(50)}
    >>> res = pos_purity_test([f"v{i}" for i in range(10)], tags, list(tags), random_state=0)
    >>> res.tag, res.share, res.base_rate, res.pvalue < 0.01
    ('VERB', 1.0, 0.5, True)
    """
    n_permutations = check_int(n_permutations, "n_permutations", low=1)
    rng = np.random.default_rng(check_random_state(random_state))
    pop = [w for w in dict.fromkeys(population) if w in tags]
    sel = [w for w in dict.fromkeys(words) if w in tags]
    if len(sel) < 2:
        raise ValueError(f"words: {len(sel)} of them have a tag; the test needs at least two")
    if len(pop) < len(sel):
        raise ValueError(
            f"population: {len(pop)} tagged words, fewer than the {len(sel)} tagged words tested"
        )
    names = sorted({tags[w] for w in pop} | {tags[w] for w in sel})
    code = {t: i for i, t in enumerate(names)}
    pop_codes = np.array([code[tags[w]] for w in pop])
    base = np.bincount(pop_codes, minlength=len(names)) / pop_codes.size
    obs_codes = np.array([[code[tags[w]] for w in sel]])
    shares = np.bincount(obs_codes[0], minlength=len(names)) / len(sel)
    best = int(np.argmax(shares - base))
    t_obs = float(shares[best] - base[best])
    draws = np.stack([rng.choice(pop_codes, size=len(sel), replace=False)
                      for _ in range(n_permutations)])  # fmt: skip
    null = _excess(draws, base)
    p = (1.0 + float(np.sum(null >= t_obs - 1e-12))) / (1.0 + n_permutations)
    return POSPurityResult(names[best], float(shares[best]), float(base[best]), t_obs, p,
                           len(sel), n_permutations)  # fmt: skip


def component_top_words(
    M: np.ndarray, labels: Sequence[tuple[str, int, int]], component: np.ndarray, n_words: int
) -> list[str]:
    """The first ``n_words`` distinct words in the order of decreasing :math:`|\\cos|` between
    their sense-pair columns of ``M`` and ``component``."""
    n_words = check_int(n_words, "n_words", low=1)
    c = np.asarray(component, dtype=float)
    norms = np.linalg.norm(M, axis=0) * np.linalg.norm(c)
    cos = np.abs(c @ M) / np.where(norms > 0, norms, 1.0)
    out: dict[str, None] = {}
    for j in np.argsort(-cos, kind="stable"):
        out.setdefault(labels[j][0], None)
        if len(out) == n_words:
            break
    return list(out)
