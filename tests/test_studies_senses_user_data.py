"""The sense studies (notebooks 08 and 09) on a user's data: the data fields of
``senses.settings``, the model trained on the user's corpus (never the bundled model's cache
entry), the ``data`` record and the Discussions naming the data, and the clear errors.

Corpora: tests/fixtures/user_data/books_docs.txt (114 paragraphs of Wodehouse, one a line,
~4,700 tokens) and spanish_sentences.txt (Psalms 1-12 in Spanish); see its README.md. A small
model trains in a few seconds; the rating set of 09 is written here from words of that model,
since the fixtures' SimLex pairs are not in a 4,700-token vocabulary.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.datasets import load_corpus
from workbench.studies import senses
from workbench.studies.data import DataChoice, check_data_parameters

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"
BOOKS = str(FIXTURES / "books_docs.txt")
SPANISH = str(FIXTURES / "spanish_sentences.txt")
#: pairs of words that the small model of BOOKS knows (scores invented)
RATINGS = """word1,word2,score
man,men,8
man,girl,5
good,right,7
big,little,2
old,young,1
thing,things,9
say,said,9
think,thought,8
see,saw,8
look,see,7
life,money,2
place,way,3
feeling,thought,5
dark,red-haired,4
"""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="module")
def ratings(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("ratings") / "my_ratings.csv"
    path.write_text(RATINGS, encoding="utf-8")
    return str(path)


def test_settings_default_is_the_bundled_data():
    s = senses.settings("small")
    assert (s.corpus, s.max_tokens, s.wordsim) == ("1M", 200_000, ("WS",))
    assert s.data == DataChoice() and s.wordnet and s.wordsim_label == "WS-353"
    assert (
        senses.settings("small", corpus="", corpus_format="marked", language="en", wordsim=[]) == s
    )
    assert senses.settings("full").corpus == "5M"


def test_settings_take_the_data_fields():
    s = senses.settings("small", corpus=BOOKS, corpus_format="line-docs", wordsim=["MEN"])
    assert s.corpus == BOOKS and s.data.corpus_format == "line-docs"
    assert s.config == senses.settings("small").config and s.max_tokens == 200_000
    assert s.wordsim == ("MEN",) and s.wordsim_label == "MEN"
    assert "books_docs.txt (line-docs, en)" in s.data_note()
    assert "rating sets" not in s.data_note(notebook=8)
    es = senses.settings("small", corpus=SPANISH, corpus_format="line-sentences", language="es")
    assert not es.wordnet and "WordNet check left out" in es.data_note()
    assert senses.settings("small", wordsim=[str(FIXTURES / "ratings.csv")]).wordsim_label == (
        "ratings.csv"
    )


@pytest.mark.parametrize(
    "overrides, match",
    [
        ({"lexicons": {"mine": str(FIXTURES / "synonyms.txt")}}, "do not use the data fields"),
        ({"pretrained": [BOOKS]}, "do not use the data fields"),
        ({"wordsim": ["WS", "MEN"]}, "one rating set besides SCWS"),
        ({"wordsim": ["SCWS"]}, "SCWS is scored by notebook 09 in any case"),
        ({"corpus_format": "klingon"}, "CORPUS_FORMAT"),
        ({"language": "es"}, "needs a CORPUS path"),
        ({"n_senses": 3}, "unknown settings"),
    ],
)
def test_settings_refuse_bad_data_fields(overrides, match):
    with pytest.raises((ValueError, TypeError), match=match):
        senses.settings("small", **overrides)


def test_runner_check_names_a_missing_corpus(tmp_path):
    with pytest.raises(FileNotFoundError, match="CORPUS"):
        check_data_parameters({"CORPUS": str(tmp_path / "nope.txt"), "CORPUS_FORMAT": "line-docs"})


def test_user_corpus_never_reads_the_bundled_models_cache(tmp_path):
    """The cache key holds the corpus' sha256: the user's corpus, and the same file edited, are
    each trained anew (and give other models)."""
    copy = tmp_path / "books.txt"
    shutil.copy(BOOKS, copy)
    s = senses.settings("small", corpus=str(copy), corpus_format="line-docs")
    assert load_corpus(str(copy), format="line-docs").sha256 != load_corpus("1M").sha256
    a = senses.train_preset(s, seed=0)
    again = senses.train_preset(s, seed=0)  # from the cache
    assert list(a.words) == list(again.words)
    copy.write_text(copy.read_text(encoding="utf-8").replace(" the ", " thee "), encoding="utf-8")
    b = senses.train_preset(s, seed=0)
    assert "thee" in b.index and "thee" not in a.index


def test_sense_pairs_on_a_user_corpus():
    s = senses.settings("small", corpus=BOOKS, corpus_format="line-docs")
    study = senses.sense_pair_study(s, [0], n_jobs=1)
    rec = study.records()
    assert (
        rec["data"]["corpus"] == "books_docs.txt" and rec["data"]["corpus_used"] == "books_docs.txt"
    )
    assert rec["n_multisense_words"][0] > 0
    text = senses.discussion_08(rec).data
    assert "trained on the corpus books_docs.txt (en, read as `line-docs`)" in text


def test_sense_pairs_on_a_spanish_corpus():
    s = senses.settings("small", corpus=SPANISH, corpus_format="line-sentences", language="es")
    rec = senses.sense_pair_study(s, [0], n_jobs=1).records()
    assert rec["data"]["language"] == "es" and rec["data"]["wordnet"] is False
    assert "spanish_sentences.txt (es" in senses.discussion_08(rec).data


def test_sparse_noise_on_a_user_corpus_and_rating_set(ratings):
    s = senses.settings("small", corpus=BOOKS, corpus_format="line-docs", wordsim=[ratings])
    study = senses.sparse_noise_study(s, [0], n_jobs=1)
    rec = study.records()
    assert rec["data"]["wordsim_label"] == "my_ratings.csv" and rec["data"]["wordnet"] is True
    assert rec["n_ws_scored"] > 3 and rec["wordnet"]
    row = rec["table4"]["V~ PCA"]
    assert {"my_ratings.csv avgSim", "my_ratings.csv gain", "p_holm (my_ratings.csv)"} <= set(row)
    assert not any("WS-353" in k for k in row)
    assert "p Holm (my_ratings.csv), per seed" in study.table4_table().columns
    text = senses.discussion_09(rec).data
    assert "trained on the corpus books_docs.txt" in text and "my_ratings.csv avgSim" in text
    assert "the WordNet check uses the bundled WordNet" in text


def test_sparse_noise_leaves_out_wordnet_for_another_language(ratings):
    # an English text declared German: the WordNet check is left out, SCWS still scores
    s = senses.settings("small", corpus=BOOKS, corpus_format="line-docs", language="de",
                        wordsim=[ratings])  # fmt: skip
    study = senses.sparse_noise_study(s, [0], n_jobs=1)
    rec = study.records()
    assert not study.has_wordnet and rec["wordnet"] == {} and rec["wordnet_n_words"] == []
    text = senses.discussion_09(rec).data
    assert "WordNet is English and the corpus is `de`" in text
    assert "correlates with the number of synsets" not in text


def test_sparse_noise_errors_name_what_to_fix(ratings):
    oov = senses.settings("small", corpus=BOOKS, corpus_format="line-docs",
                          wordsim=[str(FIXTURES / "ratings.csv")])  # fmt: skip
    with pytest.raises(ValueError, match=r"WORDSIM 'ratings.csv': none of its pairs"):
        senses.sparse_noise_study(oov, [0], n_jobs=1)
    es = senses.settings("small", corpus=SPANISH, corpus_format="line-sentences", language="es",
                         wordsim=[str(FIXTURES / "ratings_es.csv")])  # fmt: skip
    with pytest.raises(ValueError, match=r"SCWS \(bundled, English\).*spanish_sentences.txt"):
        senses.sparse_noise_study(es, [0], n_jobs=1)
