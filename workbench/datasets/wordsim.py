"""Word-similarity rating sets and the Stanford Contextual Word Similarity (SCWS) set."""

from __future__ import annotations

import csv
import math
import os
import re
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from workbench._validation import check_choice, check_int

from ._common import (
    DataFormatWarning,
    bundled,
    check_name_or_path,
    fail,
    iter_lines,
    resolve_file,
    resolve_name_or_path,
)
from ._ratings import check_rating_options, read_rating_table
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
        v = float(value)
    except ValueError:
        raise fail(path, lineno, f"{what} {value!r} is not a number") from None
    if not math.isfinite(v):
        raise fail(path, lineno, f"{what} {value!r} is not a finite number (NaN / inf not allowed)")
    return v


#: ``word1`` / ``w1`` / ``word 2`` / ``term_2`` ... in a header line (SemEval-2017 CSV/TSV copies).
_HEADER_WORD = re.compile(r"^(?:word|w|term)[\s_-]?([12])$", re.IGNORECASE)


def _split_fields(line: str) -> list[str]:
    """Fields of a rating line: tab-separated, else comma-separated (CSV quoting), else by spaces."""
    if "\t" in line:
        return [f.strip() for f in line.split("\t")]
    if "," in line:
        row = next(csv.reader([line]))
        if len(row) == 3:
            return [f.strip() for f in row]
    return line.split()


def _is_header(fields: list[str]) -> bool:
    if len(fields) != 3:
        return False
    m1, m2 = _HEADER_WORD.match(fields[0]), _HEADER_WORD.match(fields[1])
    if not (m1 and m2 and m1.group(1) == "1" and m2.group(1) == "2"):
        return False
    try:
        float(fields[2])
    except ValueError:
        return True
    return False


def _read_pairs(path: Path) -> tuple[pd.DataFrame, list[int]]:
    """The pairs of a rating file and the line of each."""
    lines: list[int] = []
    w1: list[str] = []
    w2: list[str] = []
    scores: list[float] = []
    first = True
    for lineno, line in iter_lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        fields = _split_fields(line)
        if first:
            first = False
            if _is_header(fields):
                continue
        if len(fields) != 3:
            raise fail(
                path,
                lineno,
                f"expected 3 tab-separated fields, got {len(fields)} (word1<TAB>word2<TAB>score)",
            )
        a, b, s = fields
        if not a or not b:
            raise fail(path, lineno, "empty word")
        w1.append(a)
        w2.append(b)
        scores.append(_parse_float(path, lineno, s, "score"))
        lines.append(lineno)
    if not w1:
        raise fail(path, None, "no word pairs found")
    df = pd.DataFrame({"word1": w1, "word2": w2, "score": np.asarray(scores, dtype=float)})
    return df, lines


#: Repeated pairs whose scores differ by more than this fraction of the file's score range
#: (max - min) are named as contradicting in the warning.
CONTRADICTION_FRACTION = 0.1


