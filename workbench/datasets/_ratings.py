"""Reading a user's rating file: separator and header detection and the choice of columns."""

from __future__ import annotations

import csv
import logging
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ._common import fail, iter_lines

logger = logging.getLogger(__name__)

__all__ = ["RATING_SEPARATORS", "read_rating_table", "check_rating_options"]

#: Separators :func:`~workbench.datasets.load_wordsim` accepts (``" "``: runs of whitespace).
RATING_SEPARATORS: tuple[str, ...] = ("\t", ",", ";", " ")
_SEP_NAMES = {"\t": "tab", ",": "','", ";": "';'", " ": "whitespace"}

#: Header names recognised for the two words and the score (lowercase, spaces/_/- removed).
_WORD_NAMES: tuple[tuple[str, str], ...] = (
    ("word1", "word2"),
    ("w1", "w2"),
    ("first", "second"),
    ("term1", "term2"),
    ("firstword", "secondword"),
    ("source", "target"),
)
_SCORE_NAMES: tuple[str, ...] = (
    "score",
    "similarity",
    "sim",
    "relatedness",
    "rating",
    "gold",
    "goldscore",
    "mean",
    "average",
    "simlex999",
    "value",
)


def check_rating_options(
    columns: object, sep: object, header: object
) -> tuple[tuple[str, str, str] | tuple[int, int, int] | None, str | None, bool | None]:
    """Validate ``columns``, ``sep`` and ``header`` of :func:`load_wordsim`."""
    if sep is not None and sep not in RATING_SEPARATORS:
        listed = ", ".join(repr(s) for s in RATING_SEPARATORS)
        raise ValueError(
            f"sep must be None (detect), or one of {listed} (' ' = runs of whitespace); got {sep!r}"
        )
    if header is not None and not isinstance(header, bool):
        raise TypeError(f"header must be None (detect), True or False; got {header!r}")
    if columns is None:
        return None, sep, header  # type: ignore[return-value]
    cols = tuple(columns) if isinstance(columns, (list, tuple)) else None
    if cols is None or len(cols) != 3:
        raise TypeError(
            "columns must be three column names or three 0-based column indices "
            f"(word1, word2, score), e.g. ('word1', 'word2', 'SimLex999'); got {columns!r}"
        )
    if all(isinstance(c, str) and c.strip() for c in cols):
        if header is False:
            raise ValueError(
                f"columns {cols!r} are names, but header=False: names need a header line "
                "(give header=None or True, or 0-based indices)"
            )
        return cols, sep, header  # type: ignore[return-value]
    if all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in cols):
        if len(set(cols)) != 3:
            raise ValueError(f"columns must be three different columns; got {cols!r}")
        return cols, sep, header  # type: ignore[return-value]
    raise TypeError(
        "columns must be three column names (str) or three 0-based column indices (int >= 0); "
        f"got {columns!r}"
    )


def _sniff(line: str) -> str:
    for sep in ("\t", ",", ";"):
        if sep in line:
            return sep
    return " "


def _fields(line: str, sep: str) -> list[str]:
    if sep == " ":
        return line.split()
    if sep == "\t":
        return [f.strip() for f in line.split("\t")]
    return [f.strip() for f in next(csv.reader([line], delimiter=sep))]


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _key(name: str) -> str:
    return "".join(c for c in name.lower() if c not in " _-()")


def _by_name(names: list[str]) -> tuple[int, int, int] | None:
    keys = [_key(n) for n in names]
    words = next(
        ((keys.index(a), keys.index(b)) for a, b in _WORD_NAMES if {a, b} <= set(keys)), None
    )
    score = next((keys.index(s) for s in _SCORE_NAMES if s in keys), None)
    if words is None or score is None:
        return None
    return words[0], words[1], score


def _by_content(row: list[str]) -> tuple[int, int, int] | None:
    text = [i for i, f in enumerate(row) if not _is_number(f)]
    numeric = [i for i, f in enumerate(row) if _is_number(f)]
    if len(text) < 2 or not numeric:
        return None
    after = [i for i in numeric if i > text[1]]
    return text[0], text[1], (after or numeric)[0]


