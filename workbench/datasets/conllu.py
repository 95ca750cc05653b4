"""CoNLL-U treebanks (Universal Dependencies) as typed sentences."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ._common import bundled, fail, iter_lines, resolve_file

__all__ = ["Token", "Sentence", "load_conllu", "CONLLU_SPLITS"]

CONLLU_SPLITS: dict[str, str] = {
    "train": "treebank/en_ewt-ud-train.conllu.gz",
    "dev": "treebank/en_ewt-ud-dev.conllu.gz",
    "test": "treebank/en_ewt-ud-test.conllu.gz",
}


@dataclass(frozen=True, slots=True)
class Token:
    """A syntactic word: 1-based ``id`` within its sentence, ``head`` 0 for the root."""

    id: int
    form: str
    lemma: str
    upos: str
    xpos: str
    head: int
    deprel: str


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence: ``id`` (from ``# sent_id``, else its ordinal), ``text`` (``# text``, else the
    forms joined by spaces) and its tokens (multiword ranges and empty nodes skipped)."""

    id: str
    text: str
    tokens: tuple[Token, ...]

    def __len__(self) -> int:
        return len(self.tokens)


def load_conllu(name_or_path: str | os.PathLike[str] = "train") -> list[Sentence]:
    """Read a CoNLL-U file.

    Parameters
    ----------
    name_or_path : {"train", "dev", "test"} or path
        Splits of the bundled UD English-EWT v2.16 (12,544 / 2,001 / 2,077 sentences), or a user
        ``.conllu`` / ``.conllu.gz`` file.

    Notes
    -----
    Each token line must have 10 tab-separated fields; ``ID`` and ``HEAD`` of syntactic words must
    be integers (``HEAD`` ``_`` is read as -1, i.e. unannotated). Lines with range ids (``1-2``)
    or decimal ids (``8.1``) are skipped. Sentences are separated by blank lines.
    """
    key = str(name_or_path)
    if not isinstance(name_or_path, os.PathLike) and key.lower() in CONLLU_SPLITS:
        path = bundled(CONLLU_SPLITS[key.lower()])
        st = path.stat()
        cache_key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
        if cache_key not in _CACHE:  # sentences are immutable: cache bundled splits per process
            _CACHE[cache_key] = tuple(_read(path))
        return list(_CACHE[cache_key])
    elif isinstance(name_or_path, os.PathLike) or os.sep in key or "." in key:
        path = resolve_file(key)
    else:
        raise ValueError(
            f"unknown treebank split {key!r}; valid: {', '.join(CONLLU_SPLITS)} (or a path)"
        )
    return list(_read(path))


_CACHE: dict[tuple[str, int, int], tuple[Sentence, ...]] = {}


def _read(path: Path) -> Iterator[Sentence]:
    sent_id: str | None = None
    text: str | None = None
    tokens: list[Token] = []
    n = 0
    start = 1
    for lineno, line in iter_lines(path):
        if not line.strip():
            if tokens:
                n += 1
                yield Sentence(
                    sent_id or str(n),
                    text if text is not None else " ".join(t.form for t in tokens),
                    tuple(tokens),
                )
            elif sent_id is not None or text is not None:
                raise fail(path, start, "sentence without tokens")
            sent_id, text, tokens = None, None, []
            continue
        if line.startswith("#"):
            if not tokens:
                start = lineno
            body = line[1:].strip()
            if body.startswith("sent_id") and "=" in body:
                sent_id = body.split("=", 1)[1].strip()
            elif (
                body.startswith("text") and "=" in body and body.split("=", 1)[0].strip() == "text"
            ):
                text = body.split("=", 1)[1].strip()
            continue
        f = line.split("\t")
        if len(f) != 10:
            raise fail(path, lineno, f"expected 10 tab-separated fields, got {len(f)}")
        tid = f[0]
        if "-" in tid or "." in tid:
            continue
        try:
            i = int(tid)
            head = -1 if f[6] == "_" else int(f[6])
        except ValueError:
            raise fail(path, lineno, f"ID {f[0]!r} / HEAD {f[6]!r} must be integers") from None
        if i != len(tokens) + 1:
            raise fail(path, lineno, f"token id {i} out of sequence (expected {len(tokens) + 1})")
        tokens.append(Token(i, f[1], f[2], f[3], f[4], head, f[7]))
    if tokens:
        n += 1
        yield Sentence(
            sent_id or str(n),
            text if text is not None else " ".join(t.form for t in tokens),
            tuple(tokens),
        )
