"""Question sets: analogy questions (Google, MSR) and TOEFL-style synonym questions."""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from workbench._validation import check_choice

from ._common import (
    DataFormatWarning,
    bundled,
    check_name_or_path,
    fail,
    iter_lines,
    resolve_file,
)

__all__ = ["load_analogies", "load_toefl", "ANALOGY_SEMANTIC_SECTIONS"]

#: The five semantic sections of Mikolov et al. (2013); all ``gram*`` sections are syntactic.
ANALOGY_SEMANTIC_SECTIONS: tuple[str, ...] = (
    "capital-common-countries",
    "capital-world",
    "currency",
    "city-in-state",
    "family",
)


def load_analogies(
    path: str | os.PathLike[str] | None = None,
    *,
    section: str | None = None,
    kind: str | None = None,
) -> pd.DataFrame:
    """Load analogy questions ``a : b :: c : d`` (Google / Mikolov et al., 2013, or MSR format).

    File formats (UTF-8, plain or gzip; blank lines are skipped):

    * Google (``questions-words.txt``): section headers ``: name``, each followed by lines of
      four whitespace-separated words ``a b c d``.
    * MSR (Mikolov, Yih & Zweig, 2013, as commonly redistributed, e.g. ``msr.txt``): lines of
      four words ``a b c d`` and no header. A file without any ``: name`` header is read as one
      section, named ``section`` (default: the file name without its extension); without
      ``section=`` or ``kind=`` this gives a :class:`DataFormatWarning` (a Google-format file
      that lost its headers would otherwise load silently as one section).

    A file that mixes both (questions before the first header) is an error. ``path`` is always
    a path (there is no bundled name to confuse it with).

    Parameters
    ----------
    path : path, optional
        Default: the bundled Google set.
    section : str, optional
        Section name of a file without headers.
    kind : {"semantic", "syntactic"}, optional
        ``kind`` of every question of a file without headers (default: by the section name, as
        for headed files). The MSR set is syntactic: pass ``kind="syntactic"``.

    Returns
    -------
    pandas.DataFrame
        Columns ``section, a, b, c, d, kind`` with ``kind`` = ``"syntactic"`` for sections whose
        name starts with ``gram`` and ``"semantic"`` otherwise. Words keep their case. The bundled
        set has 19,544 questions: 8,869 semantic, 10,675 syntactic, 506 in
        ``capital-common-countries``.

    Raises
    ------
    DataFormatError
        A line without 4 words, a question before the first header of a headed file, an empty
        section, an empty file (file and line in the message).
    ValueError
        ``section`` / ``kind`` given for a file with headers, or ``kind`` not allowed.

    Warns
    -----
    DataFormatWarning
        A file without any ``: section`` header read without ``section=`` or ``kind=``.

    References
    ----------
    T. Mikolov, K. Chen, G. Corrado, J. Dean. Efficient estimation of word representations in
    vector space. ICLR workshop 2013.
    T. Mikolov, W. Yih, G. Zweig. Linguistic regularities in continuous space word
    representations. NAACL 2013.

    Examples
    --------
    >>> q = load_analogies()
    >>> q.shape
    (19544, 6)
    >>> q.head(2)
                        section       a       b        c         d      kind
    0  capital-common-countries  Athens  Greece  Baghdad      Iraq  semantic
    1  capital-common-countries  Athens  Greece  Bangkok  Thailand  semantic
    >>> q["kind"].value_counts().to_dict()
    {'syntactic': 10675, 'semantic': 8869}
    """
    check_choice(kind, "kind", (None, "semantic", "syntactic"))
    if section is not None and not isinstance(section, str):
        raise TypeError(f"section must be a str or None, got {section!r}")
    if section is not None and not section.strip():
        raise ValueError(f"section must be a non-empty name, got {section!r}")
    if path is None:
        p = bundled("analogy/questions-words.txt")
    else:
        check_name_or_path(path, "path")
        p = resolve_file(path)
    current: str | None = None
    current_line = 0
    current_count = 0
    headerless_line: int | None = None  # first question seen before any header
    rows: list[tuple[str | None, str, str, str, str]] = []
    for lineno, line in iter_lines(p):
        s = line.strip()
        if not s:
            continue
        if s.startswith(":"):
            if headerless_line is not None:
                raise fail(p, headerless_line, "question before the first ': section' header")
            if current is not None and current_count == 0:
                raise fail(p, current_line, f"section {current!r} has no questions")
            current = s[1:].strip()
            if not current:
                raise fail(p, lineno, "empty section name")
            current_line, current_count = lineno, 0
            continue
        words = s.split()
        if len(words) != 4:
            raise fail(p, lineno, f"expected 4 words, got {len(words)} (a b c d)")
        if current is None and headerless_line is None:
            headerless_line = lineno
        current_count += 1
        rows.append((current, words[0], words[1], words[2], words[3]))
    if current is not None and current_count == 0:
        raise fail(p, current_line, f"section {current!r} has no questions")
    if not rows:
        raise fail(p, None, "no analogy questions found")
    headed = headerless_line is None
    if headed and (section is not None or kind is not None):
        raise ValueError(
            f"section= and kind= only apply to a file without ': section' headers; "
            f"{p.name} has headers"
        )
    name = section if section is not None else p.name.split(".")[0]
    if not headed and section is None and kind is None:
        warnings.warn(
            f"{p.name}: no ': section' header line; its {len(rows)} questions are read as one "
            f"section named {name!r} (kind by that name: "
            f"{'syntactic' if name.startswith('gram') else 'semantic'}); pass section= and/or "
            f"kind= for a file without headers, e.g. kind='syntactic' for MSR [{p}]",
            DataFormatWarning,
            stacklevel=2,
        )
    df = pd.DataFrame(
        [(sec if sec is not None else name, *w) for sec, *w in rows],
        columns=["section", "a", "b", "c", "d"],
    )
    if kind is not None:
        df["kind"] = kind
    else:
        df["kind"] = ["syntactic" if s.startswith("gram") else "semantic" for s in df["section"]]
    df.attrs["path"] = str(p)
    return df


