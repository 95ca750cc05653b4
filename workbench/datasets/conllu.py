"""CoNLL-U treebanks (Universal Dependencies) as typed sentences."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ._common import bundled, fail, iter_lines, resolve_file, resolve_name_or_path

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
    be integers (``HEAD`` ``_`` is read as -1, i.e. unannotated), ids numbered 1, 2, ... within
    each sentence and every ``HEAD`` 0 (the root) or the id of another word of the same sentence.
    The heads of a sentence must form a tree: exactly one root (``HEAD`` 0) and no cycle. A
    sentence with unannotated heads (``_``) may have no root, but never two roots or a cycle.
    Lines with range ids (``1-2``) or decimal ids (``8.1``) are skipped. Sentences are separated
    by blank lines. A file without any sentence is an error.

    A string with a ``/`` or a dot, or a ``pathlib.Path``, is a path; a bare split name that is
    also a file in the current folder is refused (write ``./train`` for the file).

    Raises
    ------
    FileNotFoundError, IsADirectoryError
        Missing file, or a folder given.
    ValueError
        Unknown split name, or a bare split name that is also a file in the current folder.
    DataFormatError
        Empty file, malformed token line, ``HEAD`` outside its sentence, a sentence without a
        root, with two roots or with a cycle of heads, ids out of sequence, undecodable bytes,
        truncated gzip (file, line and sentence id in the message).

    Examples
    --------
    >>> sentences = load_conllu("dev")
    >>> len(sentences)
    2001
    >>> sentences[0].text
    'From the AP comes this story :'
    >>> [(t.form, t.deprel, t.head) for t in sentences[0].tokens[:4]]
    [('From', 'case', 3), ('the', 'det', 3), ('AP', 'obl', 4), ('comes', 'root', 0)]
    """
    split, user = resolve_name_or_path(
        name_or_path, "name_or_path", tuple(CONLLU_SPLITS), what="treebank split"
    )
    if split is not None:
        path = bundled(CONLLU_SPLITS[split])
        st = path.stat()
        cache_key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
        if cache_key not in _CACHE:  # sentences are immutable: cache bundled splits per process
            _CACHE[cache_key] = tuple(_read(path))
        return list(_CACHE[cache_key])
    assert user is not None
    path = resolve_file(user, name="name_or_path")
    return list(_read(path))


_CACHE: dict[tuple[str, int, int], tuple[Sentence, ...]] = {}


def _sentence(
    path: Path, sent_id: str | None, text: str | None, tokens: list[Token], lines: list[int], n: int
) -> Sentence:
    """Check the heads of a finished sentence and build it (``n`` = its 1-based ordinal)."""
    size = len(tokens)
    for tok, lineno in zip(tokens, lines):
        if tok.head == -1:
            continue
        if not 0 <= tok.head <= size:
            raise fail(
                path,
                lineno,
                f"HEAD {tok.head} of token {tok.id} points outside its sentence of {size} "
                f"words (allowed: 0 for the root, 1-{size}, or '_')",
            )
        if tok.head == tok.id:
            raise fail(path, lineno, f"HEAD of token {tok.id} is the token itself")
    _check_tree(path, sent_id or str(n), tokens, lines)
    return Sentence(
        sent_id or str(n),
        text if text is not None else " ".join(t.form for t in tokens),
        tuple(tokens),
    )


def _check_tree(path: Path, sent: str, tokens: list[Token], lines: list[int]) -> None:
    """One root (none allowed while heads are unannotated) and no cycle of heads."""
    where = f"sentence {sent!r} (line {lines[0]})"
    roots = [k for k, tok in enumerate(tokens) if tok.head == 0]
    if len(roots) > 1:
        first, second = roots[0], roots[1]
        raise fail(
            path,
            lines[second],
            f"{where} has {len(roots)} roots (HEAD 0): tokens "
            f"{', '.join(str(tokens[k].id) for k in roots)}; the first is on line "
            f"{lines[first]} (a sentence has exactly one root)",
        )
    annotated = all(tok.head != -1 for tok in tokens)
    if not roots and annotated:
        raise fail(path, lines[0], f"{where} has no root (no token with HEAD 0)")
    # follow each token's heads; state 1 = on the current path, 2 = reaches the root or a '_'
    state = [0] * (len(tokens) + 1)
    state[0] = 2
    for tok in tokens:
        chain: list[int] = []
        i = tok.id
        while i > 0 and state[i] == 0:
            state[i] = 1
            chain.append(i)
            i = tokens[i - 1].head
        if i > 0 and state[i] == 1:
            cycle = chain[chain.index(i) :]
            raise fail(
                path,
                lines[min(cycle) - 1],
                f"{where}: the heads of tokens {' -> '.join(map(str, [*cycle, i]))} form a "
                "cycle (the heads of a sentence form a tree)",
            )
        for j in chain:
            state[j] = 2


def _read(path: Path) -> Iterator[Sentence]:
    sent_id: str | None = None
    text: str | None = None
    tokens: list[Token] = []
    lines: list[int] = []
    n = 0
    start = 1
    for lineno, line in iter_lines(path):
        if not line.strip():
            if tokens:
                n += 1
                yield _sentence(path, sent_id, text, tokens, lines, n)
            elif sent_id is not None or text is not None:
                raise fail(path, start, "sentence without tokens")
            sent_id, text, tokens, lines = None, None, [], []
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
            raise fail(
                path,
                lineno,
                f"expected 10 tab-separated fields, got {len(f)} (a CoNLL-U token line is "
                "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC)",
            )
        tid = f[0]
        if "-" in tid or "." in tid:
            continue
        try:
            i = int(tid)
        except ValueError:
            raise fail(path, lineno, f"ID {tid!r} is not an integer") from None
        try:
            head = -1 if f[6] == "_" else int(f[6])
        except ValueError:
            raise fail(path, lineno, f"HEAD {f[6]!r} is not an integer or '_'") from None
        if f[6] != "_" and head < 0:
            raise fail(path, lineno, f"HEAD {head} of token {tid} is negative (allowed: >= 0, '_')")
        if i != len(tokens) + 1:
            raise fail(path, lineno, f"token id {i} out of sequence (expected {len(tokens) + 1})")
        tokens.append(Token(i, f[1], f[2], f[3], f[4], head, f[7]))
        lines.append(lineno)
    if tokens:
        n += 1
        yield _sentence(path, sent_id, text, tokens, lines, n)
    elif sent_id is not None or text is not None:
        raise fail(path, start, "sentence without tokens")
    if n == 0:
        raise fail(path, None, "no sentences found (is this a CoNLL-U file?)")
