"""Users' own data: corpora in every format, rating files, aligned line files and lexicons.

The fixtures are in ``tests/fixtures/user_data`` (provenance in its README). Error tests assert
the error type and that the message names the file (or parameter) and what to fix.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
import pytest

import workbench.datasets as ds
from workbench.datasets import DataFormatError
from workbench.views import Vocabulary, encode_corpus

USER = Path(__file__).parent / "fixtures" / "user_data"


def _lines(path: Path) -> list[str]:
    return [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


# ============================================================================ corpora


class TestCorpusFormats:
    def test_marked_file_without_markers_is_one_document(self) -> None:
        corpus = ds.load_corpus(USER / "books_docs.txt")
        assert corpus.format == "marked"
        assert corpus.n_documents == 1

    def test_line_docs_gives_one_document_per_line(self) -> None:
        path = USER / "books_docs.txt"
        corpus = ds.load_corpus(path, format="line-docs")
        docs = list(corpus.iter_documents())
        assert len(docs) == len(_lines(path))
        assert docs[0].title == "books_docs.txt:1"
        assert docs[0].tokens == ds.tokenize(_lines(path)[0])

    def test_line_sentences_one_document_per_sentence_titled_by_paragraph(self) -> None:
        path = USER / "books_sentences.txt"
        corpus = ds.load_corpus(path, format="line-sentences")
        docs = list(corpus.iter_documents())
        assert len(docs) == len(_lines(path))
        assert docs[0].title == "books_sentences.txt:p1:1"
        paragraphs = {d.title.split(":")[1] for d in docs}
        n_para = len([p for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()])
        assert len(paragraphs) == n_para

    @pytest.mark.parametrize("fmt", ["line-docs", "line-sentences"])
    def test_no_cooccurrence_crosses_a_line(self, fmt: str) -> None:
        path = USER / ("books_docs.txt" if fmt == "line-docs" else "books_sentences.txt")
        corpus = ds.load_corpus(path, format=fmt)
        vocab = Vocabulary.from_corpus(corpus)
        encoded = encode_corpus(corpus, vocab)
        lines = _lines(path)
        assert encoded.n_documents == len(lines)
        # document i holds exactly the tokens of line i: windows stop at its end
        lengths = np.diff(np.append(encoded.doc_starts, encoded.n_tokens))
        assert lengths.tolist() == [len(ds.tokenize(ln)) for ln in lines]
        # the marked reading of the same file is one document: pairs across lines
        assert encode_corpus(ds.load_corpus(path), vocab).n_documents == 1

    def test_folder_format_reads_marked_files(self) -> None:
        corpus = ds.load_corpus(USER / "books", format="folder")
        titles = [d.title for d in corpus.iter_documents()]
        assert titles == ["First half", "part-002.txt"]
        assert corpus.format == "folder"
        assert ds.load_corpus(USER / "books").format == "folder"

    def test_folder_with_line_format_applies_it_to_each_file(self) -> None:
        corpus = ds.load_corpus(USER / "books", format="line-docs")
        docs = list(corpus.iter_documents())
        n_lines = sum(len(_lines(f)) for f in sorted((USER / "books").glob("*.txt")))
        assert len(docs) == n_lines  # a @@DOC line is a line like any other here
        assert docs[0].title == "part-001.txt:1"

    def test_language_recorded(self) -> None:
        assert ds.load_corpus("1M").language == "en"
        assert ds.load_corpus(USER / "books_docs.txt").language is None
        es = ds.load_corpus(USER / "spanish_sentences.txt", format="line-sentences", language="es")
        assert es.language == "es"
        tokens = set(es.tokens())
        assert {"jehová", "varón", "día"} <= tokens

    def test_read_options_change_the_corpus_identity(self) -> None:
        path = USER / "books_docs.txt"
        marked = ds.load_corpus(path, normalize=None)
        assert marked.sha256 == ds.file_sha256(path)
        lines = ds.load_corpus(path, format="line-docs", normalize=None)
        assert lines.sha256 != marked.sha256


class TestNormalisation:
    def test_decomposed_accent_stays_in_its_word(self, tmp_path: Path) -> None:
        path = tmp_path / "nfd.txt"
        path.write_text(unicodedata.normalize("NFD", "Mi corazón late.\n"), encoding="utf-8")
        assert list(ds.load_corpus(path).tokens()) == ["mi", "corazón", "late"]
        raw = list(ds.load_corpus(path, normalize=None).tokens())
        assert raw == ["mi", unicodedata.normalize("NFD", "corazón"), "late"]

    def test_dotted_capital_i_stays_one_token(self, tmp_path: Path) -> None:
        path = tmp_path / "tr.txt"
        path.write_text("İstanbul büyük bir şehir.\n", encoding="utf-8")
        tokens = list(ds.load_corpus(path).tokens())
        assert tokens[0] == "i\u0307stanbul"
        assert len(tokens) == 4

    def test_nfkc_folds_compatibility_forms(self, tmp_path: Path) -> None:
        path = tmp_path / "lig.txt"
        path.write_text("ﬁnal ｗｉｄｅ\n", encoding="utf-8")
        assert list(ds.load_corpus(path, normalize="NFKC").tokens()) == ["final", "wide"]

    def test_bundled_corpus_read_as_published(self) -> None:
        corpus = ds.load_corpus("1M", max_tokens=50)
        assert corpus.normalize is None
        assert corpus.sha256 == ds.file_sha256(corpus.path)

    def test_unknown_normalisation(self) -> None:
        with pytest.raises(
            ValueError, match=r"normalize must be one of 'NFC', 'NFKC', None.*'NFX'"
        ):
            ds.load_corpus(USER / "books_docs.txt", normalize="NFX")


class TestTokenizer:
    def test_user_tokenizer_called_per_line(self) -> None:
        path = USER / "books_docs.txt"
        corpus = ds.load_corpus(path, format="line-docs", tokenizer=str.split)
        first = next(corpus.iter_documents())
        assert first.tokens == _lines(path)[0].lower().split()

    def test_user_tokenizer_in_marked_file(self) -> None:
        corpus = ds.load_corpus(USER / "books", tokenizer=lambda s: s.split())
        assert corpus.n_documents == 2
        text = [ln for f in sorted((USER / "books").glob("*.txt")) for ln in _lines(f)]
        assert corpus.n_tokens == sum(len(ln.split()) for ln in text if not ln.startswith("@@"))

    def test_tokenizer_not_callable(self) -> None:
        with pytest.raises(TypeError, match="tokenizer must be a callable.*got 'split'"):
            ds.load_corpus(USER / "books_docs.txt", tokenizer="split")

    def test_tokenizer_returning_a_string(self) -> None:
        corpus = ds.load_corpus(USER / "books_docs.txt", format="line-docs", tokenizer=str.upper)
        with pytest.raises(
            TypeError, match=r"books_docs.txt line 1: the tokenizer .*returned a str"
        ):
            list(corpus.iter_documents())

    def test_tokenizer_returning_non_str_items(self) -> None:
        corpus = ds.load_corpus(USER / "books_sentences.txt", tokenizer=lambda s: [len(s)])
        with pytest.raises(
            TypeError, match=r"books_sentences.txt line 1: .*list holding \d+ \(int\)"
        ):
            list(corpus.iter_documents())


class TestCorpusErrors:
    def test_unknown_format(self) -> None:
        with pytest.raises(
            ValueError,
            match="format must be one of 'marked', 'line-docs', "
            "'line-sentences', 'folder'; got 'lines'",
        ):
            ds.load_corpus(USER / "books_docs.txt", format="lines")

    def test_folder_format_for_a_file(self) -> None:
        with pytest.raises(ValueError, match=r"format='folder' needs a directory.*books_docs.txt"):
            ds.load_corpus(USER / "books_docs.txt", format="folder")

    def test_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(FileNotFoundError, match="nothere.txt"):
            ds.load_corpus(tmp_path / "nothere.txt", format="line-docs")

    def test_empty_file(self, tmp_path: Path) -> None:
        (tmp_path / "empty.txt").write_text("")
        with pytest.raises(DataFormatError, match="empty.txt"):
            ds.load_corpus(tmp_path / "empty.txt", format="line-sentences")

    def test_file_of_blank_lines(self, tmp_path: Path) -> None:
        (tmp_path / "blank.txt").write_text("\n \n\n")
        corpus = ds.load_corpus(tmp_path / "blank.txt", format="line-docs")
        with pytest.raises(DataFormatError, match="blank.txt: no word tokens in the file"):
            list(corpus.iter_documents())

    def test_folder_without_text(self, tmp_path: Path) -> None:
        (tmp_path / "notes.md").write_text("hello\n")
        with pytest.raises(IsADirectoryError, match=r"directory without corpus text files.*\.txt"):
            ds.load_corpus(tmp_path, format="line-docs")


def test_shards_of_a_line_corpus_read_it_as_the_corpus_does() -> None:
    from workbench.views import shard_corpus

    corpus = ds.load_corpus(USER / "books_sentences.txt", format="line-sentences")
    sharded = shard_corpus(corpus, n_shards=3)
    assert len(sharded) == 3
    got = [d.tokens for s in sharded.shards for d in s.iter_documents()]
    assert got == [d.tokens for d in corpus.iter_documents()]


# ============================================================================ rating files


class TestRatingFiles:
    def _expected(self) -> list[list[str]]:
        return [ln.split("\t") for ln in _lines(USER / "ratings_noheader.tsv")]

    def test_headered_csv(self) -> None:
        df = ds.load_wordsim(USER / "ratings.csv")
        rows = self._expected()
        assert len(df) == len(rows)
        assert df["word1"].tolist() == [r[0] for r in rows]
        assert np.allclose(df["score"], [float(r[2]) for r in rows])
        assert df.attrs["columns"] == ("word1", "word2", "score")

    def test_headerless_tsv(self) -> None:
        df = ds.load_wordsim(USER / "ratings_noheader.tsv")
        assert df["word2"].tolist() == [r[1] for r in self._expected()]

    def test_simlex_original_layout_by_names(self, caplog: pytest.LogCaptureFixture) -> None:
        path = USER / "simlex_original_layout.txt"
        with caplog.at_level("INFO", logger="workbench.datasets._ratings"):
            df = ds.load_wordsim(path, columns=("word1", "word2", "SimLex999"))
        assert np.allclose(df["score"], [float(r[2]) for r in self._expected()])
        assert "scores from column SimLex999" in caplog.text

    def test_simlex_original_layout_recognised_without_columns(self) -> None:
        df = ds.load_wordsim(USER / "simlex_original_layout.txt")
        assert df.attrs["columns"] == ("word1", "word2", "SimLex999")

    def test_columns_as_indices(self) -> None:
        df = ds.load_wordsim(USER / "simlex_original_layout.txt", columns=(0, 1, 3))
        assert np.allclose(df["score"], [float(r[2]) for r in self._expected()])

    def test_first_second_similarity_header(self) -> None:
        df = ds.load_wordsim(USER / "ratings_first_second.txt")
        assert len(df) == 10
        assert df.attrs["columns"] == ("first", "second", "similarity")

    def test_semicolons_and_unknown_header_fall_back_to_content(self, tmp_path: Path) -> None:
        path = tmp_path / "r.csv"
        path.write_text("id;a;b;value x\n1;car;auto;9.1\n2;cup;mug;7\n", encoding="utf-8")
        df = ds.load_wordsim(path)
        assert df["word1"].tolist() == ["car", "cup"]
        assert df["score"].tolist() == [9.1, 7.0]

    def test_four_column_csv_names_separator_and_columns(self, tmp_path: Path) -> None:
        path = tmp_path / "four.csv"
        path.write_text("word1,word2,score,pos\ncar,auto,9,N\ncup mug 7\n", encoding="utf-8")
        with pytest.raises(
            DataFormatError,
            match=r"four.csv line 3: expected 4 fields separated by ',' \(columns word1, word2, "
            r"score, pos\), found 1",
        ):
            ds.load_wordsim(path)

    def test_line_with_too_few_fields(self, tmp_path: Path) -> None:
        path = tmp_path / "r.csv"
        path.write_text("word1,word2,score\ncar,auto,9\ncup\n", encoding="utf-8")
        with pytest.raises(
            DataFormatError,
            match=r"r.csv line 3: expected 3 fields separated by ',' \(columns word1, word2, "
            r"score\), found 1",
        ):
            ds.load_wordsim(path)

    def test_columns_not_in_header(self) -> None:
        with pytest.raises(
            DataFormatError,
            match=r"simlex_original_layout.txt line 1: column\(s\) 'sim' not in the header "
            r"\(separator tab; columns found: word1, word2, POS, SimLex999",
        ):
            ds.load_wordsim(USER / "simlex_original_layout.txt", columns=("word1", "word2", "sim"))

    def test_columns_cannot_be_told(self, tmp_path: Path) -> None:
        path = tmp_path / "nums.tsv"
        path.write_text("x\ty\tz\n1\t2\t3\n", encoding="utf-8")
        with pytest.raises(
            DataFormatError, match=r"nums.tsv line 1: cannot tell which columns.*pass columns="
        ):
            ds.load_wordsim(path)

    def test_index_beyond_the_columns(self) -> None:
        with pytest.raises(
            DataFormatError, match=r"ratings.csv line 1: columns=\(0, 1, 5\).*3 col"
        ):
            ds.load_wordsim(USER / "ratings.csv", columns=(0, 1, 5))

    def test_bad_options(self) -> None:
        with pytest.raises(ValueError, match="sep must be None.*got '|'"):
            ds.load_wordsim(USER / "ratings.csv", sep="|")
        with pytest.raises(TypeError, match="columns must be three column names"):
            ds.load_wordsim(USER / "ratings.csv", columns=("word1", "word2"))
        with pytest.raises(ValueError, match="names need a header line"):
            ds.load_wordsim(USER / "ratings.csv", columns=("a", "b", "c"), header=False)
        with pytest.raises(ValueError, match="the bundled set 'MC' is read in its own layout"):
            ds.load_wordsim("MC", sep="\t")

    def test_repeated_pairs_still_averaged(self, tmp_path: Path) -> None:
        path = tmp_path / "rep.csv"
        path.write_text("w1,w2,sim\ncar,auto,8\nauto,car,6\n", encoding="utf-8")
        with pytest.warns(ds.DataFormatWarning, match="appear more than once"):
            df = ds.load_wordsim(path)
        assert df["score"].tolist() == [7.0]


# ============================================================================ aligned line files


class TestParallel:
    def test_pair_of_files(self) -> None:
        par = ds.load_parallel(USER / "bible.en", USER / "bible.es")
        n = len(_lines(USER / "bible.en"))
        assert par.translations == ("bible.en", "bible.es")
        assert par.languages == {"bible.en": "en", "bible.es": "es"}
        assert par.name == "bible" and par.level == "segment"
        assert len(par) == n == len(par.texts["bible.es"])
        assert par.ids[0] == ("d00001", 1, 1) and par.ids[20] == ("d00002", 2, 21)
        assert par.texts["bible.es"][0].startswith("EN el principio")
        tokens = par.tokens("bible.es")
        assert tokens[0][:3] == ["en", "el", "principio"]

    def test_documents_split_in_file_order(self) -> None:
        par = ds.load_parallel(USER / "bible.en", USER / "bible.es", document_size=10)
        parts = list(par.parts.values())
        assert len(parts) == 11  # 106 lines in documents of 10
        assert parts == ["train"] * 9 + ["dev"] + ["test"]
        assert set(par.books) == set(par.parts)

    def test_names_keep_the_language(self, tmp_path: Path) -> None:
        (tmp_path / "fake.en.tsv").write_text("one\ntwo\n")
        (tmp_path / "fake.es.tsv").write_text("uno\ndos\n")
        par = ds.load_parallel(tmp_path / "fake.en.tsv", tmp_path / "fake.es.tsv")
        assert par.translations == ("fake.en", "fake.es")
        assert par.languages["fake.es"] == "es"

    def test_empty_line_on_one_side_is_an_empty_segment(self, tmp_path: Path) -> None:
        (tmp_path / "a.en").write_text("one\n\nthree\n")
        (tmp_path / "a.es").write_text("uno\ndos\ntres\n")
        par = ds.load_parallel(tmp_path / "a.en", tmp_path / "a.es")
        assert par.texts["a.en"] == ["one", "", "three"]
        assert par.tokens("a.en")[1] == []

    def test_folder_of_pairs(self, tmp_path: Path) -> None:
        for stem, (en, es) in {"b": ("x\ny\n", "xx\nyy\n"), "a": ("z\n", "zz\n")}.items():
            (tmp_path / f"{stem}.en").write_text(en)
            (tmp_path / f"{stem}.es").write_text(es)
        par = ds.load_parallel(tmp_path, document_size=5)
        name = tmp_path.name
        assert par.texts[f"{name}.en"] == ["z", "x", "y"]
        assert [i[0] for i in par.ids] == ["d00001", "d00002", "d00002"]  # not across files

    def test_unequal_length_names_both_files_and_counts(self, tmp_path: Path) -> None:
        (tmp_path / "a.en").write_text("one\ntwo\nthree\n")
        (tmp_path / "a.es").write_text("uno\ndos\n")
        with pytest.raises(
            DataFormatError, match=r"a.en has 3 lines, a.es has 2 lines.*line i of one"
        ):
            ds.load_parallel(tmp_path / "a.en", tmp_path / "a.es")

    def test_missing_and_empty_files(self, tmp_path: Path) -> None:
        (tmp_path / "a.en").write_text("")
        (tmp_path / "a.es").write_text("uno\n")
        with pytest.raises(FileNotFoundError, match="nothere.es"):
            ds.load_parallel(tmp_path / "a.es", tmp_path / "nothere.es")
        with pytest.raises(DataFormatError, match="a.en"):
            ds.load_parallel(tmp_path / "a.en", tmp_path / "a.es")

    def test_same_name_twice(self, tmp_path: Path) -> None:
        (tmp_path / "x").mkdir()
        (tmp_path / "t.txt").write_text("one\n")
        (tmp_path / "x" / "t.txt").write_text("uno\n")
        with pytest.raises(ValueError, match="same name 't'.*bible.en and bible.es"):
            ds.load_parallel(tmp_path / "t.txt", tmp_path / "x" / "t.txt")

    def test_folder_without_pairs(self, tmp_path: Path) -> None:
        (tmp_path / "a.en").write_text("one\n")
        (tmp_path / "b.en").write_text("two\n")
        with pytest.raises(FileNotFoundError, match="exactly two languages; languages found: en"):
            ds.load_parallel(tmp_path)
        (tmp_path / "a.es").write_text("uno\n")
        with pytest.raises(FileNotFoundError, match=r"the files of b have no counterpart"):
            ds.load_parallel(tmp_path)

    def test_bad_options(self) -> None:
        with pytest.raises(ValueError, match="fractions must be three shares"):
            ds.load_parallel(USER / "bible.en", USER / "bible.es", fractions=(0.5, 0.5, 0.5))
        with pytest.raises(ValueError, match="normalize must be one of"):
            ds.load_parallel(USER / "bible.en", USER / "bible.es", normalize="nfc")
        with pytest.raises(TypeError, match="needs two aligned files"):
            ds.load_parallel(USER / "bible.en")


# ============================================================================ lexicons


class TestLexicons:
    def test_user_names_kept(self) -> None:
        graphs = ds.load_lexicons({"mine": USER / "synonyms.txt"})
        assert list(graphs) == ["mine"]
        assert len(graphs["mine"]) == 8
        assert graphs["mine"]["happy"] == {"glad", "cheerful", "joyful"}

    def test_errors(self, tmp_path: Path) -> None:
        with pytest.raises(TypeError, match="lexicons must be a mapping"):
            ds.load_lexicons([USER / "synonyms.txt"])  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="lexicons is empty"):
            ds.load_lexicons({})
        with pytest.raises(FileNotFoundError, match="nothere.txt") as info:
            ds.load_lexicons({"mine": tmp_path / "nothere.txt"})
        assert "lexicon 'mine'" in "".join(getattr(info.value, "__notes__", []))