_QST_STEM = re.compile(r"^\s*(\d+)\s*[.)]?\s+(\S.*?)\s*$")
_QST_CHOICE = re.compile(r"^\s*([a-zA-Z])\s*[.)]\s*(\S.*?)\s*$")
#: ``1<TAB>(a,a,-)<TAB>1<TAB>c`` -- the answer file distributed with the TOEFL set (Landauer &
#: Dumais, 1997): question number, a parenthesised tuple, a number, the answer letter.
_ANS_LSA = re.compile(r"^\s*(\d+)\s+\([^)]*\)\s+\S+\s+([a-zA-Z])\s*$")
#: ``1 (c) tremendously``, ``1. c``, ``1<TAB>(c)``
_ANS = re.compile(r"^\s*(\d+)\s*[.)]?\s*[\t ]*\(?([a-zA-Z])\)?(?:[\s.,)]+(.*?))?\s*$")
_LETTERS = "abcd"


def load_toefl(
    qst_path: str | os.PathLike[str], ans_path: str | os.PathLike[str] | None = None
) -> pd.DataFrame:
    """Load TOEFL-style synonym questions (Landauer & Dumais, 1997 layout).

    No TOEFL file is bundled (its licence does not allow it); bring your own, e.g. the
    distributed pair ``toefl.qst`` / ``toefl.ans``.

    Parameters
    ----------
    qst_path : path
        The questions. Accepted layout (blank lines ignored, tabs or spaces as separators)::

            1.  enormously
            a.  appropriately
            b.  uniquely
            c.  tremendously
            d.  decidedly

        i.e. a stem line ``<number>[.|)] <word>`` followed by exactly four choice lines
        ``<letter>. <word>`` or ``<letter>) <word>`` in the order a, b, c, d.
    ans_path : path, optional
        The answers; default: the file next to ``qst_path`` with the suffix ``.ans``. Accepted
        lines:

        * the distributed form ``<number><TAB>(<x>,<y>,<z>)<TAB><number><TAB><letter>``, e.g.
          ``1<TAB>(a,a,-)<TAB>1<TAB>c`` (the answer is the last field);
        * ``<number> <letter>`` with optional ``.``/``)`` after the number and optional
          parentheses around the letter, optionally followed by the answer word, e.g.
          ``1 (c) tremendously``, ``1. c``, ``1<TAB>(c)``. If the word is given it must equal
          the chosen choice (case-insensitive).

        Every question needs exactly one answer and vice versa.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid`` (int), ``stem``, ``choice_a`` ... ``choice_d``, ``answer`` (one of
        ``"a"``, ``"b"``, ``"c"``, ``"d"``), in file order; ``attrs["path"]`` and
        ``attrs["answers"]`` are the files read.

    Raises
    ------
    FileNotFoundError
        A missing file (or no ``.ans`` next to the ``.qst`` when ``ans_path`` is not given).
    DataFormatError
        A malformed line, a question without four choices, a duplicated question number, an
        answer for an unknown question, an answer letter that is not one of the choices, a
        question without an answer (file and line in the message).

    Examples
    --------
    A question file and its answers (written here to a temporary folder):

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     qst = Path(tmp) / "toefl.qst"
    ...     _ = qst.write_text("1. enormously\\na. appropriately\\nb. uniquely\\n"
    ...                        "c. tremendously\\nd. decidedly\\n")
    ...     _ = (Path(tmp) / "toefl.ans").write_text("1\\t(a,a,-)\\t1\\tc\\n")
    ...     df = load_toefl(qst)
    >>> df
       qid        stem       choice_a  choice_b      choice_c   choice_d answer
    0    1  enormously  appropriately  uniquely  tremendously  decidedly      c
    """
    check_name_or_path(qst_path, "qst_path")
    qp = resolve_file(qst_path, name="qst_path")
    if ans_path is None:
        guess = qp.with_suffix(".ans")
        if not guess.is_file():
            raise FileNotFoundError(
                f"no answer file given and none found next to the questions: {guess} does not "
                "exist; pass ans_path=<path of the .ans file>"
            )
        ans_path = guess
    check_name_or_path(ans_path, "ans_path")
    ap = resolve_file(ans_path, name="ans_path")
    questions: list[_Question] = []
    current: _Question | None = None
    for lineno, line in iter_lines(qp):
        if not line.strip():
            continue
        m = _QST_CHOICE.match(line)
        if m and current is not None and len(current.choices) < 4:
            letter = m.group(1).lower()
            want = _LETTERS[len(current.choices)]
            if letter != want:
                raise fail(qp, lineno, f"expected choice {want!r}, got {letter!r}")
            current.choices.append(m.group(2))
            continue
        m = _QST_STEM.match(line)
        if m:
            if current is not None and len(current.choices) != 4:
                raise fail(qp, lineno, f"question {current.qid} has fewer than 4 choices")
            current = _Question(int(m.group(1)), m.group(2), [], lineno)
            questions.append(current)
            continue
        if _QST_CHOICE.match(line) and current is not None:
            raise fail(qp, lineno, f"question {current.qid} has more than 4 choices (a-d)")
        raise fail(qp, lineno, "expected '<n>. <stem word>' or '<letter>. <choice word>'")
    if current is not None and len(current.choices) != 4:
        raise fail(qp, current.line, f"question {current.qid} has fewer than 4 choices")
    if not questions:
        raise fail(qp, None, "no questions found")
    by_id: dict[int, _Question] = {}
    for q in questions:
        if q.qid in by_id:
            raise fail(
                qp,
                q.line,
                f"duplicated question number {q.qid} (first on line {by_id[q.qid].line})",
            )
        by_id[q.qid] = q

    answers: dict[int, str] = {}
    answer_line: dict[int, int] = {}
    for lineno, line in iter_lines(ap):
        if not line.strip():
            continue
        word = ""
        m = _ANS_LSA.match(line)
        if m is None:
            m = _ANS.match(line)
            if m is None:
                raise fail(
                    ap,
                    lineno,
                    "expected '<n><TAB>(x,y,z)<TAB><n><TAB><letter>' or '<n> (<letter>) [word]'",
                )
            word = (m.group(3) or "").strip()
        qid = int(m.group(1))
        if qid in answers:
            raise fail(
                ap, lineno, f"second answer for question {qid} (first on line {answer_line[qid]})"
            )
        if qid not in by_id:
            raise fail(
                ap,
                lineno,
                f"answer for question {qid}, which is not in {qp.name} (question numbers "
                f"{min(by_id)}-{max(by_id)})",
            )
        letter = m.group(2).lower()
        if letter not in _LETTERS:
            raise fail(
                ap,
                lineno,
                f"answer {letter!r} of question {qid} is not one of its choices a, b, c, d",
            )
        chosen = by_id[qid].choices[_LETTERS.index(letter)]
        if word and word.lower() != chosen.lower():
            raise fail(
                ap, lineno, f"answer word {word!r} differs from choice ({letter}) {chosen!r}"
            )
        answers[qid] = letter
        answer_line[qid] = lineno
    missing = [q for q in questions if q.qid not in answers]
    if missing:
        lines = ", ".join(str(q.line) for q in missing[:10])
        raise fail(
            ap,
            None,
            f"no answer for question(s) {[q.qid for q in missing[:10]]}"
            f"{' ...' if len(missing) > 10 else ''} ({qp.name} line(s) {lines})",
        )
    df = pd.DataFrame(
        {
            "qid": [q.qid for q in questions],
            "stem": [q.stem for q in questions],
            **{f"choice_{c}": [q.choices[i] for q in questions] for i, c in enumerate(_LETTERS)},
            "answer": [answers[q.qid] for q in questions],
        }
    )
    df.attrs["path"] = str(qp)
    df.attrs["answers"] = str(Path(ap))
    return df


@dataclass
class _Question:
    qid: int
    stem: str
    choices: list[str]
    line: int
