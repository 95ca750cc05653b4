"""Notebook 09 through the runner on a user's corpus and rating set: the model is trained on
tests/fixtures/user_data/books_docs.txt, the avgSim set is a file of pairs of its words
(written here), labelled by its file name; SCWS stays the bundled set."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"
RATINGS = (
    "word1,word2,score\nman,men,8\nman,girl,5\ngood,right,7\nbig,little,2\nold,young,1\n"
    "thing,things,9\nsay,said,9\nthink,thought,8\nsee,saw,8\nlook,see,7\nlife,money,2\n"
)


@pytest.mark.notebooks
def test_notebook_09_on_a_user_corpus_and_rating_set(run_notebook, tmp_path_factory):
    ratings = tmp_path_factory.mktemp("ratings_09") / "mine.csv"
    ratings.write_text(RATINGS, encoding="utf-8")
    rec = run_notebook("09_sparse_noise", CORPUS=str(FIXTURES / "books_docs.txt"),
                       CORPUS_FORMAT="line-docs", WORDSIM=[str(ratings)], INTERACTIVE=False)  # fmt: skip
    assert rec["data"]["corpus"] == "books_docs.txt" and rec["data"]["wordsim_label"] == "mine.csv"
    assert rec["n_ws_scored"] >= 5
    assert "mine.csv avgSim" in rec["table4"]["V (original)"]
    assert rec["wordnet"] and rec["data"]["wordnet"] is True