def read_rating_table(
    path: Path,
    *,
    columns: tuple[str, str, str] | tuple[int, int, int] | None,
    sep: str | None,
    header: bool | None,
) -> tuple[pd.DataFrame, list[int]]:
    """The pairs of a user rating file (``word1, word2, score``) and the line of each pair.

    See :func:`workbench.datasets.load_wordsim` for the rules; errors name the file, the
    line, the separator and the columns found.
    """
    rows: list[tuple[int, list[str]]] = []
    for lineno, line in iter_lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        if sep is None:
            sep = _sniff(line)
        rows.append((lineno, _fields(line, sep)))
    if not rows:
        raise fail(path, None, "no word pairs found")
    assert sep is not None
    sep_name = _SEP_NAMES[sep]
    first_line, first = rows[0]
    if header is None:
        if columns is not None and isinstance(columns[2], int):
            header = columns[2] < len(first) and not _is_number(first[columns[2]])
        else:
            header = not any(_is_number(f) for f in first)
    names = first if header else None
    data = rows[1:] if header else rows
    if not data:
        raise fail(
            path,
            first_line,
            f"no word pairs found: the only line {' '.join(first)!r} was read as a header (none "
            "of its fields is a number); a pair needs a numeric score, or pass header=False",
        )
    width = len(first)
    described = ", ".join(names) if names else f"{width} unnamed"

    if columns is None:
        found = _by_name(names) if names else ((0, 1, 2) if width == 3 else None)
        if found is None:
            found = _by_content(data[0][1])
            if found is None:
                raise fail(
                    path,
                    first_line,
                    f"cannot tell which columns hold the two words and the score (separator "
                    f"{sep_name}; columns found: {described}); pass columns=(word1, word2, "
                    "score) as names or 0-based indices",
                )
        idx = found
    elif isinstance(columns[0], str):
        assert names is not None
        missing = [c for c in columns if c not in names]
        if missing:
            raise fail(
                path,
                first_line,
                f"column(s) {', '.join(map(repr, missing))} not in the header (separator "
                f"{sep_name}; columns found: {described}); pass columns= with names of the "
                "header or 0-based indices",
            )
        idx = (names.index(columns[0]), names.index(columns[1]), names.index(columns[2]))
    else:
        idx = columns  # type: ignore[assignment]
        if max(idx) >= width:
            raise fail(
                path,
                first_line,
                f"columns={columns!r} but the file has {width} column(s) separated by "
                f"{sep_name} (columns found: {described}); indices are 0-based",
            )
    used = [names[i] for i in idx] if names else [f"#{i} (0-based)" for i in idx]
    logger.info(
        "%s: words from columns %s and %s, scores from column %s (separator %s)",
        path.name,
        *used,
        sep_name,
    )
    cols_msg = ", ".join(names) if names else ("word1, word2, score" if width == 3 else described)
    lines: list[int] = []
    w1: list[str] = []
    w2: list[str] = []
    scores: list[float] = []
    for lineno, f in data:
        if len(f) != width:
            raise fail(
                path,
                lineno,
                f"expected {width} fields separated by {sep_name} (columns {cols_msg}), "
                f"found {len(f)}",
            )
        a, b, s = f[idx[0]], f[idx[1]], f[idx[2]]
        if not a or not b:
            raise fail(path, lineno, f"empty word (columns {used[0]}, {used[1]})")
        try:
            v = float(s)
        except ValueError:
            raise fail(path, lineno, f"score {s!r} is not a number (column {used[2]})") from None
        if not math.isfinite(v):
            raise fail(path, lineno, f"score {s!r} is not a finite number (NaN / inf not allowed)")
        w1.append(a)
        w2.append(b)
        scores.append(v)
        lines.append(lineno)
    df = pd.DataFrame({"word1": w1, "word2": w2, "score": np.asarray(scores, dtype=float)})
    df.attrs["columns"] = tuple(used)
    return df, lines