def _average_repeats(df: pd.DataFrame, path: Path, lines: list[int]) -> pd.DataFrame:
    """Keep each unordered pair once, at its first line, with the mean of its scores.

    Words are compared as written (case kept, as the loader keeps it). One
    :class:`DataFormatWarning` names the file, the number of repeated pairs, an example with its
    line numbers, and separately the pairs whose scores contradict each other.
    """
    first: dict[tuple[str, str], int] = {}
    groups: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(zip(df["word1"], df["word2"])):
        j = first.setdefault((a, b) if a <= b else (b, a), i)
        if j != i:
            groups.setdefault(j, [j]).append(i)
    if not groups:
        return df
    scores = df["score"].to_numpy(dtype=float)
    lo, hi = float(scores.min()), float(scores.max())
    tolerance = CONTRADICTION_FRACTION * (hi - lo)
    merged = scores.copy()
    drop = np.zeros(len(df), dtype=bool)
    contradicting: list[list[int]] = []
    for j, members in groups.items():
        merged[j] = scores[members].mean()
        drop[members[1:]] = True
        if np.ptp(scores[members]) > tolerance:
            contradicting.append(members)

    def describe(members: list[int]) -> str:
        at = ", ".join(str(lines[i]) for i in members)
        values = ", ".join(f"{scores[i]:g}" for i in members)
        a, b = df["word1"].iat[members[0]], df["word2"].iat[members[0]]
        return f"{a!r}/{b!r} (lines {at}; scores {values})"

    example = describe(next(iter(groups.values())))
    msg = (
        f"{path.name}: {len(groups)} word pair(s) appear more than once ({int(drop.sum())} "
        f"repeated line(s)), e.g. {example}; each pair is kept once, where it first appears, "
        f"with the mean of its scores ({int((~drop).sum())} pairs left)"
    )
    if contradicting:
        shown = "; ".join(describe(m) for m in contradicting[:3])
        more = " ..." if len(contradicting) > 3 else ""
        msg += (
            f". {len(contradicting)} of them CONTRADICT (scores differ by more than "
            f"{CONTRADICTION_FRACTION:.0%} of the score range {lo:g}-{hi:g}): {shown}{more}"
        )
    warnings.warn(f"{msg} [{path}]", DataFormatWarning, stacklevel=3)
    out = df.assign(score=merged)[~drop].reset_index(drop=True)
    return out


# --------------------------------------------------------------------------- data + gold files

_DATA_SUFFIX = ".data.txt"
_GOLD_SUFFIX = ".gold.txt"


def _gold_candidates(data: Path) -> list[Path]:
    """Where the SemEval-2017 Task 2 scores of ``<x>.data.txt`` are: next to it or in ``../keys``."""
    gold = data.name[: -len(_DATA_SUFFIX)] + _GOLD_SUFFIX
    return [data.with_name(gold), data.parent.parent / "keys" / gold]


def _aligned_lines(path: Path) -> list[tuple[int, str]]:
    """Non-blank lines of a file aligned line by line with another; only trailing blanks allowed."""
    out: list[tuple[int, str]] = []
    blank_at: int | None = None
    for lineno, line in iter_lines(path):
        if not line.strip():
            if blank_at is None:
                blank_at = lineno
            continue
        if blank_at is not None:
            raise fail(
                path,
                blank_at,
                "blank line inside the file (the word-pair and score files are read line by line "
                "in parallel; remove it)",
            )
        out.append((lineno, line))
    if not out:
        raise fail(path, None, "no lines found")
    return out


def _read_data_gold(data: Path, gold: Path) -> tuple[pd.DataFrame, list[int]]:
    """Word pairs (``word1<TAB>word2`` a line) and their scores (one a line) from two files.

    Also returns the line of each pair in ``data``.
    """
    lines: list[int] = []
    w1: list[str] = []
    w2: list[str] = []
    for lineno, line in _aligned_lines(data):
        fields = [f.strip() for f in line.split("\t")] if "\t" in line else line.split()
        if len(fields) != 2 or not all(fields):
            raise fail(
                data,
                lineno,
                f"expected 2 tab-separated words (word1<TAB>word2), got {len(fields)} field(s)",
            )
        w1.append(fields[0])
        w2.append(fields[1])
        lines.append(lineno)
    scores: list[float] = []
    score_lines = _aligned_lines(gold)
    for lineno, line in score_lines:
        fields = line.split()
        if len(fields) != 1:
            raise fail(gold, lineno, f"expected one score a line, got {len(fields)} fields")
        scores.append(_parse_float(gold, lineno, fields[0], "score"))
    if len(scores) < len(w1):
        raise fail(
            gold,
            None,
            f"{len(scores)} scores for the {len(w1)} word pairs of {data.name}: the pair "
            f"{w1[len(scores)]!r} / {w2[len(scores)]!r} has no score",
        )
    if len(scores) > len(w1):
        raise fail(
            gold,
            score_lines[len(w1)][0],
            f"score without a word pair: {data.name} has only {len(w1)} pairs",
        )
    df = pd.DataFrame({"word1": w1, "word2": w2, "score": np.asarray(scores, dtype=float)})
    return df, lines


