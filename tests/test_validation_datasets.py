"""Bad input to the data / vector readers: every case raises (or warns) naming what to fix.

Each case writes small bad files under ``tmp_path`` and asserts the
error type and that the message names the file, the line and the problem (or the parameter).
The cases are tables: faults every loader must report (:data:`FAULTS` x :data:`LOADERS`),
malformed files of one loader (:data:`BAD_FILES`) and bad arguments (:data:`BAD_ARGUMENTS`).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import workbench.datasets as ds
from workbench.datasets import DataFormatError
from workbench.embeddings import (
    MultiSenseVectors,
    WordVectors,
    load_pretrained_glove,
    load_word_vectors,
    save_word_vectors,
)

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"
SEMEVAL_DATA = FIXTURES / "semeval17" / "subtask1-monolingual" / "data" / "en.trial.data.txt"
SEMEVAL_GOLD = FIXTURES / "semeval17" / "subtask1-monolingual" / "keys" / "en.trial.gold.txt"

CONLLU_OK = "1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tgo\tgo\tVERB\tVBP\t_\t0\troot\t_\t_\n\n"

# loader, name of a valid file, its valid content (each line a valid record)
LOADERS: list[tuple[str, Callable[[Path], Any], str, str]] = [
    ("wordsim", ds.load_wordsim, "pairs.txt", "a\tb\t1\nc\td\t2\ne\tf\t3\n"),
    ("analogies", ds.load_analogies, "q.txt", ": s\na b c d\ne f g h\ni j k l\n"),
    ("conllu", ds.load_conllu, "t.conllu", CONLLU_OK * 2),
    ("bible", ds.load_bible, "b.tsv", "Gen\t1\t1\tx\nGen\t1\t2\ty\nGen\t1\t3\tz\n"),
    ("corpus", lambda p: list(ds.load_corpus(p).tokens()), "c.txt", "one\ntwo\nthree\n"),
    ("lexicon", ds.load_lexicon, "lex.txt", "a b\nc d\ne f\n"),
    ("vectors", load_word_vectors, "v.txt", "a 1 2\nb 3 4\nc 5 6\n"),
]
IDS = [name for name, *_ in LOADERS]


# ============================================================================ every loader


class Fault(NamedTuple):
    """A bad input every loader refuses: the path it is given, the error and its message."""

    path: Path
    error: type[Exception]
    match: str


def _directory(tmp_path: Path, name: str, fname: str, text: str) -> Fault:
    folder = tmp_path / fname
    folder.mkdir()
    return Fault(folder, IsADirectoryError, rf"{fname}' is a directory")


def _empty(tmp_path: Path, name: str, fname: str, text: str) -> Fault:
    p = tmp_path / fname
    p.write_bytes(b"")
    return Fault(p, DataFormatError, rf"{fname}: the file is empty")


def _missing(tmp_path: Path, name: str, fname: str, text: str) -> Fault:
    return Fault(tmp_path / fname, FileNotFoundError, rf"{fname}' does not exist")


def _undecodable(tmp_path: Path, name: str, fname: str, text: str) -> Fault:
    lines = text.encode().splitlines(keepends=True)
    k = 2 if name != "conllu" else 1  # a byte inside the 2nd record
    lines[k] = lines[k].replace(b"\n", b"\xff\n") if name != "conllu" else b"1\t\xff" + lines[k][2:]
    p = tmp_path / fname
    p.write_bytes(b"".join(lines))
    return Fault(p, DataFormatError, rf"{fname} line {k + 1}: not valid UTF-8 \(byte 0xff")


def _truncated_gzip(tmp_path: Path, name: str, fname: str, text: str) -> Fault:
    p = tmp_path / (fname + ".gz")
    if name == "bible":  # verses must be unique
        text = "".join(f"Gen\t1\t{i}\tx\n" for i in range(1, 9000))
    data = gzip.compress(text.encode() * (1 if name == "bible" else 3000))
    p.write_bytes(data[: len(data) // 2])
    return Fault(p, DataFormatError, rf"{fname}.gz line \d+: truncated or corrupt")


FAULTS: dict[str, Callable[[Path, str, str, str], Fault]] = {
    "directory": _directory,
    "empty": _empty,
    "missing": _missing,
    "undecodable": _undecodable,
    "truncated gzip": _truncated_gzip,
}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_every_loader_names_the_fault(tmp_path, fault, name, load, fname, text):
    path, error, match = FAULTS[fault](tmp_path, name, fname, text)
    with pytest.raises(error, match=match):
        load(path)


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_gzip_without_gz_suffix_and_bom_are_read(tmp_path, name, load, fname, text):
    p = tmp_path / fname
    p.write_bytes(gzip.compress(("\ufeff" + text).encode("utf-8")))
    assert load(p) is not None  # recognised by its magic bytes; the BOM is dropped


# ============================================================================ malformed files


def _w2v_binary(header: str, rows: Mapping[str, list[float]]) -> bytes:
    """A word2vec binary file: ``header``, then each word, a space, its float32 values."""
    body = b"".join(
        w.encode() + b" " + np.asarray(v, "<f4").tobytes() + b"\n" for w, v in rows.items()
    )
    return header.encode() + body


def _tok(i: int, head: str) -> str:
    return f"{i}\tw{i}\tw\tX\tX\t_\t{head}\tdep\t_\t_\n"


_SCWS_ROW = "1\ta\tn\tb\tn\tx <b> a </b>\ty <b> b </b>\t5.0\n"
_TOEFL_QST = "1.\tbig\na.\tsmall\nb.\tlarge\nc.\tgreen\nd.\tslow\n"
_SEMEVAL_DATA, _SEMEVAL_GOLD = "en.test.data.txt", "en.test.gold.txt"
_VECTORS_TEXT = {"v.txt": "2 3\na 1.5 2.25 3.125\nb 1.0 2.0 3.0\n"}


def _vectors(**kw: Any) -> Callable[[Path], Any]:
    return lambda p: load_word_vectors(p, **kw)


def _tokens(p: Path) -> list[str]:
    return list(ds.load_corpus(p).tokens())


# id: (loader, files (the first is loaded; str or bytes), error, message)
BAD_FILES: dict[str, tuple[Callable[[Path], Any], dict[str, str | bytes], type[Exception], str]] = {
    # ---- word similarity
    "wordsim byte far into the file": (
        ds.load_wordsim, {"big.txt": b"a\tb\t1\n" * 4999 + b"\xe9t\xe9\tb\t1\n"},  # latin-1
        DataFormatError, r"big.txt line 5000: not valid UTF-8.*column 1",
    ),
    "wordsim nan score": (
        ds.load_wordsim, {"r.txt": "a\tb\t1\nc\td\tnan\n"},
        DataFormatError, r"r.txt line 2: score 'nan' is not a finite",
    ),
    "wordsim inf score": (
        ds.load_wordsim, {"r.txt": "a b 1\nc d 2\ne f -inf\n"},
        DataFormatError, r"line 3: score '-inf' is not a finite",
    ),
    "wordsim text score is not a header": (
        ds.load_wordsim, {"h.tsv": "a\tb\tsimilar\n"},
        DataFormatError, r"h.tsv line 1: no word pairs found: the only line 'a b similar' was read as a header",
    ),
    "wordsim wrong column count": (
        ds.load_wordsim, {"r.txt": "a\tb\t1\nc\td\t2\t9\n"},
        DataFormatError, r"line 2: expected 3 fields separated by tab \(columns word1, word2, score\), found 4",
    ),
    "wordsim comments only": (
        ds.load_wordsim, {"r.txt": "# nothing here\n\n"},
        DataFormatError, r"r.txt: no word pairs found",
    ),
    # ---- SemEval-2017 (data file + scores file)
    "semeval fewer scores than pairs": (
        ds.load_wordsim, {_SEMEVAL_DATA: "a\tb\nc\td\ne\tf\n", _SEMEVAL_GOLD: "1\n2\n"},
        DataFormatError, r"en.test.gold.txt: 2 scores for the 3 word pairs",
    ),
    "semeval more scores than pairs": (
        ds.load_wordsim, {_SEMEVAL_DATA: "a\tb\n", _SEMEVAL_GOLD: "1\n2\n"},
        DataFormatError, r"gold.txt line 2: score without a word pair",
    ),
    "semeval nan gold score": (
        ds.load_wordsim, {_SEMEVAL_DATA: "a\tb\nc\td\n", _SEMEVAL_GOLD: "1\nNaN\n"},
        DataFormatError, r"gold.txt line 2: score 'NaN' is not a finite",
    ),
    "semeval blank line inside": (
        ds.load_wordsim, {_SEMEVAL_DATA: "a\tb\n\nc\td\n", _SEMEVAL_GOLD: "1\n2\n"},
        DataFormatError, r"data.txt line 2: blank line inside the file",
    ),
    "semeval data line with three fields": (
        ds.load_wordsim, {_SEMEVAL_DATA: "a\tb\nc\td\t3\n", _SEMEVAL_GOLD: "1\n2\n"},
        DataFormatError, r"data.txt line 2: expected 2 tab-separated words",
    ),
    "semeval gold missing": (
        ds.load_wordsim, {_SEMEVAL_DATA: "a\tb\n"},
        FileNotFoundError, r"no scores file was found.*pass gold=",
    ),
    "semeval gold parameter checked": (
        lambda p: ds.load_wordsim(p, gold=p.parent / "nope.txt"),
        {_SEMEVAL_DATA: "a\tb\n", _SEMEVAL_GOLD: "1\n"},
        FileNotFoundError, r"gold '.*nope.txt' does not exist",
    ),
    # ---- SCWS
    "scws nan rating": (
        ds.load_scws, {"s.txt": "1\ta\tn\tb\tn\tx <b> a </b>\ty <b> b </b>\tnan\t5\t5\n"},
        DataFormatError, r"s.txt line 1: average rating 'nan' is not a finite",
    ),
    "scws duplicated id": (
        ds.load_scws, {"s.txt": _SCWS_ROW * 2},
        DataFormatError, r"line 2: duplicated id 1 \(first on line 1\)",
    ),
    # ---- TOEFL (questions + answers)
    "toefl missing ans file": (
        ds.load_toefl, {"t.qst": _TOEFL_QST},
        FileNotFoundError, r"t.ans does not exist; pass ans_path=",
    ),
    "toefl answer letter not a choice": (
        ds.load_toefl, {"t.qst": _TOEFL_QST, "t.ans": "1\t(a,a,-)\t1\te\n"},
        DataFormatError, r"t.ans line 1: answer 'e' of question 1 is not",
    ),
    "toefl answer for unknown question": (
        ds.load_toefl, {"t.qst": _TOEFL_QST, "t.ans": "1\t(a,a,-)\t1\tb\n7\t(a,a,-)\t1\tb\n"},
        DataFormatError, r"t.ans line 2: answer for question 7, which is not",
    ),
    "toefl question without answer": (
        ds.load_toefl,
        {"t.qst": "1. a\na. b\nb. c\nc. d\nd. e\n\n2. f\na. g\nb. h\nc. i\nd. j\n",
         "t.ans": "1\t(a,a,-)\t1\tb\n"},
        DataFormatError, r"no answer for question\(s\) \[2\] \(t.qst line",
    ),
    "toefl second answer": (
        ds.load_toefl, {"t.qst": _TOEFL_QST, "t.ans": "1\t(a,a,-)\t1\tb\n1\t(a,a,-)\t1\tc\n"},
        DataFormatError, r"line 2: second answer for question 1",
    ),
    "toefl malformed answer line": (
        ds.load_toefl, {"t.qst": _TOEFL_QST, "t.ans": "one b\n"},
        DataFormatError, r"t.ans line 1: expected '<n><TAB>\(x,y,z\)",
    ),
    "toefl five choices": (
        ds.load_toefl,
        {"t.qst": "1. big\na. small\nb. large\nc. green\nd. slow\ne. red\n", "t.ans": "1 b\n"},
        DataFormatError, r"t.qst line 6: question 1 has more than 4",
    ),
    # ---- analogies
    "msr line with wrong token count": (
        ds.load_analogies, {"msr.txt": "good better rough rougher\nyear years law\n"},
        DataFormatError, r"msr.txt line 2: expected 4 words, got 3",
    ),
    "analogies kind on a headed file": (
        lambda p: ds.load_analogies(p, kind="semantic"), {"q.txt": ": family\nboy girl king queen\n"},
        ValueError, r"section= and kind= only apply.*q.txt has headers",
    ),
    "analogies kind not allowed": (
        lambda p: ds.load_analogies(p, kind="lexical"), {"q.txt": ": family\nboy girl king queen\n"},
        ValueError, r"kind must be one of None, 'semantic', 'syntactic'",
    ),
    "analogies empty section": (
        ds.load_analogies, {"q.txt": ": family\n: currency\nusa dollar japan yen\n"},
        DataFormatError, r"q.txt line 1: section 'family' has no questions",
    ),
    # ---- CoNLL-U
    "conllu head outside sentence": (
        ds.load_conllu, {"x.conllu": _tok(1, "0") + _tok(2, "5") + "\n"},
        DataFormatError, r"x.conllu line 2: HEAD 5 of token 2 points outside its sentence",
    ),
    "conllu negative head": (
        ds.load_conllu, {"x.conllu": _tok(1, "0") + "\n" + _tok(1, "-1") + "\n"},
        DataFormatError, r"line 3: HEAD -1 of token 1 is negative",
    ),
    "conllu head is itself": (
        ds.load_conllu, {"x.conllu": _tok(1, "0") + _tok(2, "2")},
        DataFormatError, r"line 2: HEAD of token 2 is the token itself",
    ),
    "conllu without sentences": (
        ds.load_conllu, {"x.conllu": "\n\n"},
        DataFormatError, r"x.conllu: no sentences found",
    ),
    "conllu non-integer id": (
        ds.load_conllu, {"x.conllu": "x\tw\tw\tX\tX\t_\t0\troot\t_\t_\n"},
        DataFormatError, r"line 1: ID 'x' is not an integer",
    ),
    "conllu given a rating file": (
        ds.load_conllu, {"pairs.conllu": "a\tb\t1.0\n"},
        DataFormatError, r"line 1: expected 10 tab-separated fields, got 3",
    ),
    # ---- Bible
    "bible chapter zero": (
        ds.load_bible, {"b.tsv": "Gen\t1\t1\tx\nGen\t0\t1\ty\n"},
        DataFormatError, r"b.tsv line 2: chapter 0 / verse 1: need chapter",
    ),
    "bible empty book": (
        ds.load_bible, {"b.tsv": "Gen\t1\t1\tx\n \t1\t2\ty\n"},
        DataFormatError, r"b.tsv line 2: empty book",
    ),
    "bible duplicated verse": (
        ds.load_bible, {"b.tsv": "Gen\t1\t1\tx\nGen\t1\t2\ty\nGen\t1\t1\tz\n"},
        DataFormatError, r"line 3: duplicated verse Gen 1:1 \(first on line 1",
    ),
    # ---- corpus
    "corpus without tokens": (
        _tokens, {"c.txt": "-- ... !!\n"},
        DataFormatError, r"c.txt: no word tokens in the file",
    ),
    "corpus bad document marker": (
        _tokens, {"c.txt": "@@DOC\t1\tA\nsome text\n@@DOC 2 B\n"},
        DataFormatError, r"c.txt line 3: document marker must be",
    ),
    # ---- lexicons
    "lexicon given a vector file": (
        ds.load_lexicon, {"vectors.txt": "king 0.1 -0.25 1e-3\nqueen 0.2 0.3 0.4\n"},
        DataFormatError, r"vectors.txt line 1: .*looks like a word-vector",
    ),
    "framenet empty lemma": (
        ds.load_framenet_frames, {"fn.txt": "sit.v FN_frame:Posture\n.n FN_frame:Other\n"},
        DataFormatError, r"fn.txt line 2: lexical unit '.n' has an empty",
    ),
    "wordnet empty archive": (
        ds.load_wordnet, {"wn.tar.gz": b""},
        DataFormatError, r"wn.tar.gz: the file is empty",
    ),
    # ---- vector files
    "vectors more values than header": (
        load_word_vectors, {"v.txt": "2 3\na 1 2 3\nb 1 2 3 4\n"},
        DataFormatError, r"v.txt line 3: expected a word and 3 values, got 4 .*header says 3",
    ),
    "vectors more values than first line": (
        _vectors(format="glove-text"), {"v.txt": "a 1 2\nb 1 2 3\n"},
        DataFormatError, r"line 2: expected a word and 2 values, got 3 .*line 1",
    ),
    "vectors fewer values than header": (
        load_word_vectors, {"v.txt": "2 3\na 1 2 3\nb 1 2\n"},
        DataFormatError, r"line 3: expected a word and 3 values, got 2",
    ),
    **{
        f"vectors text value {value}": (
            load_word_vectors, {"v.txt": f"a 1 2\nb 3 {value}\nc 5 6\n"},
            DataFormatError, r"v.txt line 2: vector of 'b' has NaN / infinite",
        )
        for value in ["nan", "inf", "-Infinity", "1e39"]
    },
    "vectors binary nan": (
        load_word_vectors, {"v.bin": _w2v_binary("2 2\n", {"a": [1, 2], "b": [np.nan, 2]})},
        DataFormatError, r"v.bin line 3: vector 2 \('b'\) has NaN",
    ),
    "text file read as binary": (
        _vectors(format="word2vec-binary"), _VECTORS_TEXT,
        DataFormatError, r"v.txt line 2: .*text.*format='word2vec-text'",
    ),
    "binary file read as text": (
        _vectors(format="word2vec-text"),
        {"v.w2v": _w2v_binary("2 3\n", {"a": [-1.5] * 3, "b": [-1.5] * 3})},
        DataFormatError, r"line 2: not valid UTF-8.*word2vec-binary",
    ),
    "word2vec file read as glove": (
        _vectors(format="glove-text"), {"v.txt": "2 3\na 1 2 3\nb 4 5 6\n"},
        DataFormatError, r"line 2: .*line 1 '2 3' looks like a word2vec header",
    ),
    "glove file read as word2vec": (
        _vectors(format="word2vec-text"), {"v.txt": "a 1 2 3\n"},
        DataFormatError, r"line 1: expected a word2vec header.*glove-text",
    ),
    "binary header count too small": (
        load_word_vectors, {"v.bin": _w2v_binary("2 2\n", {w: [1, 1] for w in "abc"})},
        DataFormatError, r"v.bin line 4: data after vector 2",
    ),
    "binary header dimension zero": (
        load_word_vectors, {"v.bin": b"2 0\na b "},
        DataFormatError, r"v.bin line 1: header announces dimension 0",
    ),
    "text header count too large, with limit": (
        _vectors(limit=5), {"v.txt": "3 2\na 1 2\nb 3 4\n"},
        DataFormatError, r"header announces 3 vectors, file has 2",
    ),
    "text header count too small": (
        load_word_vectors, {"v.txt": "2 2\na 1 2\nb 3 4\nc 5 6\n"},
        DataFormatError, r"v.txt line 4: header announces 2 vectors",
    ),
    "vectors limit as string": (
        _vectors(limit="5"), {"v.txt": "a 1 2\n"},
        TypeError, r"limit must be an integer >= 1 or None, got '5'",
    ),
    "vectors limit zero": (
        _vectors(limit=0), {"v.txt": "a 1 2\n"},
        ValueError, r"limit must be an integer >= 1 or None, got 0",
    ),
    "vectors format not allowed": (
        _vectors(format="fasttext"), {"v.txt": "a 1\n"},
        ValueError, r"format must be one of 'auto'.*got 'fasttext'",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("load", "files", "error", "match"), BAD_FILES.values(), ids=BAD_FILES)
def test_bad_file_is_reported(tmp_path, load, files, error, match):
    for name, content in files.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    with pytest.raises(error, match=match):
        load(tmp_path / next(iter(files)))


# ============================================================================ bad arguments


def _eye(n: int) -> WordVectors:
    return WordVectors([chr(ord("a") + i) for i in range(n)], np.eye(n))


def _with(value: float) -> np.ndarray:
    v = np.ones((3, 2))
    v[1, 0] = value
    return v


# id: (call, error, message)
BAD_ARGUMENTS: dict[str, tuple[Callable[[], Any], type[Exception], str]] = {
    **{
        f"name_or_path None: {name}": (
            lambda load=load: load(None), TypeError, r"must be a dataset name or a path.*got None",
        )
        for name, load in [
            ("wordsim", ds.load_wordsim), ("corpus", ds.load_corpus), ("conllu", ds.load_conllu),
            ("bible", ds.load_bible), ("lexicon", ds.load_lexicon),
        ]
    },
    "wordnet path of wrong type": (
        lambda: ds.load_wordnet(3), TypeError, r"path must be a dataset name or a path",
    ),
    "wordsim split not allowed": (
        lambda: ds.load_wordsim("MC", split="train"),
        ValueError, r"split must be one of None, 'dev', 'test'; got 'train'",
    ),
    "scws context window as string": (
        lambda: ds.scws_context("a <b> x </b> b", "3"),
        TypeError, r"window must be an integer, got '3'",
    ),
    "bible translation twice": (
        lambda: ds.load_parallel_bible("chapter", ("KJV", "kjv")),
        ValueError, r"translations lists 'KJV' twice",
    ),
    "bible translations a single string": (
        lambda: ds.load_parallel_bible("chapter", "KJV"),
        TypeError, r"translations must be a list or tuple",
    ),
    "bible level not allowed": (
        lambda: ds.load_parallel_bible("book"),
        ValueError, r"level must be one of 'chapter', 'verse'; got 'book'",
    ),
    "corpus max_tokens as string": (
        lambda: ds.load_corpus("1M", max_tokens="10"),
        TypeError, r"max_tokens must be an integer >= 0 or None, got '10'",
    ),
    "corpus max_tokens negative": (
        lambda: ds.load_corpus("1M", max_tokens=-1),
        ValueError, r"max_tokens must be an integer >= 0 or None, got -1",
    ),
    "corpus lowercase not a bool": (
        lambda: ds.load_corpus("1M", lowercase="no"),
        TypeError, r"lowercase must be True or False, got 'no'",
    ),
    "tokenize a non-string": (
        lambda: ds.tokenize(None), TypeError, r"text must be a str, got NoneType",
    ),
    # ---- WordVectors
    **{
        f"word vectors with {bad}": (
            lambda bad=bad: WordVectors(["a", "b", "c"], _with(bad)),
            ValueError, r"NaN or infinite values in 1 row\(s\); first: row 1 \(word 'b'\)",
        )
        for bad in [np.nan, np.inf, -np.inf]
    },
    "word vectors complex": (
        lambda: WordVectors(["a"], np.ones((1, 2), dtype=complex)),
        TypeError, r"vectors must be real-valued",
    ),
    "word vectors strings as values": (
        lambda: WordVectors(["a"], np.array([["x", "y"]])), TypeError, r"vectors must be numeric",
    ),
    "word vectors words a single string": (
        lambda: WordVectors("ab", np.ones((2, 2))),
        TypeError, r"words must be a sequence of str, got a single str",
    ),
    "word vectors non-string word": (
        lambda: WordVectors(["a", b"b"], np.ones((2, 2))),
        TypeError, r"words\[1\] must be a str, got b'b' \(bytes\)",
    ),
    "word vectors 3-D": (
        lambda: WordVectors(["a", "b"], np.ones((2, 2, 2))),
        ValueError, r"2-D array .* got shape \(2, 2, 2\)",
    ),
    "word vectors without columns": (
        lambda: WordVectors(["a", "b"], np.ones((2, 0))), ValueError, r"at least one column",
    ),
    "most_similar topn as string": (
        lambda: _eye(3).most_similar("a", topn="2"),
        TypeError, r"topn must be an integer >= 0, got '2'",
    ),
    "most_similar restrict negative": (
        lambda: _eye(3).most_similar("a", restrict=-1),
        ValueError, r"restrict must be an integer >= 0, got -1",
    ),
    "most_similar restrict a string": (
        lambda: _eye(3).most_similar("a", restrict="bc"),
        TypeError, r"restrict must be an int or an iterable of words",
    ),
    "most_similar nan query": (
        lambda: _eye(3).most_similar(np.array([np.nan, 0.0, 1.0])),
        ValueError, r"query vector contains 1 NaN",
    ),
    "subset missing not allowed": (
        lambda: _eye(2).subset(["a"], missing="ignore"),
        ValueError, r"missing must be one of 'skip', 'raise'; got 'ignore'",
    ),
    "subset a single string": (lambda: _eye(2).subset("ab"), TypeError, r"single string"),
    "pretrained glove limit as string": (
        lambda: load_pretrained_glove(limit="5"),
        TypeError, r"limit must be an integer >= 1 or None, got '5'",
    ),
    "pretrained glove limit negative": (
        lambda: load_pretrained_glove(limit=-3),
        ValueError, r"limit must be an integer >= 1 or None, got -3",
    ),
    "multi-sense NaN sense": (
        lambda: MultiSenseVectors(
            ["bank"], np.ones((1, 2)), [np.array([[1.0, np.nan]])], [np.ones((1, 2))]
        ),
        ValueError, "'bank'.*NaN",
    ),
    "multi-sense infinite centre": (
        lambda: MultiSenseVectors(
            ["bank"], np.ones((1, 2)), [np.ones((1, 2))], [np.array([[np.inf, 0.0]])]
        ),
        ValueError, "'bank'.*NaN",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("call", "error", "match"), BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS)
def test_bad_argument_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ============================================================================ what is accepted


def test_wordsim_bom_is_stripped(tmp_path):
    p = tmp_path / "r.txt"
    p.write_bytes("\ufeffcar\tauto\t3.9\n".encode())
    df = ds.load_wordsim(p)
    assert df["word1"].tolist() == ["car"]


def test_wordsim_header_line_and_csv(tmp_path):
    df = ds.load_wordsim(FIXTURES / "semeval17_en.csv")
    assert df["word1"].tolist() == ["ocean", "Wall Street", "car"]
    assert df["score"].tolist() == [3.75, 3.10, 0.08]
    p = tmp_path / "h.tsv"
    p.write_text("Word 1\tWord 2\tSimilarity\na\tb\t1\n")
    assert len(ds.load_wordsim(p)) == 1


def test_semeval_data_and_keys_layout():
    df = ds.load_wordsim(SEMEVAL_DATA)  # the scores are found in ../keys
    assert df["word1"].tolist() == ["ocean", "Wall Street", "car", "guitar"]
    assert df["word2"].tolist()[1] == "stock market"
    assert df["score"].tolist() == [3.75, 3.10, 0.08, 2.92]
    assert df.attrs["name"] == "en.trial" and df.attrs["gold"].endswith("en.trial.gold.txt")
    same = ds.load_wordsim(SEMEVAL_DATA, gold=SEMEVAL_GOLD)
    assert same["score"].tolist() == df["score"].tolist()
    assert len(ds.load_wordsim(SEMEVAL_DATA, split="dev")) == 2


def test_semeval_gold_next_to_data(tmp_path):
    (tmp_path / _SEMEVAL_DATA).write_text("a\tb\nc d\te\n")
    (tmp_path / _SEMEVAL_GOLD).write_text("1.0\n2.5\n")
    assert ds.load_wordsim(tmp_path / _SEMEVAL_DATA)["word1"].tolist() == ["a", "c d"]


def test_toefl_distributed_pair_with_inferred_answers():
    df = ds.load_toefl(FIXTURES / "toefl_lsa.qst")  # toefl_lsa.ans found next to it
    assert df["qid"].tolist() == [1, 2, 3]
    assert df["answer"].tolist() == ["b", "d", "a"]
    assert df.loc[1, "choice_d"] == "rapidly" and df.attrs["answers"].endswith("toefl_lsa.ans")
    explicit = ds.load_toefl(FIXTURES / "toefl_lsa.qst", FIXTURES / "toefl_lsa.ans")
    assert explicit["answer"].tolist() == df["answer"].tolist()


def test_msr_analogies_single_section():
    df = ds.load_analogies(FIXTURES / "msr.txt", kind="syntactic")
    assert len(df) == 3 and set(df["section"]) == {"msr"} and set(df["kind"]) == {"syntactic"}
    assert tuple(df.iloc[0][["a", "b", "c", "d"]]) == ("good", "better", "rough", "rougher")
    named = ds.load_analogies(FIXTURES / "msr.txt", section="gram-msr")
    assert set(named["kind"]) == {"syntactic"}


def test_conllu_unannotated_head_still_loads(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(_tok(1, "_") + _tok(2, "1"))
    (s,) = ds.load_conllu(p)
    assert [t.head for t in s.tokens] == [-1, 1]


def test_bible_header_after_bom(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_bytes("\ufeffbook\tchapter\tverse\ttext\nGen\t1\t1\tx\n".encode())
    assert ds.load_bible(p)["book"].tolist() == ["Gen"]


def test_lexicon_numbers_as_words_are_fine(tmp_path):
    p = tmp_path / "lex.txt"
    p.write_text("1990 nineteen-ninety 1990s\n")
    assert ds.load_lexicon(p) == {"1990": {"nineteen-ninety", "1990s"}}


def test_word_vectors_int_and_bool_become_float():
    w = WordVectors(["a", "b"], np.array([[1, 0], [0, 1]], dtype=bool))
    assert w.vectors.dtype == np.float64


def test_binary_header_count_too_small_reads_a_prefix(tmp_path):
    w = WordVectors(["a", "b", "c"], np.ones((3, 2), dtype=np.float32))
    p = save_word_vectors(w, tmp_path / "v.bin", format="word2vec-binary")
    p.write_bytes(p.read_bytes().replace(b"3 2\n", b"2 2\n", 1))
    assert load_word_vectors(p, limit=2).words == ["a", "b"]  # a prefix is fine


def test_written_binary_file_is_the_table_one(tmp_path):
    """The binary files of :data:`BAD_FILES` are laid out as save_word_vectors writes them."""
    w = WordVectors(["a", "b", "c"], np.ones((3, 2), dtype=np.float32))
    p = save_word_vectors(w, tmp_path / "v.bin", format="word2vec-binary")
    assert p.read_bytes() == _w2v_binary("3 2\n", {x: [1, 1] for x in "abc"})


def test_words_with_spaces_warn_once_with_count(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("2 2\nnew york 1 2\nlos angeles 3 4\n")
    with pytest.warns(UserWarning, match=r"2 word\(s\) contain spaces \(first on line 2\)"):
        w = load_word_vectors(p)
    assert w.words == ["new york", "los angeles"]


def test_vectors_bom_and_auto_detection(tmp_path):
    p = tmp_path / "v.txt"
    p.write_bytes("\ufeff2 2\nété 1 2\nb 3 4\n".encode())
    w = load_word_vectors(p)
    assert w.words == ["été", "b"]
    p.write_bytes("\ufeffété 1 2\n".encode())
    assert load_word_vectors(p).words == ["été"]
