"""Hostile or malformed data files: each gives an error or a warning naming the problem.

One class per loader, one test per case; the files are built in ``tmp_path``. Every test asserts
the error type (or warning category) and that the message names the file, the line and the
problem.
"""

from __future__ import annotations

import gzip
import os
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

import workbench.datasets as ds
from workbench.datasets import DataFormatError, DataFormatWarning
from workbench.embeddings import load_word_vectors


def _tok(i: int, head: str) -> str:
    return f"{i}\tw{i}\tw\tX\tX\t_\t{head}\tdep\t_\t_\n"


def _sentence(*heads: str, sent_id: str | None = None) -> str:
    header = f"# sent_id = {sent_id}\n" if sent_id else ""
    return header + "".join(_tok(i, h) for i, h in enumerate(heads, 1)) + "\n"


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in ``tmp_path`` (to put a file named like a bundled set in the current folder)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ============================================================================ rating files


class TestWordsim:
    def test_repeated_pair_is_averaged_with_one_warning(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("a\tb\t1\nc\td\t5\nb\ta\t1.5\ne\tf\t10\ng\th\t0\na\tb\t2\n")
        with pytest.warns(DataFormatWarning) as rec:
            df = ds.load_wordsim(p)
        assert len(rec) == 1
        msg = str(rec[0].message)
        assert "pairs.txt" in msg and "1 word pair(s) appear more than once" in msg
        assert "2 repeated line(s)" in msg and "'a'/'b' (lines 1, 3, 6; scores 1, 1.5, 2)" in msg
        assert "CONTRADICT" not in msg  # 1-2 is within 10% of the score range 0-10
        assert df["word1"].tolist() == ["a", "c", "e", "g"]
        assert df["score"].tolist() == [1.5, 5.0, 10.0, 0.0]

    def test_contradicting_pair_is_named(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("a\tb\t1\nc\td\t5\ne\tf\t10\nb\ta\t9\ng\th\t0\n")
        with pytest.warns(DataFormatWarning, match=r"pairs.txt: 1 word pair") as rec:
            df = ds.load_wordsim(p)
        msg = str(rec[0].message)
        assert "1 of them CONTRADICT" in msg and "score range 0-10" in msg
        assert "'a'/'b' (lines 1, 4; scores 1, 9)" in msg
        assert df.loc[df["word1"] == "a", "score"].item() == 5.0 and len(df) == 4

    def test_pairs_differing_in_case_are_different(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("Apple\tpie\t1\napple\tpie\t2\nx\ty\t3\n")
        with warnings.catch_warnings():
            warnings.simplefilter("error", DataFormatWarning)
            df = ds.load_wordsim(p)
        assert len(df) == 3

    def test_repeated_pair_in_data_and_gold_files(self, tmp_path):
        data, gold = tmp_path / "en.test.data.txt", tmp_path / "en.test.gold.txt"
        data.write_text("a\tb\nc\td\na\tb\n")
        gold.write_text("1.0\n2.0\n3.0\n")
        with pytest.warns(DataFormatWarning, match=r"en.test.data.txt: .*lines 1, 3"):
            df = ds.load_wordsim(data)
        assert df["score"].tolist() == [2.0, 2.0]

    def test_bundled_set_is_read_as_published(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", DataFormatWarning)
            df = ds.load_wordsim("WS")
        assert len(df) == 353  # money/bank and money/cash appear twice, as published

    def test_name_shadowed_by_a_file_is_an_error(self, in_tmp):
        (in_tmp / "ws").write_text("a\tb\t1\n")
        with pytest.raises(
            ValueError,
            match=r"'ws' is ambiguous.*word-similarity set 'WS'.*"
            r"ws'.*write './ws'",
        ):
            ds.load_wordsim("ws")

    def test_dot_slash_reads_the_file(self, in_tmp):
        (in_tmp / "ws").write_text("a\tb\t1\nc\td\t2\n")
        assert len(ds.load_wordsim("./ws")) == 2
        assert len(ds.load_wordsim(Path("ws"))) == 2

    def test_bare_existing_file_that_is_not_a_name(self, in_tmp):
        (in_tmp / "mypairs").write_text("a\tb\t1\n")
        assert ds.load_wordsim("mypairs").attrs["name"] == "mypairs"

    def test_nan_score(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("a\tb\t1\nc\td\tnan\n")
        with pytest.raises(DataFormatError, match=r"pairs.txt line 2: score 'nan' is not a finite"):
            ds.load_wordsim(p)

    def test_infinite_score(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("a\tb\tinf\n")
        with pytest.raises(DataFormatError, match=r"pairs.txt line 1: score 'inf' is not a finite"):
            ds.load_wordsim(p)

    def test_non_utf8_bytes(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_bytes(b"a\tb\t1\nc\xff\td\t2\n")
        with pytest.raises(DataFormatError, match=r"pairs.txt line 2: not valid UTF-8 \(byte 0xff"):
            ds.load_wordsim(p)

    def test_utf16_file(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_bytes("a\tb\t1\n".encode("utf-16"))
        with pytest.raises(DataFormatError, match=r"pairs.txt line 1: .*UTF-16 byte-order mark"):
            ds.load_wordsim(p)

    def test_utf16_without_bom_has_nul_bytes(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_bytes("a\tb\t1\n".encode("utf-16-le"))
        with pytest.raises(DataFormatError, match=r"pairs.txt line 1: NUL byte at column 2"):
            ds.load_wordsim(p)

    def test_binary_file(self, tmp_path):
        p = tmp_path / "pairs.txt"
        np.save(tmp_path / "x.npy", np.zeros(3))
        p.write_bytes((tmp_path / "x.npy").read_bytes())
        with pytest.raises(DataFormatError, match=r"pairs.txt line 1: (NUL byte|not valid UTF-8)"):
            ds.load_wordsim(p)

    def test_bom_and_crlf_are_accepted(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_bytes(b"\xef\xbb\xbfa\tb\t1\r\nc\td\t2\r\n")
        df = ds.load_wordsim(p)
        assert df.values.tolist() == [["a", "b", 1.0], ["c", "d", 2.0]]

    def test_truncated_gzip(self, tmp_path):
        p = tmp_path / "pairs.txt.gz"
        p.write_bytes(gzip.compress(b"".join(b"w%d\tv%d\t1\n" % (i, i) for i in range(500)))[:60])
        with pytest.raises(DataFormatError, match=r"pairs.txt.gz line \d+: truncated or corrupt"):
            ds.load_wordsim(p)

    def test_empty_file(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("")
        with pytest.raises(DataFormatError, match=r"pairs.txt: the file is empty"):
            ds.load_wordsim(p)

    def test_only_comments(self, tmp_path):
        p = tmp_path / "pairs.txt"
        p.write_text("# nothing\n\n")
        with pytest.raises(DataFormatError, match=r"pairs.txt: no word pairs found"):
            ds.load_wordsim(p)

    def test_directory(self, tmp_path):
        (tmp_path / "sets.d").mkdir()
        with pytest.raises(IsADirectoryError, match=r"sets.d' is a directory"):
            ds.load_wordsim(tmp_path / "sets.d")


class TestSCWS:
    _ROW = "{id}\t{a}\tn\t{b}\tn\tx <b> {a} </b>\ty <b> {b} </b>\t5.0\n"

    def test_repeated_item_warns_and_is_kept(self, tmp_path):
        p = tmp_path / "scws.txt"
        p.write_text(
            self._ROW.format(id=1, a="a", b="b")
            + self._ROW.format(id=2, a="c", b="d")
            + self._ROW.format(id=3, a="a", b="b")
        )
        with pytest.warns(DataFormatWarning, match=r"scws.txt: 1 item\(s\) repeat.*lines 1, 3"):
            items = ds.load_scws(p)
        assert [it.id for it in items] == [1, 2, 3]

    def test_same_words_other_contexts_are_no_repeat(self, tmp_path):
        p = tmp_path / "scws.txt"
        p.write_text(
            self._ROW.format(id=1, a="a", b="b")
            + self._ROW.format(id=2, a="a", b="b").replace("x <b>", "z <b>")
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error", DataFormatWarning)
            assert len(ds.load_scws(p)) == 2

    def test_repeated_id(self, tmp_path):
        p = tmp_path / "scws.txt"
        p.write_text(self._ROW.format(id=1, a="a", b="b") + self._ROW.format(id=1, a="c", b="d"))
        with pytest.raises(DataFormatError, match=r"scws.txt line 2: duplicated id 1"):
            ds.load_scws(p)

    def test_nan_rating(self, tmp_path):
        p = tmp_path / "scws.txt"
        p.write_text(self._ROW.format(id=1, a="a", b="b").replace("5.0", "nan"))
        with pytest.raises(DataFormatError, match=r"scws.txt line 1: average rating 'nan'"):
            ds.load_scws(p)


# ============================================================================ CoNLL-U


class TestConllu:
    def test_two_roots(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_sentence("0", "1", "0", sent_id="s1"))
        with pytest.raises(
            DataFormatError,
            match=r"t.conllu line 4: sentence 's1' \(line 2\) "
            r"has 2 roots \(HEAD 0\): tokens 1, 3; the first is on line 2",
        ):
            ds.load_conllu(p)

    def test_no_root(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_sentence("0", "1") + _sentence("2", "1"))
        with pytest.raises(
            DataFormatError,
            match=r"t.conllu line 4: sentence '2' \(line 4\) "
            r"has no root",
        ):
            ds.load_conllu(p)

    def test_cycle(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_sentence("0", "3", "4", "2", sent_id="c"))
        with pytest.raises(
            DataFormatError,
            match=r"t.conllu line 3: sentence 'c' \(line 2\): "
            r"the heads of tokens 2 -> 3 -> 4 -> 2 form a cycle",
        ):
            ds.load_conllu(p)

    def test_cycle_in_a_partly_unannotated_sentence(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_sentence("_", "3", "2"))
        with pytest.raises(DataFormatError, match=r"t.conllu line 2: .*tokens 2 -> 3 -> 2 form"):
            ds.load_conllu(p)

    def test_unannotated_sentence_needs_no_root(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_sentence("_", "_") + _sentence("2", "0"))
        assert [len(s) for s in ds.load_conllu(p)] == [2, 2]

    def test_head_outside_sentence(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_sentence("0", "7"))
        with pytest.raises(
            DataFormatError,
            match=r"t.conllu line 2: HEAD 7 of token 2 points "
            r"outside its sentence of 2 words",
        ):
            ds.load_conllu(p)

    def test_ids_not_consecutive(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_text(_tok(1, "0") + _tok(3, "1") + "\n")
        with pytest.raises(DataFormatError, match=r"t.conllu line 2: token id 3 out of sequence"):
            ds.load_conllu(p)

    def test_bundled_split_is_a_tree_bank(self):
        sents = ds.load_conllu("dev")
        assert all(sum(t.head == 0 for t in s.tokens) == 1 for s in sents)

    def test_name_shadowed_by_a_file_is_an_error(self, in_tmp):
        (in_tmp / "dev").write_text(_sentence("0"))
        with pytest.raises(
            ValueError,
            match=r"'dev' is ambiguous: .*treebank split 'dev'.*"
            r"write './dev'",
        ):
            ds.load_conllu("dev")
        assert len(ds.load_conllu("./dev")) == 1

    def test_folder_named_like_a_split_is_no_ambiguity(self, in_tmp):
        (in_tmp / "dev").mkdir()
        assert len(ds.load_conllu("dev")) == 2001

    def test_bare_existing_file(self, in_tmp):
        (in_tmp / "mytrees").write_text(_sentence("0"))
        assert len(ds.load_conllu("mytrees")) == 1

    def test_nul_bytes(self, tmp_path):
        p = tmp_path / "t.conllu"
        p.write_bytes(_sentence("0").encode() + b"1\tx\x00\n")
        with pytest.raises(DataFormatError, match=r"t.conllu line 3: NUL byte at column 4"):
            ds.load_conllu(p)


# ============================================================================ analogies, TOEFL


class TestAnalogies:
    def test_no_section_header_warns(self, tmp_path):
        p = tmp_path / "questions.txt"
        p.write_text("a b c d\ne f g h\n")
        with pytest.warns(
            DataFormatWarning,
            match=r"questions.txt: no ': section' header line; "
            r"its 2 questions are read as one section named 'questions'",
        ):
            df = ds.load_analogies(p)
        assert set(df["section"]) == {"questions"} and set(df["kind"]) == {"semantic"}

    def test_no_section_header_with_kind_is_silent(self, tmp_path):
        p = tmp_path / "msr.txt"
        p.write_text("good better rough rougher\n")
        with warnings.catch_warnings():
            warnings.simplefilter("error", DataFormatWarning)
            assert ds.load_analogies(p, kind="syntactic")["kind"].tolist() == ["syntactic"]
            assert ds.load_analogies(p, section="gram-x")["section"].tolist() == ["gram-x"]

    def test_wrong_number_of_words(self, tmp_path):
        p = tmp_path / "q.txt"
        p.write_text(": s\na b c d\ne f g\n")
        with pytest.raises(DataFormatError, match=r"q.txt line 3: expected 4 words, got 3"):
            ds.load_analogies(p)

    def test_question_before_first_header(self, tmp_path):
        p = tmp_path / "q.txt"
        p.write_text("a b c d\n: s\ne f g h\n")
        with pytest.raises(DataFormatError, match=r"q.txt line 1: question before the first"):
            ds.load_analogies(p)

    def test_empty_file(self, tmp_path):
        p = tmp_path / "q.txt"
        p.write_text("")
        with pytest.raises(DataFormatError, match=r"q.txt: the file is empty"):
            ds.load_analogies(p)

    def test_blank_file(self, tmp_path):
        p = tmp_path / "q.txt"
        p.write_text("\n\n  \n")
        with pytest.raises(DataFormatError, match=r"q.txt: no analogy questions found"):
            ds.load_analogies(p)

    def test_headers_only(self, tmp_path):
        p = tmp_path / "q.txt"
        p.write_text(": family\n")
        with pytest.raises(DataFormatError, match=r"q.txt line 1: section 'family' has no"):
            ds.load_analogies(p)

    def test_crlf_and_bom(self, tmp_path):
        p = tmp_path / "q.txt"
        p.write_bytes(b"\xef\xbb\xbf: family\r\nboy girl king queen\r\n")
        df = ds.load_analogies(p)
        assert df.iloc[0].tolist() == ["family", "boy", "girl", "king", "queen", "semantic"]


class TestToefl:
    def test_binary_question_file(self, tmp_path):
        q = tmp_path / "t.qst"
        q.write_bytes(b"1. big\x00\n")
        (tmp_path / "t.ans").write_text("1 a\n")
        with pytest.raises(DataFormatError, match=r"t.qst line 1: NUL byte at column 7"):
            ds.load_toefl(q)

    def test_empty_answer_file(self, tmp_path):
        q = tmp_path / "t.qst"
        q.write_text("1. big\na. large\nb. small\nc. red\nd. old\n")
        (tmp_path / "t.ans").write_text("")
        with pytest.raises(DataFormatError, match=r"t.ans: the file is empty"):
            ds.load_toefl(q)


# ============================================================================ corpus, lexicon, Bible


class TestCorpus:
    def test_name_shadowed_by_a_folder_is_an_error(self, in_tmp):
        (in_tmp / "1M").mkdir()
        (in_tmp / "1M" / "a.txt").write_text("words\n")
        with pytest.raises(
            ValueError,
            match=r"'1M' is ambiguous: .*corpus '1M' and the folder"
            r".*write './1M'",
        ):
            ds.load_corpus("1M")
        assert list(ds.load_corpus("./1M").tokens()) == ["words"]

    def test_nul_bytes(self, tmp_path):
        p = tmp_path / "c.txt"
        p.write_bytes(b"one two\nthree\x00four\n")
        with pytest.raises(DataFormatError, match=r"c.txt line 2: NUL byte at column 6"):
            list(ds.load_corpus(p).tokens())

    def test_truncated_gzip(self, tmp_path):
        p = tmp_path / "c.txt.gz"
        p.write_bytes(gzip.compress(b"".join(b"line %d of text\n" % i for i in range(2000)))[:200])
        with pytest.raises(DataFormatError, match=r"c.txt.gz line \d+: truncated or corrupt"):
            list(ds.load_corpus(p).tokens())

    def test_unknown_bare_name(self, in_tmp):
        with pytest.raises(ValueError, match=r"unknown corpus '9M'; valid names: 1M, 5M, 25M"):
            ds.load_corpus("9M")

    def test_empty_string(self):
        with pytest.raises(ValueError, match=r"name_or_path must be a dataset name .* got ''"):
            ds.load_corpus("")


class TestLexicon:
    def test_name_shadowed_by_a_file_is_an_error(self, in_tmp):
        (in_tmp / "ppdb").write_text("a b\n")
        with pytest.raises(ValueError, match=r"'ppdb' is ambiguous: .*lexicon 'ppdb'.*'./ppdb'"):
            ds.load_lexicon("ppdb")
        assert ds.load_lexicon("./ppdb") == {"a": {"b"}}

    def test_word_vector_file_given(self, tmp_path):
        p = tmp_path / "lex.txt"
        p.write_text("the 0.1 0.2 0.3\n")
        with pytest.raises(DataFormatError, match=r"lex.txt line 1: a word followed by 3 numbers"):
            ds.load_lexicon(p)


class TestBible:
    def test_name_shadowed_by_a_file_is_an_error(self, in_tmp):
        (in_tmp / "KJV").write_text("Gen\t1\t1\tx\n")
        with pytest.raises(ValueError, match=r"'KJV' is ambiguous: .*Bible translation 'KJV'"):
            ds.load_bible("KJV")
        assert ds.load_bible("./KJV")["text"].tolist() == ["x"]

    def test_unknown_bare_name(self, in_tmp):
        with pytest.raises(ValueError, match=r"unknown Bible translation 'NIV'; valid names: KJV"):
            ds.load_bible("NIV")


# ============================================================================ word vectors


def _binary(n: int, dim: int, rows: int) -> bytes:
    body = b"".join(
        b"w%d " % i + struct.pack(f"<{dim}f", *([0.5] * dim)) + b"\n" for i in range(rows)
    )
    return f"{n} {dim}\n".encode() + body


class TestVectors:
    def test_binary_header_of_absurd_size(self, tmp_path):
        p = tmp_path / "v.bin"
        p.write_bytes(_binary(99999999999, 300, 2))
        with pytest.raises(
            DataFormatError,
            match=r"v.bin line 1: header '99999999999 300' "
            r"announces 99,999,999,999 vectors of dimension 300, at least "
            r"119,999,999,998,800 bytes .* but the file has [\d,]+ bytes",
        ):
            load_word_vectors(p)

    def test_binary_header_of_absurd_dimension(self, tmp_path):
        p = tmp_path / "v.bin"
        p.write_bytes(_binary(1, 10**12, 0) + b"w \x00\x00\x00\x00")
        with pytest.raises(DataFormatError, match=r"v.bin line 1: header '1 1000000000000'"):
            load_word_vectors(p)

    def test_gzip_binary_header_of_absurd_size(self, tmp_path):
        p = tmp_path / "v.bin.gz"
        p.write_bytes(gzip.compress(_binary(99999999999, 3, 2)))
        with pytest.raises(
            DataFormatError,
            match=r"v.bin.gz line 1: header '99999999999 3' .*"
            r"the gzip file has [\d,]+ bytes \(at most [\d,]+ uncompressed\)",
        ):
            load_word_vectors(p)

    def test_text_header_of_absurd_size(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("99999999999 3\na 1 2 3\nb 4 5 6\n")
        with pytest.raises(
            DataFormatError, match=r"v.txt line 1: header '99999999999 3' announces"
        ):
            load_word_vectors(p)

    def test_text_header_of_absurd_size_explicit_format(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("99999999999 3\na 1 2 3\n")
        with pytest.raises(DataFormatError, match=r"v.txt line 1: header '99999999999 3'"):
            load_word_vectors(p, format="word2vec-text", limit=1)

    def test_header_zero_vectors(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("0 3\na 1 2 3\n")
        with pytest.raises(
            DataFormatError,
            match=r"v.txt line 1: header announces 0 vectors "
            r"\('0 3'; must be >= 1\)",
        ):
            load_word_vectors(p)

    def test_header_zero_dimension(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("2 0\na\nb\n")
        with pytest.raises(DataFormatError, match=r"v.txt line 1: header announces dimension 0"):
            load_word_vectors(p, format="word2vec-text")

    def test_non_integer_header(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("2.5 3\na 1 2 3\nb 4 5 6\n")
        with pytest.raises(
            DataFormatError,
            match=r"v.txt line 1: header '2.5 3' is not a "
            r"word2vec header: .* two positive integers",
        ):
            load_word_vectors(p)

    def test_negative_header(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("-2 3\na 1 2 3\nb 4 5 6\n")
        with pytest.raises(DataFormatError, match=r"v.txt line 1: header '-2 3' is not a word2vec"):
            load_word_vectors(p)

    def test_non_integer_header_explicit_format(self, tmp_path):
        p = tmp_path / "v.bin"
        p.write_bytes(b"2 3.0\n" + _binary(2, 3, 2).split(b"\n", 1)[1])
        with pytest.raises(
            DataFormatError,
            match=r"v.bin line 1: expected a word2vec header "
            r"'<n_words> <dim>' \(two positive integers\), got b'2 3.0'",
        ):
            load_word_vectors(p, format="word2vec-binary")

    def test_row_of_wrong_length(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("3 2\na 1 2\nb 3 4 5\nc 6 7\n")
        with pytest.raises(
            DataFormatError,
            match=r"v.txt line 3: expected a word and 2 values, "
            r"got 3 values",
        ):
            load_word_vectors(p)

    def test_glove_row_of_wrong_length(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("a 1 2\nb 3\n")
        with pytest.raises(DataFormatError, match=r"v.txt line 2: expected a word and 2 values"):
            load_word_vectors(p)

    def test_binary_truncated(self, tmp_path):
        p = tmp_path / "v.bin"
        p.write_bytes(_binary(2, 3, 2)[:-8])
        with pytest.raises(DataFormatError, match=r"v.bin line 3: vector 2: truncated"):
            load_word_vectors(p)

    def test_binary_reads_back(self, tmp_path):
        p = tmp_path / "v.bin"
        p.write_bytes(_binary(2, 3, 2))
        vecs = load_word_vectors(p)
        assert vecs.words == ["w0", "w1"] and np.all(vecs.vectors == 0.5)

    def test_nan_value(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_text("a 1 2\nb nan 2\n")
        with pytest.raises(DataFormatError, match=r"v.txt line 2: vector of 'b' has NaN"):
            load_word_vectors(p)

    def test_crlf_text_file(self, tmp_path):
        p = tmp_path / "v.txt"
        p.write_bytes(b"\xef\xbb\xbf2 2\r\na 1 2\r\nb 3 4\r\n")
        assert load_word_vectors(p).words == ["a", "b"]

    def test_directory(self, tmp_path):
        (tmp_path / "vecs.d").mkdir()
        with pytest.raises(IsADirectoryError, match=r"vecs.d' is a directory"):
            load_word_vectors(tmp_path / "vecs.d")


def test_resolve_rule_ignores_a_folder_for_file_only_loaders(in_tmp):
    os.mkdir(in_tmp / "ppdb")
    assert len(ds.load_lexicon("framenet")) > 0  # a folder 'ppdb' does not touch 'framenet'
