"""Notebook 00_tour through the runner on a user's corpus and rating file
(``tests/fixtures/user_data``): the corpus is read as one sentence a line, the user's rating
set joins the coverage table under its file name, and the records and the Discussion name the
data."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.datasets import WORDSIM_NAMES, load_corpus, load_wordsim

USER_DATA = Path(__file__).parent / "fixtures" / "user_data"
CORPUS = USER_DATA / "books_sentences.txt"
RATINGS = USER_DATA / "ratings.csv"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from workbench.runner import run_notebooks

    out = tmp_path_factory.mktemp("run_00_user")
    report = run_notebooks(
        ["00_tour"],
        parameters={
            "CORPUS": str(CORPUS),
            "CORPUS_FORMAT": "line-sentences",
            "WORDSIM": [str(RATINGS)],
            "INTERACTIVE": False,
        },  # fmt: skip
        size="small",
        out=out,
        force=True,
        progress=False,
    )
    (result,) = report.results
    if result.failure is not None:
        pytest.fail(f"notebook 00 failed at {result.failure.describe()}\n"
                    f"{result.failure.traceback[-3000:]}", pytrace=False)  # fmt: skip
    return result, out


@pytest.fixture(scope="module")
def records(run):
    return run[0].records


@pytest.mark.notebooks
def test_the_user_corpus_is_read_in_its_format(records):
    data = records["data"]
    assert data["corpus"] == "books_sentences.txt" == records["corpus"]
    assert data["corpus_format"] == "line-sentences" and data["language"] == "en"
    assert data["wordsim"] == [RATINGS.name]
    corpus = load_corpus(CORPUS, format="line-sentences")
    documents = list(corpus.iter_documents())
    # one document per non-blank line (sentence), every token of it (far below the cap)
    assert records["n_documents"] == len(documents)
    assert len(documents) == sum(1 for line in CORPUS.read_text().splitlines() if line.strip())
    assert records["n_tokens"] == sum(len(d.tokens) for d in documents)


@pytest.mark.notebooks
def test_the_user_rating_set_joins_the_coverage_table(records):
    coverage = records["coverage"]
    # the bundled sets and analogies stay (an English corpus), the user's set is added
    assert set(WORDSIM_NAMES) | {"ratings"} <= set(coverage)
    assert "analogy" in coverage
    ratings = load_wordsim(RATINGS)
    assert coverage["ratings"]["items"] == len(ratings) == 40
    # its full-vocabulary coverage is the share of pairs with both words in the corpus
    corpus = load_corpus(CORPUS, format="line-sentences")
    vocab = {t for d in corpus.iter_documents() for t in d.tokens}
    both = sum(w1.lower() in vocab and w2.lower() in vocab
               for w1, w2 in zip(ratings["word1"], ratings["word2"]))  # fmt: skip
    assert coverage["ratings"]["all"] == pytest.approx(both / len(ratings))
    assert 0 < both < len(ratings)


@pytest.mark.notebooks
def test_the_discussion_names_the_data(run):
    result, out = run
    from workbench.studies import tour

    text = tour.discussion_00(result.records).data
    assert "Your corpus `books_sentences.txt` (format line-sentences, language en)" in text
    assert "ratings.csv" in text and "documents" in text
    assert "public-domain books" not in text
