"""Notebook 03_mvlsa through the runner on a user's Spanish corpus and rating set
(``tests/fixtures/user_data``): the data parameters reach the study, no English side view is
added to a Spanish corpus, and ``WORDSIM_SPLIT="all"`` scores every pair of the user's set."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.datasets import load_corpus, load_wordsim

USER_DATA = Path(__file__).parent / "fixtures" / "user_data"
CORPUS = USER_DATA / "spanish_sentences.txt"
RATINGS = USER_DATA / "ratings_es.csv"


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    from workbench.runner import run_notebooks

    out = tmp_path_factory.mktemp("run_03_user")
    report = run_notebooks(
        ["03_mvlsa"],
        parameters={
            "CORPUS": str(CORPUS),
            "CORPUS_FORMAT": "line-docs",
            "LANGUAGE": "es",
            "WORDSIM": [str(RATINGS)],
            "WORDSIM_SPLIT": "all",
        },  # fmt: skip
        size="small",
        out=out,
        force=True,
        progress=False,
    )
    (result,) = report.results
    if result.failure is not None:
        pytest.fail(f"notebook 03 failed at {result.failure.describe()}\n"
                    f"{result.failure.traceback[-3000:]}", pytrace=False)  # fmt: skip
    return result.records


@pytest.mark.notebooks
def test_user_corpus_and_rating_set_reach_the_records(records):
    data = records["data"]
    assert data["corpus"] == "spanish_sentences.txt"
    assert data["corpus_format"] == "line-docs" and data["language"] == "es"
    assert data["wordsim"] == [RATINGS.name] and data["wordsim_split"] == "all"
    # the corpus read as one document a line, every token of it (far below the 200K cap)
    n_tokens = sum(len(d.tokens) for d in load_corpus(CORPUS, format="line-docs").iter_documents())
    assert records["n_tokens"] == n_tokens


@pytest.mark.notebooks
def test_no_english_side_view_for_a_spanish_corpus(records):
    assert records["data"]["side_views"] is False
    assert set(records["views_per_family"]) == {"positional"}
    assert "not used" in records["side_views_note"] and "'es'" in records["side_views_note"]


@pytest.mark.notebooks
def test_all_pairs_of_the_user_set_are_scored_and_not_tuned_on(records):
    ratings = load_wordsim(RATINGS)
    ((name, pairs),) = records["wordsim_pairs"].items()
    assert name == "ratings_es" and pairs["pairs"] == len(ratings) == 28
    # every pair with both words in the vocabulary is scored ("senda" occurs once: min_count 2)
    assert pairs["scored"] == 27
    assert set(records["test_scores"]["MVLSA (tuned)"]) == {"ratings_es", "mean"}
    # nothing to tune on (the user's set is scored whole, the bundled sets are English)
    assert records["tuning_order"] == [] and records["tuned"] == records["start"]
    assert records["mrds_dev_set"] == "ratings_es all" and records["mrds_dev_men"] is None
    assert 0 < records["mrds_dev"] < 1
