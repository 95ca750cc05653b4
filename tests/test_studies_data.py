"""The data a study runs on: parameters validated before anything runs, side views by language,
user files for provenance."""

from __future__ import annotations

import pytest

from workbench.studies.data import (
    DataChoice,
    check_data_parameters,
    data_markdown,
    rating_set_labels,
)


def test_empty_parameters_are_the_bundled_data():
    d = DataChoice()
    assert d.bundled_corpus and d.side_views() and d.user_files() == []
    assert d.corpus_or("5M") == "5M" and d.wordsim_or(["MEN"]) == ("MEN",)
    assert d.describe()["corpus"] == "bundled"
    assert check_data_parameters({"SEED": 0}) is None


def test_user_files_are_checked_and_listed(tmp_path):
    corpus = tmp_path / "books.txt"
    corpus.write_text("one line\n")
    ratings = tmp_path / "my.csv"
    ratings.write_text("word1,word2,score\na,b,1\n")
    d = check_data_parameters({"CORPUS": str(corpus), "CORPUS_FORMAT": "line-docs",
                               "WORDSIM": ["MEN", str(ratings)], "LEXICONS": {}})  # fmt: skip
    assert d is not None and d.user_files() == [corpus, ratings]
    assert d.describe()["corpus"] == "books.txt"


@pytest.mark.parametrize("params, exc, match", [
    ({"CORPUS": "/nonexistent/books.txt"}, FileNotFoundError, "CORPUS=.*no such file"),
    ({"CORPUS_FORMAT": "xml"}, ValueError, "CORPUS_FORMAT must be one of"),
    ({"LANGUAGE": "klingon"}, ValueError, "LANGUAGE must be one of"),
    ({"WORDSIM_SPLIT": "thirds"}, ValueError, "WORDSIM_SPLIT must be one of"),
    ({"WORDSIM": [3]}, TypeError, "WORDSIM must be a list of names or paths"),
    ({"LEXICONS": ["a"]}, TypeError, "LEXICONS must map names to paths"),
    ({"PARALLEL": ["a", "b", "c"]}, ValueError, "PARALLEL must be two aligned files"),
    ({"CORPUS_FORMAT": "line-docs"}, ValueError, "needs a CORPUS path"),
    ({"LANGUAGE": "es"}, ValueError, "needs a CORPUS path"),
])  # fmt: skip
def test_bad_data_parameters_name_the_parameter(params, exc, match):
    with pytest.raises(exc, match=match):
        check_data_parameters(params)


def test_an_empty_file_is_refused(tmp_path):
    (tmp_path / "e.txt").write_text("")
    with pytest.raises(ValueError, match="CORPUS=.*empty"):
        check_data_parameters({"CORPUS": str(tmp_path / "e.txt")})


def test_side_views_only_for_english(tmp_path):
    (tmp_path / "es.txt").write_text("hola mundo\n")
    assert not DataChoice(corpus=str(tmp_path / "es.txt"), language="es").side_views()
    assert DataChoice(corpus=str(tmp_path / "es.txt"), language="en").side_views()


def test_data_markdown_is_one_readable_line(tmp_path):
    assert data_markdown(DataChoice()) == (
        "**Data:** the bundled Gutenberg corpus; rating sets: the bundled ones."
    )
    line = data_markdown(DataChoice(corpus=str(tmp_path / "es.txt"), language="es",
                                    wordsim=("MEN", str(tmp_path / "mine.csv"))))  # fmt: skip
    assert line.startswith("**Data:** `es.txt` (marked, language es); rating sets: MEN, mine.csv")
    assert "no side views" in line and "{'" not in line and str(tmp_path) not in line


def test_split_overrides_separates_data_fields_and_names_what_is_allowed():
    from workbench.studies.data import split_overrides

    data, own = split_overrides({"corpus": "x.txt", "dim": 5}, {"dim"})
    assert (data, own) == ({"corpus": "x.txt"}, {"dim": 5})
    with pytest.raises(TypeError, match=r"unknown settings \['dimm'\]; data fields: .*corpus"
                                        r".*; settings: dim"):  # fmt: skip
        split_overrides({"dimm": 5}, {"dim"})
    with pytest.raises(ValueError, match=r"notebook 99 do not use the data fields \['lexicons'\]; "
                                         r"they take corpus, wordsim"):  # fmt: skip
        split_overrides({"lexicons": {"a": "b"}}, {"dim"}, used=("corpus", "wordsim"),
                        study="notebook 99")  # fmt: skip
    assert split_overrides({"lexicons": {}}, set(), used=("corpus",), study="x")[0] == {"lexicons": {}}


def test_rating_set_labels_keep_names_and_tell_files_apart():
    """Bundled sets keep their names, files go by their stem, a clash names its source."""
    got = rating_set_labels(["RG", "a/MEN.txt", "MEN", "b/mine.tsv", "c/mine.csv", "d/.x"])
    assert got == {"RG": "RG", "MEN": "a/MEN.txt", "MEN (MEN)": "MEN", "mine": "b/mine.tsv",
                   "mine (c/mine.csv)": "c/mine.csv", "d/.x": "d/.x"}  # fmt: skip
    assert rating_set_labels([]) == {}
