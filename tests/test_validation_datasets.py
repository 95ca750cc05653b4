"""Bad input to the data / vector readers: every case raises (or warns) naming what to fix.

Issue 16 "Reliability": each test writes a small bad file under ``tmp_path`` and asserts the
error type and that the message names the file, the line and the problem (or the parameter).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import workbench.datasets as ds
from workbench.datasets import DataFormatError
from workbench.embeddings import WordVectors, load_word_vectors, save_word_vectors

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


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_directory_is_named_a_directory(tmp_path, name, load, fname, text):
    folder = tmp_path / fname
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match=rf"{fname}' is a directory"):
        load(folder)


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_empty_file_is_named_empty(tmp_path, name, load, fname, text):
    p = tmp_path / fname
    p.write_bytes(b"")
    with pytest.raises(DataFormatError, match=rf"{fname}: the file is empty"):
        load(p)


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_missing_file_is_named(tmp_path, name, load, fname, text):
    with pytest.raises(FileNotFoundError, match=rf"{fname}' does not exist"):
        load(tmp_path / fname)


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_undecodable_bytes_name_the_exact_line(tmp_path, name, load, fname, text):
    lines = text.encode().splitlines(keepends=True)
    k = 2 if name != "conllu" else 1  # a byte inside the 2nd record
    lines[k] = lines[k].replace(b"\n", b"\xff\n") if name != "conllu" else b"1\t\xff" + lines[k][2:]
    p = tmp_path / fname
    p.write_bytes(b"".join(lines))
    with pytest.raises(
        DataFormatError, match=rf"{fname} line {k + 1}: not valid UTF-8 \(byte 0xff"
    ):
        load(p)


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_truncated_gzip_is_reported(tmp_path, name, load, fname, text):
    p = tmp_path / (fname + ".gz")
    if name == "bible":  # verses must be unique
        text = "".join(f"Gen\t1\t{i}\tx\n" for i in range(1, 9000))
    data = gzip.compress(text.encode() * (1 if name == "bible" else 3000))
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(DataFormatError, match=rf"{fname}.gz line \d+: truncated or corrupt"):
        load(p)


@pytest.mark.parametrize(("name", "load", "fname", "text"), LOADERS, ids=IDS)
def test_gzip_without_gz_suffix_and_bom_are_read(tmp_path, name, load, fname, text):
    p = tmp_path / fname
    p.write_bytes(gzip.compress(("\ufeff" + text).encode("utf-8")))
    assert load(p) is not None  # recognised by its magic bytes; the BOM is dropped


def test_undecodable_byte_far_into_the_file_names_its_line(tmp_path):
    p = tmp_path / "big.txt"
    p.write_bytes(b"a\tb\t1\n" * 4999 + b"\xe9t\xe9\tb\t1\n")  # latin-1, past the first block
    with pytest.raises(DataFormatError, match=r"big.txt line 5000: not valid UTF-8.*column 1"):
        ds.load_wordsim(p)


@pytest.mark.parametrize(
    "load",
    [ds.load_wordsim, ds.load_corpus, ds.load_conllu, ds.load_bible, ds.load_lexicon],
    ids=["wordsim", "corpus", "conllu", "bible", "lexicon"],
)
def test_name_or_path_of_wrong_type(load):
    with pytest.raises(TypeError, match=r"must be a dataset name or a path.*got None"):
        load(None)


# ============================================================================ word similarity


def test_wordsim_nan_score(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("a\tb\t1\nc\td\tnan\n")
    with pytest.raises(DataFormatError, match=r"r.txt line 2: score 'nan' is not a finite"):
        ds.load_wordsim(p)


def test_wordsim_inf_score(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("a b 1\nc d 2\ne f -inf\n")
    with pytest.raises(DataFormatError, match=r"line 3: score '-inf' is not a finite"):
        ds.load_wordsim(p)


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
    p.write_text("a\tb\tsimilar\n")  # not a header: a data line with a bad score
    with pytest.raises(DataFormatError, match=r"line 1: score 'similar' is not a number"):
        ds.load_wordsim(p)


def test_wordsim_wrong_column_count(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("a\tb\t1\nc\td\t2\t9\n")
    with pytest.raises(DataFormatError, match=r"line 2: expected 3 tab-separated fields, got 4"):
        ds.load_wordsim(p)


def test_wordsim_split_not_allowed():
    with pytest.raises(ValueError, match=r"split must be one of None, 'dev', 'test'; got 'train'"):
        ds.load_wordsim("MC", split="train")


def test_wordsim_comments_only(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("# nothing here\n\n")
    with pytest.raises(DataFormatError, match=r"r.txt: no word pairs found"):
        ds.load_wordsim(p)


# ---------------------------------------------------------------------------- SemEval-2017


def test_semeval_data_and_keys_layout():
    df = ds.load_wordsim(SEMEVAL_DATA)  # the scores are found in ../keys
    assert df["word1"].tolist() == ["ocean", "Wall Street", "car", "guitar"]
    assert df["word2"].tolist()[1] == "stock market"
    assert df["score"].tolist() == [3.75, 3.10, 0.08, 2.92]
    assert df.attrs["name"] == "en.trial" and df.attrs["gold"].endswith("en.trial.gold.txt")
    same = ds.load_wordsim(SEMEVAL_DATA, gold=SEMEVAL_GOLD)
    assert same["score"].tolist() == df["score"].tolist()
    assert len(ds.load_wordsim(SEMEVAL_DATA, split="dev")) == 2


def _semeval(tmp_path: Path, data: str, gold: str) -> tuple[Path, Path]:
    d, g = tmp_path / "en.test.data.txt", tmp_path / "en.test.gold.txt"
    d.write_text(data)
    g.write_text(gold)
    return d, g


def test_semeval_gold_next_to_data(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\nc d\te\n", "1.0\n2.5\n")
    assert ds.load_wordsim(d)["word1"].tolist() == ["a", "c d"]


def test_semeval_fewer_scores_than_pairs(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\nc\td\ne\tf\n", "1\n2\n")
    with pytest.raises(DataFormatError, match=r"en.test.gold.txt: 2 scores for the 3 word pairs"):
        ds.load_wordsim(d)


def test_semeval_more_scores_than_pairs(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\n", "1\n2\n")
    with pytest.raises(DataFormatError, match=r"gold.txt line 2: score without a word pair"):
        ds.load_wordsim(d)


def test_semeval_nan_gold_score(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\nc\td\n", "1\nNaN\n")
    with pytest.raises(DataFormatError, match=r"gold.txt line 2: score 'NaN' is not a finite"):
        ds.load_wordsim(d)


def test_semeval_blank_line_inside(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\n\nc\td\n", "1\n2\n")
    with pytest.raises(DataFormatError, match=r"data.txt line 2: blank line inside the file"):
        ds.load_wordsim(d)


def test_semeval_data_line_with_three_fields(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\nc\td\t3\n", "1\n2\n")
    with pytest.raises(DataFormatError, match=r"data.txt line 2: expected 2 tab-separated words"):
        ds.load_wordsim(d)


def test_semeval_gold_missing(tmp_path):
    d = tmp_path / "en.test.data.txt"
    d.write_text("a\tb\n")
    with pytest.raises(FileNotFoundError, match=r"no scores file was found.*pass gold="):
        ds.load_wordsim(d)


def test_semeval_gold_parameter_checked(tmp_path):
    d, _ = _semeval(tmp_path, "a\tb\n", "1\n")
    with pytest.raises(FileNotFoundError, match=r"gold '.*nope.txt' does not exist"):
        ds.load_wordsim(d, gold=tmp_path / "nope.txt")


# ---------------------------------------------------------------------------- SCWS


def test_scws_nan_rating(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text("1\ta\tn\tb\tn\tx <b> a </b>\ty <b> b </b>\tnan\t5\t5\n")
    with pytest.raises(
        DataFormatError, match=r"s.txt line 1: average rating 'nan' is not a finite"
    ):
        ds.load_scws(p)


def test_scws_duplicated_id(tmp_path):
    p = tmp_path / "s.txt"
    row = "1\ta\tn\tb\tn\tx <b> a </b>\ty <b> b </b>\t5.0\n"
    p.write_text(row * 2)
    with pytest.raises(DataFormatError, match=r"line 2: duplicated id 1 \(first on line 1\)"):
        ds.load_scws(p)


def test_scws_context_window_type():
    with pytest.raises(TypeError, match=r"window must be an integer, got '3'"):
        ds.scws_context("a <b> x </b> b", "3")  # type: ignore[arg-type]


# ============================================================================ questions


def test_toefl_distributed_pair_with_inferred_answers():
    df = ds.load_toefl(FIXTURES / "toefl_lsa.qst")  # toefl_lsa.ans found next to it
    assert df["qid"].tolist() == [1, 2, 3]
    assert df["answer"].tolist() == ["b", "d", "a"]
    assert df.loc[1, "choice_d"] == "rapidly" and df.attrs["answers"].endswith("toefl_lsa.ans")
    explicit = ds.load_toefl(FIXTURES / "toefl_lsa.qst", FIXTURES / "toefl_lsa.ans")
    assert explicit["answer"].tolist() == df["answer"].tolist()


def _toefl(tmp_path: Path, ans: str) -> Path:
    qst = tmp_path / "t.qst"
    qst.write_text("1.\tbig\na.\tsmall\nb.\tlarge\nc.\tgreen\nd.\tslow\n")
    (tmp_path / "t.ans").write_text(ans)
    return qst


def test_toefl_missing_ans_file(tmp_path):
    qst = tmp_path / "t.qst"
    qst.write_text("1.\tbig\na.\tsmall\nb.\tlarge\nc.\tgreen\nd.\tslow\n")
    with pytest.raises(FileNotFoundError, match=r"t.ans does not exist; pass ans_path="):
        ds.load_toefl(qst)


def test_toefl_answer_letter_not_a_choice(tmp_path):
    qst = _toefl(tmp_path, "1\t(a,a,-)\t1\te\n")
    with pytest.raises(DataFormatError, match=r"t.ans line 1: answer 'e' of question 1 is not"):
        ds.load_toefl(qst)


def test_toefl_answer_for_unknown_question(tmp_path):
    qst = _toefl(tmp_path, "1\t(a,a,-)\t1\tb\n7\t(a,a,-)\t1\tb\n")
    with pytest.raises(DataFormatError, match=r"t.ans line 2: answer for question 7, which is not"):
        ds.load_toefl(qst)


def test_toefl_question_without_answer_names_its_line(tmp_path):
    qst = tmp_path / "t.qst"
    qst.write_text("1. a\na. b\nb. c\nc. d\nd. e\n\n2. f\na. g\nb. h\nc. i\nd. j\n")
    (tmp_path / "t.ans").write_text("1\t(a,a,-)\t1\tb\n")
    with pytest.raises(DataFormatError, match=r"no answer for question\(s\) \[2\] \(t.qst line"):
        ds.load_toefl(qst)


def test_toefl_second_answer(tmp_path):
    qst = _toefl(tmp_path, "1\t(a,a,-)\t1\tb\n1\t(a,a,-)\t1\tc\n")
    with pytest.raises(DataFormatError, match=r"line 2: second answer for question 1"):
        ds.load_toefl(qst)


def test_toefl_malformed_answer_line(tmp_path):
    qst = _toefl(tmp_path, "one b\n")
    with pytest.raises(DataFormatError, match=r"t.ans line 1: expected '<n><TAB>\(x,y,z\)"):
        ds.load_toefl(qst)


def test_toefl_five_choices(tmp_path):
    qst = tmp_path / "t.qst"
    qst.write_text("1. big\na. small\nb. large\nc. green\nd. slow\ne. red\n")
    (tmp_path / "t.ans").write_text("1 b\n")
    with pytest.raises(DataFormatError, match=r"t.qst line 6: question 1 has more than 4"):
        ds.load_toefl(qst)


def test_msr_analogies_single_section():
    df = ds.load_analogies(FIXTURES / "msr.txt", kind="syntactic")
    assert len(df) == 3 and set(df["section"]) == {"msr"} and set(df["kind"]) == {"syntactic"}
    assert tuple(df.iloc[0][["a", "b", "c", "d"]]) == ("good", "better", "rough", "rougher")
    named = ds.load_analogies(FIXTURES / "msr.txt", section="gram-msr")
    assert set(named["kind"]) == {"syntactic"}


def test_msr_line_with_wrong_token_count(tmp_path):
    p = tmp_path / "msr.txt"
    p.write_text("good better rough rougher\nyear years law\n")
    with pytest.raises(DataFormatError, match=r"msr.txt line 2: expected 4 words, got 3"):
        ds.load_analogies(p)


def test_analogies_section_kind_on_headed_file(tmp_path):
    p = tmp_path / "q.txt"
    p.write_text(": family\nboy girl king queen\n")
    with pytest.raises(ValueError, match=r"section= and kind= only apply.*q.txt has headers"):
        ds.load_analogies(p, kind="semantic")
    with pytest.raises(ValueError, match=r"kind must be one of None, 'semantic', 'syntactic'"):
        ds.load_analogies(p, kind="lexical")


def test_analogies_empty_section(tmp_path):
    p = tmp_path / "q.txt"
    p.write_text(": family\n: currency\nusa dollar japan yen\n")
    with pytest.raises(DataFormatError, match=r"q.txt line 1: section 'family' has no questions"):
        ds.load_analogies(p)


# ============================================================================ CoNLL-U


def _tok(i: int, head: str) -> str:
    return f"{i}\tw{i}\tw\tX\tX\t_\t{head}\tdep\t_\t_\n"


def test_conllu_head_outside_sentence(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(_tok(1, "0") + _tok(2, "5") + "\n")
    with pytest.raises(
        DataFormatError, match=r"x.conllu line 2: HEAD 5 of token 2 points outside its sentence"
    ):
        ds.load_conllu(p)


def test_conllu_negative_head(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(_tok(1, "0") + "\n" + _tok(1, "-1") + "\n")
    with pytest.raises(DataFormatError, match=r"line 3: HEAD -1 of token 1 is negative"):
        ds.load_conllu(p)


def test_conllu_head_is_itself(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(_tok(1, "0") + _tok(2, "2"))
    with pytest.raises(DataFormatError, match=r"line 2: HEAD of token 2 is the token itself"):
        ds.load_conllu(p)


def test_conllu_without_sentences(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text("\n\n")
    with pytest.raises(DataFormatError, match=r"x.conllu: no sentences found"):
        ds.load_conllu(p)


def test_conllu_non_integer_id(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text("x\tw\tw\tX\tX\t_\t0\troot\t_\t_\n")
    with pytest.raises(DataFormatError, match=r"line 1: ID 'x' is not an integer"):
        ds.load_conllu(p)


def test_conllu_given_a_rating_file(tmp_path):
    p = tmp_path / "pairs.conllu"
    p.write_text("a\tb\t1.0\n")
    with pytest.raises(DataFormatError, match=r"line 1: expected 10 tab-separated fields, got 3"):
        ds.load_conllu(p)


def test_conllu_unannotated_head_still_loads(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_text(_tok(1, "_") + _tok(2, "1"))
    (s,) = ds.load_conllu(p)
    assert [t.head for t in s.tokens] == [-1, 1]


# ============================================================================ Bible


def test_bible_translation_twice():
    with pytest.raises(ValueError, match=r"translations lists 'KJV' twice"):
        ds.load_parallel_bible("chapter", ("KJV", "kjv"))


def test_bible_translations_single_string():
    with pytest.raises(TypeError, match=r"translations must be a list or tuple"):
        ds.load_parallel_bible("chapter", "KJV")  # type: ignore[arg-type]


def test_bible_level_not_allowed():
    with pytest.raises(ValueError, match=r"level must be one of 'chapter', 'verse'; got 'book'"):
        ds.load_parallel_bible("book")  # type: ignore[arg-type]


def test_bible_chapter_zero_and_empty_book(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_text("Gen\t1\t1\tx\nGen\t0\t1\ty\n")
    with pytest.raises(DataFormatError, match=r"b.tsv line 2: chapter 0 / verse 1: need chapter"):
        ds.load_bible(p)
    p.write_text("Gen\t1\t1\tx\n \t1\t2\ty\n")
    with pytest.raises(DataFormatError, match=r"b.tsv line 2: empty book"):
        ds.load_bible(p)


def test_bible_duplicated_verse_names_first_line(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_text("Gen\t1\t1\tx\nGen\t1\t2\ty\nGen\t1\t1\tz\n")
    with pytest.raises(
        DataFormatError, match=r"line 3: duplicated verse Gen 1:1 \(first on line 1"
    ):
        ds.load_bible(p)


def test_bible_header_after_bom(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_bytes("\ufeffbook\tchapter\tverse\ttext\nGen\t1\t1\tx\n".encode())
    assert ds.load_bible(p)["book"].tolist() == ["Gen"]


# ============================================================================ corpus / tokenizer


def test_corpus_max_tokens_as_string():
    with pytest.raises(TypeError, match=r"max_tokens must be an integer >= 0 or None, got '10'"):
        ds.load_corpus("1M", max_tokens="10")  # type: ignore[arg-type]


def test_corpus_max_tokens_negative():
    with pytest.raises(ValueError, match=r"max_tokens must be an integer >= 0 or None, got -1"):
        ds.load_corpus("1M", max_tokens=-1)


def test_corpus_lowercase_not_bool():
    with pytest.raises(TypeError, match=r"lowercase must be True or False, got 'no'"):
        ds.load_corpus("1M", lowercase="no")  # type: ignore[arg-type]


def test_corpus_without_tokens(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("-- ... !!\n")
    with pytest.raises(DataFormatError, match=r"c.txt: no word tokens in the file"):
        list(ds.load_corpus(p).tokens())


def test_corpus_bad_doc_marker(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("@@DOC\t1\tA\nsome text\n@@DOC 2 B\n")
    with pytest.raises(DataFormatError, match=r"c.txt line 3: document marker must be"):
        list(ds.load_corpus(p).tokens())


def test_tokenize_non_string():
    with pytest.raises(TypeError, match=r"text must be a str, got NoneType"):
        ds.tokenize(None)  # type: ignore[arg-type]


# ============================================================================ lexicons


def test_lexicon_given_a_vector_file(tmp_path):
    p = tmp_path / "vectors.txt"
    p.write_text("king 0.1 -0.25 1e-3\nqueen 0.2 0.3 0.4\n")
    with pytest.raises(DataFormatError, match=r"vectors.txt line 1: .*looks like a word-vector"):
        ds.load_lexicon(p)


def test_lexicon_numbers_as_words_are_fine(tmp_path):
    p = tmp_path / "lex.txt"
    p.write_text("1990 nineteen-ninety 1990s\n")
    assert ds.load_lexicon(p) == {"1990": {"nineteen-ninety", "1990s"}}


def test_framenet_empty_lemma(tmp_path):
    p = tmp_path / "fn.txt"
    p.write_text("sit.v FN_frame:Posture\n.n FN_frame:Other\n")
    with pytest.raises(DataFormatError, match=r"fn.txt line 2: lexical unit '.n' has an empty"):
        ds.load_framenet_frames(p)


def test_wordnet_empty_archive(tmp_path):
    p = tmp_path / "wn.tar.gz"
    p.write_bytes(b"")
    with pytest.raises(DataFormatError, match=r"wn.tar.gz: the file is empty"):
        ds.load_wordnet(p)
    with pytest.raises(TypeError, match=r"path must be a dataset name or a path"):
        ds.load_wordnet(3)  # type: ignore[arg-type]


# ============================================================================ WordVectors


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_word_vectors_non_finite(bad):
    v = np.ones((3, 2))
    v[1, 0] = bad
    with pytest.raises(
        ValueError, match=r"NaN or infinite values in 1 row\(s\); first: row 1 \(word 'b'\)"
    ):
        WordVectors(["a", "b", "c"], v)


def test_word_vectors_complex():
    with pytest.raises(TypeError, match=r"vectors must be real-valued"):
        WordVectors(["a"], np.ones((1, 2), dtype=complex))


def test_word_vectors_strings_as_values():
    with pytest.raises(TypeError, match=r"vectors must be numeric"):
        WordVectors(["a"], np.array([["x", "y"]]))


def test_word_vectors_words_single_string():
    with pytest.raises(TypeError, match=r"words must be a sequence of str, got a single str"):
        WordVectors("ab", np.ones((2, 2)))


def test_word_vectors_non_string_word():
    with pytest.raises(TypeError, match=r"words\[1\] must be a str, got b'b' \(bytes\)"):
        WordVectors(["a", b"b"], np.ones((2, 2)))  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("shape", "match"),
    [((2, 2, 2), r"2-D array .* got shape \(2, 2, 2\)"), ((2, 0), r"at least one column")],
)
def test_word_vectors_shape(shape, match):
    with pytest.raises(ValueError, match=match):
        WordVectors(["a", "b"], np.ones(shape))


def test_word_vectors_int_and_bool_become_float():
    w = WordVectors(["a", "b"], np.array([[1, 0], [0, 1]], dtype=bool))
    assert w.vectors.dtype == np.float64


def test_most_similar_parameters():
    w = WordVectors(["a", "b", "c"], np.eye(3))
    with pytest.raises(TypeError, match=r"topn must be an integer >= 0, got '2'"):
        w.most_similar("a", topn="2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"restrict must be an integer >= 0, got -1"):
        w.most_similar("a", restrict=-1)
    with pytest.raises(TypeError, match=r"restrict must be an int or an iterable of words"):
        w.most_similar("a", restrict="bc")
    with pytest.raises(ValueError, match=r"query vector contains 1 NaN"):
        w.most_similar(np.array([np.nan, 0.0, 1.0]))


def test_subset_parameters():
    w = WordVectors(["a", "b"], np.eye(2))
    with pytest.raises(ValueError, match=r"missing must be one of 'skip', 'raise'; got 'ignore'"):
        w.subset(["a"], missing="ignore")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"single string"):
        w.subset("ab")


# ============================================================================ vector files


def test_vectors_limit_as_string(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("a 1 2\n")
    with pytest.raises(TypeError, match=r"limit must be an integer >= 1 or None, got '5'"):
        load_word_vectors(p, limit="5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"limit must be an integer >= 1 or None, got 0"):
        load_word_vectors(p, limit=0)


def test_vectors_more_values_than_header(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("2 3\na 1 2 3\nb 1 2 3 4\n")
    with pytest.raises(
        DataFormatError, match=r"v.txt line 3: expected a word and 3 values, got 4 .*header says 3"
    ):
        load_word_vectors(p)


def test_vectors_more_values_than_first_line(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("a 1 2\nb 1 2 3\n")
    with pytest.raises(
        DataFormatError, match=r"line 2: expected a word and 2 values, got 3 .*line 1"
    ):
        load_word_vectors(p, format="glove-text")


def test_vectors_fewer_values_than_header(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("2 3\na 1 2 3\nb 1 2\n")
    with pytest.raises(DataFormatError, match=r"line 3: expected a word and 3 values, got 2"):
        load_word_vectors(p)


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity", "1e39"])
def test_vectors_non_finite_text_value(tmp_path, value):
    p = tmp_path / "v.txt"
    p.write_text(f"a 1 2\nb 3 {value}\nc 5 6\n")
    with pytest.raises(DataFormatError, match=r"v.txt line 2: vector of 'b' has NaN / infinite"):
        load_word_vectors(p)


def test_vectors_non_finite_binary(tmp_path):
    p = tmp_path / "v.bin"
    p.write_bytes(
        b"2 2\na "
        + np.array([1, 2], "<f4").tobytes()
        + b"\nb "
        + np.array([np.nan, 2], "<f4").tobytes()
        + b"\n"
    )
    with pytest.raises(DataFormatError, match=r"v.bin line 3: vector 2 \('b'\) has NaN"):
        load_word_vectors(p)


def test_text_file_read_as_binary(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("2 3\na 1.5 2.25 3.125\nb 1.0 2.0 3.0\n")
    with pytest.raises(DataFormatError, match=r"v.txt line 2: .*text.*format='word2vec-text'"):
        load_word_vectors(p, format="word2vec-binary")


def test_binary_file_read_as_text(tmp_path):
    w = WordVectors(["a", "b"], np.full((2, 3), -1.5, dtype=np.float32))
    p = save_word_vectors(w, tmp_path / "v.w2v", format="word2vec-binary")
    with pytest.raises(DataFormatError, match=r"line 2: not valid UTF-8.*word2vec-binary"):
        load_word_vectors(p, format="word2vec-text")


def test_word2vec_file_read_as_glove(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("2 3\na 1 2 3\nb 4 5 6\n")
    with pytest.raises(
        DataFormatError, match=r"line 2: .*line 1 '2 3' looks like a word2vec header"
    ):
        load_word_vectors(p, format="glove-text")


def test_glove_file_read_as_word2vec(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("a 1 2 3\n")
    with pytest.raises(DataFormatError, match=r"line 1: expected a word2vec header.*glove-text"):
        load_word_vectors(p, format="word2vec-text")


def test_binary_header_count_too_small(tmp_path):
    w = WordVectors(["a", "b", "c"], np.ones((3, 2), dtype=np.float32))
    p = save_word_vectors(w, tmp_path / "v.bin", format="word2vec-binary")
    p.write_bytes(p.read_bytes().replace(b"3 2\n", b"2 2\n", 1))
    with pytest.raises(DataFormatError, match=r"v.bin line 4: data after vector 2"):
        load_word_vectors(p)
    assert load_word_vectors(p, limit=2).words == ["a", "b"]  # a prefix is fine


def test_binary_header_dimension_zero(tmp_path):
    p = tmp_path / "v.bin"
    p.write_bytes(b"2 0\na b ")
    with pytest.raises(DataFormatError, match=r"v.bin line 1: header announces dimension 0"):
        load_word_vectors(p)


def test_text_header_count_checked_with_limit(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("3 2\na 1 2\nb 3 4\n")
    with pytest.raises(DataFormatError, match=r"header announces 3 vectors, file has 2"):
        load_word_vectors(p, limit=5)
    p.write_text("2 2\na 1 2\nb 3 4\nc 5 6\n")
    with pytest.raises(DataFormatError, match=r"v.txt line 4: header announces 2 vectors"):
        load_word_vectors(p)


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


def test_vectors_format_not_allowed(tmp_path):
    p = tmp_path / "v.txt"
    p.write_text("a 1\n")
    with pytest.raises(ValueError, match=r"format must be one of 'auto'.*got 'fasttext'"):
        load_word_vectors(p, format="fasttext")  # type: ignore[arg-type]


def test_pretrained_glove_limit_checked_before_import():
    from workbench.embeddings import load_pretrained_glove

    with pytest.raises(TypeError, match=r"limit must be an integer >= 1 or None, got '5'"):
        load_pretrained_glove(limit="5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"limit must be an integer >= 1 or None, got -3"):
        load_pretrained_glove(limit=-3)


def test_multisense_vectors_refuse_nan_senses_and_centres():
    import numpy as np

    from workbench.embeddings import MultiSenseVectors

    g = np.ones((1, 2))
    with pytest.raises(ValueError, match="'bank'.*NaN"):
        MultiSenseVectors(["bank"], g, [np.array([[1.0, np.nan]])], [np.ones((1, 2))])
    with pytest.raises(ValueError, match="'bank'.*NaN"):
        MultiSenseVectors(["bank"], g, [np.ones((1, 2))], [np.array([[np.inf, 0.0]])])