def _first_fields(path: Path) -> list[str]:
    for _, line in iter_lines(path):
        if line.strip() and not line.startswith("#"):
            return _split_fields(line)
    return []


def load_wordsim(
    name_or_path: str | os.PathLike[str],
    *,
    split: str | None = None,
    gold: str | os.PathLike[str] | None = None,
    columns: tuple[str, str, str] | tuple[int, int, int] | None = None,
    sep: str | None = None,
    header: bool | None = None,
) -> pd.DataFrame:
    """Load a word-similarity set as a DataFrame with columns ``word1, word2, score``.

    Parameters
    ----------
    name_or_path : str or path
        One of :data:`WORDSIM_NAMES` (case-insensitive; ``"SCWS"`` gives the 2003 SCWS pairs
        with their average rating, contexts ignored), or the path of a user file (a
        ``pathlib.Path``, or a string with a ``/`` or a suffix; a bare string that is both a
        name and a file in the current folder is refused: write ``./ws`` for the file) with one
        pair a line in columns separated by tabs, commas (CSV quoting), semicolons or
        whitespace (see ``sep``), an optional header line (see ``header``) and the two words
        and the score in any columns (see ``columns``); blank lines and lines starting with
        ``#`` are skipped. A leading UTF-8 byte-order mark is dropped.

        SemEval-2017 Task 2 (Camacho-Collados et al., 2017) layout: word pairs
        ``word1<TAB>word2`` in ``<x>.data.txt`` (words may contain spaces) and the scores
        (0-4 scale), one a line in the same order, in ``<x>.gold.txt``. The scores file is
        taken from ``gold`` or else found next to the data file or in ``../keys/`` (as
        distributed: ``subtask1-monolingual/data/en.test.data.txt`` and
        ``subtask1-monolingual/keys/en.test.gold.txt``).
    split : {None, "dev", "test"}
        ``None`` returns every pair. ``"dev"`` / ``"test"`` return the part used to tune
        settings / the part reported once (see :func:`wordsim_split`); the two are disjoint and
        together give the whole set. ``df.attrs["split"]`` records the part.
    gold : path, optional
        File of scores, one a line, aligned with the word pairs of ``name_or_path`` (which then
        has two fields a line).
    columns : tuple of 3 str or 3 int, optional
        The columns of the first word, the second word and the score of a user file: three
        header names (e.g. SimLex-999's original 10-column file:
        ``("word1", "word2", "SimLex999")``) or three 0-based indices. ``None`` (default): a
        3-column file is ``word1, word2, score``; with a header, common names are recognised
        (``word1/word2``, ``w1/w2``, ``first/second``, ``term1/term2``, ``source/target`` for
        the words; ``score``, ``similarity``, ``sim``, ``relatedness``, ``rating``, ``gold``,
        ``mean``, ``SimLex999``, ... for the score; case, spaces, ``_`` and ``-`` ignored);
        otherwise the first two text columns of the first pair and the first numeric
        column after them.
        The columns used are logged (``logging.info``) and kept in ``df.attrs["columns"]``.
    sep : {None, "\\t", ",", ";", " "}
        Column separator of a user file; ``" "`` is runs of whitespace. ``None`` (default):
        from the first line, a tab if it holds one, else a comma, else a semicolon, else
        whitespace; every line is then split by it.
    header : bool, optional
        Whether the first line is a header. ``None`` (default): it is one if its score field
        (with ``columns`` given as indices) or, else, none of its fields is a number.

    Returns
    -------
    pandas.DataFrame
        Words as in the file (case kept), ``score`` float; ``df.attrs["name"]`` is the canonical
        name (or the file stem; ``en.test`` for ``en.test.data.txt``) and ``df.attrs["path"]``
        the file read (``df.attrs["gold"]`` the scores file, if separate).

    Raises
    ------
    ValueError
        Unknown name (the message lists the valid names), a bare name that is also a file in the
        current folder, ``split`` or ``sep`` not allowed, ``columns``, ``sep`` or ``header``
        given for a bundled set or with a separate scores file.
    TypeError
        ``name_or_path`` or ``gold`` is not a str or a path.
    FileNotFoundError
        Missing file (or no scores file found for a ``.data.txt`` file).
    IsADirectoryError
        A folder was given.
    DataFormatError
        Empty file, a line with another number of fields than the first (the message names the
        file, the line, the separator and the columns found), NaN / infinite score, columns that
        are not in the header or cannot be told, different numbers of pairs and scores (file
        and line number in the message).

    Warns
    -----
    DataFormatWarning
        A user file in which the same unordered pair (words compared as written, case kept)
        appears more than once: see Notes.

    Notes
    -----
    Repeated pairs in a user file: each pair is kept once, in the row of its first appearance
    (words as written there), with the mean of its scores; one warning names the file, the
    number of repeated pairs and an example with its line numbers, and separately names the
    pairs whose scores *contradict* (differ by more than 10 % of the file's score range,
    max - min). The bundled sets are read as published (checksum-verified), repeats included,
    so that results compare with the literature: WS has 2 pairs twice (``money``/``bank``,
    ``money``/``cash``), RW, SIMLEX, WS-REL and MTURK-287 one each, SCWS 28 (the same words in
    different contexts).

    Examples
    --------
    >>> df = load_wordsim("MC")
    >>> df.shape, df.attrs["name"]
    ((30, 3), 'MC')
    >>> df.head(3)
         word1       word2  score
    0      car  automobile   3.92
    1      gem       jewel   3.84
    2  journey      voyage   3.84
    >>> len(load_wordsim("MEN", split="dev")), len(load_wordsim("MEN", split="test"))
    (2000, 1000)
    """
    check_choice(split, "split", (None, "dev", "test"))
    columns, sep, header = check_rating_options(columns, sep, header)
    layout = columns is not None or sep is not None or header is not None
    gold_path: Path | None = None
    canonical: str | None = None
    if gold is not None:
        key = check_name_or_path(name_or_path, "name_or_path")
        check_name_or_path(gold, "gold")
        user: Path | None = Path(key).expanduser()
        gold_path = resolve_file(gold, name="gold")
    else:
        canonical, user = resolve_name_or_path(
            name_or_path,
            "name_or_path",
            WORDSIM_NAMES,
            what="word-similarity set",
            hint="or pass the path of a word1<TAB>word2<TAB>score file",
        )
    if layout and (canonical is not None or gold is not None):
        what = f"the bundled set {canonical!r}" if canonical else "a pairs file with gold="
        raise ValueError(
            f"columns, sep and header describe the layout of a user rating file; {what} is read "
            "in its own layout: leave them out"
        )
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
        df.attrs["name"] = canonical
    elif canonical is not None:
        path = bundled(WORDSIM_FILES[canonical])
        df, _ = _read_pairs(path)  # as published: repeated pairs kept (see Notes)
        df.attrs["name"] = canonical
    else:
        assert user is not None
        path = resolve_file(user, name="name_or_path")
        if gold_path is None and path.name.endswith(_DATA_SUFFIX):
            found = [c for c in _gold_candidates(path) if c.is_file()]
            if found:
                gold_path = resolve_file(found[0], name="gold")
            elif len(_first_fields(path)) == 2:
                tried = " or ".join(str(c) for c in _gold_candidates(path))
                raise FileNotFoundError(
                    f"{path.name} holds word pairs without scores (SemEval-2017 layout) but no "
                    f"scores file was found at {tried}; pass gold=<path of the scores file>"
                )
        if gold_path is not None:
            df, lines = _read_data_gold(path, gold_path)
        else:
            df, lines = read_rating_table(path, columns=columns, sep=sep, header=header)
        used = df.attrs.get("columns")
        df = _average_repeats(df, path, lines)
        if used is not None:
            df.attrs["columns"] = used
        df.attrs["name"] = _set_name(path)
    df.attrs["path"] = str(path)
    if gold_path is not None:
        df.attrs["gold"] = str(gold_path)
    if split is None:
        return df
    return _select_split(df, split)


