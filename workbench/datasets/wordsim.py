"""Word-similarity rating sets and the Stanford Contextual Word Similarity (SCWS) set."""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ._common import bundled, fail, iter_lines, resolve_file
from .text import tokenize

__all__ = [
    "WORDSIM_NAMES",
    "WORDSIM_FILES",
    "load_wordsim",
    "wordsim_split",
    "DEV_FRACTION",
    "SCWSItem",
    "load_scws",
    "scws_context",
]

WORDSIM_NAMES: tuple[str, ...] = (
    "MEN",
    "RW",
    "SCWS",
    "SIMLEX",
    "WS",
    "WS-SIM",
    "WS-REL",
    "MTURK-287",
    "MTURK-771",
    "RG",
    "MC",
    "YP-130",
    "VERB-143",
)

#: canonical name -> bundled file (relative to data/); SCWS is derived from SCWS-ratings.txt.
WORDSIM_FILES: dict[str, str] = {
    "MEN": "wordsim/EN-MEN-TR-3k.txt",
    "RW": "wordsim/EN-RW-STANFORD.txt",
    "SCWS": "wordsim/SCWS-ratings.txt",
    "SIMLEX": "wordsim/EN-SIMLEX-999.txt",
    "WS": "wordsim/EN-WS-353-ALL.txt",
    "WS-SIM": "wordsim/EN-WS-353-SIM.txt",
    "WS-REL": "wordsim/EN-WS-353-REL.txt",
    "MTURK-287": "wordsim/EN-MTurk-287.txt",
    "MTURK-771": "wordsim/EN-MTurk-771.txt",
    "RG": "wordsim/EN-RG-65.txt",
    "MC": "wordsim/EN-MC-30.txt",
    "YP-130": "wordsim/EN-YP-130.txt",
    "VERB-143": "wordsim/EN-VERB-143.txt",
}


