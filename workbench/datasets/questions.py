"""Question sets: the Google analogy set and TOEFL-style synonym questions."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import pandas as pd

from ._common import bundled, fail, iter_lines, resolve_file

__all__ = ["load_analogies", "load_toefl", "ANALOGY_SEMANTIC_SECTIONS"]

#: The five semantic sections of Mikolov et al. (2013); all ``gram*`` sections are syntactic.
ANALOGY_SEMANTIC_SECTIONS: tuple[str, ...] = (
    "capital-common-countries",
    "capital-world",
    "currency",
    "city-in-state",
    "family",
)


def load_analogies(path: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Load analogy questions ``a : b :: c : d`` (Mikolov et al., 2013 format).

    File format: section headers ``: name`` followed by lines of four whitespace-separated
    words. Blank lines are skipped.

    Returns
    -------
    pandas.DataFrame
        Columns ``section, a, b, c, d, kind`` with ``kind`` = ``"syntactic"`` for sections whose
        name starts with ``gram`` and ``"semantic"`` otherwise. Words keep their case. The bundled
        set has 19,544 questions: 8,869 semantic, 10,675 syntactic, 506 in
        ``capital-common-countries``.

    References
    ----------
    T. Mikolov, K. Chen, G. Corrado, J. Dean. Efficient estimation of word representations in
    vector space. ICLR workshop 2013.
    """
    p = bundled("analogy/questions-words.txt") if path is None else resolve_file(path)
    section: str | None = None
    rows: list[tuple[str, str, str, str, str]] = []
    for lineno, line in iter_lines(p):
        s = line.strip()
        if not s:
            continue
        if s.startswith(":"):
            section = s[1:].strip()
            if not section:
                raise fail(p, lineno, "empty section name")
            continue
        if section is None:
            raise fail(p, lineno, "question before the first ': section' header")
        words = s.split()
        if len(words) != 4:
            raise fail(p, lineno, f"expected 4 words, got {len(words)}")
        rows.append((section, words[0], words[1], words[2], words[3]))
    if not rows:
        raise fail(p, 1, "no analogy questions found")
    df = pd.DataFrame(rows, columns=["section", "a", "b", "c", "d"])
    df["kind"] = ["syntactic" if s.startswith("gram") else "semantic" for s in df["section"]]
    df.attrs["path"] = str(p)
    return df


_QST_STEM = re.compile(r"^\s*(\d+)\s*[.)]?\s+(\S.*?)\s*$")
_QST_CHOICE = re.compile(r"^\s*([a-dA-D])\s*[.)]\s*(\S.*?)\s*$")
_ANS = re.compile(r"^\s*(\d+)\s*[.)]?\s*[\t ]*\(?([a-dA-D])\)?(?:[\s.,)]+(.*?))?\s*$")


def load_toefl(qst_path: str | os.PathLike[str], ans_path: str | os.PathLike[str]) -> pd.DataFrame:
    """Load TOEFL-style synonym questions (Landauer & Dumais, 1997 layout).

    No TOEFL file is bundled (its licence does not allow it); bring your own.

    Accepted ``.qst`` layout (blank lines ignored, tabs or spaces as separators)::

        1.  enormously
        a.  appropriately
        b.  uniquely
        c.  tremendously
        d.  decidedly

    i.e. a stem line ``<number>[.|)] <word>`` followed by exactly four choice lines
    ``<letter>. <word>`` or ``<letter>) <word>`` in the order a, b, c, d.

    Accepted ``.ans`` lines: ``<number> <letter>`` with optional ``.``/``)`` after the number and
    optional parentheses around the letter, optionally followed by the answer word, e.g.
    ``1 (c) tremendously``, ``1. c``, ``1\t(c)``. If the word is given it must equal the chosen
    choice (case-insensitive). Every question needs exactly one answer and vice versa.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid`` (int), ``stem``, ``choice_a`` ... ``choice_d``, ``answer`` (one of
        ``"a"``, ``"b"``, ``"c"``, ``"d"``), in file order.
    """
    qp = resolve_file(qst_path)
    ap = resolve_file(ans_path)
    questions: list[_Question] = []
    current: _Question | None = None
    for lineno, line in iter_lines(qp):
        if not line.strip():
            continue
        m = _QST_CHOICE.match(line)
        if m and current is not None and len(current.choices) < 4:
            letter = m.group(1).lower()
            want = "abcd"[len(current.choices)]
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
        raise fail(qp, lineno, "expected '<n>. <stem word>' or '<letter>. <choice word>'")
    if current is not None and len(current.choices) != 4:
        raise fail(qp, current.line, f"question {current.qid} has fewer than 4 choices")
    if not questions:
        raise fail(qp, 1, "no questions found")
    by_id: dict[int, _Question] = {}
    for q in questions:
        if q.qid in by_id:
            raise fail(qp, q.line, f"duplicated question number {q.qid}")
        by_id[q.qid] = q

    answers: dict[int, str] = {}
    for lineno, line in iter_lines(ap):
        if not line.strip():
            continue
        m = _ANS.match(line)
        if not m:
            raise fail(ap, lineno, "expected '<n> (<letter>) [word]'")
        qid = int(m.group(1))
        if qid in answers:
            raise fail(ap, lineno, f"second answer for question {qid}")
        if qid not in by_id:
            raise fail(ap, lineno, f"answer for unknown question {qid}")
        letter = m.group(2).lower()
        word = (m.group(3) or "").strip()
        chosen = by_id[qid].choices["abcd".index(letter)]
        if word and word.lower() != chosen.lower():
            raise fail(
                ap, lineno, f"answer word {word!r} differs from choice ({letter}) {chosen!r}"
            )
        answers[qid] = letter
    missing = sorted(set(by_id) - set(answers))
    if missing:
        raise fail(ap, 1, f"no answer for question(s) {missing[:10]}")
    df = pd.DataFrame(
        {
            "qid": [q.qid for q in questions],
            "stem": [q.stem for q in questions],
            **{f"choice_{c}": [q.choices[i] for q in questions] for i, c in enumerate("abcd")},
            "answer": [answers[q.qid] for q in questions],
        }
    )
    df.attrs["path"] = str(qp)
    return df


@dataclass
class _Question:
    qid: int
    stem: str
    choices: list[str]
    line: int