def _set_name(path: Path) -> str:
    return path.name[: -len(_DATA_SUFFIX)] if path.name.endswith(_DATA_SUFFIX) else path.stem


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

    Examples
    --------
    >>> df = load_wordsim("MC")
    >>> dev = wordsim_split(df)
    >>> int(dev.sum()), len(dev)
    (15, 30)
    >>> dev[:5]
    array([ True, False,  True,  True, False])
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
    check_choice(split, "split", ("dev", "test"))
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

    An item with the same two words in the same two contexts as an earlier one (another id)
    is kept, with one :class:`DataFormatWarning` naming the file and the lines; a repeated id is
    a :class:`DataFormatError`. The bundled file has no such repeat (its 28 repeated word pairs
    are in different contexts).

    References
    ----------
    E. H. Huang, R. Socher, C. D. Manning, A. Y. Ng. Improving word representations via global
    context and multiple word prototypes. ACL 2012.

    Examples
    --------
    >>> items = load_scws()
    >>> len(items)
    2003
    >>> item = items[0]
    >>> item.word1, item.word2, item.score
    ('Brazil', 'nut', 1.1)
    """
    p = bundled(WORDSIM_FILES["SCWS"]) if path is None else resolve_file(path)
    items: list[SCWSItem] = []
    seen: dict[int, int] = {}
    same: dict[frozenset[tuple[str, str]], list[int]] = {}
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
        if item_id in seen:
            raise fail(p, lineno, f"duplicated id {item_id} (first on line {seen[item_id]})")
        seen[item_id] = lineno
        score = _parse_float(p, lineno, f[7], "average rating")
        ratings = tuple(_parse_float(p, lineno, r, "rating") for r in f[8:] if r.strip())
        for k, ctx in ((5, f[5]), (6, f[6])):
            if "<b>" not in ctx or "</b>" not in ctx:
                raise fail(p, lineno, f"context {k - 4} has no <b> ... </b> target marker")
        items.append(SCWSItem(item_id, f[1], f[2], f[3], f[4], f[5], f[6], score, ratings))
        same.setdefault(frozenset(((f[1], f[5]), (f[3], f[6]))), []).append(lineno)
    if not items:
        raise fail(p, None, "no SCWS items found")
    repeated = [at for at in same.values() if len(at) > 1]
    if repeated:
        warnings.warn(
            f"{p.name}: {len(repeated)} item(s) repeat another one (same words in the same "
            f"contexts), e.g. lines {', '.join(map(str, repeated[0]))}; all are kept, each "
            f"with its own id [{p}]",
            DataFormatWarning,
            stacklevel=2,
        )
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

    Examples
    --------
    >>> item = load_scws()[0]
    >>> scws_context(item.context1, 3)
    (['rights', 'struggle', 'in'], 'brazil', ['the', 'philosophy', 'of'])
    """
    if not isinstance(item_context, str):
        raise TypeError(
            f"item_context must be a str, got {item_context!r} ({type(item_context).__name__})"
        )
    w = max(check_int(window, "window"), 0)
    start = item_context.find("<b>")
    end = item_context.find("</b>", start + 3)
    if start < 0 or end < 0:
        raise ValueError("context has no <b> ... </b> target marker")
    left = tokenize(item_context[:start])
    right = tokenize(item_context[end + 4 :])
    target = item_context[start + 3 : end].strip().lower()
    return (left[-w:] if w else []), target, right[:w]