def _parse_float(path: Path, lineno: int, value: str, what: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise fail(path, lineno, f"{what} {value!r} is not a number") from None


def _read_pairs(path: Path) -> pd.DataFrame:
    w1: list[str] = []
    w2: list[str] = []
    scores: list[float] = []
    for lineno, line in iter_lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        if len(fields) != 3:
            raise fail(path, lineno, f"expected 3 tab-separated fields, got {len(fields)}")
        a, b, s = (f.strip() for f in fields)
        if not a or not b:
            raise fail(path, lineno, "empty word")
        w1.append(a)
        w2.append(b)
        scores.append(_parse_float(path, lineno, s, "score"))
    if not w1:
        raise fail(path, 1, "no word pairs found")
    return pd.DataFrame({"word1": w1, "word2": w2, "score": np.asarray(scores, dtype=float)})


def load_wordsim(name_or_path: str | os.PathLike[str], *, split: str | None = None) -> pd.DataFrame:
    """Load a word-similarity set as a DataFrame with columns ``word1, word2, score``.

    Parameters
    ----------
    name_or_path : str or path
        One of :data:`WORDSIM_NAMES` (case-insensitive; ``"SCWS"`` gives the 2003 SCWS pairs
        with their average rating, contexts ignored), or the path of a user file with one pair a
        line, ``word1<TAB>word2<TAB>score`` (whitespace-separated also accepted), no header;
        blank lines and lines starting with ``#`` are skipped.
    split : {None, "dev", "test"}
        ``None`` returns every pair. ``"dev"`` / ``"test"`` return the part used to tune
        settings / the part reported once (see :func:`wordsim_split`); the two are disjoint and
        together give the whole set. ``df.attrs["split"]`` records the part.

    Returns
    -------
    pandas.DataFrame
        Words as in the file (case kept), ``score`` float; ``df.attrs["name"]`` is the canonical
        name (or the file stem) and ``df.attrs["path"]`` the file read.

    Raises
    ------
    ValueError
        Unknown name (the message lists the valid names).
    FileNotFoundError
        Missing file.
    DataFormatError
        Malformed line (file and line number in the message).
    """
    key = str(name_or_path)
    canonical = key.upper()
    if not isinstance(name_or_path, os.PathLike) and canonical in WORDSIM_FILES:
        if canonical == "SCWS":
            items = load_scws()
            df = pd.DataFrame(
                {
                    "word1": [it.word1 for it in items],
                    "word2": [it.word2 for it in items],
                    "score": np.array([it.score for it in items], dtype=float),
                }
            )
            path = bundled(WORDSIM_FILES["SCWS"])
        else:
            path = bundled(WORDSIM_FILES[canonical])
            df = _read_pairs(path)
        df.attrs["name"] = canonical
    else:
        p = Path(key).expanduser()
        looks_like_path = isinstance(name_or_path, os.PathLike) or os.sep in key or p.suffix != ""
        if not looks_like_path and not p.exists():
            raise ValueError(
                f"unknown word-similarity set {key!r}; valid names: {', '.join(WORDSIM_NAMES)} "
                "(or pass the path of a word1<TAB>word2<TAB>score file)"
            )
        path = resolve_file(p)
        df = _read_pairs(path)
        df.attrs["name"] = path.stem
    df.attrs["path"] = str(path)
    if split is None:
        return df
    return _select_split(df, split)


#: MEN's lemma-form pairs (aligned with the natural form) and its authors' dev part.
MEN_SPLIT_FILES = (
    "wordsim/MEN/MEN_dataset_lemma_form_full",
    "wordsim/MEN/MEN_dataset_lemma_form.dev",
)
#: Fraction of a rating set in its dev part (sets without an official split).
DEV_FRACTION = 0.5


def wordsim_split(df: pd.DataFrame) -> np.ndarray:
    """Boolean mask of the *dev* pairs of a rating set loaded by :func:`load_wordsim`.

    MEN uses its authors' split (2,000 dev / 1,000 test pairs, ``data/wordsim/MEN``: the
    lemma-form files, aligned line by line with the natural-form set). Every other set is split
    in a fixed seeded way: a permutation drawn from ``numpy.random.default_rng(crc32(name))``
    puts the first ``ceil(DEV_FRACTION * n)`` pairs in dev. The split depends only on the set's
    name and size, so it is the same on every machine and run.
    """
    name = str(df.attrs.get("name", ""))
    n = len(df)
    if name == "MEN" and n == 3000:
        full = [ln.split()[:2] for _, ln in iter_lines(bundled(MEN_SPLIT_FILES[0])) if ln.strip()]
        dev = {
            tuple(ln.split()[:2]) for _, ln in iter_lines(bundled(MEN_SPLIT_FILES[1])) if ln.strip()
        }
        if len(full) == n:
            return np.array([tuple(pair) in dev for pair in full])
    rng = np.random.default_rng(zlib.crc32(name.encode("utf-8")))
    mask = np.zeros(n, dtype=bool)
    mask[rng.permutation(n)[: int(np.ceil(DEV_FRACTION * n))]] = True
    return mask


def _select_split(df: pd.DataFrame, split: str) -> pd.DataFrame:
    if split not in ("dev", "test"):
        raise ValueError(f"split must be None, 'dev' or 'test', got {split!r}")
    mask = wordsim_split(df)
    out = df[mask if split == "dev" else ~mask].reset_index(drop=True)
    out.attrs.update(df.attrs)
    out.attrs["split"] = split
    return out


# --------------------------------------------------------------------------- SCWS


@dataclass(frozen=True, slots=True)
class SCWSItem:
    """One SCWS pair: two words in context, the average and the 10 individual ratings (0-10)."""

    id: int
    word1: str
    pos1: str
    word2: str
    pos2: str
    context1: str
    context2: str
    score: float
    ratings: tuple[float, ...]


def load_scws(path: str | os.PathLike[str] | None = None) -> list[SCWSItem]:
    """Load SCWS (Huang et al., 2012) as a list of :class:`SCWSItem`.

    File format (``ratings.txt``): 18 tab-separated fields a line -- id, word1, POS1, word2,
    POS2, context1, context2, average rating, 10 individual ratings. The target word is marked
    ``<b> word </b>`` in each context. A user file may have any number (>= 0) of individual
    ratings after the average.

    References
    ----------
    E. H. Huang, R. Socher, C. D. Manning, A. Y. Ng. Improving word representations via global
    context and multiple word prototypes. ACL 2012.
    """
    p = bundled(WORDSIM_FILES["SCWS"]) if path is None else resolve_file(path)
    items: list[SCWSItem] = []
    for lineno, line in iter_lines(p):
        if not line.strip():
            continue
        f = line.split("\t")
        if len(f) < 8:
            raise fail(p, lineno, f"expected at least 8 tab-separated fields, got {len(f)}")
        try:
            item_id = int(f[0])
        except ValueError:
            raise fail(p, lineno, f"id {f[0]!r} is not an integer") from None
        score = _parse_float(p, lineno, f[7], "average rating")
        ratings = tuple(_parse_float(p, lineno, r, "rating") for r in f[8:] if r.strip())
        for k, ctx in ((5, f[5]), (6, f[6])):
            if "<b>" not in ctx or "</b>" not in ctx:
                raise fail(p, lineno, f"context {k - 4} has no <b> ... </b> target marker")
        items.append(SCWSItem(item_id, f[1], f[2], f[3], f[4], f[5], f[6], score, ratings))
    return items


def scws_context(item_context: str, window: int) -> tuple[list[str], str, list[str]]:
    """Split an SCWS context at its ``<b> target </b>`` marker and tokenize a window around it.

    Parameters
    ----------
    item_context : str
        ``SCWSItem.context1`` or ``context2``.
    window : int
        Number of tokens kept on each side (``<= 0`` keeps none).

    Returns
    -------
    left, target, right
        ``left`` = up to ``window`` tokens before the target (nearest last), ``target`` the
        marked word (lowercased, stripped), ``right`` = up to ``window`` tokens after it;
        tokens come from :func:`workbench.datasets.tokenize` (lowercased, punctuation dropped).
    """
    start = item_context.find("<b>")
    end = item_context.find("</b>", start + 3)
    if start < 0 or end < 0:
        raise ValueError("context has no <b> ... </b> target marker")
    left = tokenize(item_context[:start])
    right = tokenize(item_context[end + 4 :])
    target = item_context[start + 3 : end].strip().lower()
    w = max(int(window), 0)
    return (left[-w:] if w else []), target, right[:w]
