"""Notebook 08 through the runner on a user's corpus (tests/fixtures/user_data/books_docs.txt,
one paragraph a line, ~4,700 tokens): the model is trained on it, the records and the
Discussion name it."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"


@pytest.mark.notebooks
def test_notebook_08_on_a_user_corpus(run_notebook):
    rec = run_notebook("08_sense_pairs", CORPUS=str(FIXTURES / "books_docs.txt"),
                       CORPUS_FORMAT="line-docs", INTERACTIVE=False)  # fmt: skip
    assert rec["data"]["corpus"] == "books_docs.txt" and rec["data"]["corpus_format"] == "line-docs"
    assert rec["data"]["corpus_used"] == "books_docs.txt"
    # a 4,700-token corpus: far fewer multi-sense words than the bundled 200K tokens give
    assert 0 < rec["n_multisense_words"][0] < 100
    assert set(rec["top_words"]) and all(rec["top_words"].values())
